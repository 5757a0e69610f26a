#include "ext/registrar.h"

namespace basalt::ext {

Registrar::Registrar(api::BuiltinExtensionInit init) noexcept { api::AddBuiltinExtension(init); }

}  // namespace basalt::ext
