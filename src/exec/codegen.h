// Code generation: turns a resolved, planned statement into a Program.
#pragma once

#include <memory>
#include <vector>

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

// PRAGMA integrity_check's row checks that evaluate expressions, over every
// row of `tab`: CHECK constraints (when `check_constraints`) and the
// entries of `idxs`. Each result row is (value, kind, index): kind 0, a row
// (numbered from 1) failing a CHECK; kind 1, a row missing from
// idxs[index]; after the scan, kind 2, the number of rows that belong in
// idxs[index].
Result<std::unique_ptr<Program>> CompileRowCheck(const Table* tab,
                                                 const std::vector<const Index*>& idxs,
                                                 bool check_constraints, CompileContext* ctx);

// Compiles the body of trigger `trig` on table `tab` against the current
// schema without running it: the error a use of the trigger would give
// (ALTER TABLE's check that the schema still makes sense).
Status CheckTriggerCompiles(const Trigger* trig, const Table* tab, CompileContext* ctx);

}  // namespace basalt
