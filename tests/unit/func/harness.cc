#include "harness.h"

#include <gtest/gtest.h>

#include "func/builtins.h"

namespace basalt::functest {

FuncHarness::FuncHarness(bool case_sensitive_like) {
  RegisterBuiltinFunctions(&reg_, case_sensitive_like);
}

CallResult FuncHarness::Call(const std::string& name, const std::vector<Value>& args,
                             const Collation* coll) {
  CallResult r;
  const FunctionDef* def = reg_.Find(name, static_cast<int>(args.size()));
  if (def == nullptr || def->scalar == nullptr) {
    ADD_FAILURE() << "no scalar " << name << "/" << args.size();
    r.error = true;
    r.message = "not found";
    return r;
  }
  // Arguments are copied so each is a separate register, as in the VM.
  std::vector<Value> regs(args);
  std::vector<Value*> argv;
  for (auto& v : regs) argv.push_back(&v);
  FuncContext ctx;
  ctx.def = def;
  ctx.coll = coll;
  ctx.result = &r.value;
  def->scalar(&ctx, static_cast<int>(argv.size()), argv.data());
  if (ctx.is_error) {
    r.error = true;
    r.message = ctx.error_msg;
    r.value.SetNull();
  }
  return r;
}

CallResult FuncHarness::Aggregate(const std::string& name,
                                  const std::vector<std::vector<Value>>& rows,
                                  const Collation* coll, std::vector<int>* skip_flags) {
  CallResult r;
  int nargs = rows.empty() ? (name == "count" ? 0 : 1) : static_cast<int>(rows[0].size());
  const FunctionDef* def = reg_.Find(name, nargs);
  if (def == nullptr || def->step == nullptr) {
    ADD_FAILURE() << "no aggregate " << name << "/" << nargs;
    r.error = true;
    return r;
  }
  FuncContext ctx;
  ctx.def = def;
  ctx.coll = coll;
  for (const auto& row : rows) {
    std::vector<Value> regs(row);
    std::vector<Value*> argv;
    for (auto& v : regs) argv.push_back(&v);
    Value dummy;
    ctx.result = &dummy;
    ctx.skip_flag = 0;
    def->step(&ctx, static_cast<int>(argv.size()), argv.data());
    if (skip_flags) skip_flags->push_back(ctx.skip_flag);
    if (ctx.is_error) break;
  }
  if (ctx.is_error) {
    // The accumulator is still finalized (discarded) exactly once.
    std::string msg = ctx.error_msg;
    Value discard;
    ctx.result = &discard;
    def->final(&ctx);
    ctx.is_error = true;
    ctx.error_msg = msg;
  } else {
    ctx.result = &r.value;
    def->final(&ctx);
  }
  FreeAggregateContext(&ctx);
  if (ctx.is_error) {
    r.error = true;
    r.message = ctx.error_msg;
    r.value.SetNull();
  }
  return r;
}

}  // namespace basalt::functest
