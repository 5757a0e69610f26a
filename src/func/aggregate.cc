// Aggregate functions: count, sum, total, avg, min, max, group_concat
// (lang_aggfunc), with the window-frame value/inverse entry points SQLite
// 3.40 has for them.
//
// State lives in the zeroed block AggregateContext() hands out; an all-zero
// block is a valid empty state for every struct here. final() runs exactly
// once per accumulator, also when step() never ran (agg_mem == nullptr), and
// releases anything the state owns; the VM frees the block itself.
#include <cstdlib>
#include <new>

#include "func/func_internal.h"

namespace basalt::func {
namespace {

// ---- count ----------------------------------------------------------------

struct CountState {
  int64_t n;
};

// count(*) has no argument; count(X) counts non-NULL X.
void CountStep(FuncContext* ctx, int argc, Value** argv) {
  auto* st = static_cast<CountState*>(AggregateContext(ctx, sizeof(CountState)));
  if (argc == 0 || !argv[0]->is_null()) ++st->n;
}

void CountInverse(FuncContext* ctx, int argc, Value** argv) {
  auto* st = static_cast<CountState*>(AggregateContext(ctx, sizeof(CountState)));
  if (argc == 0 || !argv[0]->is_null()) --st->n;
}

void CountFinal(FuncContext* ctx) {
  auto* st = static_cast<CountState*>(AggregateContext(ctx, 0));
  ctx->result->SetInt(st ? st->n : 0);
}

// ---- sum, total, avg -------------------------------------------------------

// One accumulator serves all three. Integers are summed exactly in isum until
// a non-integer arrives (approx) or the sum overflows (overflow, which sum()
// reports as an error); rsum always holds the floating-point sum.
struct SumState {
  double rsum;
  int64_t isum;
  int64_t cnt;
  bool overflow;
  bool approx;
};

// Inputs are classified like sqlite3_value_numeric_type(): text that is a
// whole integer literal counts as INTEGER, other numeric text as REAL, and
// anything else (non-numeric text, blobs) adds its numeric prefix as a REAL.
void SumStep(FuncContext* ctx, int, Value** argv) {
  auto* st = static_cast<SumState*>(AggregateContext(ctx, sizeof(SumState)));
  const Value& v = *argv[0];
  if (v.is_null()) return;
  int64_t i = 0;
  double r = 0.0;
  Type t = NumericType(v, &i, &r);
  ++st->cnt;
  if (t == Type::kInteger) {
    st->rsum += static_cast<double>(i);
    if (!st->approx && !st->overflow && __builtin_add_overflow(st->isum, i, &st->isum)) {
      st->approx = st->overflow = true;
    }
  } else {
    st->rsum += t == Type::kReal ? r : ValueToDouble(v);
    st->approx = true;
  }
}

void SumInverse(FuncContext* ctx, int, Value** argv) {
  auto* st = static_cast<SumState*>(AggregateContext(ctx, sizeof(SumState)));
  const Value& v = *argv[0];
  if (v.is_null()) return;
  int64_t i = 0;
  double r = 0.0;
  Type t = NumericType(v, &i, &r);
  --st->cnt;
  if (t == Type::kInteger && !st->approx) {
    st->rsum -= static_cast<double>(i);
    st->isum -= i;
  } else if (t == Type::kInteger) {
    st->rsum -= static_cast<double>(i);
  } else {
    st->rsum -= t == Type::kReal ? r : ValueToDouble(v);
  }
}

void SumFinal(FuncContext* ctx) {
  auto* st = static_cast<SumState*>(AggregateContext(ctx, 0));
  if (st == nullptr || st->cnt <= 0) {
    ctx->result->SetNull();
  } else if (st->overflow) {
    SetFuncError(ctx, "integer overflow");
  } else if (st->approx) {
    ResultReal(ctx, st->rsum);
  } else {
    ctx->result->SetInt(st->isum);
  }
}

void TotalFinal(FuncContext* ctx) {
  auto* st = static_cast<SumState*>(AggregateContext(ctx, 0));
  ResultReal(ctx, st ? st->rsum : 0.0);
}

void AvgFinal(FuncContext* ctx) {
  auto* st = static_cast<SumState*>(AggregateContext(ctx, 0));
  if (st == nullptr || st->cnt <= 0) {
    ctx->result->SetNull();
  } else {
    ResultReal(ctx, st->rsum / static_cast<double>(st->cnt));
  }
}

// ---- min, max ----------------------------------------------------------------

// The best value so far, constructed in place on the first non-NULL row.
struct MinMaxState {
  bool has_best;
  alignas(Value) unsigned char storage[sizeof(Value)];
  Value* best() { return std::launder(reinterpret_cast<Value*>(storage)); }
};

// NULLs are ignored. A row that does not replace the best sets skip_flag,
// which the VM uses for bare columns next to min()/max().
template <bool kMax>
void MinMaxStep(FuncContext* ctx, int, Value** argv) {
  auto* st = static_cast<MinMaxState*>(AggregateContext(ctx, sizeof(MinMaxState)));
  const Value& v = *argv[0];
  if (v.is_null()) {
    if (st->has_best) ctx->skip_flag = 1;
    return;
  }
  if (!st->has_best) {
    new (st->storage) Value(v);
    st->has_best = true;
    return;
  }
  int cmp = CompareValues(*st->best(), v, ctx->coll);
  if (kMax ? cmp < 0 : cmp > 0) {
    st->best()->CopyFrom(v);
  } else {
    ctx->skip_flag = 1;
  }
}

void MinMaxValue(FuncContext* ctx) {
  auto* st = static_cast<MinMaxState*>(AggregateContext(ctx, 0));
  if (st != nullptr && st->has_best) {
    ResultCopy(ctx, *st->best());
  } else {
    ctx->result->SetNull();
  }
}

void MinMaxFinal(FuncContext* ctx) {
  auto* st = static_cast<MinMaxState*>(AggregateContext(ctx, 0));
  if (st != nullptr && st->has_best) {
    *ctx->result = std::move(*st->best());
    st->best()->~Value();
    st->has_best = false;
  } else {
    ctx->result->SetNull();
  }
}

// ---- group_concat ----------------------------------------------------------

// The concatenation so far, plus what inverse() needs to cut the oldest
// element off the front: the length of every separator actually inserted
// (only tracked once separators of different lengths have been seen; until
// then all have first_sep_len bytes).
struct GroupConcatState {
  char* buf;
  size_t len;
  size_t cap;
  bool started;   // a first element is in (the next one gets a separator)
  bool too_big;   // the result passed SQLITE_MAX_LENGTH: final reports it
  bool no_mem;    // a buffer could not grow: the step fails with SQLITE_NOMEM
  int64_t count;  // elements currently concatenated
  int64_t first_sep_len;
  int64_t* sep_lens;  // count - 1 entries when non-null
  size_t sep_cap;
};

void Append(GroupConcatState* st, const char* p, size_t n) {
  if (st->too_big || st->no_mem || n == 0) return;
  if (static_cast<int64_t>(st->len + n) >= kMaxLength) {
    st->too_big = true;
    return;
  }
  if (st->len + n > st->cap) {
    size_t cap = st->cap < 64 ? 64 : st->cap;
    while (cap < st->len + n) cap *= 2;
    char* nb = static_cast<char*>(std::realloc(st->buf, cap));
    if (nb == nullptr) {
      st->no_mem = true;
      return;
    }
    st->buf = nb;
    st->cap = cap;
  }
  std::memcpy(st->buf + st->len, p, n);
  st->len += n;
}

void SetSepLen(GroupConcatState* st, size_t index, int64_t len) {
  if (st->no_mem) return;
  if (index >= st->sep_cap) {
    size_t cap = st->sep_cap < 16 ? 16 : st->sep_cap * 2;
    while (cap <= index) cap *= 2;
    auto* nb = static_cast<int64_t*>(std::realloc(st->sep_lens, cap * sizeof(int64_t)));
    if (nb == nullptr) {
      st->no_mem = true;
      return;
    }
    st->sep_lens = nb;
    st->sep_cap = cap;
  }
  st->sep_lens[index] = len;
}

// group_concat(X[,SEP]): non-NULL X in step order, SEP (default ',') before
// every element but the first; a NULL SEP inserts nothing. Each row's own
// SEP is the one placed before its element.
void GroupConcatStep(FuncContext* ctx, int argc, Value** argv) {
  if (argv[0]->is_null()) return;
  auto* st = static_cast<GroupConcatState*>(AggregateContext(ctx, sizeof(GroupConcatState)));
  bool first = !st->started;
  st->started = true;
  if (argc == 1) {
    if (!first) {
      Append(st, ",", 1);
    } else {
      st->first_sep_len = 1;
    }
  } else if (!first) {
    TextOf sep(*argv[1]);
    int64_t nsep = 0;
    if (!sep.is_null()) {
      Append(st, sep.data(), sep.size());
      nsep = static_cast<int64_t>(sep.size());
    }
    if (nsep != st->first_sep_len || st->sep_lens != nullptr) {
      if (st->sep_lens == nullptr) {
        for (int64_t k = 0; k + 1 < st->count; ++k) SetSepLen(st, k, st->first_sep_len);
      }
      if (st->count > 0) SetSepLen(st, static_cast<size_t>(st->count - 1), nsep);
    }
  } else {
    st->first_sep_len = static_cast<int64_t>(TextOf(*argv[1]).size());
  }
  ++st->count;
  TextOf val(*argv[0]);
  Append(st, val.data(), val.size());
  if (st->no_mem) SetFuncError(ctx, "out of memory", kNoMem);
}

// Removes the oldest element (and the separator after it) from the front.
void GroupConcatInverse(FuncContext* ctx, int, Value** argv) {
  if (argv[0]->is_null()) return;
  auto* st = static_cast<GroupConcatState*>(AggregateContext(ctx, sizeof(GroupConcatState)));
  int64_t cut = static_cast<int64_t>(TextOf(*argv[0]).size());
  --st->count;
  if (st->sep_lens != nullptr) {
    if (st->count > 0) {
      cut += st->sep_lens[0];
      std::memmove(st->sep_lens, st->sep_lens + 1,
                   static_cast<size_t>(st->count - 1) * sizeof(int64_t));
    }
  } else {
    cut += st->first_sep_len;
  }
  if (cut >= static_cast<int64_t>(st->len)) {
    st->len = 0;
  } else {
    st->len -= static_cast<size_t>(cut);
    std::memmove(st->buf, st->buf + cut, st->len);
  }
  if (st->len == 0) {
    st->started = false;
    std::free(st->sep_lens);
    st->sep_lens = nullptr;
    st->sep_cap = 0;
  }
}

void GroupConcatValue(FuncContext* ctx) {
  auto* st = static_cast<GroupConcatState*>(AggregateContext(ctx, 0));
  if (st == nullptr) {
    ctx->result->SetNull();
  } else if (st->no_mem) {
    SetFuncError(ctx, "out of memory", kNoMem);
  } else if (st->too_big) {
    ResultTooBig(ctx);
  } else if (st->len == 0) {
    ctx->result->SetNull();  // sqlite3_str_value() of an empty accumulator
  } else {
    ctx->result->SetText(std::string_view(st->buf, st->len));
  }
}

void GroupConcatFinal(FuncContext* ctx) {
  auto* st = static_cast<GroupConcatState*>(AggregateContext(ctx, 0));
  if (st == nullptr) {
    ctx->result->SetNull();
    return;
  }
  // The buffers go whatever happens to the result (SetText may run out of
  // memory and throw).
  struct Release {
    GroupConcatState* st;
    ~Release() {
      std::free(st->buf);
      std::free(st->sep_lens);
      st->buf = nullptr;
      st->sep_lens = nullptr;
      st->len = st->cap = st->sep_cap = 0;
    }
  } release{st};
  if (st->no_mem) {
    SetFuncError(ctx, "out of memory", kNoMem);
  } else if (st->too_big) {
    ResultTooBig(ctx);
  } else {
    ctx->result->SetText(std::string_view(st->buf ? st->buf : "", st->len));
  }
}

constexpr uint32_t kMinMaxFlags = kImpure | kFuncNeedsCollation | kFuncMinMax;

constexpr BuiltinSpec kTable[] = {
    Aggregate("count", 0, kImpure | kFuncCountStar, CountStep, CountFinal, CountFinal,
              CountInverse),
    Aggregate("count", 1, kImpure, CountStep, CountFinal, CountFinal, CountInverse),
    Aggregate("sum", 1, kImpure, SumStep, SumFinal, SumFinal, SumInverse),
    Aggregate("total", 1, kImpure, SumStep, TotalFinal, TotalFinal, SumInverse),
    Aggregate("avg", 1, kImpure, SumStep, AvgFinal, AvgFinal, SumInverse),
    Aggregate("min", 1, kMinMaxFlags, MinMaxStep<false>, MinMaxFinal, MinMaxValue),
    Aggregate("max", 1, kMinMaxFlags, MinMaxStep<true>, MinMaxFinal, MinMaxValue),
    Aggregate("group_concat", 1, kImpure, GroupConcatStep, GroupConcatFinal, GroupConcatValue,
              GroupConcatInverse),
    Aggregate("group_concat", 2, kImpure, GroupConcatStep, GroupConcatFinal, GroupConcatValue,
              GroupConcatInverse),
};

}  // namespace

std::span<const BuiltinSpec> AggregateFunctions() { return kTable; }

}  // namespace basalt::func
