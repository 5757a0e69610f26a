#include "harness.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "func/builtins.h"

namespace basalt::functest {

namespace {

// Argument registers as the VM may present them: text and blobs pointing at
// memory the value does not own (a page, a literal), in an exact-size heap
// block with no NUL after it, so any read past size() is caught by
// AddressSanitizer.
class ArgRegisters {
 public:
  explicit ArgRegisters(const std::vector<Value>& args) : regs_(args.size()) {
    for (size_t k = 0; k < args.size(); ++k) {
      const Value& a = args[k];
      if (a.is_string_like()) {
        size_t n = a.size();
        bytes_.emplace_back(new char[n ? n : 1]);
        if (n) std::memcpy(bytes_.back().get(), a.data(), n);
        if (a.is_text()) {
          regs_[k].SetTextStatic(std::string_view(bytes_.back().get(), n));
          regs_[k].set_subtype(a.subtype());  // JSON text stays JSON
        } else {
          regs_[k].SetBlobStatic(bytes_.back().get(), n);
        }
      } else {
        regs_[k] = a;
      }
      argv_.push_back(&regs_[k]);
    }
  }
  Value** argv() { return argv_.data(); }
  int argc() const { return static_cast<int>(argv_.size()); }

 private:
  std::vector<Value> regs_;
  std::vector<std::unique_ptr<char[]>> bytes_;
  std::vector<Value*> argv_;
};

}  // namespace

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
  ArgRegisters regs(args);
  FuncContext ctx;
  ctx.def = def;
  ctx.coll = coll;
  ctx.result = &r.value;
  def->scalar(&ctx, regs.argc(), regs.argv());
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
    ArgRegisters regs(row);
    Value dummy;
    ctx.result = &dummy;
    ctx.skip_flag = 0;
    def->step(&ctx, regs.argc(), regs.argv());
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
