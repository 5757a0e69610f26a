// sqlite3_set_authorizer at the statement level: the actions a statement
// performs as a whole (INSERT into t, CREATE TABLE x, PRAGMA p, BEGIN ...),
// asked when the statement is compiled, before the binder asks about its
// SELECTs and column reads (planner: CompileContext::auth).
#pragma once

#include "catalog/catalog.h"
#include "common/status.h"
#include "parser/ast.h"
#include "planner/context.h"

namespace basalt {

// SQLITE_AUTH "not authorized" (or "authorizer malfunction") when the
// authorizer refuses. SQLITE_IGNORE at this level lets the statement
// compile (SQLite would compile it to a no-op for some actions).
// *noop (when given) is set when an IGNORE answer makes the statement do
// nothing (it then succeeds without running). `vtabs`: the connection's
// virtual tables, for eponymous tables SQLite's own statements connect.
Status AuthorizeStatement(const AuthHook& auth, const Catalog& cat, const ast::Stmt* st,
                          bool* noop = nullptr, VtabHost* vtabs = nullptr);

// The UPDATE of a new schema row SQLite runs at the end of CREATE TABLE /
// VIEW (asked by CREATE TABLE ... AS SELECT after its query).
Status AuthorizeSchemaRowUpdate(const AuthHook& auth, const Catalog& cat, bool temp,
                                std::string_view db);

}  // namespace basalt
