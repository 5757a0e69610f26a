// CREATE TABLE's checks of generated column expressions (gencol.html 2.3).
#pragma once

#include "catalog/schema.h"
#include "common/status.h"
#include "parser/ast.h"
#include "planner/context.h"
#include "planner/resolve.h"

namespace basalt {

// Each GENERATED ALWAYS AS expression of `st` (whose table is `t`) must
// name only columns of t, unqualified, and use no subquery, parameter,
// aggregate, window or non-deterministic function. The first failure, with
// SQLite's message; ctx->error_offset is set where SQLite points at.
Status CheckGeneratedExprs(const ast::CreateTableStmt* st, const Table* t, CompileContext* ctx,
                           Resolver* resolver);

}  // namespace basalt
