// Registration of a built-in extension (see api/builtin_ext.h).
//
// An extension's source file declares one namespace-scope registrar:
//   const basalt::ext::Registrar kRegisterRtree{&RtreeInit};
// Its constructor runs when the library is loaded, before any connection
// opens, and adds the entry point to the list every new connection runs.
// The extensions are an OBJECT library linked straight into libbasalt.so
// (and into any test that links basalt_ext), so no registrar is dropped
// the way unreferenced archive members are.
#pragma once

#include "api/builtin_ext.h"

namespace basalt::ext {

class Registrar {
 public:
  explicit Registrar(api::BuiltinExtensionInit init) noexcept;
};

}  // namespace basalt::ext
