// String functions: length, lower, upper, substr/substring, ltrim, rtrim,
// trim, replace, instr (lang_corefunc).
//
// Numbers are seen through their text rendering (TextOf). Where SQLite walks
// a NUL-terminated string (length, substr of text, the trim character set)
// the walk stops at the first NUL byte, as it does there.
#include <memory>

#include "func/func_internal.h"

namespace basalt::func {
namespace {

// length(X): characters before the first NUL for text (a lead byte >= 0xc0
// and its continuation bytes make one character, a stray continuation byte
// counts alone), bytes for blobs, the rendering's length for numbers.
void LengthFunc(FuncContext* ctx, int, Value** argv) {
  const Value& v = *argv[0];
  switch (v.type()) {
    case Type::kNull:
      ctx->result->SetNull();
      return;
    case Type::kBlob:
      ctx->result->SetInt(v.size());
      return;
    case Type::kInteger:
    case Type::kReal: {
      TextOf t(v);
      ctx->result->SetInt(static_cast<int64_t>(t.size()));
      return;
    }
    default:
      break;
  }
  const unsigned char* z = reinterpret_cast<const unsigned char*>(v.data());
  size_t n = v.size();
  size_t i = 0;
  int64_t chars = 0;
  while (i < n) {
    unsigned char c = z[i];
    if (c == 0) break;
    ++i;
    ++chars;
    if (c >= 0xc0) {
      while (i < n && (z[i] & 0xc0) == 0x80) ++i;
    }
  }
  ctx->result->SetInt(chars);
}

// upper(X) / lower(X): ASCII letters only; the result is always text.
template <bool kUpper>
void CaseFunc(FuncContext* ctx, int, Value** argv) {
  TextOf t(*argv[0]);
  if (t.is_null()) {
    ctx->result->SetNull();
    return;
  }
  size_t n = t.size();
  char* out = ctx->result->Reserve(Type::kText, n);
  const unsigned char* in = t.udata();
  for (size_t k = 0; k < n; ++k) {
    out[k] = static_cast<char>(kUpper ? AsciiUpper(in[k]) : AsciiLower(in[k]));
  }
}

// substr(X,Y[,Z]): characters of text, bytes of blobs. Y and Z are read as
// 32-bit integers (sqlite3_value_int). Rules for Y <= 0 and Z < 0 follow
// lang_corefunc: a negative Y counts from the end, Y == 0 eats one character
// of the length, a negative Z takes the characters before Y.
void SubstrFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argv[1]->is_null() || (argc == 3 && argv[2]->is_null())) {
    ctx->result->SetNull();
    return;
  }
  const Value& x = *argv[0];
  int64_t p1 = ValueToInt32(*argv[1]);
  int64_t p2;
  bool neg_p2 = false;
  if (argc == 3) {
    p2 = ValueToInt32(*argv[2]);
    if (p2 < 0) {
      p2 = -p2;
      neg_p2 = true;
    }
  } else {
    p2 = kMaxLength;
  }

  if (x.is_blob()) {
    // sqlite3_value_blob() of an empty blob is a null pointer: NULL result.
    if (x.size() == 0) {
      ctx->result->SetNull();
      return;
    }
    int64_t len = x.size();
    if (p1 < 0) {
      p1 += len;
      if (p1 < 0) {
        p2 += p1;
        if (p2 < 0) p2 = 0;
        p1 = 0;
      }
    } else if (p1 > 0) {
      --p1;
    } else if (p2 > 0) {
      --p2;
    }
    if (neg_p2) {
      p1 -= p2;
      if (p1 < 0) {
        p2 += p1;
        p1 = 0;
      }
    }
    if (p1 + p2 > len) {
      p2 = len - p1;
      if (p2 < 0) p2 = 0;
    }
    ctx->result->SetBlob(x.data() + p1, static_cast<size_t>(p2));
    return;
  }

