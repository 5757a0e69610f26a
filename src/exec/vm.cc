// The dispatch loop: Vm::Run executes instructions until a result row, the
// end of the program or an error. Each opcode's meaning is in opcodes.h; the
// bodies of the larger ones are in vm_ops_inl.h, the Vm's set-up and
// tear-down in vm_state.cc.
#include "exec/vm.h"

#include <algorithm>
#include <cstring>

#include "btree/btree.h"
#include "common/assert.h"
#include "exec/sorter.h"
#include "exec/vm_cursor.h"
#include "exec/vm_ops_inl.h"
#include "record/affinity.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// The comparison opcodes Eq..Ge and IdxGE..IdxLT as their own small enums,
// so that the switches deciding them list every case (no default).
enum class CmpKind : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
enum class IdxCmpKind : uint8_t { kGE, kGT, kLE, kLT };
static_assert(static_cast<int>(Opcode::kGe) - static_cast<int>(Opcode::kEq) == 5);
static_assert(static_cast<int>(Opcode::kIdxLT) - static_cast<int>(Opcode::kIdxGE) == 3);

// Whether comparison `op` holds for `cmp` (the sign of left - right).
inline bool CompareHolds(Opcode op, int cmp) {
  switch (static_cast<CmpKind>(static_cast<int>(op) - static_cast<int>(Opcode::kEq))) {
    case CmpKind::kEq:
      return cmp == 0;
    case CmpKind::kNe:
      return cmp != 0;
    case CmpKind::kLt:
      return cmp < 0;
    case CmpKind::kLe:
      return cmp <= 0;
    case CmpKind::kGt:
      return cmp > 0;
    case CmpKind::kGe:
      return cmp >= 0;
  }
  return false;
}

// Whether index comparison `op` holds for `cmp` (index entry - key).
inline bool IdxCompareHolds(Opcode op, int cmp) {
  switch (static_cast<IdxCmpKind>(static_cast<int>(op) - static_cast<int>(Opcode::kIdxGE))) {
    case IdxCmpKind::kGE:
      return cmp >= 0;
    case IdxCmpKind::kGT:
      return cmp > 0;
    case IdxCmpKind::kLE:
      return cmp <= 0;
    case IdxCmpKind::kLT:
      return cmp < 0;
  }
  return false;
}

