// Code generation: turns a resolved, planned statement into a Program.
#pragma once

#include <memory>

#include "common/status.h"
#include "exec/program.h"
#include "parser/ast.h"
#include "planner/context.h"

namespace basalt {

// Compiles SELECT / INSERT / UPDATE / DELETE (optionally under EXPLAIN).
Result<std::unique_ptr<Program>> CompileStatement(ast::Stmt* stmt, CompileContext* ctx);

// A program that fills index `idx` from its table (CREATE INDEX, REINDEX);
// it fails with a UNIQUE constraint error on duplicate keys.
Result<std::unique_ptr<Program>> CompileIndexBuild(const Index* idx, CompileContext* ctx);

}  // namespace basalt