  TextOf t(x);
  if (t.is_null()) {
    ctx->result->SetNull();
    return;
  }
  const unsigned char* z = t.udata();
  const unsigned char* end = z + t.c_size();
  if (p1 < 0) {
    int64_t len = 0;
    for (const unsigned char* q = z; q < end; ++len) q = SkipUtf8(q, end);
    p1 += len;
    if (p1 < 0) {
      p2 += p1;
      if (p2 < 0) p2 = 0;
      p1 = 0;
    }
  } else if (p1 > 0) {
    --p1;
  } else if (p2 > 0) {
    --p2;
  }
  if (neg_p2) {
    p1 -= p2;
    if (p1 < 0) {
      p2 += p1;
      p1 = 0;
    }
  }
  while (z < end && p1 > 0) {
    z = SkipUtf8(z, end);
    --p1;
  }
  const unsigned char* z2 = z;
  while (z2 < end && p2 > 0) {
    z2 = SkipUtf8(z2, end);
    --p2;
  }
  ctx->result->SetText(
      std::string_view(reinterpret_cast<const char*>(z), static_cast<size_t>(z2 - z)));
}

// ltrim/rtrim/trim: kSides bit 1 trims the left, bit 2 the right. Without Y
// only spaces go; with Y, every character of Y (up to its first NUL) is
// compared as a byte sequence against the ends of X.
template <int kSides>
void TrimFunc(FuncContext* ctx, int argc, Value** argv) {
  TextOf in(*argv[0]);
  if (in.is_null()) {
    ctx->result->SetNull();
    return;
  }
  const unsigned char* z = in.udata();
  size_t n = in.size();
  if (argc == 1) {
    if (kSides & 1) {
      while (n > 0 && *z == ' ') {
        ++z;
        --n;
      }
    }
    if (kSides & 2) {
      while (n > 0 && z[n - 1] == ' ') --n;
    }
    ctx->result->SetText(std::string_view(reinterpret_cast<const char*>(z), n));
    return;
  }
  TextOf set(*argv[1]);
  if (set.is_null()) {
    ctx->result->SetNull();
    return;
  }
  // Split the set into characters (byte offset and length; SQLite keeps the
  // length in a byte, hence the uint8_t).
  constexpr size_t kInline = 64;
  const unsigned char* chars_inline[kInline];
  uint8_t lens_inline[kInline];
  const unsigned char** chars = chars_inline;
  uint8_t* lens = lens_inline;
  const unsigned char* s = set.udata();
  const unsigned char* send = s + set.c_size();
  size_t nchar = 0;
  for (const unsigned char* q = s; q < send; ++nchar) q = SkipUtf8(q, send);
  std::unique_ptr<const unsigned char*[]> heap_chars;
  std::unique_ptr<uint8_t[]> heap_lens;
  if (nchar > kInline) {
    heap_chars.reset(new const unsigned char*[nchar]);
    heap_lens.reset(new uint8_t[nchar]);
    chars = heap_chars.get();
    lens = heap_lens.get();
  }
  {
    size_t k = 0;
    for (const unsigned char* q = s; q < send; ++k) {
      chars[k] = q;
      q = SkipUtf8(q, send);
      lens[k] = static_cast<uint8_t>(q - chars[k]);
    }
  }
  if (nchar > 0) {
    if (kSides & 1) {
      while (n > 0) {
        size_t k = 0;
        size_t len = 0;
        for (; k < nchar; ++k) {
          len = lens[k];
          if (len <= n && std::memcmp(z, chars[k], len) == 0) break;
        }
        if (k >= nchar) break;
        z += len;
        n -= len;
      }
    }
    if (kSides & 2) {
      while (n > 0) {
        size_t k = 0;
        size_t len = 0;
        for (; k < nchar; ++k) {
          len = lens[k];
          if (len <= n && std::memcmp(z + n - len, chars[k], len) == 0) break;
        }
        if (k >= nchar) break;
        n -= len;
      }
    }
  }
  ctx->result->SetText(std::string_view(reinterpret_cast<const char*>(z), n));
}