// Applies comparison affinity `aff` to *v (a private copy).
void ApplyCmpAffinity(Value* v, char aff) {
  if (aff >= 'C') {
    if (v->is_text()) ApplyAffinity(v, Affinity::kNumeric);
  } else if (aff == 'B') {
    if (v->is_numeric()) Stringify(v);
  }
}
}  // namespace

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
    *cmp_out = CompareValues(*a, *b, in.p4_coll_or_null());
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
        if (MustStop(pc_, in.p2)) return Fail(Status(kInterrupt));
        pc_ = in.p2;
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
        stats_.vm_steps += pc_ + 1;
        if (in.p1 != kOk) {
          halt_action_ = in.p2;
          const char* text = in.p4_str_or_null();
          std::string msg = text != nullptr ? text : ResultCodeText(in.p1);
          status_ = Status(in.p1, msg);
          FinishAggregates();
          CloseCursors();
          return StepResult::kError;
        }
        if (fk_stmt_ != 0 && FkStatementFailed()) return FailWithStatus();
        halt_action_ = in.p2;  // kIgnore: a trigger sub-program ended by RAISE(IGNORE)
        FinishAggregates();
        CloseCursors();
        return StepResult::kDone;
      }
      case Opcode::kHaltIfNull:
        if (r[in.p3].is_null()) {
          halt_action_ = in.p2;
          const char* text = in.p4_str_or_null();
          return Fail(Status(in.p1, text != nullptr ? text : ""));
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
      case Opcode::kMustBeInt:
        if (!r[in.p1].is_int() && !MakeExactInteger(&r[in.p1])) {
          if (in.p2 == 0) return Fail(Status(kMismatch, "datatype mismatch"));
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kNoop:
      case Opcode::kExplain:
      case Opcode::kAbortable:
        break;
      case Opcode::kFkCounter:
        FkCount(in);
        break;
      case Opcode::kFkIfZero:
        if (FkIsZero(in)) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kTrace:
        if (env_->trace_fn != nullptr) env_->trace_fn(env_->trace_arg, in.p4_str());
        break;
      case Opcode::kProgram: {
        bool ignored = false;
        if (!RunSubprogram(in, &ignored)) return FailWithStatus();
        if (ignored && in.p3 != 0) {
          pc_ = in.p3;
          continue;
        }
        break;
      }

      // ---- constants and moves ----
      case Opcode::kInteger:
        r[in.p2].SetInt(in.p1);
        break;
      case Opcode::kInt64:
        r[in.p2].SetInt(in.p4_int64());
        break;
      case Opcode::kReal:
        r[in.p2].SetReal(in.p4_real());
        break;
      case Opcode::kString:
        r[in.p2].SetTextStatic(std::string_view(in.p4_str(), static_cast<size_t>(in.p1)));
        break;
      case Opcode::kBlob:
        r[in.p2].SetBlobStatic(in.p4_str(), static_cast<size_t>(in.p1));
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
      case Opcode::kClrSubtype:
        for (int i = 0; i < in.p2; ++i) r[in.p1 + i].set_subtype(0);
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
      // The operators call the functions constant folding uses (operator_eval.h).
      case Opcode::kAdd:
        Add(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kSubtract:
        Subtract(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kMultiply:
        Multiply(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kDivide:
        Divide(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kRemainder:
        Remainder(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kConcat:
        Concat(r[in.p1], r[in.p2], &r[in.p3]);
        if (TooBig(r[in.p3])) {
          SetError(Status(kTooBig, "string or blob too big"));
          return FailWithStatus();
        }
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
      case Opcode::kNot:
        LogicalNot(r[in.p1], &r[in.p2]);
        break;
      case Opcode::kAnd:
        LogicalAnd(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kOr:
        LogicalOr(r[in.p1], r[in.p2], &r[in.p3]);
        break;
      case Opcode::kIsTrue: {
        int t = ValueTruth(r[in.p1]);
        int res = t < 0 ? in.p3 : t;
        if (in.p4_int_or_zero()) res = !res;
        r[in.p2].SetInt(res);
        break;
      }
      case Opcode::kCast:
        CastValue(&r[in.p1], static_cast<Affinity>(in.p2));
        break;
      case Opcode::kAffinity: {
        const char* aff = in.p4_str();
        for (int i = 0; i < in.p2; ++i) {
          if (aff[i] != 'A') ApplyAffinity(&r[in.p1 + i], static_cast<Affinity>(aff[i]));
        }
        break;
      }
      case Opcode::kTypeCheck:
        if (!TypeCheck(in)) return FailWithStatus();
        break;
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
        const Value& x = r[in.p1];
        const Value& y = r[in.p3];
        // Two integers compare as integers under every affinity but TEXT.
        if (x.is_int() && y.is_int() && (in.p5 & kCmpAffinityMask) != 'B') {
          int64_t a = x.int_value(), b = y.int_value();
          res = CompareHolds(in.op, a < b ? -1 : (a > b ? 1 : 0));
        } else if (!Compare(in, &cmp)) {
          if (in.p5 & kCmpNullEq) {
            bool both = r[in.p1].is_null() && r[in.p3].is_null();
            res = (in.op == Opcode::kEq) ? both : !both;
          } else {
            res = -1;
          }
        } else {
          res = CompareHolds(in.op, cmp);
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
      case Opcode::kFunction:
        if (!CallFunction(in)) return FailWithStatus();
        break;
      case Opcode::kAggStep:
        if (!StepAccumulator(in)) return FailWithStatus();
        break;
      case Opcode::kAggFinal:
        if (!FinalizeAccumulator(in)) return FailWithStatus();
        break;
      case Opcode::kAggReset:
        ResetAccumulators(in);
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
      case Opcode::kReopenIdx:
        if (!OpenBtreeCursor(in)) return FailWithStatus();
        break;
      case Opcode::kOpenEphemeral: {
        auto& slot = cursors_[static_cast<size_t>(in.p1)];
        const KeyInfo* ki = in.p4_key_info_or_null();
        size_t pages = EphemeralCachePages(*env_);
        auto c = VmCursor::OpenEphemeral(ki, in.p2, gen_, pages ? env_->temp_vfs : nullptr, pages);
        if (!c.ok()) return Fail(std::move(c).status());
        slot = std::move(c).value();
        break;
      }
      case Opcode::kOpenDup:
        VM_TRY(VmCursor::ReopenDup(&cursors_[static_cast<size_t>(in.p1)],
                                   cursors_[static_cast<size_t>(in.p2)].get(), gen_));
        break;
      case Opcode::kOpenRowSet:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenRowSet();
        break;
      case Opcode::kRowSetAdd:
        cursors_[static_cast<size_t>(in.p1)]->rowset()->Insert(r[in.p2].int_value());
        break;
      case Opcode::kRowSetTest:
        if (cursors_[static_cast<size_t>(in.p1)]->rowset()->Contains(r[in.p3].int_value())) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kOpenConstList:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenConstList(in.p4_const_list());
        break;
      case Opcode::kOpenPseudo:
        cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenPseudo(&r[in.p2], in.p3, gen_);
        break;
      case Opcode::kSorterOpen:
        cursors_[static_cast<size_t>(in.p1)] =
            VmCursor::OpenSorter(in.p4_key_info(), gen_, SorterBudget(*env_), env_->temp_vfs);
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
          ++stats_.sorts;
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
          if (in.p5 == kP5FullScanStep) ++stats_.fullscan_steps;
          if (MustStop(pc_, in.p2)) return Fail(Status(kInterrupt));
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kWinInit:
        if (!WindowInit(in)) return FailWithStatus();
        break;
      case Opcode::kWinNext: {
        bool more = false;
        if (!WindowNext(in, &more)) return FailWithStatus();
        if (!more) {
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
      case Opcode::kSorterCheck:
        if (cursors_[static_cast<size_t>(in.p1)]->sorter()->WouldDrop(&r[in.p3], in.p4_int())) {
          pc_ = in.p2;
          continue;
        }
        break;
      case Opcode::kSorterLimit: {
        // A negative limit is no limit; a negative offset counts as 0.
        int64_t limit = r[in.p2].int_value();
        int64_t offset = in.p3 ? std::max<int64_t>(r[in.p3].int_value(), 0) : 0;
        uint64_t k = static_cast<uint64_t>(limit) + static_cast<uint64_t>(offset);
        if (limit > 0 && k >= static_cast<uint64_t>(limit)) {
          cursors_[static_cast<size_t>(in.p1)]->sorter()->SetBound(k);
        }
        break;
      }
      case Opcode::kNullRow: {
        auto& c = cursors_[static_cast<size_t>(in.p1)];
        if (c) c->SetNullRow();
        break;
      }
      case Opcode::kColumn: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        if (c->ColumnFast(in.p2, &r[in.p3])) break;
        const Value* dflt = in.p4_value_or_null();
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
        VM_TRY(c->Seek(op, &r[in.p3], in.p4_int(), &found));
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
        VM_TRY(c->CompareKey(&r[in.p3], in.p4_int(), &cmp));
        if (IdxCompareHolds(in.op, cmp)) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kFound:
      case Opcode::kNotFound:
      case Opcode::kNoConflict: {
        bool jump;
        if (!LookUpKey(in, &jump)) return FailWithStatus();
        if (jump) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kMakeRecord:
        MakeRecord(in);
        break;
      case Opcode::kNewRowid:
        if (!NewRowid(in)) return FailWithStatus();
        break;
      case Opcode::kInsert: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        int64_t rowid = r[in.p3].int_value();
        if (env_->change_hooks != nullptr) [[unlikely]]
          FireHooks(in, false);
        VM_TRY(c->InsertRow(rowid, r[in.p2], (in.p5 & kInsAppend) != 0));
        ++*gen_;
        if (env_->change_hooks != nullptr) [[unlikely]]
          FireHooks(in, true);
        if (in.p5 & kInsNChange) ++n_change_;
        if (in.p5 & kInsTotal) ++n_total_change_;
        if (in.p5 & kInsLastRowid) env_->last_insert_rowid = rowid;
        break;
      }
      case Opcode::kIdxInsert:
        if (env_->change_hooks != nullptr) [[unlikely]]
          FireHooks(in, false);
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->InsertKey(r[in.p2]));
        ++*gen_;
        // A WITHOUT ROWID table's row counts as a change (P5 as Insert's).
        if (in.p5 & kInsNChange) ++n_change_;
        if (in.p5 & kInsTotal) ++n_total_change_;
        break;
      case Opcode::kClearTree: {
        int64_t entries = 0;
        VM_TRY(
            env_->dbs[static_cast<size_t>(in.p2)]->ClearTree(static_cast<Pgno>(in.p1), &entries));
        ++*gen_;
        if (in.p3 & 1) n_change_ += entries;
        if (in.p3 & 2) n_total_change_ += entries;
        break;
      }
      case Opcode::kIdxAppend:
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->AppendKey(r[in.p2]));
        ++*gen_;
        break;
      case Opcode::kDelete:
        if (in.p5 >= kInsPreHook) [[unlikely]] {  // a hook-carrying delete
          if (env_->change_hooks != nullptr) FireHooks(in, false);
          if (in.p5 & kInsHookOnly) break;
        }
        VM_TRY(cursors_[static_cast<size_t>(in.p1)]->Delete());
        ++*gen_;
        if (env_->change_hooks != nullptr && (in.p5 & kInsUpdHook)) [[unlikely]] {
          FireHooks(in, true);
        }
        if (in.p5 & kInsNChange) ++n_change_;
        if (in.p5 & kInsTotal) ++n_total_change_;
        break;
      case Opcode::kIdxDelete: {
        VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
        bool found;
        VM_TRY(c->Found(&r[in.p2], in.p3, &found));
        if (found) {
          VM_TRY(c->Delete());
          ++*gen_;
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
      // ---- virtual tables (vm_vtab.cc) ----
      case Opcode::kVOpen:
        if (!VtabOpen(in)) return FailWithStatus();
        break;
      case Opcode::kVFilter: {
        bool empty = false;
        if (!VtabFilter(in, &empty)) return FailWithStatus();
        if (empty) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kVNext: {
        bool more = false;
        if (!VtabNext(in, &more)) return FailWithStatus();
        if (more) {
          pc_ = in.p2;
          continue;
        }
        break;
      }
      case Opcode::kVColumn:
        if (!VtabColumn(in)) return FailWithStatus();
        break;
      case Opcode::kVRowid:
        if (!VtabRowid(in)) return FailWithStatus();
        break;
      case Opcode::kVUpdate:
        if (!VtabUpdate(in)) return FailWithStatus();
        break;
      case Opcode::kVBegin:
        if (!VtabBegin(in)) return FailWithStatus();
        break;
      case Opcode::kMemMax: {
        int64_t a = r[in.p1].is_int() ? r[in.p1].int_value() : ValueToInt64(r[in.p1]);
        int64_t b = ValueToInt64(r[in.p2]);
        r[in.p1].SetInt(a > b ? a : b);
        break;
      }
      case Opcode::kSetChanges:
        n_change_ += in.p1 ? r[in.p1].int_value() : 1;
        break;
      case Opcode::kNumOpcodes:
        BASALT_DCHECK(false);
        return Fail(Status(kInternal, "bad opcode"));
    }
    ++pc_;
  }
}

}  // namespace basalt
