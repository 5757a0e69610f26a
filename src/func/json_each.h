// The json_each and json_tree table-valued functions (json_each.cc): the
// virtual table modules a connection registers under those names.
#pragma once

#include <memory>

#include "catalog/vtab.h"

namespace basalt {

// json_tree when `tree`, else json_each.
std::shared_ptr<VtabModule> MakeJsonEachModule(bool tree);

}  // namespace basalt
