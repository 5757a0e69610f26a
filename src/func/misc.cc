// Miscellaneous scalar functions: coalesce, ifnull, iif, nullif, likely,
// unlikely, likelihood, scalar min/max, printf/format, the connection
// counters, version strings, sqlite_log and load_extension (lang_corefunc);
// the FTS3 names that exist only to be overloaded.
#include <string>

#include "common/printf.h"
#include "func/func_internal.h"

namespace basalt::func {
namespace {

// coalesce(X,Y,...) and ifnull(X,Y): the first non-NULL argument. The code
// generator normally inlines these with short-circuiting; these bodies are
// for direct calls.
void CoalesceFunc(FuncContext* ctx, int argc, Value** argv) {
  for (int k = 0; k < argc; ++k) {
    if (!argv[k]->is_null()) {
      ResultCopy(ctx, *argv[k]);
      return;
    }
  }
  ctx->result->SetNull();
}

// iif(X,Y,Z): Y when X is true (CASE WHEN X THEN Y ELSE Z END).
void IifFunc(FuncContext* ctx, int, Value** argv) {
  ResultCopy(ctx, ValueTruth(*argv[0]) == 1 ? *argv[1] : *argv[2]);
}

// likely(X), unlikely(X), likelihood(X,P): X unchanged. (The planner checks
// that P is a constant between 0.0 and 1.0.)
void IdentityFunc(FuncContext* ctx, int, Value** argv) { ResultCopy(ctx, *argv[0]); }

// nullif(X,Y): X unless X equals Y under the call's collation.
void NullifFunc(FuncContext* ctx, int, Value** argv) {
  if (CompareValues(*argv[0], *argv[1], ctx->coll) != 0) {
    ResultCopy(ctx, *argv[0]);
  } else {
    ctx->result->SetNull();
  }
}

// Scalar min(X,Y,...) / max(X,Y,...): NULL if any argument is NULL. Ties go
// to the later argument for min and to the earlier one for max, as in SQLite
// (visible as min(1, 1.0) = 1.0 but max(1, 1.0) = 1).
template <bool kMax>
void MinMaxFunc(FuncContext* ctx, int argc, Value** argv) {
  int best = 0;
  if (argv[0]->is_null()) {
    ctx->result->SetNull();
    return;
  }
  for (int k = 1; k < argc; ++k) {
    if (argv[k]->is_null()) {
      ctx->result->SetNull();
      return;
    }
    int cmp = CompareValues(*argv[best], *argv[k], ctx->coll);
    if (kMax ? cmp < 0 : cmp >= 0) best = k;
  }
  ResultCopy(ctx, *argv[best]);
}

// PrintfArgs over the call's argument vector.
class ArgvPrintfArgs final : public PrintfArgs {
 public:
  ArgvPrintfArgs(Value** argv, int argc) : argv_(argv), argc_(argc) {}
  int64_t NextInt64() override { return next_ < argc_ ? ValueToInt64(*argv_[next_++]) : 0; }
  double NextDouble() override { return next_ < argc_ ? ValueToDouble(*argv_[next_++]) : 0.0; }
  bool NextText(std::string_view* text) override {
    if (next_ >= argc_) return false;
    const Value& v = *argv_[next_++];
    switch (v.type()) {
      case Type::kNull:
        return false;
      case Type::kInteger:
        *text = std::string_view(buf_, static_cast<size_t>(IntToText(v.int_value(), buf_)));
        return true;
      case Type::kReal:
        *text = std::string_view(buf_, static_cast<size_t>(RealToText(v.real_value(), buf_)));
        return true;
      default:
        *text = v.text();
        return true;
    }
  }

 private:
  Value** argv_;
  int argc_;
  int next_ = 0;
  char buf_[32];
};

// printf(FORMAT,...) / format(FORMAT,...): NULL without a format or for a
// NULL format; the format is read up to its first NUL byte.
void PrintfFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc < 1) {
    ctx->result->SetNull();
    return;
  }
  TextOf fmt(*argv[0]);
  if (fmt.is_null()) {
    ctx->result->SetNull();
    return;
  }
  // Scratch strings kept per thread so a row does not allocate.
  thread_local std::string fmt_copy;
  thread_local std::string out;
  const char* f = fmt.data();
  if (argv[0]->is_string_like() && !argv[0]->owns_bytes()) {
    fmt_copy.assign(fmt.data(), fmt.size());  // not known to be NUL-terminated
    f = fmt_copy.c_str();
  }
  out.clear();
  ArgvPrintfArgs args(argv + 1, argc - 1);
  // As SQLite, the text stops growing at the connection's SQLITE_LIMIT_LENGTH
  // (the result is then NULL), so a huge width or precision costs nothing.
  if (!SqlFormat(f, &args, static_cast<size_t>(MaxLength(ctx)), &out)) {
    ctx->result->SetNull();
    return;
  }
  ctx->result->SetText(out);
}

