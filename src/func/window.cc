// The built-in window functions (windowfunctions.html section 3):
// row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead,
// first_value, last_value, nth_value.
//
// They are registered for name lookup, argument counts and PRAGMA
// function_list only: kFuncWindowOnly marks them, the binder requires OVER,
// and the VM computes them itself from the sorted partition
// (exec/vm_window.cc), so they have no step/final entry points.
#include "func/func_internal.h"

namespace basalt::func {
namespace {

constexpr BuiltinSpec Window(const char* name, int nargs) {
  return BuiltinSpec{name,    nargs,   0,      kFuncWindowOnly | kImpure, nullptr, nullptr,
                     nullptr, nullptr, nullptr};
}

constexpr BuiltinSpec kTable[] = {
    Window("row_number", 0),   Window("rank", 0),       Window("dense_rank", 0),
    Window("percent_rank", 0), Window("cume_dist", 0),  Window("ntile", 1),
    Window("lag", 1),          Window("lag", 2),        Window("lag", 3),
    Window("lead", 1),         Window("lead", 2),       Window("lead", 3),
    Window("first_value", 1),  Window("last_value", 1), Window("nth_value", 2),
};

}  // namespace

std::span<const BuiltinSpec> WindowFunctions() { return kTable; }

}  // namespace basalt::func
