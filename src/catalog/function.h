// SQL functions as the planner and the VM see them: a registry of
// FunctionDefs (built-ins from src/func, user functions from the C API) and
// the FuncContext a call receives. sqlite3_context and sqlite3_value in the
// C API are these FuncContext and Value objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "record/collation.h"
#include "record/value.h"

namespace basalt {

struct FuncContext;
class Vtab;
using ScalarFn = void (*)(FuncContext* ctx, int argc, Value** argv);
using FinalFn = void (*)(FuncContext* ctx);

enum FuncFlags : uint32_t {
  kFuncDeterministic = 1 << 0,   // same inputs → same output (constant-foldable)
  kFuncAggregate = 1 << 1,       // step/final (and maybe value/inverse: window)
  kFuncNeedsCollation = 1 << 2,  // uses ctx->coll (min, max, instr-like functions)
  kFuncDirectOnly = 1 << 3,
  kFuncInnocuous = 1 << 4,
  kFuncWindowOnly = 1 << 5,  // row_number, rank, ...: only with OVER
  kFuncCountStar = 1 << 6,   // count(*) fast path allowed
  kFuncMinMax = 1 << 7,      // min/max aggregate (index optimisation candidate)
  kFuncSubtype = 1 << 8,     // reads its arguments' subtypes (SQLITE_SUBTYPE)
};

// Connection services some functions need (changes(), last_insert_rowid(),
// ...); implemented by the connection (src/main).
class ConnectionHooks {
 public:
  virtual ~ConnectionHooks() = default;
  virtual int64_t LastInsertRowid() = 0;
  virtual int64_t Changes() = 0;
  virtual int64_t TotalChanges() = 0;
  // sqlite3_limit: the connection's run-time limit `id` (SQLITE_LIMIT_*);
  // -1 when it has none (the caller uses the compile-time maximum).
  virtual int Limit(int id) {
    (void)id;
    return -1;
  }
  // A statement is about to write virtual table vt: it joins the
  // transaction (xBegin) if it has not yet.
  virtual Status VtabBegin(Vtab* vt) {
    (void)vt;
    return Status();
  }
};

struct FunctionDef {
  std::string name;  // lower case
  int nargs = -1;    // -1: any number
  uint32_t flags = 0;
  ScalarFn scalar = nullptr;   // scalar functions
  ScalarFn step = nullptr;     // aggregates: called per row
  FinalFn final = nullptr;     // aggregates: result; also frees the state
  FinalFn value = nullptr;     // window aggregates: current value, state kept
  ScalarFn inverse = nullptr;  // window aggregates: remove a row
  void* user_data = nullptr;
  void (*destroy)(void*) = nullptr;  // frees user_data when the def is dropped
  // C API functions keep their sqlite3-typed callbacks here; the API layer
  // installs trampolines as scalar/step/final that call these.
  void* api_func = nullptr;
  void* api_step = nullptr;
  void* api_final = nullptr;
  void* api_value = nullptr;
  void* api_inverse = nullptr;
  int text_rep = 1;  // SQLITE_UTF8 etc. as registered

  ~FunctionDef() {
    if (destroy) destroy(user_data);
  }
};

// sqlite3_get_auxdata / sqlite3_set_auxdata: metadata a function attaches
// to one of its arguments at one call site (instruction), kept by the VM
// running the statement until the statement is reset.
// Invariant A1: an entry is returned only while the argument has the value
// it had when the entry was set (SQLite keeps metadata only for constant
// arguments; a value that changed drops the entry, running its destructor).
class AuxDataStore {
 public:
  AuxDataStore() = default;
  ~AuxDataStore() { Clear(); }
  AuxDataStore(const AuxDataStore&) = delete;
  AuxDataStore& operator=(const AuxDataStore&) = delete;

  void* Get(int site, int arg, const Value& current);
  // Replaces the entry (running the old destructor); p may be null.
  void Set(int site, int arg, const Value& current, void* p, void (*del)(void*));
  // Runs every destructor and forgets all entries.
  void Clear();
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    int site;
    int arg;
    Value value;
    void* p;
    void (*del)(void*);
  };
  std::vector<Entry> entries_;
};

// State of one function call or one aggregate accumulator.
struct FuncContext {
  const FunctionDef* def = nullptr;
  ConnectionHooks* conn = nullptr;
  void* api_db = nullptr;           // the sqlite3* handle (C API)
  const Collation* coll = nullptr;  // collating sequence for this call
  Value* result = nullptr;          // where the function writes its result
  // Aggregate accumulator: zeroed bytes allocated on first AggregateContext()
  // call and kept until final; the VM frees them after calling final.
  void* agg_mem = nullptr;
  size_t agg_size = 0;
  // Error raised by the function (SQLITE_ERROR unless set otherwise).
  bool is_error = false;
  int error_code = 0;
  std::string error_msg;
  // sqlite3_get_auxdata / set_auxdata (scalar calls from a VM; null
  // elsewhere): the store, this call's site, and its arguments.
  AuxDataStore* aux = nullptr;
  int call_site = 0;
  int argc = 0;
  Value** argv = nullptr;
  int skip_flag = 0;      // set by an aggregate step to ignore the row (internal)
  int64_t agg_steps = 0;  // step calls of this accumulator (sqlite3_aggregate_count)
  // xColumn of a virtual table during an UPDATE that leaves this column
  // unchanged (sqlite3_vtab_nochange).
  bool vtab_nochange = false;
  // Set when the call computes a generated column ("a generated column"):
  // the date and time functions then refuse 'now', 'localtime' and 'utc'
  // ("non-deterministic use of NAME() in a generated column").
  const char* pure_context = nullptr;
};

// Zeroed memory of n bytes tied to the current aggregate accumulator; the same
// pointer on every call for that accumulator. n == 0 returns the existing
// block or null.
void* AggregateContext(FuncContext* ctx, size_t n);
void FreeAggregateContext(FuncContext* ctx);
void SetFuncError(FuncContext* ctx, std::string_view msg, int code = 1 /*SQLITE_ERROR*/);

// Function lookup by (name, number of arguments), case-insensitive. A def
// with nargs == -1 matches any count; an exact count wins over -1.
class FunctionRegistry {
 public:
  // Adds or replaces the def with the same name and nargs.
  void Add(std::unique_ptr<FunctionDef> def);
  // Removes (name, nargs) if present; returns whether something was removed.
  bool Remove(std::string_view name, int nargs);
  // The best def for (name, nargs): an exact argument count before a
  // variadic def, this registry's own defs before the fallback's.
  const FunctionDef* Find(std::string_view name, int nargs) const;
  // True if some def has this name (for "wrong number of arguments" errors).
  bool HasName(std::string_view name) const;
  // Defs not found here are looked up in `base` (the process-wide builtins,
  // shared by every connection; it must outlive this registry). Add and
  // Remove only change this registry: its defs shadow the base's.
  void SetFallback(const FunctionRegistry* base) { base_ = base; }
  // Calls fn for every def Find can return: this registry's own, then the
  // fallback's that no own def of the same name and nargs shadows.
  void ForEach(const std::function<void(const FunctionDef&)>& fn) const;

 private:
  // Own defs only: the exact match (exact) and the variadic one (*any).
  const FunctionDef* FindOwn(std::string_view lower, int nargs, const FunctionDef** any) const;

  std::unordered_map<std::string, std::vector<std::unique_ptr<FunctionDef>>> by_name_;
  const FunctionRegistry* base_ = nullptr;
};

}  // namespace basalt
