// Window stages at run time: partitions, peer groups, frames, and the value
// of each window function for each row (invariants in vm_window.h).
//
// Aggregates with inverse() and value() slide: each row enters and leaves
// the accumulator once per partition. Without inverse() a frame whose start
// stays put still only adds rows; any other change recomputes the frame, as
// does every EXCLUDE other than NO OTHERS.
#include "exec/vm_window.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/assert.h"
#include "common/coding.h"
#include "exec/vm.h"
#include "exec/vm_cursor.h"
#include "parser/parser.h"
#include "record/record.h"
#include "record/value_ops.h"

namespace basalt {

using window_internal::ExactInteger;
using window_internal::FuncError;

using ast::FrameBound;
using ast::FrameExclude;
using ast::FrameUnit;

namespace {

struct KindName {
  const char* name;
  WinKind kind;
};
constexpr KindName kKinds[] = {
    {"row_number", WinKind::kRowNumber},
    {"rank", WinKind::kRank},
    {"dense_rank", WinKind::kDenseRank},
    {"percent_rank", WinKind::kPercentRank},
    {"cume_dist", WinKind::kCumeDist},
    {"ntile", WinKind::kNtile},
    {"lag", WinKind::kLag},
    {"lead", WinKind::kLead},
    {"first_value", WinKind::kFirstValue},
    {"last_value", WinKind::kLastValue},
    {"nth_value", WinKind::kNthValue},
};

}  // namespace

namespace window_internal {

Status FuncError(const FuncContext& ctx) {
  return Status(ctx.error_code ? ctx.error_code : kError, ctx.error_msg);
}

}  // namespace window_internal

namespace {

// v as a number: integers and reals as they are, text that is a whole
// numeric literal converted (as SQLite's numeric affinity does); false for
// anything else.
bool AsNumber(const Value& v, Value* out) {
  if (v.is_numeric()) {
    out->CopyFrom(v);
    return true;
  }
  if (!v.is_text()) return false;
  int64_t i = 0;
  double r = 0;
  switch (ParseNumericText(v.data(), v.size(), &i, &r)) {
    case 1:
      out->SetInt(i);
      return true;
    case 2:
      out->SetReal(r);
      return true;
    default:
      return false;
  }
}

}  // namespace

namespace window_internal {

// The integer v exactly is (text converted as a number), as OP_MustBeInt.
bool ExactInteger(const Value& v, int64_t* out) {
  Value n;
  if (!AsNumber(v, &n)) return false;
  if (n.is_int()) {
    *out = n.int_value();
    return true;
  }
  double r = n.real_value();
  if (r >= -9.2e18 && r <= 9.2e18 && static_cast<double>(static_cast<int64_t>(r)) == r) {
    *out = static_cast<int64_t>(r);
    return true;
  }
  return false;
}

}  // namespace window_internal

WinKind WinKindOf(const FunctionDef* def) {
  if ((def->flags & kFuncWindowOnly) == 0) return WinKind::kAggregate;
  for (const KindName& k : kKinds) {
    if (def->name == k.name) return k.kind;
  }
  return WinKind::kAggregate;
}

WindowRun::~WindowRun() {
  for (FnState& s : fns_) ResetAcc(&s.acc);
}

void WindowRun::Field(size_t i, int f, Value* out, bool borrow) const {
  const uint8_t* r = rec(i);
  uint32_t n = len(i);
  uint32_t hdr;
  const uint8_t* p = r + GetVarint32(r, &hdr);
  uint32_t off = hdr;
  for (int k = 0; p < r + hdr; ++k) {
    uint32_t st;
    p += GetVarint32(p, &st);
    uint32_t sz = SerialTypeLen(st);
    if (k == f) {
      if (off + sz > n) break;
      DecodeSerial(r + off, st, out, borrow && !rows_->spilled());
      return;
    }
    off += sz;
  }
  out->SetNull();
}

bool WindowRun::FilterPasses(const WinFuncSpec& f, size_t j) const {
  if (f.filter < 0) return true;
  Value v;
  Field(j, f.filter, &v);
  return v.is_int() && v.int_value() != 0;
}

// A frame offset: ROWS and GROUPS take a non-negative integer, RANGE a
// non-negative number.
Status WindowRun::CheckOffset(const Value& v, bool range, bool start, int64_t* n,
                              Value* out) const {
  bool ok;
  if (range) {
    ok = AsNumber(v, out) && (out->is_int() ? out->int_value() >= 0 : out->real_value() >= 0.0);
  } else {
    ok = ExactInteger(v, n) && *n >= 0;
  }
  if (ok) return Status();
  std::string msg = std::string("frame ") + (start ? "starting" : "ending") +
                    " offset must be a non-negative " + (range ? "number" : "integer");
  return Status(kError, msg);
}

Status WindowRun::Start(const WindowSpec* spec, Sorter* sorter, const Value* regs,
                        ConnectionHooks* hooks, void* api_db, Vfs* vfs, size_t cache_bytes) {
  for (FnState& s : fns_) ResetAcc(&s.acc);
  spec_ = spec;
  hooks_ = hooks;
  api_db_ = api_db;
  rows_ = std::make_unique<WindowRows>();
  Status opened = rows_->Open(sorter, vfs, cache_bytes);
  if (!opened.ok()) return opened;
  n_ = rows_->count();
  cur_ = ps_ = pe_ = 0;
  fns_.clear();
  fns_.resize(static_cast<size_t>(spec->n_funcs));
  need_groups_ = false;
  int max_args = 0;
  for (int k = 0; k < spec->n_funcs; ++k) {
    const WinFuncSpec& f = spec->funcs[k];
    FnState& s = fns_[static_cast<size_t>(k)];
    bool range = f.unit == FrameUnit::kRange;
    if (f.start_reg) {
      Status st = CheckOffset(regs[f.start_reg], range, true, &s.start_off, &s.start_val);
      if (!st.ok()) return st;
    }
    if (f.end_reg) {
      Status st = CheckOffset(regs[f.end_reg], range, false, &s.end_off, &s.end_val);
      if (!st.ok()) return st;
    }
    switch (f.kind) {
      case WinKind::kRank:
      case WinKind::kDenseRank:
      case WinKind::kPercentRank:
      case WinKind::kCumeDist:
        need_groups_ = true;
        break;
      default:
        break;
    }
    bool frame_used = f.kind == WinKind::kAggregate || f.kind == WinKind::kFirstValue ||
                      f.kind == WinKind::kLastValue || f.kind == WinKind::kNthValue;
    if (frame_used && (f.unit != FrameUnit::kRows || f.exclude == FrameExclude::kGroup ||
                       f.exclude == FrameExclude::kTies)) {
      need_groups_ = true;
    }
    max_args = std::max(max_args, f.nargs);
  }
  args_.resize(static_cast<size_t>(max_args) + 1);
  argv_.resize(args_.size());
  for (size_t i = 0; i < args_.size(); ++i) argv_[i] = &args_[i];
  return Status();
}

// Finds the partition starting at cur_, its peer groups and (for RANGE
// offsets) where its non-NULL keys are.
void WindowRun::StartPartition() {
  ps_ = cur_;
  pe_ = ps_ + 1;
  if (spec_->n_part == 0) {
    pe_ = n_;
  } else {
    Status ignored;
    while (pe_ < n_ && CompareRecordPrefix(rec(ps_), len(ps_), rec(pe_), len(pe_), spec_->part_key,
                                           &ignored) == 0) {
      ++pe_;
    }
  }
  for (size_t k = 0; k < fns_.size(); ++k) {
    FnState& s = fns_[k];
    ResetAcc(&s.acc);
    s.live = false;
    s.fs = s.fe = ps_;
  }
  gi_ = 0;
  gstart_.clear();
  if (need_groups_) {
    gstart_.push_back(ps_);
    if (spec_->n_keys > spec_->n_part) {
      Status ignored;
      for (size_t j = ps_ + 1; j < pe_; ++j) {
        if (CompareRecordPrefix(rec(j - 1), len(j - 1), rec(j), len(j), spec_->peer_key,
                                &ignored) != 0) {
          gstart_.push_back(j);
        }
      }
    }
    gstart_.push_back(pe_);
  }
  // RANGE offsets compare the last ORDER BY key; its NULLs are peers at one
  // end of the partition.
  ns_ = ps_;
  ne_ = pe_;
  if (spec_->n_keys > spec_->n_part) {
    int kf = spec_->n_keys - 1;
    Field(ps_, kf, &key_);
    if (key_.is_null()) {
      while (ns_ < pe_ && (Field(ns_, kf, &key_), key_.is_null())) ++ns_;
    } else {
      while (ne_ > ns_ && (Field(ne_ - 1, kf, &key_), key_.is_null())) --ne_;
    }
  }
}

Status WindowRun::Next(Value* out, bool* more) {
  if (cur_ >= n_) {
    *more = false;
    return Status();
  }
  *more = true;
  if (cur_ == pe_ || cur_ == 0) StartPartition();
  if (need_groups_) {
    while (gstart_[gi_ + 1] <= cur_) ++gi_;
  }
  // The payload, then this stage's values over their registers.
  {
    const uint8_t* r = rec(cur_);
    uint32_t n = len(cur_);
    uint32_t hdr;
    const uint8_t* p = r + GetVarint32(r, &hdr);
    uint32_t off = hdr;
    int first = spec_->payload, last = spec_->payload + spec_->n_payload;
    for (int k = 0; p < r + hdr && k < last; ++k) {
      uint32_t st;
      p += GetVarint32(p, &st);
      uint32_t sz = SerialTypeLen(st);
      if (k >= first) {
        if (off + sz > n) break;
        DecodeSerial(r + off, st, &out[k - first]);
      }
      off += sz;
    }
  }
  for (int k = 0; k < spec_->n_funcs; ++k) {
    const WinFuncSpec& f = spec_->funcs[k];
    Status st = Compute(f, &fns_[static_cast<size_t>(k)], &out[f.out]);
    if (!st.ok()) return st;
  }
  if (!rows_->status().ok()) return rows_->status();  // a block failed to load
  ++cur_;
  return Status();
}

// ---- frames -----------------------------------------------------------------

// The first row (is_start) or the end (exclusive) of a RANGE frame bound
// with an offset, by binary search over the non-NULL keys.
size_t WindowRun::RangeBound(const WinFuncSpec& f, const FnState& s, bool is_start) {
  int kf = spec_->n_keys - 1;
  Field(cur_, kf, &key_);
  if (key_.is_null()) return is_start ? gstart_[gi_] : GroupEnd();
  FrameBound b = is_start ? f.start : f.end;
  const Value& off = is_start ? s.start_val : s.end_val;
  bool desc = spec_->order_desc;
  // PRECEDING moves toward the start of the partition: smaller keys when
  // ascending, larger when descending. A text or blob key is its own bound
  // (SQLite adds the offset only to numbers).
  if (key_.is_string_like()) {
    bound_.CopyFrom(key_);
  } else if ((b == FrameBound::kPreceding) != desc) {
    Subtract(key_, off, &bound_);
  } else {
    Add(key_, off, &bound_);
  }
  const Collation* coll = spec_->peer_key.colls ? spec_->peer_key.colls[kf] : nullptr;
  size_t lo = ns_, hi = ne_;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    Field(mid, kf, &scratch_);
    int c = CompareValues(scratch_, bound_, coll);
    if (desc) c = -c;
    bool before = is_start ? c < 0 : c <= 0;
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void WindowRun::Frame(const WinFuncSpec& f, const FnState& s, size_t* fs, size_t* fe) {
  size_t i = cur_;
  size_t ng = gstart_.empty() ? 0 : gstart_.size() - 1;
  auto bound = [&](FrameBound b, int64_t n, bool is_start) -> size_t {
    switch (b) {
      case FrameBound::kUnboundedPreceding:
        return ps_;
      case FrameBound::kUnboundedFollowing:
        return pe_;
      case FrameBound::kCurrentRow:
        if (f.unit == FrameUnit::kRows) return is_start ? i : i + 1;
        return is_start ? gstart_[gi_] : GroupEnd();
      case FrameBound::kPreceding:
      case FrameBound::kFollowing:
        break;
    }
    bool back = b == FrameBound::kPreceding;
    if (f.unit == FrameUnit::kRange) return RangeBound(f, s, is_start);
    uint64_t un = static_cast<uint64_t>(n);
    if (f.unit == FrameUnit::kRows) {
      // The row i -/+ n, as the first row (start) or just past it (end).
      if (back) {
        if (un > i - ps_) return is_start ? ps_ : ps_;
        return is_start ? i - un : i - un + 1;
      }
      if (un >= pe_ - i) return pe_;
      return is_start ? i + un : i + un + 1;
    }
    // GROUPS: the group gi_ -/+ n.
    if (back) {
      if (un > gi_) return ps_;
      size_t g = gi_ - un;
      return is_start ? gstart_[g] : gstart_[g + 1];
    }
    if (un >= ng - gi_) return pe_;
    size_t g = gi_ + un;
    return is_start ? gstart_[g] : gstart_[g + 1];
  };
  *fs = bound(f.start, s.start_off, true);
  *fe = bound(f.end, s.end_off, false);
  if (*fe < *fs) *fs = *fe;
}

bool WindowRun::Excluded(const WinFuncSpec& f, size_t j) const {
  switch (f.exclude) {
    case FrameExclude::kNoOthers:
      return false;
    case FrameExclude::kCurrentRow:
      return j == cur_;
    case FrameExclude::kGroup:
      return j >= gstart_[gi_] && j < GroupEnd();
    case FrameExclude::kTies:
      return j != cur_ && j >= gstart_[gi_] && j < GroupEnd();
  }
  return false;
}

// ---- the opcodes ----------------------------------------------------------------

bool Vm::WindowInit(const Instr& in) {
  const WindowSpec* spec = in.p4_window();
  size_t id = static_cast<size_t>(spec->id);
  if (wins_.size() <= id) wins_.resize(id + 1);
  if (!wins_[id]) wins_[id] = std::make_unique<WindowRun>();
  Sorter* sorter = cursors_[static_cast<size_t>(in.p1)]->sorter();
  BASALT_DCHECK(sorter != nullptr);
  Status st = wins_[id]->Start(spec, sorter, regs_.data(), env_->hooks, env_->api_db,
                               env_->temp_vfs, SorterBudget(*env_));
  return st.ok() || SetError(std::move(st));
}

bool Vm::WindowNext(const Instr& in, bool* more) {
  WindowRun* run = wins_[static_cast<size_t>(in.p4_window()->id)].get();
  BASALT_DCHECK(run != nullptr);
  Status st = run->Next(&regs_[static_cast<size_t>(in.p3)], more);
  return st.ok() || SetError(std::move(st));
}

}  // namespace basalt
