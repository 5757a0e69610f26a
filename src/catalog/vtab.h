// Virtual tables (vtab.html): a module turns a table name into code that
// produces rows. Built-in modules (pragma_*, dbstat, ...) implement these
// interfaces in C++; modules registered through the C API
// (sqlite3_create_module) are wrapped by an adapter in src/api.
//
// Lifetimes:
//   * A VtabModule is registered in a connection's ModuleRegistry under a
//     name; it creates Vtab objects (xCreate / xConnect).
//   * A Vtab belongs to one Table of one connection's schema (Table::vtab)
//     and lives until the table is dropped, the schema is read again or the
//     connection closes (xDisconnect, or xDestroy for DROP TABLE).
//   * A VtabCursor belongs to one running statement (xOpen ... xClose).
//
// Planning protocol (BestIndex): the planner describes the constraints of
// the WHERE clause that involve the table's columns and the wanted ORDER BY;
// the table answers which constraints it uses (argv positions in Filter),
// which the VM need not check again (omit), its cost, and idx_num/idx_str
// that are handed back to Filter unchanged.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "record/collation.h"
#include "record/value.h"

namespace basalt {

struct FuncContext;
struct Table;

// Constraint operators, numbered as the C API's SQLITE_INDEX_CONSTRAINT_*.
enum VtabOp : uint8_t {
  kVtabEq = 2,
  kVtabGt = 4,
  kVtabLe = 8,
  kVtabLt = 16,
  kVtabGe = 32,
  kVtabMatch = 64,
  kVtabLike = 65,
  kVtabGlob = 66,
  kVtabRegexp = 67,
  kVtabNe = 68,
  kVtabIsNot = 69,
  kVtabIsNotNull = 70,
  kVtabIsNull = 71,
  kVtabIs = 72,
  kVtabLimit = 73,
  kVtabOffset = 74,
  kVtabFunction = 150,
};

// What BestIndex is asked and what it answers (sqlite3_index_info).
struct IndexInfo {
  struct Constraint {
    int column = 0;  // -1 for the rowid
    uint8_t op = kVtabEq;
    bool usable = false;
    // Planner side: the RHS when it is a constant (sqlite3_vtab_rhs_value),
    // the comparison's collation, and whether it is an IN that the table
    // may take as one list (sqlite3_vtab_in).
    const Value* rhs = nullptr;
    const Collation* coll = nullptr;
    bool is_in = false;
    // Answers.
    int argv_index = 0;   // 1-based position among Filter's arguments; 0: unused
    bool omit = false;    // the VM need not check the constraint again
    bool in_all = false;  // sqlite3_vtab_in(.., 1): the whole IN list as one argument
  };
  struct OrderTerm {
    int column = 0;
    bool desc = false;
  };
  std::vector<Constraint> constraints;
  std::vector<OrderTerm> order_by;
  uint64_t col_used = 0;  // bit i: column i is read (bit 63: column 63 and later)
  int distinct = 0;       // sqlite3_vtab_distinct: 0 plain, 1 GROUP BY, 2 DISTINCT, 3 both
  // Answers.
  int idx_num = 0;
  std::string idx_str;
  bool order_by_consumed = false;
  double estimated_cost = 5e98;
  int64_t estimated_rows = 25;
  int idx_flags = 0;  // 1: SQLITE_INDEX_SCAN_UNIQUE (at most one row)
};

// One scan of a virtual table.
class VtabCursor {
 public:
  virtual ~VtabCursor() = default;
  // Starts a scan: idx_num / idx_str as BestIndex chose them, and the
  // values of the constraints it asked for, in argv_index order.
  virtual Status Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) = 0;
  virtual Status Next() = 0;
  virtual bool Eof() = 0;
  // Writes column i of the current row into ctx->result.
  virtual Status Column(FuncContext* ctx, int i) = 0;
  virtual Status Rowid(int64_t* rowid) = 0;
};

class Vtab;
struct FunctionDef;

// The list of virtual tables in the current transaction (main's
// VtabManager). A table destroyed while on it (a schema reload inside the
// transaction disconnects it) leaves it first.
class VtabTxnList {
 public:
  virtual void Forget(Vtab* vt) = 0;

 protected:
  ~VtabTxnList() = default;
};

