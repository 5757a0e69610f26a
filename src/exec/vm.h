// The virtual machine: runs a Program one result row at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/function.h"
#include "common/status.h"
#include "exec/change_hooks.h"
#include "exec/program.h"
#include "record/value.h"

namespace basalt {

class Btree;
class Vfs;
class VmCursor;
class WindowRun;

// Foreign key violations that outlive a statement (foreignkeys.html section
// 4.2): zero outside a transaction; COMMIT fails while either is nonzero.
struct FkCounters {
  int64_t deferred = 0;      // by DEFERRABLE INITIALLY DEFERRED keys
  int64_t deferred_imm = 0;  // by immediate keys while PRAGMA defer_foreign_keys is on
  int64_t total() const { return deferred + deferred_imm; }
};

// sqlite3_progress_handler: fn(arg) is called after about `period` VM
// instructions (counted at loop back-edges by the length of the loop);
// a nonzero return stops the statement with SQLITE_INTERRUPT. fn null: off.
struct ProgressHook {
  int (*fn)(void*) = nullptr;
  void* arg = nullptr;
  int64_t period = 1;
  int64_t count = 0;  // instructions since the last call
};

// What the VM needs from its connection.
struct VmEnv {
  std::vector<Btree*> dbs;    // database index → B-tree (0 main, 1 temp)
  std::vector<uint8_t> encs;  // database index → text encoding (default UTF-8)
  ConnectionHooks* hooks = nullptr;
  void* api_db = nullptr;
  int64_t last_insert_rowid = 0;  // updated by Insert with kInsLastRowid
  bool case_sensitive_like = false;
  const std::atomic<int>* interrupted = nullptr;  // set by sqlite3_interrupt (any thread)
  ProgressHook progress;
  FkCounters fk;
  const bool* defer_fks = nullptr;      // PRAGMA defer_foreign_keys (null: off)
  ChangeHooks* change_hooks = nullptr;  // null while no hook is set (change_hooks.h C1)
  ChangeHooks hook_state;               // what change_hooks points at when set
  // Sorters spill to temporary files of temp_vfs past a budget sized from
  // the main database's cache_size (SorterBudget), unless temp_store is 2
  // (MEMORY) or temp_vfs is null.
  Vfs* temp_vfs = nullptr;
  const int* cache_size = nullptr;  // main's PRAGMA cache_size
  const int* temp_store = nullptr;  // PRAGMA temp_store: 0 default, 1 file, 2 memory
  // Statement tracing (sqlite3_trace_v2 SQLITE_TRACE_STMT, sqlite3_trace):
  // Trace ops in trigger programs pass their comment here; null: off.
  void (*trace_fn)(void* arg, const char* text) = nullptr;
  void* trace_arg = nullptr;
};

// The bytes a sorter may hold in memory before it spills (0: no limit), as
// SQLite sizes its sorter: cache_size pages (or -cache_size KiB), at least
// 250 pages and at most 512 MiB.
size_t SorterBudget(const VmEnv& env);
// The pages an ephemeral B-tree keeps in memory before it spills to a
// temporary file of temp_vfs (0: never spills), as SQLite's temporary
// databases: main's cache_size (pages, or -cache_size KiB of 4096-byte
// pages), unless temp_store is 2 (MEMORY) or temp_vfs is null.
size_t EphemeralCachePages(const VmEnv& env);

enum class StepResult { kRow, kDone, kError };

// sqlite3_stmt_status counters a VM keeps (across runs, until the API
// resets them). vm_steps is an estimate: each loop back-edge counts the
// length of the loop, each halt the instructions before it.
struct VmStats {
  int64_t vm_steps = 0;
  int64_t sorts = 0;
  int64_t fullscan_steps = 0;  // Next/Prev steps of whole-table scans (p5 kP5FullScanStep)
};

class Vm {
 public:
  Vm(const Program* program, VmEnv* env);
  ~Vm();
  Vm(const Vm&) = delete;
  Vm& operator=(const Vm&) = delete;

  // Runs until the next result row, the end, or an error (see status()).
  StepResult Step();
  // Back to the start; keeps bound parameters.
  void Reset();

  // Parameters are 1-based.
  std::vector<Value>& params() { return params_; }
  const Value* row() const { return row_; }
  int row_size() const { return row_size_; }
  // Result row values may be converted in place by the C API.
  Value* mutable_row() { return const_cast<Value*>(row_); }

  const Status& status() const { return status_; }
  // Conflict action of the Halt that ended the program with an error
  // (OnConflict order: 0 default/abort, 1 rollback, 2 abort, 3 fail...).
  int halt_action() const { return halt_action_; }
  int64_t changes() const { return n_change_; }
  int64_t total_changes() const { return n_total_change_; }
  bool started() const { return pc_ > 0; }
  const Program* program() const { return prog_; }
  VmStats& stats() { return stats_; }

