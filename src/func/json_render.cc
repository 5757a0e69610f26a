// JSON text out of nodes and SQL values, and SQL values out of nodes.
//
// Rendering copies the JSON text of numbers and strings as the document had
// it (json('1.50') is 1.50, escapes stay as written) and drops whitespace;
// SQL values become JSON the way SQLite 3.40 writes them (reals through
// "%!.15g": 1.0, 1.0e+100, Inf; text escaped byte by byte).
#include <cstring>
#include <vector>

#include "func/json_internal.h"
#include "record/numeric_text.h"

namespace basalt::func::json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The escape letter of a control byte, 0 for the \u00XX ones.
constexpr char ShortEscape(unsigned char c) {
  switch (c) {
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    default:
      return 0;
  }
}

// Appends the contents of a JSON string (between the quotes) decoded.
void Unescape(const char* z, size_t n, std::string* out) {
  for (size_t i = 0; i < n; ++i) {
    char c = z[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    c = z[++i];
    if (c != 'u') {
      switch (c) {
        case 'b':
          c = '\b';
          break;
        case 'f':
          c = '\f';
          break;
        case 'n':
          c = '\n';
          break;
        case 'r':
          c = '\r';
          break;
        case 't':
          c = '\t';
          break;
        default:
          break;
      }
      out->push_back(c);
      continue;
    }
    auto hex4 = [&](size_t at) {
      uint32_t v = 0;
      for (size_t k = at; k < at + 4; ++k) {
        unsigned char h = static_cast<unsigned char>(z[k]);
        v = v * 16 + (IsAsciiDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      return v;
    };
    uint32_t v = hex4(i + 1);
    i += 4;
    if (v == 0) return;  // \u0000 ends the text
    // A high surrogate followed by an escaped low one is one character; a
    // lone surrogate is written as the 3-byte form of its value.
    if ((v & 0xfc00) == 0xd800 && i + 6 < n && z[i + 1] == '\\' && z[i + 2] == 'u') {
      uint32_t lo = hex4(i + 3);
      if ((lo & 0xfc00) == 0xdc00) {
        v = ((v & 0x3ff) << 10) + (lo & 0x3ff) + 0x10000;
        i += 6;
      }
    }
    char buf[4];
    out->append(buf, static_cast<size_t>(WriteUtf8(v, buf)));
  }
}

// The integer of a JSON integer token, or false when it does not fit in
// 64 bits (then it is read as a real).
bool TokenToInt(const char* z, size_t n, int64_t* out) {
  bool neg = z[0] == '-';
  size_t i = neg ? 1 : 0;
  if (n - i > 19) return false;
  uint64_t v = 0;
  for (; i < n; ++i) v = v * 10 + static_cast<uint64_t>(z[i] - '0');
  if (v <= static_cast<uint64_t>(INT64_MAX)) {
    *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }
  if (neg && v == static_cast<uint64_t>(INT64_MAX) + 1) {
    *out = INT64_MIN;
    return true;
  }
  return false;
}

}  // namespace

void JsonOut::String(const char* p, size_t n) {
  buf_.reserve(buf_.size() + n + 2);
  buf_.push_back('"');
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    buf_.append(p + run, i - run);
    run = i + 1;
    buf_.push_back('\\');
    if (c == '"' || c == '\\') {
      buf_.push_back(static_cast<char>(c));
    } else if (char e = ShortEscape(c)) {
      buf_.push_back(e);
    } else {
      const char u[5] = {'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
      buf_.append(u, 5);
    }
  }
  buf_.append(p + run, n - run);
  buf_.push_back('"');
}

void JsonOut::SqlValue(FuncContext* ctx, const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      Raw("null", 4);
      return;
    case Type::kInteger:
    case Type::kReal: {
      TextOf t(v);
      Raw(t.data(), t.size());
      return;
    }
    case Type::kText:
      if (v.subtype() == kJsonSubtype) {
        Raw(v.data(), v.size());
      } else {
        String(v.data(), v.size());
      }
      return;
    case Type::kBlob:
      if (!failed_) {
        SetFuncError(ctx, "JSON cannot hold BLOB values");
        failed_ = true;
      }
      return;
  }
}

void JsonOut::SetResult(FuncContext* ctx) const {
  if (failed_) return;
  if (static_cast<int64_t>(buf_.size()) > MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  ctx->result->SetText(buf_);
  ctx->result->set_subtype(kJsonSubtype);
}

namespace {

// A container being rendered: the part of its append chain (c) and the
// next child there (j).
struct RenderFrame {
  uint32_t c;
  uint32_t j;
  bool object;
};

// Writes a value, or the opening bracket of a container and pushes it.
void RenderOpen(const JsonDoc& doc, uint32_t i, JsonOut* out, FuncContext* ctx, Value** argv,
                std::vector<RenderFrame>* stack) {
  const Node* nd = &doc.at(i);
  if (nd->flags & kReplaced) {
    out->SqlValue(ctx, *argv[nd->aux]);
    return;
  }
  if (nd->flags & kPatched) {
    i = nd->aux;
    nd = &doc.at(i);
  }
  switch (nd->type) {
    case JType::kNull:
      out->Raw("null", 4);
      return;
    case JType::kTrue:
      out->Raw("true", 4);
      return;
    case JType::kFalse:
      out->Raw("false", 5);
      return;
    case JType::kInt:
    case JType::kReal:
      out->Raw(nd->text, nd->n);
      return;
    case JType::kString:
      if (nd->flags & kRaw) {
        out->String(nd->text, nd->n);
      } else {
        out->Raw(nd->text, nd->n);
      }
      return;
    case JType::kArray:
    case JType::kObject: {
      const bool object = nd->type == JType::kObject;
      out->Char(object ? '{' : '[');
      stack->push_back(RenderFrame{i, i + 1, object});
      return;
    }
  }
}

}  // namespace

// Iterative: what edits append can nest deeper than parsed documents.
void Render(const JsonDoc& doc, uint32_t i, JsonOut* out, FuncContext* ctx, Value** argv) {
  thread_local std::vector<RenderFrame> stack;
  const size_t base = stack.size();
  RenderOpen(doc, i, out, ctx, argv, &stack);
  while (stack.size() > base) {
    RenderFrame& f = stack.back();
    const Node& cn = doc.at(f.c);
    if (f.j > f.c + cn.n) {
      if (cn.flags & kAppended) {
        f.c = cn.append;
        f.j = f.c + 1;
        continue;
      }
      out->Char(f.object ? '}' : ']');
      stack.pop_back();
      continue;
    }
    const uint32_t label = f.j;
    const uint32_t value = f.object ? f.j + 1 : f.j;
    const bool object = f.object;
    f.j = value + doc.Size(value);
    if (doc.at(value).flags & kRemoved) continue;
    out->Separator();
    if (object) {
      RenderOpen(doc, label, out, ctx, argv, &stack);
      out->Char(':');
    }
    RenderOpen(doc, value, out, ctx, argv, &stack);
  }
}

void ReturnJson(const JsonDoc& doc, uint32_t i, FuncContext* ctx, Value** argv) {
  JsonOut& out = ScratchOut();
  out.Reset();
  Render(doc, i, &out, ctx, argv);
  out.SetResult(ctx);
}

void ReturnNode(const JsonDoc& doc, uint32_t i, FuncContext* ctx, Value** argv) {
  const Node& nd = doc.at(i);
  switch (nd.type) {
    case JType::kNull:
      ctx->result->SetNull();
      return;
    case JType::kTrue:
    case JType::kFalse:
      ctx->result->SetInt(nd.type == JType::kTrue ? 1 : 0);
      return;
    case JType::kInt: {
      int64_t v;
      if (TokenToInt(nd.text, nd.n, &v)) {
        ctx->result->SetInt(v);
        return;
      }
      [[fallthrough]];
    }
    case JType::kReal: {
      double r = 0.0;
      (void)ScanReal(nd.text, nd.n, &r);
      ResultReal(ctx, r);
      return;
    }
    case JType::kString: {
      if (nd.flags & kRaw) {
        ctx->result->SetText(std::string_view(nd.text, nd.n));
      } else if (!(nd.flags & kEscaped)) {
        ctx->result->SetText(std::string_view(nd.text + 1, nd.n - 2));
      } else {
        std::string& s = ScratchOut().buffer();
        s.clear();
        Unescape(nd.text + 1, nd.n - 2, &s);
        ctx->result->SetText(s);
      }
      return;
    }
    case JType::kArray:
    case JType::kObject:
      ReturnJson(doc, i, ctx, argv);
      return;
  }
}

JsonDoc& ScratchDoc() {
  thread_local JsonDoc doc;
  return doc;
}

JsonOut& ScratchOut() {
  thread_local JsonOut out;
  return out;
}

JsonDoc* ParseArg(FuncContext* ctx, const Value& v, bool report, bool for_edit) {
  if (v.is_null()) return nullptr;
  TextOf t(v);
  std::string_view text(t.data(), t.c_size());
  // The last well-formed document a read-only call parsed on this thread.
  thread_local JsonDoc cached;
  JsonDoc* doc = for_edit ? &ScratchDoc() : &cached;
  if (!for_edit && doc->texts() == 1 && doc->text(0) == text) return doc;
  doc->Clear();
  if (doc->ParseCopy(text.data(), text.size())) return doc;
  doc->Clear();
  if (report) SetFuncError(ctx, "malformed JSON");
  return nullptr;
}

}  // namespace basalt::func::json