// replace(X,Y,Z): every non-overlapping occurrence of Y in X (left to right,
// bytewise) becomes Z. An empty Y (or one starting with a NUL byte) returns X
// itself (a blob X comes back as text, as in SQLite).
void ReplaceFunc(FuncContext* ctx, int, Value** argv) {
  TextOf str(*argv[0]);
  if (str.is_null()) {
    ctx->result->SetNull();
    return;
  }
  TextOf pat(*argv[1]);
  if (pat.is_null()) {
    ctx->result->SetNull();
    return;
  }
  if (pat.size() == 0 || pat.data()[0] == '\0') {
    if (argv[0]->is_blob()) {
      ctx->result->SetText(str.view());
    } else {
      ResultCopy(ctx, *argv[0]);
    }
    return;
  }
  TextOf rep(*argv[2]);
  if (rep.is_null()) {
    ctx->result->SetNull();
    return;
  }
  std::string_view s = str.view();
  std::string_view p = pat.view();
  std::string_view r = rep.view();
  // First pass: count matches to size the result exactly.
  size_t count = 0;
  for (size_t at = s.find(p); at != std::string_view::npos; at = s.find(p, at + p.size())) {
    ++count;
  }
  int64_t out_len = static_cast<int64_t>(s.size()) +
                    static_cast<int64_t>(count) *
                        (static_cast<int64_t>(r.size()) - static_cast<int64_t>(p.size()));
  if (out_len > MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  if (count == 0) {
    ctx->result->SetText(s);
    return;
  }
  char* out = ctx->result->Reserve(Type::kText, static_cast<size_t>(out_len));
  size_t from = 0;
  for (size_t at = s.find(p); at != std::string_view::npos; at = s.find(p, from)) {
    std::memcpy(out, s.data() + from, at - from);
    out += at - from;
    if (!r.empty()) std::memcpy(out, r.data(), r.size());
    out += r.size();
    from = at + p.size();
  }
  std::memcpy(out, s.data() + from, s.size() - from);
}

// instr(X,Y): 1-based character position of Y in X (bytes when both are
// blobs), 0 if absent, 1 for an empty Y, NULL if either is NULL.
void InstrFunc(FuncContext* ctx, int, Value** argv) {
  const Value& hv = *argv[0];
  const Value& nv = *argv[1];
  if (hv.is_null() || nv.is_null()) {
    ctx->result->SetNull();
    return;
  }
  TextOf ht(hv);
  TextOf nt(nv);
  bool is_text = !(hv.is_blob() && nv.is_blob());
  const unsigned char* h = ht.udata();
  size_t hn = ht.size();
  const unsigned char* nd = nt.udata();
  size_t nn = nt.size();
  int64_t pos = 1;
  if (nn > 0) {
    while (nn <= hn && (h[0] != nd[0] || std::memcmp(h, nd, nn) != 0)) {
      ++pos;
      do {
        --hn;
        ++h;
      } while (is_text && hn > 0 && (h[0] & 0xc0) == 0x80);
    }
    if (nn > hn) pos = 0;
  }
  ctx->result->SetInt(pos);
}

constexpr BuiltinSpec kTable[] = {
    Scalar("length", 1, kPure, LengthFunc),    Scalar("lower", 1, kPure, CaseFunc<false>),
    Scalar("upper", 1, kPure, CaseFunc<true>), Scalar("substr", 2, kPure, SubstrFunc),
    Scalar("substr", 3, kPure, SubstrFunc),    Scalar("substring", 2, kPure, SubstrFunc),
    Scalar("substring", 3, kPure, SubstrFunc), Scalar("ltrim", 1, kPure, TrimFunc<1>),
    Scalar("ltrim", 2, kPure, TrimFunc<1>),    Scalar("rtrim", 1, kPure, TrimFunc<2>),
    Scalar("rtrim", 2, kPure, TrimFunc<2>),    Scalar("trim", 1, kPure, TrimFunc<3>),
    Scalar("trim", 2, kPure, TrimFunc<3>),     Scalar("replace", 3, kPure, ReplaceFunc),
    Scalar("instr", 2, kPure, InstrFunc),
};

}  // namespace

std::span<const BuiltinSpec> StringFunctions() { return kTable; }

}  // namespace basalt::func
