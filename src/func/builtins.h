// The built-in SQL functions (lang_corefunc, lang_aggfunc, lang_datefunc,
// lang_mathfunc of SQLite 3.40.1), registered into a connection's registry.
//
// Calling convention for every function registered here (the VM's side):
//  - scalar(ctx, argc, argv): argv[0..argc) are read-only and only valid for
//    the call; ctx->result must not alias any argv element (compute into a
//    scratch register); the result is written to *ctx->result, errors are
//    reported with SetFuncError (message as SQLite words it).
//  - aggregates: step per row, then final exactly once per accumulator (also
//    when step never ran: ctx->agg_mem == nullptr). final frees whatever the
//    state owns; the VM then frees agg_mem itself. min()/max() set
//    ctx->skip_flag = 1 when the row did not become the new extreme (the VM
//    resets skip_flag to 0 before each step; SQLite uses it for bare columns).
//  - value/inverse are provided where SQLite 3.40 has them (window frames:
//    count, sum, total, avg, group_concat; min/max have value only). For
//    "ROWS n PRECEDING" frames SQLite removes the departing row (inverse)
//    before adding the new one (step); group_concat's output depends on that
//    order, so the window code should keep it.
//
// Flags follow SQLite's function list. Two cautions for the planner:
//  - date/time functions are kFuncDeterministic as in SQLite, yet 'now' (and
//    no argument at all) reads the clock: they may be computed once per
//    statement execution, never folded at prepare time. SQLite also rejects
//    'now', 'localtime' and 'utc' inside CHECK constraints, index
//    expressions and generated columns ("non-deterministic use of ..."),
//    which these bodies cannot see; that check belongs to the resolver.
//  - likelihood(X,P) requires P to be a literal between 0.0 and 1.0 ("second
//    argument to likelihood() must be a constant between 0.0 and 1.0"),
//    also a resolver check.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "catalog/function.h"

namespace basalt {

// Adds every built-in function to *reg. `case_sensitive_like` selects the
// LIKE flavour (PRAGMA case_sensitive_like). Function names and argument
// counts are exactly SQLite's: a call with a count SQLite rejects is not found
// (so the caller reports "wrong number of arguments to function X()").
// Variadic functions with a minimum count (coalesce, scalar min/max: >= 2)
// are registered once per accepted count up to kMaxFunctionArgs.
void RegisterBuiltinFunctions(FunctionRegistry* reg, bool case_sensitive_like);

// The same set, built once per process (thread-safe) and never modified:
// registering ~560 defs costs tens of microseconds, several times a whole
// sqlite3_open, so a connection is better served by consulting this shared
// registry after its own (user-defined functions first, as SQLite searches
// the connection's functions before the built-ins).
const FunctionRegistry& SharedBuiltinFunctions(bool case_sensitive_like);

// Re-registers like() (2 and 3 arguments) for PRAGMA case_sensitive_like.
// As in SQLite, the replacement is no longer deterministic or innocuous
// (so it cannot appear in index expressions after the pragma).
void RegisterLikeFunctions(FunctionRegistry* reg, bool case_sensitive_like);

// sqlite3_strglob / sqlite3_strlike: 0 when str matches the GLOB pattern
// (case sensitive) / the LIKE pattern (ASCII case folded, `escape` 0 for
// none), nonzero otherwise.
int StrGlob(const char* pattern, const char* str);
int StrLike(const char* pattern, const char* str, unsigned escape);

// The compile-time options Basalt reports (PRAGMA compile_options, and the
// sqlite_compileoption_get/used functions), without the "SQLITE_" prefix.
std::span<const char* const> CompileOptionList();
// sqlite3_compileoption_used(): `name` with or without "SQLITE_", compared
// case-insensitively up to an '=' value.
bool CompileOptionUsed(std::string_view name);

// SQLITE_MAX_FUNCTION_ARG: the parser rejects calls with more arguments
// ("too many arguments on function X").
inline constexpr int kMaxFunctionArgs = 127;

// 'now' in date/time functions is one instant per sqlite3_step (lang_datefunc:
// "always returns exactly the same value for multiple invocations within the
// same sqlite3_step() call"). The VM brackets each step with a StepClock; the
// first 'now' inside reads the system clock and later ones reuse it. Without
// a StepClock every call reads the clock. Nesting (a statement run from
// inside a function) gets its own instant. Thread-local.
class StepClock {
 public:
  StepClock();
  ~StepClock();
  StepClock(const StepClock&) = delete;
  StepClock& operator=(const StepClock&) = delete;

 private:
  StepClock* prev_;
  int64_t ms_ = 0;  // Unix time in milliseconds, 0 until first read
  friend int64_t CurrentUnixTimeMs();
};

// The current time (Unix milliseconds) as 'now' sees it.
int64_t CurrentUnixTimeMs();

}  // namespace basalt
