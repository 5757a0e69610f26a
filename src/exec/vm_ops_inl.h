// The bodies of the VM's larger opcodes, kept out of the dispatch loop's
// source: function calls and accumulators, opening B-tree cursors, key
// lookups, records and new rowids. Included only by vm.cc, so that the
// compiler may still inline them into Vm::Run.
// The helpers that can fail return false with the error in status_
// (SetError); Run then ends the program (FailWithStatus).
#pragma once

#include "exec/vm.h"
#include "exec/vm_cursor.h"
#include "record/affinity.h"
#include "record/value_ops.h"

namespace basalt {

namespace vm_ops_internal {

constexpr int kMaxArgs = 127;

// A real that is exactly an int64 (the range test keeps the cast defined).
inline bool ExactInteger(double d, int64_t* out) {
  if (d >= -9.2233720368547758e18 && d < 9.2233720368547758e18 &&
      static_cast<double>(static_cast<int64_t>(d)) == d) {
    *out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

inline Status ErrorOf(const FuncContext& ctx) {
  return Status(ctx.error_code ? ctx.error_code : kError, ctx.error_msg);
}

}  // namespace vm_ops_internal

inline bool Vm::MakeExactInteger(Value* v) {
  int64_t i;
  if (v->is_real()) {
    if (!vm_ops_internal::ExactInteger(v->real_value(), &i)) return false;
    v->SetInt(i);
    return true;
  }
  if (v->is_text()) {
    double d;
    int kind = ParseNumericText(v->data(), v->size(), &i, &d);
    if (kind == 2 && vm_ops_internal::ExactInteger(d, &i)) kind = 1;
    if (kind != 1) return false;
    v->SetInt(i);
    return true;
  }
  return v->is_int();
}

inline bool Vm::CallFunction(const Instr& in) {
  Value* r = regs_.data();
  Value* argv[vm_ops_internal::kMaxArgs];
  for (int i = 0; i < in.p2; ++i) argv[i] = &r[in.p1 + i];
  FuncContext ctx;
  ctx.def = in.p4_func()->def;
  ctx.coll = in.p4_func()->coll;
  ctx.pure_context = in.p4_func()->pure_context;
  ctx.conn = env_->hooks;
  ctx.api_db = env_->api_db;
  ctx.aux = &aux_;
  ctx.call_site = pc_;
  ctx.argc = in.p2;
  ctx.argv = argv;
  // The output register may be an argument: compute into scratch.
  Value out;
  ctx.result = &out;
  ctx.def->scalar(&ctx, in.p2, argv);
  if (ctx.is_error) return SetError(vm_ops_internal::ErrorOf(ctx));
  if (TooBig(out)) return SetError(Status(kTooBig, "string or blob too big"));
  r[in.p3] = std::move(out);
  return true;
}

inline bool Vm::StepAccumulator(const Instr& in) {
  Value* r = regs_.data();
  Value* argv[vm_ops_internal::kMaxArgs];
  for (int i = 0; i < in.p2; ++i) argv[i] = &r[in.p1 + i];
  FuncContext& ctx = aggs_[static_cast<size_t>(in.p3)];
  ctx.def = in.p4_func()->def;
  ctx.coll = in.p4_func()->coll;
  ctx.conn = env_->hooks;
  ctx.api_db = env_->api_db;
  Value dummy;
  ctx.result = &dummy;
  ctx.skip_flag = 0;
  ++ctx.agg_steps;
  ctx.def->step(&ctx, in.p2, argv);
  return !ctx.is_error || SetError(vm_ops_internal::ErrorOf(ctx));
}

inline bool Vm::FinalizeAccumulator(const Instr& in) {
  FuncContext& ctx = aggs_[static_cast<size_t>(in.p1)];
  ctx.def = in.p4_func()->def;
  ctx.coll = in.p4_func()->coll;
  ctx.conn = env_->hooks;
  ctx.api_db = env_->api_db;
  Value out;
  ctx.result = &out;
  ctx.def->final(&ctx);
  bool ok = !ctx.is_error || SetError(vm_ops_internal::ErrorOf(ctx));
  if (ok && TooBig(out)) ok = SetError(Status(kTooBig, "string or blob too big"));
  FreeAggregateContext(&ctx);
  ctx = FuncContext();
  if (ok) regs_[static_cast<size_t>(in.p2)] = std::move(out);
  return ok;
}

inline void Vm::ResetAccumulators(const Instr& in) {
  for (int i = 0; i < in.p2; ++i) {
    FuncContext& ctx = aggs_[static_cast<size_t>(in.p1 + i)];
    if (ctx.agg_mem != nullptr && ctx.def != nullptr && ctx.def->final != nullptr) {
      Value discard;
      ctx.result = &discard;
      ctx.def->final(&ctx);
    }
    FreeAggregateContext(&ctx);
    ctx = FuncContext();
  }
}

inline bool Vm::OpenBtreeCursor(const Instr& in) {
  auto& slot = cursors_[static_cast<size_t>(in.p1)];
  if (in.op == Opcode::kReopenIdx && slot && slot->root() == static_cast<uint32_t>(in.p2)) {
    return true;
  }
  size_t db = static_cast<size_t>(in.p3);
  BASALT_DCHECK(db < env_->dbs.size());
  Btree* bt = env_->dbs[db];
  std::unique_ptr<VmCursor> reuse;
  if (!spare_.empty()) {
    reuse = std::move(spare_.back());
    spare_.pop_back();
  }
  uint8_t enc = db < env_->encs.size() ? env_->encs[db] : uint8_t{kUtf8};
  auto c = VmCursor::OpenBtree(bt, static_cast<uint32_t>(in.p2), in.op == Opcode::kOpenWrite,
                               in.p4_cursor(), gen_, std::move(reuse), enc);
  if (!c.ok()) return SetError(std::move(c).status());
  slot = std::move(c).value();
  return true;
}

inline bool Vm::LookUpKey(const Instr& in, bool* jump) {
  Value* r = regs_.data();
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  int n = in.p4_int();
  if (in.op == Opcode::kNoConflict) {
    bool has_null = false;
    for (int i = 0; i < n; ++i) has_null |= r[in.p3 + i].is_null();
    if (has_null) {
      *jump = true;
      return true;
    }
  }
  bool found = false;
  Status st = n == 0 ? c->FoundRecord(r[in.p3], &found) : c->Found(&r[in.p3], n, &found);
  if (!st.ok()) return SetError(std::move(st));
  *jump = (in.op == Opcode::kFound) ? found : !found;
  return true;
}

inline void Vm::MakeRecord(const Instr& in) {
  Value* r = regs_.data();
  const char* real_mask = nullptr;
  if (const char* aff = in.p4_str_or_null()) {
    if (in.p5 & kRecRealMask) {
      real_mask = aff;
    } else {
      for (int i = 0; i < in.p2 && aff[i]; ++i) {
        if (aff[i] != 'A') ApplyAffinity(&r[in.p1 + i], static_cast<Affinity>(aff[i]));
      }
    }
  }
  if (in.p3 >= in.p1 && in.p3 < in.p1 + in.p2) {
    std::string buf;  // the record replaces one of its own fields
    EncodeRecord(&r[in.p1], in.p2, &buf, real_mask);
    r[in.p3].SetBlob(buf.data(), buf.size());
    return;
  }
  EncodeRecordInto(&r[in.p1], in.p2, &r[in.p3], real_mask);
}

inline bool Vm::NewRowid(const Instr& in) {
  Value* r = regs_.data();
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  int64_t rowid;
  Status st = c->NewRowid(&rowid);
  if (!st.ok()) return SetError(std::move(st));
  if (in.p3) {
    // AUTOINCREMENT: never reuse a rowid at or below the recorded maximum.
    Value& mx = r[in.p3];
    int64_t m = mx.is_int() ? mx.int_value() : 0;
    if (m == INT64_MAX) return SetError(Status(kFull, "database or disk is full"));
    if (rowid <= m) rowid = m + 1;
    mx.SetInt(rowid);
  }
  r[in.p2].SetInt(rowid);
  return true;
}

}  // namespace basalt
