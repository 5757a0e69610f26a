#include "exec/vm.h"

#include <cstring>

#include "exec/vm_cursor.h"
#include "record/affinity.h"
#include "record/value_ops.h"

namespace basalt {

namespace {
constexpr int kMaxArgs = 127;

// Applies comparison affinity `aff` to *v (a private copy).
void ApplyCmpAffinity(Value* v, char aff) {
  if (aff >= 'C') {
    if (v->is_text()) ApplyAffinity(v, Affinity::kNumeric);
  } else if (aff == 'B') {
    if (v->is_numeric()) Stringify(v);
  }
}
}  // namespace

Vm::Vm(const Program* program, VmEnv* env) : prog_(program), env_(env) {
  regs_.resize(static_cast<size_t>(program->n_regs) + 1);
  cursors_.resize(static_cast<size_t>(program->n_cursors));
  aggs_.resize(static_cast<size_t>(program->n_aggs));
  once_.assign(program->ops.size(), 0);
  params_.resize(static_cast<size_t>(program->n_params) + 1);
}

Vm::~Vm() {
  FinishAggregates();
  CloseCursors();
}

// Runs in the destructor too, so nothing may escape: out of memory, a
// cursor that cannot be kept as a spare is just freed.
void Vm::CloseCursors() {
  for (auto& c : cursors_) {
    if (!c) continue;
    std::unique_ptr<VmCursor> kept = VmCursor::Recycle(std::move(c));
    if (!kept) continue;
    try {
      spare_.push_back(std::move(kept));
    } catch (...) {
    }
  }
}

void Vm::FinishAggregates() {
  // Accumulators that were stepped but never finalised still own state that
  // only their final function knows how to free. (Runs in the destructor:
  // a final that runs out of memory computing the discarded result must
  // not escape.)
  Value discard;
  for (FuncContext& a : aggs_) {
    if (a.agg_mem != nullptr && a.def != nullptr && a.def->final != nullptr) {
      a.result = &discard;
      try {
        a.def->final(&a);
      } catch (...) {
      }
    }
    FreeAggregateContext(&a);
    a = FuncContext();
  }
}

void Vm::Reset() {
  FinishAggregates();
  CloseCursors();
  std::fill(once_.begin(), once_.end(), 0);
  for (Value& r : regs_) r.SetNull();
  pc_ = 0;
  row_ = nullptr;
  row_size_ = 0;
  halt_action_ = 0;
  n_change_ = 0;
  n_total_change_ = 0;
  status_ = Status();
  done_ = false;
}

StepResult Vm::Step() {
  if (done_) return status_.ok() ? StepResult::kDone : StepResult::kError;
  // Every step looks at the interrupt flag first, as SQLite's does.
  if (env_->interrupted && env_->interrupted->load(std::memory_order_relaxed)) {
    return Fail(Status(kInterrupt));
  }
  return Run();
}

StepResult Vm::Fail(Status s) {
  status_ = std::move(s);
  done_ = true;
  FinishAggregates();
  CloseCursors();
  return StepResult::kError;
}

bool Vm::Compare(const Instr& in, int* cmp_out) {
  const Value* a = &regs_[in.p1];
  const Value* b = &regs_[in.p3];
  if (a->is_null() || b->is_null()) return false;
  char aff = static_cast<char>(in.p5 & kCmpAffinityMask);
  if (aff >= 'B') {
    bool need_a = (aff >= 'C') ? a->is_text() : a->is_numeric();
    bool need_b = (aff >= 'C') ? b->is_text() : b->is_numeric();
    if (need_a) {
      scratch_[0].ShallowCopyFrom(*a);
      ApplyCmpAffinity(&scratch_[0], aff);
      a = &scratch_[0];
    }
    if (need_b) {
      scratch_[1].ShallowCopyFrom(*b);
      ApplyCmpAffinity(&scratch_[1], aff);
      b = &scratch_[1];
    }
  }
  if (a->is_int() && b->is_int()) {
    int64_t x = a->int_value(), y = b->int_value();
    *cmp_out = x < y ? -1 : (x > y ? 1 : 0);
  } else {
    *cmp_out = CompareValues(*a, *b, in.p4type == P4Type::kCollation ? in.p4.coll : nullptr);
  }
  return true;
}

#define VM_TRY(expr)                            \
  do {                                          \
    Status _vs = (expr);                        \
    if (!_vs.ok()) return Fail(std::move(_vs)); \
  } while (0)

StepResult Vm::Run() {
  const Instr* ops = prog_->ops.data();
  Value* r = regs_.data();
  for (;;) {
    const Instr& in = ops[pc_];
    switch (in.op) {
      case Opcode::kInit:
        pc_ = in.p2 ? in.p2 : pc_ + 1;
        continue;
      case Opcode::kGoto:
        pc_ = in.p2;
        if (env_->interrupted && env_->interrupted->load(std::memory_order_relaxed)) {
          return Fail(Status(kInterrupt));
        }
        continue;
      case Opcode::kGosub:
        r[in.p1].SetInt(pc_ + 1);
        pc_ = in.p2;
        continue;
      case Opcode::kReturn:
        pc_ = static_cast<int>(r[in.p1].int_value());
        continue;
      case Opcode::kInitCoroutine:
        r[in.p1].SetInt(in.p3 - 1);  // Yield resumes after the saved address
        pc_ = in.p2 ? in.p2 : pc_ + 1;
        continue;
      case Opcode::kYield: {
        int target = static_cast<int>(r[in.p1].int_value());
        r[in.p1].SetInt(pc_);
        pc_ = target + 1;
        continue;
      }
      case Opcode::kEndCoroutine: {
        int caller = static_cast<int>(r[in.p1].int_value());
        pc_ = ops[caller].p2;
        continue;
      }
      case Opcode::kHalt: {
        done_ = true;
        if (in.p1 != kOk) {
          halt_action_ = in.p2;
          std::string msg = in.p4type == P4Type::kString ? in.p4.str : ResultCodeText(in.p1);
          status_ = Status(in.p1, msg);
          FinishAggregates();
          CloseCursors();
          return StepResult::kError;
        }
        FinishAggregates();
        CloseCursors();
        return StepResult::kDone;
      }
      case Opcode::kHaltIfNull:
        if (r[in.p3].is_null()) {
          halt_action_ = in.p2;
          return Fail(Status(in.p1, in.p4type == P4Type::kString ? in.p4.str : ""));
        }
        break;
      case Opcode::kIf:
      case Opcode::kIfNot: {
        int t = ValueTruth(r[in.p1]);
        bool jump = t < 0 ? in.p3 != 0 : ((t != 0) == (in.op == Opcode::kIf));
        if (jump) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kIsNull:
        if (r[in.p1].is_null()) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kNotNull:
        if (!r[in.p1].is_null()) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kIfPos:
        if (r[in.p1].is_int() && r[in.p1].int_value() > 0) {
          r[in.p1].SetInt(r[in.p1].int_value() - in.p3);
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kIfNotZero: {
        int64_t v = r[in.p1].int_value();
        if (v != 0) {
          if (v > 0) r[in.p1].SetInt(v - 1);
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kDecrJumpZero: {
        int64_t v = r[in.p1].int_value() - 1;
        r[in.p1].SetInt(v);
        if (v == 0) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kOnce:
        if (once_[static_cast<size_t>(pc_)]) {
          pc_ = in.p2;
          continue;
        }
        once_[static_cast<size_t>(pc_)] = 1;
        break;
      case Opcode::kMustBeInt: {
        Value& v = r[in.p1];
        if (!v.is_int()) {
          bool ok = false;
          if (v.is_real()) {
            double d = v.real_value();
            if (d >= -9.2233720368547758e18 && d < 9.2233720368547758e18 &&
                static_cast<double>(static_cast<int64_t>(d)) == d) {
              v.SetInt(static_cast<int64_t>(d));
              ok = true;
            }
          } else if (v.is_text()) {
            int64_t iv;
            double dv;
            int kind = ParseNumericText(v.data(), v.size(), &iv, &dv);
            if (kind == 1) {
              v.SetInt(iv);
              ok = true;
            } else if (kind == 2 && dv >= -9.2233720368547758e18 && dv < 9.2233720368547758e18 &&
                       static_cast<double>(static_cast<int64_t>(dv)) == dv) {
              v.SetInt(static_cast<int64_t>(dv));
              ok = true;
            }
          }
          if (!ok) {
            if (in.p2 == 0) return Fail(Status(kMismatch, "datatype mismatch"));
            pc_ = in.p2;
            continue;
          }
        }
        break;
      }
      case Opcode::kNoop:
      case Opcode::kExplain:
      case Opcode::kAbortable:
      case Opcode::kFkCheck:
        break;

      // ---- constants and moves ----
      case Opcode::kInteger:
        r[in.p2].SetInt(in.p1);
        break;
      case Opcode::kInt64:
        r[in.p2].SetInt(in.p4.i64);
        break;
      case Opcode::kReal:
        r[in.p2].SetReal(in.p4.real);
        break;
      case Opcode::kString:
        r[in.p2].SetTextStatic(std::string_view(in.p4.str, static_cast<size_t>(in.p1)));
        break;
      case Opcode::kBlob:
        r[in.p2].SetBlobStatic(in.p4.str, static_cast<size_t>(in.p1));
        break;
      case Opcode::kNull: {
        int last = in.p3 ? in.p3 : in.p2;
        for (int i = in.p2; i <= last; ++i) r[i].SetNull();
        break;
      }
      case Opcode::kVariable: {
        const Value& p = params_[static_cast<size_t>(in.p1)];
        r[in.p2].ShallowCopyFrom(p);
        break;
      }
      case Opcode::kCopy:
        for (int i = 0; i <= in.p3; ++i) r[in.p2 + i].CopyFrom(r[in.p1 + i]);
        break;
      case Opcode::kSCopy:
        r[in.p2].ShallowCopyFrom(r[in.p1]);
        break;
      case Opcode::kMove:
        for (int i = 0; i < in.p3; ++i) {
          r[in.p2 + i] = std::move(r[in.p1 + i]);
          r[in.p1 + i].SetNull();
        }
        break;
      case Opcode::kAddImm:
        r[in.p1].SetInt(ValueToInt64(r[in.p1]) + in.p2);
        break;
      case Opcode::kIntCopy:
        r[in.p2].SetInt(r[in.p1].int_value());
        break;

      // ---- operators ----
      case Opcode::kAdd: {
        const Value& a = r[in.p1];
        const Value& b = r[in.p2];
        int64_t s;
        if (a.is_int() && b.is_int() && !__builtin_add_overflow(a.int_value(), b.int_value(), &s)) {
          r[in.p3].SetInt(s);
        } else {
          Add(a, b, &r[in.p3]);
        }
        break;
      }
      case Opcode::kSubtract: {
        const Value& a = r[in.p1];
        const Value& b = r[in.p2];
        int64_t s;
        if (a.is_int() && b.is_int() && !__builtin_sub_overflow(a.int_value(), b.int_value(), &s)) {
          r[in.p3].SetInt(s);
        } else {
          Subtract(a, b, &r[in.p3]);
        }
        break;
      }
      case Opcode::kMultiply: {
        const Value& a = r[in.p1];
        const Value& b = r[in.p2];
        int64_t s;
        if (a.is_int() && b.is_int() && !__builtin_mul_overflow(a.int_value(), b.int_value(), &s)) {
          r[in.p3].SetInt(s);
        } else {
          Multiply(a, b, &r[in.p3]);
        }
        break;
      }
      case Opcode::kDivide:
        Divide(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kRemainder:
        Remainder(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kConcat:
        Concat(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kBitAnd:
        BitAnd(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kBitOr:
        BitOr(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kShiftLeft:
        ShiftLeft(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kShiftRight:
        ShiftRight(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kBitNot:
        BitNot(r[in.p1], &r[in.p2]);
        break;
      case Opcode::kNegative:
        Negate(r[in.p1], &r[in.p2]);
        break;
      case Opcode::kNot: {
        int t = ValueTruth(r[in.p1]);
        if (t < 0) {
          r[in.p2].SetNull();
        } else {
          r[in.p2].SetInt(!t);
        }
        break;
      }
      case Opcode::kAnd:
      case Opcode::kOr: {
        int a = ValueTruth(r[in.p1]);
        int b = ValueTruth(r[in.p2]);
        int res;  // -1 NULL
        if (in.op == Opcode::kAnd) {
          res = (a == 0 || b == 0) ? 0 : (a < 0 || b < 0) ? -1 : 1;
        } else {
          res = (a == 1 || b == 1) ? 1 : (a < 0 || b < 0) ? -1 : 0;
        }
        if (res < 0) {
          r[in.p3].SetNull();
        } else {
          r[in.p3].SetInt(res);
        }
        break;
      }
      case Opcode::kIsTrue: {
        int t = ValueTruth(r[in.p1]);
        int res = t < 0 ? in.p3 : t;
        if (in.p4type == P4Type::kInt && in.p4.i64) res = !res;
        r[in.p2].SetInt(res);
        break;
      }
      case Opcode::kCast:
        CastValue(&r[in.p1], static_cast<Affinity>(in.p2));
        break;
      case Opcode::kAffinity: {
        const char* aff = in.p4.str;
        for (int i = 0; i < in.p2; ++i) {
          if (aff[i] != 'A') ApplyAffinity(&r[in.p1 + i], static_cast<Affinity>(aff[i]));
        }
        break;
      }
      case Opcode::kRealAffinity:
        if (r[in.p1].is_int()) r[in.p1].SetReal(static_cast<double>(r[in.p1].int_value()));
        break;
      case Opcode::kEq:
      case Opcode::kNe:
      case Opcode::kLt:
      case Opcode::kLe:
      case Opcode::kGt:
      case Opcode::kGe: {
        int cmp = 0;
        int res;  // 1 true, 0 false, -1 NULL
        if (!Compare(in, &cmp)) {
          if (in.p5 & kCmpNullEq) {
            bool both = r[in.p1].is_null() && r[in.p3].is_null();
            res = (in.op == Opcode::kEq) ? both : !both;
          } else {
            res = -1;
          }
        } else {
          switch (in.op) {
            case Opcode::kEq:
              res = cmp == 0;
              break;
            case Opcode::kNe:
              res = cmp != 0;
              break;
            case Opcode::kLt:
              res = cmp < 0;
              break;
            case Opcode::kLe:
              res = cmp <= 0;
              break;
            case Opcode::kGt:
              res = cmp > 0;
              break;
            default:
              res = cmp >= 0;
              break;
          }
        }
        if (in.p5 & kCmpStoreResult) {
          if (res < 0) {
            r[in.p2].SetNull();
          } else {
            r[in.p2].SetInt(res);
          }
          break;
        }
        if (res == 1 || (res < 0 && (in.p5 & kCmpJumpIfNull))) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kFunction: {
        Value* argv[kMaxArgs];
        for (int i = 0; i < in.p2; ++i) argv[i] = &r[in.p1 + i];
        FuncContext ctx;
        ctx.def = in.p4.func->def;
        ctx.coll = in.p4.func->coll;
        ctx.conn = env_->hooks;
        ctx.api_db = env_->api_db;
        // The output register may be an argument: compute into scratch.
        Value out;
        ctx.result = &out;
        ctx.def->scalar(&ctx, in.p2, argv);
        if (ctx.is_error) {
          return Fail(Status(ctx.error_code ? ctx.error_code : kError, ctx.error_msg));
        }
        r[in.p3] = std::move(out);
        break;
      }
      case Opcode::kAggStep: {
        Value* argv[kMaxArgs];
        for (int i = 0; i < in.p2; ++i) argv[i] = &r[in.p1 + i];
        FuncContext& ctx = aggs_[static_cast<size_t>(in.p3)];
        ctx.def = in.p4.func->def;
        ctx.coll = in.p4.func->coll;
        ctx.conn = env_->hooks;
        ctx.api_db = env_->api_db;
        Value dummy;
        ctx.result = &dummy;
        ctx.skip_flag = 0;
        ctx.def->step(&ctx, in.p2, argv);
        if (ctx.is_error) {
          return Fail(Status(ctx.error_code ? ctx.error_code : kError, ctx.error_msg));
        }
        break;
      }
      case Opcode::kAggFinal: {
        FuncContext& ctx = aggs_[static_cast<size_t>(in.p1)];
        ctx.def = in.p4.func->def;
        ctx.coll = in.p4.func->coll;
        ctx.conn = env_->hooks;
        ctx.api_db = env_->api_db;
        Value out;
        ctx.result = &out;
        ctx.def->final(&ctx);
        bool err = ctx.is_error;
        Status st =
            err ? Status(ctx.error_code ? ctx.error_code : kError, ctx.error_msg) : Status();
        FreeAggregateContext(&ctx);
        ctx = FuncContext();
        if (err) return Fail(std::move(st));
        r[in.p2] = std::move(out);
        break;
      }
      case Opcode::kAggReset:
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
        break;
      case Opcode::kIfAggHit:
        if (aggs_[static_cast<size_t>(in.p1)].skip_flag == 0) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kLike:
        // Reserved: LIKE/GLOB are compiled as function calls.
        break;

      // ---- cursors ----
      case Opcode::kOpenRead:
      case Opcode::kOpenWrite:
      case Opcode::kReopenIdx: {
        auto& slot = cursors_[static_cast<size_t>(in.p1)];
        if (in.op == Opcode::kReopenIdx && slot && slot->root() == static_cast<uint32_t>(in.p2)) {
          break;
        }
        Btree* bt = env_->dbs[static_cast<size_t>(in.p3)];
        std::unique_ptr<VmCursor> reuse;
        if (!spare_.empty()) {
          reuse = std::move(spare_.back());
          spare_.pop_back();
        }
        size_t db = static_cast<size_t>(in.p3);
        uint8_t enc = db < env_->encs.size() ? env_->encs[db] : uint8_t{kUtf8};
        auto c = VmCursor::OpenBtree(bt, static_cast<uint32_t>(in.p2), in.op == Opcode::kOpenWrite,
                                     in.p4.cursor, &write_gen_, std::move(reuse), enc);
        if (!c.ok()) return Fail(std::move(c).status());
        slot = std::move(c).value();
        break;
      }
      case Opcode::kOpenEphemeral: {
        auto& slot = cursors_[static_cast<size_t>(in.p1)];
        const KeyInfo* ki = in.p4type == P4Type::kKeyInfo ? in.p4.key_info : nullptr;
        auto c = VmCursor::OpenEphemeral(ki, in.p2, &write_gen_);
        if (!c.ok()) return Fail(std::move(c).status());
        slot = std::move(c).value();
        break;
      }
      case Opcode::kOpenDup: {
        auto c = VmCursor::OpenDup(cursors_[static_cast<size_t>(in.p2)].get(), &write_gen_);
        if (!c.ok()) return Fail(std::move(c).status());
        cursors_[static_cast<size_t>(in.p1)] = std::move(c).value();
        break;
      }
      case Opcode::kOpenConstList:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenConstList(in.p4.const_list);
        break;
      case Opcode::kOpenPseudo:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenPseudo(&r[in.p2], in.p3, &write_gen_);
        break;
      case Opcode::kSorterOpen:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenSorter(in.p4.key_info, &write_gen_);
        break;
      case Opcode::kClose: {
        auto kept = VmCursor::Recycle(std::move(cursors_[static_cast<size_t>(in.p1)]));
        if (kept) spare_.push_back(std::move(kept));
        break;
      }
      case Opcode::kClearEphemeral:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->Clear());
        break;
      case Opcode::kRewind:
      case Opcode::kLast:
      case Opcode::kSorterSort: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        bool empty = false;
        if (in.op == Opcode::kRewind) {
          VM_TRY(c->Rewind(&empty));
        } else if (in.op == Opcode::kLast) {
          VM_TRY(c->Last(&empty));
        } else {
          VM_TRY(c->SorterSort(&empty));
        }
        if (empty) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kNext:
      case Opcode::kPrev:
      case Opcode::kSorterNext: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        bool more = false;
        if (in.op == Opcode::kNext) {
          VM_TRY(c->Next(&more));
        } else if (in.op == Opcode::kPrev) {
          VM_TRY(c->Prev(&more));
        } else {
          VM_TRY(c->SorterNext(&more));
        }
        if (more) {
          if (env_->interrupted && env_->interrupted->load(std::memory_order_relaxed)) {
            return Fail(Status(kInterrupt));
          }
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kSorterData:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->RecordData(&r[in.p2]));
        break;
      case Opcode::kSorterInsert:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->SorterInsert(r[in.p2]));
        break;
      case Opcode::kNullRow: {
        auto& c = cursors_[static_cast<size_t>(in.p1)];
        if (c) c->SetNullRow();
        break;
      }
      case Opcode::kColumn: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        const Value* dflt = in.p4type == P4Type::kValue ? in.p4.value : nullptr;
        VM_TRY(c->Column(in.p2, &r[in.p3], dflt));
        break;
      }
      case Opcode::kRowid:
      case Opcode::kIdxRowid: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        if (c->null_row()) {
          r[in.p2].SetNull();
          break;
        }
        int64_t rowid;
        VM_TRY(c->Rowid(&rowid));
        r[in.p2].SetInt(rowid);
        break;
      }
      case Opcode::kSeekRowid:
      case Opcode::kNotExists: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        const Value& key = r[in.p3];
        int64_t rowid;
        if (key.is_int()) {
          rowid = key.int_value();
        } else {
          Value tmp;
          tmp.ShallowCopyFrom(key);
          ApplyAffinity(&tmp, Affinity::kInteger);
          if (!tmp.is_int()) {
            pc_ = in.p2;
            continue;
          }
          rowid = tmp.int_value();
        }
        bool found;
        VM_TRY(c->SeekRowid(rowid, &found));
        if (!found) {
          // p5 = 1: the rowid came from an index entry, whose row must exist.
          if (in.p5 == 1 && in.op == Opcode::kSeekRowid) return Fail(CORRUPT());
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kSeekGE:
      case Opcode::kSeekGT:
      case Opcode::kSeekLE:
      case Opcode::kSeekLT: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        SeekOp op =
            static_cast<SeekOp>(static_cast<int>(in.op) - static_cast<int>(Opcode::kSeekGE));
        bool found;
        VM_TRY(c->Seek(op, &r[in.p3], static_cast<int>(in.p4.i64), &found));
        if (!found) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kIdxGE:
      case Opcode::kIdxGT:
      case Opcode::kIdxLE:
      case Opcode::kIdxLT: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        int cmp;
        VM_TRY(c->CompareKey(&r[in.p3], static_cast<int>(in.p4.i64), &cmp));
        bool jump;
        switch (in.op) {
          case Opcode::kIdxGE:
            jump = cmp >= 0;
            break;
          case Opcode::kIdxGT:
            jump = cmp > 0;
            break;
          case Opcode::kIdxLE:
            jump = cmp <= 0;
            break;
          default:
            jump = cmp < 0;
            break;
        }
        if (jump) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kFound:
      case Opcode::kNotFound:
      case Opcode::kNoConflict: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        int n = static_cast<int>(in.p4.i64);
        bool found = false;
        if (in.op == Opcode::kNoConflict) {
          bool has_null = false;
          for (int i = 0; i < n; ++i) has_null |= r[in.p3 + i].is_null();
          if (has_null) {
            pc_ = in.p2;
            continue;
          }
        }
        if (n == 0) {
          VM_TRY(c->FoundRecord(r[in.p3], &found));
        } else {
          VM_TRY(c->Found(&r[in.p3], n, &found));
        }
        bool jump = (in.op == Opcode::kFound) ? found : !found;
        if (jump) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kMakeRecord: {
        if (in.p4type == P4Type::kString) {
          const char* aff = in.p4.str;
          for (int i = 0; i < in.p2 && aff[i]; ++i) {
            if (aff[i] != 'A') ApplyAffinity(&r[in.p1 + i], static_cast<Affinity>(aff[i]));
          }
        }
        std::string buf;
        EncodeRecord(&r[in.p1], in.p2, &buf);
        r[in.p3].SetBlob(buf.data(), buf.size());
        break;
      }
      case Opcode::kNewRowid: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        int64_t rowid;
        VM_TRY(c->NewRowid(&rowid));
        if (in.p3) {
          // AUTOINCREMENT: never reuse a rowid at or below the recorded maximum.
          Value& mx = r[in.p3];
          int64_t m = mx.is_int() ? mx.int_value() : 0;
          if (m == INT64_MAX) return Fail(Status(kFull, "database or disk is full"));
          if (rowid <= m) rowid = m + 1;
          mx.SetInt(rowid);
        }
        r[in.p2].SetInt(rowid);
        break;
      }
      case Opcode::kInsert: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        int64_t rowid = r[in.p3].int_value();
        VM_TRY(c->InsertRow(rowid, r[in.p2], (in.p5 & kInsAppend) != 0));
        ++write_gen_;
        if (in.p5 & kInsNChange) ++n_change_;
        if (in.p5 & kInsTotal) ++n_total_change_;
        if (in.p5 & kInsLastRowid) env_->last_insert_rowid = rowid;
        break;
      }
      case Opcode::kIdxInsert:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->InsertKey(r[in.p2]));
        ++write_gen_;
        break;
      case Opcode::kDelete:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->Delete());
        ++write_gen_;
        if (in.p5 & kInsNChange) ++n_change_;
        if (in.p5 & kInsTotal) ++n_total_change_;
        break;
      case Opcode::kIdxDelete: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        bool found;
        VM_TRY(c->Found(&r[in.p2], in.p3, &found));
        if (found) {
          VM_TRY(c->Delete());
          ++write_gen_;
        }
        break;
      }
      case Opcode::kResultRow:
        row_ = &r[in.p1];
        row_size_ = in.p2;
        ++pc_;
        return StepResult::kRow;
      case Opcode::kCount: {
        int64_t n;
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->Count(&n));
        r[in.p2].SetInt(n);
        break;
      }
      case Opcode::kSequence:
        r[in.p2].SetInt(cursors_[static_cast<size_t>(in.p1)]->NextSequence());
        break;
      case Opcode::kIfNullRow: {
        auto& c = cursors_[static_cast<size_t>(in.p1)];
        if (c && c->null_row()) {
          r[in.p3].SetNull();
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kMemMax: {
        int64_t a = r[in.p1].is_int() ? r[in.p1].int_value() : ValueToInt64(r[in.p1]);
        int64_t b = ValueToInt64(r[in.p2]);
        r[in.p1].SetInt(a > b ? a : b);
        break;
      }
      case Opcode::kSetChanges:
        n_change_ += in.p1 ? r[in.p1].int_value() : 1;
        break;
      default:
        return Fail(Status(kInternal, "bad opcode"));
    }
    ++pc_;
  }
}

}  // namespace basalt
