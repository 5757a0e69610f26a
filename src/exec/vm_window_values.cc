// Window stages at run time, part two: the value of each kind of window
// function for the current row (aggregates over the frame, min()/max()
// over moving frames, ntile, lag/lead, first/last/nth_value, the ranking
// functions). The state they use is described in vm_window.h.
#include <algorithm>

#include "exec/vm_window.h"
#include "parser/parser.h"
#include "record/value_ops.h"

namespace basalt {

using ast::FrameBound;
using ast::FrameExclude;
using ast::FrameUnit;
using window_internal::ExactInteger;
using window_internal::FuncError;

// ---- accumulators -------------------------------------------------------------

void WindowRun::InitAcc(const WinFuncSpec& f, FuncContext* acc) {
  acc->def = f.def;
  acc->coll = f.coll;
  acc->conn = hooks_;
  acc->api_db = api_db_;
}

void WindowRun::ResetAcc(FuncContext* acc) {
  if (acc->agg_mem != nullptr && acc->def != nullptr && acc->def->final != nullptr) {
    Value discard;
    acc->result = &discard;
    acc->def->final(acc);
  }
  FreeAggregateContext(acc);
  *acc = FuncContext();
}

Status WindowRun::Step(const WinFuncSpec& f, FuncContext* acc, size_t j, bool inverse) {
  if (!FilterPasses(f, j)) return Status();
  for (int a = 0; a < f.nargs; ++a) Field(j, f.arg + a, &args_[static_cast<size_t>(a)]);
  Value dummy;
  acc->result = &dummy;
  acc->skip_flag = 0;
  if (inverse) {
    f.def->inverse(acc, f.nargs, argv_.data());
  } else {
    f.def->step(acc, f.nargs, argv_.data());
  }
  return acc->is_error ? FuncError(*acc) : Status();
}

Status WindowRun::ComputeAggregate(const WinFuncSpec& f, FnState* s, Value* out) {
  size_t fs, fe;
  Frame(f, *s, &fs, &fe);
  bool slide = f.def->inverse != nullptr && f.def->value != nullptr;
  bool grow_only = f.def->value != nullptr && s->fs == fs;
  bool incremental = f.exclude == FrameExclude::kNoOthers && s->live && fs >= s->fs &&
                     fe >= s->fe && fs <= s->fe && (slide || grow_only);
  if (incremental) {
    for (size_t j = s->fs; j < fs; ++j) {
      Status st = Step(f, &s->acc, j, true);
      if (!st.ok()) return st;
    }
    for (size_t j = s->fe; j < fe; ++j) {
      Status st = Step(f, &s->acc, j, false);
      if (!st.ok()) return st;
    }
  } else {
    // Recompute: a fresh accumulator over the frame (without the excluded rows).
    ResetAcc(&s->acc);
    InitAcc(f, &s->acc);
    for (size_t j = fs; j < fe; ++j) {
      if (Excluded(f, j)) continue;
      Status st = Step(f, &s->acc, j, false);
      if (!st.ok()) return st;
    }
  }
  s->fs = fs;
  s->fe = fe;
  s->live = f.exclude == FrameExclude::kNoOthers;
  if (s->acc.def == nullptr) InitAcc(f, &s->acc);
  s->acc.result = out;
  if (f.def->value != nullptr) {
    f.def->value(&s->acc);
    if (s->acc.is_error) return FuncError(s->acc);
    return Status();
  }
  // No value(): final() ends the accumulator; the next row recomputes.
  out->SetNull();
  f.def->final(&s->acc);
  Status st = s->acc.is_error ? FuncError(s->acc) : Status();
  FreeAggregateContext(&s->acc);
  s->acc = FuncContext();
  s->live = false;
  return st;
}

// min() and max() have no inverse(): for frames whose start moves (and
// that exclude no rows) a monotonic queue of candidate rows stands in for
// one, so each row is added and dropped once. This is where SQLite keeps
// the frame's values in a temporary index, and its results follow from
// that: among equal values the latest row wins, and FILTER is not applied.
void WindowRun::ComputeMinMax(const WinFuncSpec& f, FnState* s, Value* out) {
  size_t fs, fe;
  Frame(f, *s, &fs, &fe);
  if (!s->live || fs < s->fs || fe < s->fe) {
    s->dq.clear();
    s->head = 0;
    s->fe = fs;
  }
  bool is_max = f.def->name == "max";
  for (size_t j = std::max(s->fe, fs); j < fe; ++j) {
    Field(j, f.arg, &key_);
    if (key_.is_null()) continue;
    while (s->dq.size() > s->head) {
      Field(s->dq.back(), f.arg, &scratch_);
      int c = CompareValues(scratch_, key_, f.coll);
      if (is_max ? c > 0 : c < 0) break;
      s->dq.pop_back();
    }
    s->dq.push_back(j);
  }
  while (s->head < s->dq.size() && s->dq[s->head] < fs) ++s->head;
  if (s->head > 1024 && s->head * 2 > s->dq.size()) {
    s->dq.erase(s->dq.begin(), s->dq.begin() + static_cast<std::ptrdiff_t>(s->head));
    s->head = 0;
  }
  s->fs = fs;
  s->fe = fe;
  s->live = true;
  if (s->head < s->dq.size()) {
    Field(s->dq[s->head], f.arg, out, /*borrow=*/false);
  } else {
    out->SetNull();
  }
}

// first_value, last_value, nth_value: one row of the frame.
Status WindowRun::ComputeValueAt(const WinFuncSpec& f, FnState* s, Value* out) {
  int64_t nth = 1;
  if (f.kind == WinKind::kNthValue) {
    Field(cur_, f.arg + 1, &scratch_);
    if (!ExactInteger(scratch_, &nth) || nth <= 0) {
      return Status(kError, "second argument to nth_value must be a positive integer");
    }
  }
  size_t fs, fe;
  Frame(f, *s, &fs, &fe);
  out->SetNull();
  if (f.kind == WinKind::kLastValue) {
    for (size_t j = fe; j-- > fs;) {
      if (Excluded(f, j)) continue;
      Field(j, f.arg, out, /*borrow=*/false);
      break;
    }
    return Status();
  }
  if (f.exclude == FrameExclude::kNoOthers) {  // straight to the row
    if (static_cast<uint64_t>(nth) <= fe - fs) {
      Field(fs + static_cast<size_t>(nth) - 1, f.arg, out, /*borrow=*/false);
    }
    return Status();
  }
  int64_t seen = 0;
  for (size_t j = fs; j < fe; ++j) {
    if (Excluded(f, j) || ++seen != nth) continue;
    Field(j, f.arg, out, /*borrow=*/false);
    break;
  }
  return Status();
}

Status WindowRun::ComputeNtile(FnState* s, Value* out) {
  if (s->ntile <= 0) {
    return Status(kError, "argument of ntile must be a positive integer");
  }
  int64_t total = static_cast<int64_t>(pe_ - ps_);
  int64_t row = static_cast<int64_t>(cur_ - ps_);
  int64_t size = total / s->ntile;
  if (size == 0) {
    out->SetInt(row + 1);
    return Status();
  }
  int64_t large = total - s->ntile * size;
  int64_t small_start = large * (size + 1);
  if (row < small_start) {
    out->SetInt(1 + row / (size + 1));
  } else {
    out->SetInt(1 + large + (row - small_start) / size);
  }
  return Status();
}

// lag / lead: the argument at the row `offset` before / after, or the default.
void WindowRun::ComputeOffsetRow(const WinFuncSpec& f, Value* out) {
  int64_t off = 1;
  bool found = true;
  if (f.nargs >= 2) {
    Field(cur_, f.arg + 1, &scratch_);
    found = !scratch_.is_null() && ExactInteger(scratch_, &off);
  }
  if (found) {
    int64_t pos = static_cast<int64_t>(cur_) + (f.kind == WinKind::kLag ? -off : off);
    if (pos >= static_cast<int64_t>(ps_) && pos < static_cast<int64_t>(pe_)) {
      Field(static_cast<size_t>(pos), f.arg, out, /*borrow=*/false);
      return;
    }
  }
  if (f.nargs >= 3) {
    Field(cur_, f.arg + 2, out, /*borrow=*/false);
  } else {
    out->SetNull();
  }
}

Status WindowRun::Compute(const WinFuncSpec& f, FnState* s, Value* out) {
  int64_t n = static_cast<int64_t>(pe_ - ps_);
  switch (f.kind) {
    case WinKind::kAggregate:
      if ((f.def->flags & kFuncMinMax) != 0 && f.def->inverse == nullptr && f.nargs == 1 &&
          f.exclude == FrameExclude::kNoOthers && f.start != FrameBound::kUnboundedPreceding) {
        ComputeMinMax(f, s, out);
        return Status();
      }
      return ComputeAggregate(f, s, out);
    case WinKind::kRowNumber:
      out->SetInt(static_cast<int64_t>(cur_ - ps_) + 1);
      return Status();
    case WinKind::kRank:
      out->SetInt(static_cast<int64_t>(gstart_[gi_] - ps_) + 1);
      return Status();
    case WinKind::kDenseRank:
      out->SetInt(static_cast<int64_t>(gi_) + 1);
      return Status();
    case WinKind::kPercentRank: {
      double r = static_cast<double>(gstart_[gi_] - ps_);
      out->SetReal(n > 1 ? r / static_cast<double>(n - 1) : 0.0);
      return Status();
    }
    case WinKind::kCumeDist:
      out->SetReal(static_cast<double>(GroupEnd() - ps_) / static_cast<double>(n));
      return Status();
    case WinKind::kNtile:
      if (cur_ == ps_) {
        Field(ps_, f.arg, &scratch_);
        s->ntile = ValueToInt64(scratch_);
      }
      return ComputeNtile(s, out);
    case WinKind::kLag:
    case WinKind::kLead:
      ComputeOffsetRow(f, out);
      return Status();
    case WinKind::kFirstValue:
    case WinKind::kLastValue:
    case WinKind::kNthValue:
      return ComputeValueAt(f, s, out);
  }
  return Status();
}

}  // namespace basalt
