// The read-only JSON functions: json, json_valid, json_type,
// json_array_length, json_extract and the -> / ->> operators, and the
// constructors json_quote, json_array, json_object (SQLite 3.40.1).
//
// Results that are JSON text carry the JSON subtype, so that another JSON
// function takes them as JSON rather than as a string to quote:
// json_array(json('[1]')) is [[1]], json_array('[1]') is ["[1]"].
//
// SQL NULL for the document gives NULL (json_valid: 0); a malformed
// document is the error "malformed JSON"; a NULL path gives NULL.
#include <cstring>
#include <vector>

#include "func/json_internal.h"

namespace basalt::func::json {
namespace {

constexpr uint32_t kJson = kFuncDeterministic;

// json(X): X minified.
void JsonFunc(FuncContext* ctx, int, Value** argv) {
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, false);
  if (doc != nullptr) ReturnJson(*doc, 0, ctx, argv);
}

// json_valid(X): 1 if X is well-formed JSON, else 0 (NULL too).
void ValidFunc(FuncContext* ctx, int, Value** argv) {
  ctx->result->SetInt(ParseArg(ctx, *argv[0], false, false) != nullptr ? 1 : 0);
}

// The node json_type/json_array_length look at: the root, or the one the
// path argument names. kNone when absent or on error.
uint32_t TargetNode(FuncContext* ctx, int argc, Value** argv, JsonDoc** doc) {
  *doc = ParseArg(ctx, *argv[0], true, false);
  if (*doc == nullptr) return kNone;
  if (argc < 2) return 0;
  bool failed;
  return LookupArg(*doc, *argv[1], nullptr, ctx, &failed);
}

void TypeFunc(FuncContext* ctx, int argc, Value** argv) {
  JsonDoc* doc;
  uint32_t i = TargetNode(ctx, argc, argv, &doc);
  if (i != kNone) ctx->result->SetTextStatic(TypeName(doc->at(i).type));
}

void ArrayLengthFunc(FuncContext* ctx, int argc, Value** argv) {
  JsonDoc* doc;
  uint32_t i = TargetNode(ctx, argc, argv, &doc);
  if (i == kNone) return;
  int64_t n = 0;
  if (doc->at(i).type == JType::kArray) {
    for (uint32_t j = i + 1; j <= i + doc->at(i).n; j += doc->Size(j)) ++n;
  }
  ctx->result->SetInt(n);
}

// json_extract(X, P): the value at P as SQL (containers as JSON text);
// with several paths, a JSON array of the values (null where absent).
void ExtractFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc < 2) return;
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, false);
  if (doc == nullptr) return;
  bool failed;
  if (argc == 2) {
    uint32_t i = LookupArg(doc, *argv[1], nullptr, ctx, &failed);
    if (i != kNone) ReturnNode(*doc, i, ctx, argv);
    return;
  }
  JsonOut& out = ScratchOut();
  out.Reset();
  out.Char('[');
  for (int k = 1; k < argc; ++k) {
    uint32_t i = LookupArg(doc, *argv[k], nullptr, ctx, &failed);
    if (failed) return;
    out.Separator();
    if (i != kNone) {
      Render(*doc, i, &out, ctx, argv);
    } else {
      out.Raw("null", 4);
    }
  }
  out.Char(']');
  out.SetResult(ctx);
}

// X -> P (JSON text) and X ->> P (SQL value). P may also be a label
// ('a' for '$.a', '[1]' for '$[1]') or an array index (1 for '$[1]').
void Arrow(FuncContext* ctx, Value** argv, bool as_json) {
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, false);
  if (doc == nullptr) return;
  TextOf t(*argv[1]);
  if (t.is_null()) return;
  std::string_view p(t.data(), t.c_size());
  thread_local std::string path;  // kept: no allocation per row
  path.clear();
  if (p.empty() || p[0] != '$') {
    if (!p.empty() && IsAsciiDigit(static_cast<unsigned char>(p[0]))) {
      path.append("$[").append(p).append("]");
    } else {
      path.append(!p.empty() && p[0] == '[' ? "$" : "$.").append(p);
    }
    p = path;
  }
  const char* err = nullptr;
  uint32_t i = doc->Lookup(p, nullptr, &err);
  if (err != nullptr) {
    PathError(ctx, err, static_cast<size_t>(p.data() + p.size() - err));
    return;
  }
  if (i == kNone) return;
  if (as_json) {
    ReturnJson(*doc, i, ctx, argv);
  } else {
    ReturnNode(*doc, i, ctx, argv);
    ctx->result->set_subtype(0);
  }
}

void ArrowJsonFunc(FuncContext* ctx, int, Value** argv) { Arrow(ctx, argv, true); }
void ArrowSqlFunc(FuncContext* ctx, int, Value** argv) { Arrow(ctx, argv, false); }

// json_quote(X): X as a JSON value.
void QuoteFunc(FuncContext* ctx, int, Value** argv) {
  JsonOut& out = ScratchOut();
  out.Reset();
  out.SqlValue(ctx, *argv[0]);
  out.SetResult(ctx);
}

void ArrayFunc(FuncContext* ctx, int argc, Value** argv) {
  JsonOut& out = ScratchOut();
  out.Reset();
  out.Char('[');
  for (int k = 0; k < argc; ++k) {
    out.Separator();
    out.SqlValue(ctx, *argv[k]);
  }
  out.Char(']');
  out.SetResult(ctx);
}

void ObjectFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc & 1) {
    SetFuncError(ctx, "json_object() requires an even number of arguments");
    return;
  }
  JsonOut& out = ScratchOut();
  out.Reset();
  out.Char('{');
  for (int k = 0; k < argc; k += 2) {
    if (!argv[k]->is_text()) {
      SetFuncError(ctx, "json_object() labels must be TEXT");
      return;
    }
    out.Separator();
    TextOf label(*argv[k]);
    out.String(label.data(), label.size());
    out.Char(':');
    out.SqlValue(ctx, *argv[k + 1]);
  }
  out.Char('}');
  out.SetResult(ctx);
}

constexpr BuiltinSpec kScalars[] = {
    Scalar("json", 1, kJson, JsonFunc),
    Scalar("json_array", -1, kJson, ArrayFunc),
    Scalar("json_array_length", 1, kJson, ArrayLengthFunc),
    Scalar("json_array_length", 2, kJson, ArrayLengthFunc),
    Scalar("json_extract", -1, kJson, ExtractFunc),
    Scalar("->", 2, kJson, ArrowJsonFunc),
    Scalar("->>", 2, kJson, ArrowSqlFunc),
    Scalar("json_object", -1, kJson, ObjectFunc),
    Scalar("json_quote", 1, kJson, QuoteFunc),
    Scalar("json_type", 1, kJson, TypeFunc),
    Scalar("json_type", 2, kJson, TypeFunc),
    Scalar("json_valid", 1, kJson, ValidFunc),
};

}  // namespace

std::span<const BuiltinSpec> ScalarFunctions() { return kScalars; }

}  // namespace basalt::func::json

namespace basalt::func {

std::span<const BuiltinSpec> JsonFunctions() {
  static const std::vector<BuiltinSpec> kAll = [] {
    std::vector<BuiltinSpec> all;
    for (auto family : {json::ScalarFunctions(), json::EditFunctions(), json::GroupFunctions()}) {
      all.insert(all.end(), family.begin(), family.end());
    }
    return all;
  }();
  return kAll;
}

}  // namespace basalt::func
