// Encoding functions: typeof, subtype, hex, quote, char, unicode, zeroblob, soundex
// (lang_corefunc; soundex because the referee is built with SQLITE_SOUNDEX).
#include "common/printf.h"
#include "func/func_internal.h"

namespace basalt::func {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

void TypeofFunc(FuncContext* ctx, int, Value** argv) {
  static constexpr std::string_view kNames[] = {"null", "integer", "real", "text", "blob"};
  ctx->result->SetTextStatic(kNames[static_cast<int>(argv[0]->type())]);
}

// subtype(X): the value's subtype (sqlite3_value_subtype), 0 normally.
void SubtypeFunc(FuncContext* ctx, int, Value** argv) { ctx->result->SetInt(argv[0]->subtype()); }

// hex(X): the bytes of X (numbers through their text) as upper-case hex.
// NULL gives the empty string.
void HexFunc(FuncContext* ctx, int, Value** argv) {
  TextOf t(*argv[0]);
  size_t n = t.size();
  if (static_cast<int64_t>(n) * 2 + 1 > MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  char* out = ctx->result->Reserve(Type::kText, n * 2);
  const unsigned char* in = t.udata();
  for (size_t k = 0; k < n; ++k) {
    out[2 * k] = kHexDigits[in[k] >> 4];
    out[2 * k + 1] = kHexDigits[in[k] & 0x0f];
  }
}

// The text of an SQL literal for v (quote()): reals with 15 significant
// digits when that reads back exactly, else 20 digits in exponent form;
// text single-quoted up to its first NUL; blobs as X'..'.
void QuoteFunc(FuncContext* ctx, int, Value** argv) {
  const Value& v = *argv[0];
  switch (v.type()) {
    case Type::kNull:
      ctx->result->SetTextStatic("NULL");
      return;
    case Type::kInteger: {
      char buf[32];
      int n = IntToText(v.int_value(), buf);
      ctx->result->SetText(std::string_view(buf, static_cast<size_t>(n)));
      return;
    }
    case Type::kReal: {
      double r1 = v.real_value();
      char buf[64];
      int n = RealToText(r1, buf);
      int64_t i2;
      double r2 = 0.0;
      int kind = ParseNumericText(buf, static_cast<size_t>(n), &i2, &r2);
      if (kind == 1) r2 = static_cast<double>(i2);
      if (r1 != r2) {
        SqlSnprintf(sizeof buf, buf, "%!0.20e", r1);
        n = static_cast<int>(std::strlen(buf));
      }
      ctx->result->SetText(std::string_view(buf, static_cast<size_t>(n)));
      return;
    }
    case Type::kText: {
      const char* z = v.data();
      size_t n = TextOf(v).c_size();
      size_t quotes = 0;
      for (size_t k = 0; k < n; ++k) quotes += z[k] == '\'';
      if (static_cast<int64_t>(n + quotes + 2) > MaxLength(ctx)) {
        ResultTooBig(ctx);
        return;
      }
      char* out = ctx->result->Reserve(Type::kText, n + quotes + 2);
      *out++ = '\'';
      for (size_t k = 0; k < n; ++k) {
        *out++ = z[k];
        if (z[k] == '\'') *out++ = '\'';
      }
      *out = '\'';
      return;
    }
    case Type::kBlob: {
      size_t n = v.size();
      if (static_cast<int64_t>(n) * 2 + 4 > MaxLength(ctx)) {
        ResultTooBig(ctx);
        return;
      }
      const unsigned char* in = reinterpret_cast<const unsigned char*>(v.data());
      char* out = ctx->result->Reserve(Type::kText, n * 2 + 3);
      *out++ = 'X';
      *out++ = '\'';
      for (size_t k = 0; k < n; ++k) {
        *out++ = kHexDigits[in[k] >> 4];
        *out++ = kHexDigits[in[k] & 0x0f];
      }
      *out = '\'';
      return;
    }
  }
}

// char(X1,...,XN): code points from sqlite3_value_int64 of each argument;
// out-of-range values become U+FFFD, surrogates are encoded as they are.
void CharFunc(FuncContext* ctx, int argc, Value** argv) {
  char* out = ctx->result->Reserve(Type::kText, static_cast<size_t>(argc) * 4);
  size_t n = 0;
  for (int k = 0; k < argc; ++k) {
    int64_t x = ValueToInt64(*argv[k]);
    if (x < 0 || x > 0x10ffff) x = 0xfffd;
    n += static_cast<size_t>(WriteUtf8(static_cast<uint32_t>(x & 0x1fffff), out + n));
  }
  ctx->result->Truncate(n);
}

// unicode(X): code point of the first character; NULL for NULL or ''.
void UnicodeFunc(FuncContext* ctx, int, Value** argv) {
  TextOf t(*argv[0]);
  if (t.is_null() || t.size() == 0 || t.data()[0] == '\0') {
    ctx->result->SetNull();
    return;
  }
  const unsigned char* p = t.udata();
  ctx->result->SetInt(ReadUtf8(&p, p + t.c_size()));
}

// zeroblob(N): N zero bytes (N < 0 → 0).
void ZeroblobFunc(FuncContext* ctx, int, Value** argv) {
  int64_t n = ValueToInt64(*argv[0]);
  if (n < 0) n = 0;
  if (n > MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  char* out = ctx->result->Reserve(Type::kBlob, static_cast<size_t>(n));
  std::memset(out, 0, static_cast<size_t>(n));
}

// Soundex digit of an ASCII letter (0 for vowels, H, W, Y and non-letters).
int SoundexCode(unsigned char c) {
  //                               ABCDEFGHIJKLMNOPQRSTUVWXYZ
  static constexpr char kCodes[] = "01230120022455012623010202";
  c = AsciiUpper(c);
  return (c >= 'A' && c <= 'Z') ? kCodes[c - 'A'] - '0' : 0;
}

// soundex(X): first ASCII letter upper-cased, then up to three digits of the
// following letters (repeats of the previous code collapsed, a vowel resets
// that), padded with '0'; "?000" when X has no ASCII letter. Bytes >= 0x80
// are coded by their low seven bits, as in SQLite.
void SoundexFunc(FuncContext* ctx, int, Value** argv) {
  TextOf t(*argv[0]);
  const unsigned char* z = t.udata();
  size_t n = t.is_null() ? 0 : t.c_size();
  size_t i = 0;
  while (i < n && !IsAsciiAlpha(z[i])) ++i;
  if (i >= n) {
    ctx->result->SetTextStatic("?000");
    return;
  }
  char out[4];
  int prev = SoundexCode(z[i] & 0x7f);
  out[0] = static_cast<char>(AsciiUpper(z[i]));
  int j = 1;
  for (; j < 4 && i < n; ++i) {
    int code = SoundexCode(z[i] & 0x7f);
    if (code > 0) {
      if (code != prev) {
        prev = code;
        out[j++] = static_cast<char>('0' + code);
      }
    } else {
      prev = 0;
    }
  }
  while (j < 4) out[j++] = '0';
  ctx->result->SetText(std::string_view(out, 4));
}

constexpr BuiltinSpec kTable[] = {
    Scalar("typeof", 1, kPure, TypeofFunc),     Scalar("subtype", 1, kPure, SubtypeFunc),
    Scalar("hex", 1, kPure, HexFunc),           Scalar("quote", 1, kPure, QuoteFunc),
    Scalar("char", -1, kPure, CharFunc),        Scalar("unicode", 1, kPure, UnicodeFunc),
    Scalar("zeroblob", 1, kPure, ZeroblobFunc), Scalar("soundex", 1, kPure, SoundexFunc),
};

}  // namespace

std::span<const BuiltinSpec> EncodeFunctions() { return kTable; }

}  // namespace basalt::func
