// The authorizer questions of one statement (main/authorize.cc and, for
// the schema-changing statements, main/authorize_ddl.cc).
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"
#include "common/status.h"
#include "parser/ast.h"
#include "planner/context.h"

namespace basalt {

// One question to the authorizer; string_views are copied to C strings.
// After the first refusal every further question answers false unasked.
class Asker {
 public:
  // `cat`: the connection's databases (a refused READ names the column,
  // with its database when more than main and temp exist, as SQLite).
  Asker(const AuthHook& auth, const Catalog& cat) : auth_(auth), cat_(cat) {}
  bool Ask(int action, std::string_view a1, std::string_view a2, std::string_view db,
           bool a1_null = false, bool a2_null = false) {
    if (!error_.ok()) return false;
    std::string x(a1), y(a2), d(db);
    last_ = Authorize(auth_, action, a1_null ? nullptr : x.c_str(), a2_null ? nullptr : y.c_str(),
                      db.empty() ? nullptr : d.c_str(), &error_);
    // (A READ of no column -- a table read for its rows only -- is refused
    // with the plain message.)
    if (action == kAuthRead && error_.code() == kAuth && !y.empty()) {
      std::string what = x + "." + y;
      if (cat_.size() > 2 || db != "main") what = d + "." + what;
      error_ = Status(kAuth, "access to " + what + " is prohibited");
    }
    return error_.ok();
  }
  // Asks even after a refusal (SQLite's name resolution walks on after a
  // denied column read); the first refusal stays the error. True when this
  // answer allowed the action (or ignored it).
  bool AskAnyway(int action, std::string_view a1, std::string_view a2, std::string_view db,
                 bool a1_null = false, bool a2_null = false) {
    Status first = error_;
    error_ = Status();
    bool ok = Ask(action, a1, a2, db, a1_null, a2_null);
    if (!first.ok()) error_ = first;
    return ok;
  }
  // SQLITE_FUNCTION for `name` (arg2; arg1 and the database NULL), asked
  // even after a refusal; a denial is "not authorized to use function:
  // SHOWN" (SQLITE_ERROR), kept only when it is the first.
  AuthResult AskFunction(std::string_view name, std::string_view shown) {
    std::string n(name);
    Status st;
    AuthResult r = Authorize(auth_, kAuthFunction, nullptr, n.c_str(), nullptr, &st);
    if (r == AuthResult::kDenied && error_.ok()) {
      error_ = st.code() == kAuth
                   ? Status(kError, "not authorized to use function: " + std::string(shown))
                   : st;
    }
    return r;
  }
  // Records `st` as the error unless one is recorded; false.
  bool Fail(const Status& st) {
    if (error_.ok()) error_ = st;
    return false;
  }
  Status status() const { return error_; }
  // The answer to the last question Ask asked.
  AuthResult last() const { return last_; }
  // Set when an IGNORE makes the whole statement a no-op (SQLite's ALTER
  // TABLE: it compiles to nothing and succeeds).
  bool noop = false;
  // The connection's virtual tables (may be null): ALTER TABLE's checks
  // connect the eponymous pragma_quick_check as SQLite's query does.
  VtabHost* vtabs = nullptr;

 private:
  const AuthHook& auth_;
  const Catalog& cat_;
  Status error_;
  AuthResult last_ = AuthResult::kOk;
};

// The database a possibly qualified table name lives in ("" when unknown).
std::string AuthTableDb(const Catalog& cat, std::string_view schema, std::string_view name);

inline std::string_view AuthSchemaTable(bool temp) {
  return temp ? "sqlite_temp_master" : "sqlite_master";
}

// CREATE TABLE / VIEW / INDEX / TRIGGER / VIRTUAL TABLE and DROP: the
// questions SQLite asks, including those of the statements it runs on the
// schema table for them (sqlite_master rows inserted, updated, deleted).
void AuthorizeCreate(Asker* a, const Catalog& cat, const ast::Stmt* st);
void AuthorizeDrop(Asker* a, const Catalog& cat, const ast::DropStmt* d);
// ALTER TABLE (main/authorize_alter.cc).
void AuthorizeAlter(Asker* a, const Catalog& cat, const ast::AlterTableStmt* s);

}  // namespace basalt