void ChangesFunc(FuncContext* ctx, int, Value**) {
  ctx->result->SetInt(ctx->conn ? ctx->conn->Changes() : 0);
}
void TotalChangesFunc(FuncContext* ctx, int, Value**) {
  ctx->result->SetInt(ctx->conn ? ctx->conn->TotalChanges() : 0);
}
void LastInsertRowidFunc(FuncContext* ctx, int, Value**) {
  ctx->result->SetInt(ctx->conn ? ctx->conn->LastInsertRowid() : 0);
}

void VersionFunc(FuncContext* ctx, int, Value**) { ctx->result->SetTextStatic("3.40.1"); }
void SourceIdFunc(FuncContext* ctx, int, Value**) {
  ctx->result->SetTextStatic(
      "2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1");
}

// sqlite_log(X,Y) writes to the error log; Basalt has none, so it only
// returns NULL.
void LogFunc(FuncContext* ctx, int, Value**) { ctx->result->SetNull(); }

// load_extension(X[,Y]): extension loading is disabled (SQLite's default for
// the SQL function).
void LoadExtensionFunc(FuncContext* ctx, int, Value**) { SetFuncError(ctx, "not authorized"); }

// match(), snippet(), offsets(), matchinfo(), optimize(): what FTS3
// registers so that its tables can overload them (xFindFunction); called on
// anything else they fail, as in SQLite's Debian build.
template <const char* kName>
void OverloadOnlyFunc(FuncContext* ctx, int, Value**) {
  SetFuncError(ctx, std::string("unable to use function ") + kName + " in the requested context");
}
constexpr char kMatch[] = "MATCH";
constexpr char kSnippet[] = "snippet";
constexpr char kOffsets[] = "offsets";
constexpr char kMatchinfo[] = "matchinfo";
constexpr char kOptimize[] = "optimize";

constexpr BuiltinSpec kTable[] = {
    Scalar("match", 2, 0, OverloadOnlyFunc<kMatch>),
    Scalar("snippet", -1, 0, OverloadOnlyFunc<kSnippet>),
    Scalar("offsets", 1, 0, OverloadOnlyFunc<kOffsets>),
    Scalar("matchinfo", 1, 0, OverloadOnlyFunc<kMatchinfo>),
    Scalar("matchinfo", 2, 0, OverloadOnlyFunc<kMatchinfo>),
    Scalar("optimize", 1, 0, OverloadOnlyFunc<kOptimize>),
    Scalar("coalesce", -1, kPure, CoalesceFunc, /*min_args=*/2),
    Scalar("ifnull", 2, kPure, CoalesceFunc),
    Scalar("iif", 3, kPure, IifFunc),
    Scalar("likely", 1, kPure, IdentityFunc),
    Scalar("unlikely", 1, kPure, IdentityFunc),
    Scalar("likelihood", 2, kPure, IdentityFunc),
    Scalar("nullif", 2, kPure | kFuncNeedsCollation, NullifFunc),
    Scalar("min", -1, kPure | kFuncNeedsCollation, MinMaxFunc<false>, /*min_args=*/2),
    Scalar("max", -1, kPure | kFuncNeedsCollation, MinMaxFunc<true>, /*min_args=*/2),
    Scalar("printf", -1, kPure, PrintfFunc),
    Scalar("format", -1, kPure, PrintfFunc),
    Scalar("changes", 0, kImpure, ChangesFunc),
    Scalar("total_changes", 0, kImpure, TotalChangesFunc),
    Scalar("last_insert_rowid", 0, kImpure, LastInsertRowidFunc),
    Scalar("sqlite_version", 0, kImpure, VersionFunc),
    Scalar("sqlite_source_id", 0, kImpure, SourceIdFunc),
    Scalar("sqlite_log", 2, kPure, LogFunc),
    Scalar("load_extension", 1, kFuncDirectOnly, LoadExtensionFunc),
    Scalar("load_extension", 2, kFuncDirectOnly, LoadExtensionFunc),
};

}  // namespace

std::span<const BuiltinSpec> MiscFunctions() { return kTable; }

}  // namespace basalt::func
