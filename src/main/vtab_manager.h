// A connection's virtual tables: its module registry, the eponymous tables
// of its modules, connecting declared tables on first use, and the virtual
// tables taking part in the current transaction.
//
// Transaction protocol (vtab.html "xBegin" .. "xRollbackTo"):
//   1. A statement that writes a virtual table calls Join(vtab) first: the
//      table's Begin runs once per transaction (and Savepoint up to the
//      current savepoint level).
//   2. Before the databases commit, every joined table Syncs; after they
//      committed, every joined table Commits. A failed Sync rolls back.
//   3. On rollback every joined table Rolls back. Savepoint levels (ROLLBACK
//      TO, RELEASE, statement savepoints) are passed on to joined tables.
//   4. The joined list is emptied when the transaction ends.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/vtab.h"
#include "main/schema_store.h"
#include "parser/ast.h"
#include "planner/context.h"

namespace basalt {

class VtabManager : public VtabHost, public VtabTxnList {
 public:
  explicit VtabManager(SchemaStore* store) : store_(store) {}
  ~VtabManager() override;

  ModuleRegistry& modules() { return modules_; }
  // Registers (or with null, removes) a module; eponymous tables of a
  // replaced module are disconnected.
  void SetModule(std::string_view name, std::shared_ptr<VtabModule> module);

  // Built-in modules made on demand the first time their name is used
  // (the pragma_NAME tables): returns null for names it does not know.
  using BuiltinFactory = std::function<std::shared_ptr<VtabModule>(std::string_view name)>;
  void SetBuiltinFactory(BuiltinFactory f) { builtin_ = std::move(f); }
  // The connection's authorizer (sqlite3_set_authorizer): a module's
  // declaration is asked about as sqlite3_declare_vtab does (AskDeclare).
  void SetAuth(const AuthHook* auth) { auth_ = auth; }

  // VtabHost
  Table* Eponymous(std::string_view name, Status* st) override;
  Status Connect(Table* t) override;

  // sqlite3_declare_vtab compiles its CREATE TABLE with the authorizer on:
  // the UPDATE of a schema row (type, name, tbl_name, rootpage, sql) and a
  // READ of its ROWID, always about main's sqlite_master. Asked when a
  // module's table is declared (a module of the C API asks from its
  // sqlite3_declare_vtab, at that point of its xCreate / xConnect; for
  // others after the constructor returns). Returns the refusal (xCreate
  // then fails: "vtable constructor failed: NAME").
  Status AskDeclareNow();

  // CREATE VIRTUAL TABLE: xCreate, and the Table it declared (columns,
  // hidden columns), not yet added to any schema.
  Status Create(const ast::CreateVirtualTableStmt* st, const std::string& db_name,
                std::unique_ptr<Table>* out);
  // A virtual table row of sqlite_schema, not yet connected.
  static Status TableFromSchemaRow(const ast::CreateVirtualTableStmt* st, std::string sql,
                                   std::unique_ptr<Table>* out);
  // Sets t's columns from the CREATE TABLE text its module declared.
  static Status DeclareColumns(Table* t, const std::string& declared);

  // Transactions (protocol above).
  Status Join(Vtab* vt, int savepoint_level);
  // A table xCreate just made: part of the transaction (synced, committed
  // or rolled back with it) without a Begin call, as SQLite does; a later
  // Join finds it already joined.
  void Adopt(Vtab* vt);
  Status SyncAll();
  void CommitAll();
  void RollbackAll();
  Status Savepoint(int op, int level);  // op: 0 begin, 1 release, 2 rollback to
  bool any_joined() const { return !joined_.empty(); }
  // vt is going away (DROP TABLE): it leaves the transaction.
  void Forget(Vtab* vt) override;

 private:
  VtabArgs ArgsFor(const Table& t) const;
  // Runs a module's xCreate / xConnect; when it did not ask the questions
  // of sqlite3_declare_vtab itself (AskDeclareNow), asks them after it
  // returned OK. A refusal there is kDeclareRefused with its message.
  static constexpr int kDeclareRefused = -2;
  Status CallConstructor(const std::function<Status()>& ctor);

  SchemaStore* store_;
  ModuleRegistry modules_;
  std::map<std::string, std::unique_ptr<Table>> eponymous_;  // lower-case names
  std::vector<Vtab*> joined_;
  BuiltinFactory builtin_;
  const AuthHook* auth_ = nullptr;
  bool declare_asked_ = false;  // AskDeclareNow ran during the current constructor
};

}  // namespace basalt
