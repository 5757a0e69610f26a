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

}  // namespace basalt