// One virtual table (sqlite3_vtab).
class Vtab {
 public:
  virtual ~Vtab() {  // xDisconnect (in the subclass)
    if (joined_ != nullptr) joined_->Forget(this);
  }
  // Set by the transaction list while this table is on it.
  void set_joined(VtabTxnList* list) { joined_ = list; }
  virtual Status BestIndex(IndexInfo* info) = 0;
  virtual Status Open(std::unique_ptr<VtabCursor>* out) = 0;
  // DROP TABLE: remove the table's storage; the object is destroyed next.
  virtual Status Destroy() { return Status(); }
  // INSERT / UPDATE / DELETE (xUpdate): argv[0] old rowid (NULL to
  // insert), argv[1] new rowid (NULL: choose), argv[2..] the columns; a
  // DELETE passes argc 1. *rowid receives the rowid of an inserted row.
  // on_conflict: the statement's conflict mode as sqlite3_vtab_on_conflict
  // reports it (SQLITE_ROLLBACK 1, IGNORE 2, FAIL 3, ABORT 4, REPLACE 5).
  virtual Status Update(int argc, Value** argv, int64_t* rowid, int on_conflict) {
    (void)argc;
    (void)argv;
    (void)rowid;
    (void)on_conflict;
    return Status(kError, "table is read-only");
  }
  virtual bool writable() const { return false; }
  // Transactions: Begin before the first write of a transaction, then
  // Sync and Commit, or Rollback. Savepoint levels as the connection's.
  virtual bool transactional() const { return false; }
  virtual Status Begin() { return Status(); }
  virtual Status Sync() { return Status(); }
  virtual Status Commit() { return Status(); }
  virtual Status Rollback() { return Status(); }
  virtual Status Savepoint(int level) {
    (void)level;
    return Status();
  }
  virtual Status Release(int level) {
    (void)level;
    return Status();
  }
  virtual Status RollbackTo(int level) {
    (void)level;
    return Status();
  }
  // xFindFunction: the function that replaces `base` (a scalar function
  // called with `nargs` arguments, the first of them -- for LIKE, GLOB,
  // REGEXP and MATCH the left operand -- a column of this table), or null
  // to keep `base`. The returned definition lives as long as the table.
  virtual const FunctionDef* FindFunction(int nargs, const FunctionDef& base) {
    (void)nargs;
    (void)base;
    return nullptr;
  }
  // ALTER TABLE ... RENAME TO (xRename); false: the module has no xRename.
  virtual bool can_rename() const { return false; }
  virtual Status Rename(std::string_view new_name) {
    (void)new_name;
    return Status();
  }

  // sqlite3_vtab_config settings.
  bool constraint_support = false;  // SQLITE_VTAB_CONSTRAINT_SUPPORT
  int risk = 0;                     // 1 innocuous, 2 direct only

 private:
  VtabTxnList* joined_ = nullptr;
};

// What xCreate / xConnect receive: the module name, the database and table
// names, then the module arguments as written.
struct VtabArgs {
  std::string module;
  std::string db;
  std::string table;
  std::vector<std::string> args;
};

class VtabModule {
 public:
  virtual ~VtabModule() = default;
  // xCreate (CREATE VIRTUAL TABLE) and xConnect (any later use). On
  // success *declared is the CREATE TABLE text the table declared
  // (sqlite3_declare_vtab).
  virtual Status Create(const VtabArgs& args, std::unique_ptr<Vtab>* out,
                        std::string* declared) = 0;
  virtual Status Connect(const VtabArgs& args, std::unique_ptr<Vtab>* out,
                         std::string* declared) = 0;
  // A table of the module's own name exists without CREATE VIRTUAL TABLE
  // (xCreate absent or the same as xConnect).
  virtual bool eponymous() const { return false; }
  // Only the eponymous table: CREATE VIRTUAL TABLE is refused (no xCreate).
  virtual bool eponymous_only() const { return false; }
  // xShadowName: `suffix` names one of the module's shadow tables.
  virtual bool ShadowName(std::string_view suffix) const {
    (void)suffix;
    return false;
  }
};

// What the compiler needs from the connection about virtual tables
// (implemented in src/main, which can build tables from declared SQL).
class VtabHost {
 public:
  virtual ~VtabHost() = default;
  // The eponymous table of the module called `name`, connected; null with
  // *st OK when there is no such module or it has no eponymous table.
  virtual Table* Eponymous(std::string_view name, Status* st) = 0;
  // xConnect for a table of CREATE VIRTUAL TABLE at its first use in this
  // connection (t->vtab set on success).
  virtual Status Connect(Table* t) = 0;
};

// The modules of one connection, by name (case-insensitive).
class ModuleRegistry {
 public:
  // Adds or replaces; a null module removes the name.
  void Set(std::string_view name, std::shared_ptr<VtabModule> module);
  VtabModule* Find(std::string_view name) const;
  // Names of the modules as registered, in the order PRAGMA module_list
  // shows them: SQLite's hash-table order (hash_order.h) for the same
  // registrations, its built-in modules first in its own start-up order.
  std::vector<std::string> Names() const;
  // Removes every module whose name is not in `keep`.
  void RemoveAllBut(const std::vector<std::string>& keep);
  // Bumped whenever a module is added or removed (statements recompile).
  uint64_t generation() const { return generation_; }

 private:
  std::map<std::string, std::shared_ptr<VtabModule>> modules_;  // lower-case names
  std::vector<std::string> added_;  // names as registered, first registration first
  uint64_t generation_ = 0;
};

}  // namespace basalt