 private:
  StepResult Run();
  // At a loop back-edge (from pc `from` to `to`) and at each step: true when
  // the statement must stop (sqlite3_interrupt, or the progress handler).
  bool MustStop(int from, int to) {
    stats_.vm_steps += from > to ? from - to : 1;
    if (env_->interrupted && env_->interrupted->load(std::memory_order_relaxed)) return true;
    return env_->progress.fn != nullptr && ProgressSaysStop(from > to ? from - to : 1);
  }
  bool ProgressSaysStop(int ops);
  StepResult Fail(Status s);
  void CloseCursors();
  void FinishAggregates();
  bool Compare(const Instr& in, int* cmp_out);  // returns false if an operand was NULL

  // Opcode bodies kept out of the dispatch loop (vm_ops_inl.h). Those that
  // can fail return false after SetError.
  // MustBeInt: converts *v to the integer it exactly is; false if none.
  static bool MakeExactInteger(Value* v);
  bool CallFunction(const Instr& in);           // Function
  bool StepAccumulator(const Instr& in);        // AggStep
  bool FinalizeAccumulator(const Instr& in);    // AggFinal
  void ResetAccumulators(const Instr& in);      // AggReset
  bool OpenBtreeCursor(const Instr& in);        // OpenRead, OpenWrite, ReopenIdx
  bool LookUpKey(const Instr& in, bool* jump);  // Found, NotFound, NoConflict
  void MakeRecord(const Instr& in);
  bool TypeCheck(const Instr& in);  // TypeCheck (vm_typecheck.cc)
  bool NewRowid(const Instr& in);
  // Update / preupdate hooks of a write (vm_hooks.cc); `after`: the write is done.
  void FireHooks(const Instr& in, bool after);
  int RecordFields(int cursor);
  // Virtual tables (vm_vtab.cc).
  bool VtabOpen(const Instr& in);
  bool VtabFilter(const Instr& in, bool* empty);
  bool VtabNext(const Instr& in, bool* more);
  bool VtabColumn(const Instr& in);
  bool VtabRowid(const Instr& in);
  bool VtabUpdate(const Instr& in);
  bool VtabBegin(const Instr& in);
  // Foreign keys (vm_fkey.cc).
  void FkCount(const Instr& in);
  bool FkIsZero(const Instr& in) const;
  // Program (vm_program.cc); *ignored: the sub-program ended by RAISE(IGNORE).
  bool RunSubprogram(const Instr& in, bool* ignored);
  // Window stages (vm_window.cc): WinInit, and WinNext (*more: a row).
  bool WindowInit(const Instr& in);
  bool WindowNext(const Instr& in, bool* more);
  // At a successful Halt of a top-level program: immediate violations left.
  bool FkStatementFailed();
  bool SetError(Status s) {
    status_ = std::move(s);
    return false;
  }
  // Ends the run with the error SetError recorded.
  StepResult FailWithStatus();

  const Program* prog_;
  VmEnv* env_;
  std::vector<Value> regs_;
  std::vector<std::unique_ptr<VmCursor>> cursors_;
  // Closed B-tree cursors kept for the next execution (see VmCursor::Recycle).
  std::vector<std::unique_ptr<VmCursor>> spare_;
  std::vector<FuncContext> aggs_;
  std::vector<std::unique_ptr<WindowRun>> wins_;  // by WindowSpec::id
  std::vector<uint8_t> once_;
  std::vector<Value> params_;
  std::vector<Value*> vtab_args_;  // argv of VFilter / VUpdate
  Value scratch_[2];
  const Value* row_ = nullptr;
  int row_size_ = 0;
  int pc_ = 0;
  bool reset_clean_ = false;  // nothing has run since the last Reset
  int halt_action_ = 0;
  int64_t n_change_ = 0;
  int64_t n_total_change_ = 0;
  uint64_t write_gen_ = 0;  // bumped by every B-tree write (cursor caches check it)
  // The counter cursors compare: write_gen_ of the top-level VM, which its
  // sub-programs (foreign key actions) share, as they write the same trees.
  uint64_t* gen_ = &write_gen_;
  // Sub-programs: the VM that runs the statement's top-level program
  // (this one unless it is a sub-program), the nesting depth, and the VMs
  // this one ran sub-programs in (kept for the next call).
  Vm* root_ = this;
  int depth_ = 0;
  // SQLITE_LIMIT_LENGTH, read at each Step: a function result or a
  // concatenation longer than this is "string or blob too big".
  int64_t max_length_ = 1000000000;
  bool TooBig(const Value& v) const {
    return v.is_string_like() && static_cast<int64_t>(v.size()) > max_length_;
  }
  std::vector<std::pair<const Program*, std::unique_ptr<Vm>>> subvms_;
  int64_t fk_stmt_ = 0;  // immediate foreign key violations of the statement (root only)
  Status status_;
  bool done_ = false;
  VmStats stats_;
  AuxDataStore aux_;  // sqlite3_set_auxdata entries, until Reset
};

}  // namespace basalt
