// The compiler's optional rewrite rules, each a named pass that can be
// switched off. A pass only changes how a statement runs, never its result:
// running the same SQL with a pass off must give the same rows, which makes
// each pass a test oracle for the others (ctest sql_passes_off).
//
// Passes are switched off per connection (CompileOptions::disabled_passes),
// for tests through the environment: BASALT_DISABLE_PASSES=flatten,or_to_in
// (or "all") when a connection opens.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"

// X(Name, "name", "what it does")
#define BASALT_PASSES(X)                                                                        \
  X(Flatten, "flatten", "a FROM subquery or view that is a plain join merges into the query")   \
  X(OrToIn, "or_to_in", "col = a OR col = b ... becomes col IN (a, b, ...) for index lookups")  \
  X(ConstFold, "const_fold", "constant operator trees are evaluated while compiling")           \
  X(SubqueryOnce, "subquery_once", "an uncorrelated subquery or IN list is built once per run") \
  X(Coroutine, "coroutine", "the outermost FROM subquery yields rows instead of materializing") \
  X(IndexLookup, "index_lookup", "WHERE terms are served by index and rowid lookups")           \
  X(CoveringIndex, "covering_index", "an index holding every needed column replaces the table") \
  X(OrderByIndex, "order_by_index", "ORDER BY / GROUP BY follow index order instead of a sort") \
  X(HoistConst, "hoist_const", "constant operands are loaded once per run, not once per row")

namespace basalt {

enum class Pass : uint8_t {
#define BASALT_PASS_ENUM(name, text, doc) k##name,
  BASALT_PASSES(BASALT_PASS_ENUM)
#undef BASALT_PASS_ENUM
      kCount
};

struct PassInfo {
  const char* name;
  const char* doc;
};
const PassInfo& InfoOf(Pass p);

inline constexpr uint32_t PassBit(Pass p) { return uint32_t{1} << static_cast<int>(p); }

// Parses a comma-separated list of pass names ("all" for every pass) into a
// mask of PassBits. Unknown names are an error.
Status ParsePassList(std::string_view list, uint32_t* mask);

}  // namespace basalt
