#include "common/printf.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/mem.h"
#include "common/printf_float.h"
#include "common/printf_source.h"

namespace basalt {

namespace {

using printf_internal::ArgSource;
using printf_internal::EmitFloat;
using printf_internal::FloatSpec;
using printf_internal::PreparedFloat;
using printf_internal::PrepareFloat;
using printf_internal::SqlSource;
using printf_internal::VaSource;

// Size of the on-stack conversion buffer; larger conversions use the heap.
constexpr int kConvBuf = 70;

enum class Kind {
  kDecimal,
  kRadix,
  kOrdinal,
  kPointer,
  kFloat,
  kString,
  kDynString,
  kPercent,
  kChar,
  kEscape,
  kEscape2,
  kEscape3,
  kCount,
  kInvalid
};

struct ConvInfo {
  char letter;
  Kind kind;
  uint8_t base;
  bool is_signed;
  const char* digits;
  const char* alt_prefix;  // with '#'
};

constexpr char kLower[] = "0123456789abcdef";
constexpr char kUpper[] = "0123456789ABCDEF";

constexpr ConvInfo kConvs[] = {
    {'d', Kind::kDecimal, 10, true, kLower, nullptr},
    {'s', Kind::kString, 0, false, nullptr, nullptr},
    {'g', Kind::kFloat, 0, true, nullptr, nullptr},
    {'z', Kind::kDynString, 0, false, nullptr, nullptr},
    {'q', Kind::kEscape, 0, false, nullptr, nullptr},
    {'Q', Kind::kEscape2, 0, false, nullptr, nullptr},
    {'w', Kind::kEscape3, 0, false, nullptr, nullptr},
    {'c', Kind::kChar, 0, false, nullptr, nullptr},
    {'o', Kind::kRadix, 8, false, kLower, "0"},
    {'u', Kind::kDecimal, 10, false, kLower, nullptr},
    {'x', Kind::kRadix, 16, false, kLower, "0x"},
    {'X', Kind::kRadix, 16, false, kUpper, "0X"},
    {'f', Kind::kFloat, 0, true, nullptr, nullptr},
    {'e', Kind::kFloat, 0, true, nullptr, nullptr},
    {'E', Kind::kFloat, 0, true, nullptr, nullptr},
    {'G', Kind::kFloat, 0, true, nullptr, nullptr},
    {'i', Kind::kDecimal, 10, true, kLower, nullptr},
    {'n', Kind::kCount, 0, false, nullptr, nullptr},
    {'%', Kind::kPercent, 0, false, nullptr, nullptr},
    {'p', Kind::kPointer, 16, false, kUpper, "0x"},  // upper-case digits, like SQLite
    {'r', Kind::kOrdinal, 10, true, kLower, nullptr},
};

const ConvInfo* FindConv(char c) {
  for (const ConvInfo& ci : kConvs) {
    if (ci.letter == c) return &ci;
  }
  return nullptr;
}

// Flags, width and precision of one conversion.
struct Spec {
  bool left = false;
  char sign = 0;  // '+' or ' '
  bool alt = false;
  bool alt2 = false;
  bool zero_pad = false;
  char thousands = 0;
  int length = 0;  // 1 for l, 2 for ll
  int width = 0;
  int precision = -1;
};

// Output with SQLite's length limit.
class Sink {
 public:
  Sink(std::string* out, size_t max_len) : out_(out), max_len_(max_len) {}
  bool failed() const { return too_big_; }
  size_t size() const { return out_->size(); }
  void Fail() {
    too_big_ = true;
    out_->clear();
  }
  // True if `n` more bytes may be allocated for a temporary.
  bool CanAllocate(int64_t n) {
    if (n > kConvBuf && static_cast<uint64_t>(n) > max_len_) {
      Fail();
      return false;
    }
    return true;
  }
  // True once anything (even zero bytes) was appended: the SQL function's
  // result is NULL otherwise.
  bool touched() const { return touched_; }
  void Append(const char* p, size_t n) {
    touched_ = true;
    if (too_big_) return;
    if (out_->size() + n + 1 > max_len_) return Fail();
    out_->append(p, n);
  }
  void Repeat(char c, int64_t n) {
    if (too_big_ || n <= 0) return;
    if (out_->size() + static_cast<uint64_t>(n) + 1 > max_len_) return Fail();
    out_->append(static_cast<size_t>(n), c);
  }

 private:
  std::string* out_;
  size_t max_len_;
  bool too_big_ = false;
  bool touched_ = false;
};

// The number of extra bytes UTF-8 continuation bytes add to a byte length:
// with '!', widths count characters.
int ContinuationBytes(const char* p, size_t n) {
  int k = 0;
  for (size_t i = 0; i < n; ++i) k += (static_cast<unsigned char>(p[i]) & 0xc0) == 0x80;
  return k;
}

// Parses flags, width, precision and length at *fmt (just past '%'); leaves
// *fmt at the conversion character (possibly the terminating NUL).
Spec ParseSpec(const char** fmt, ArgSource* args) {
  Spec s;
  const char* f = *fmt;
  char c = *f;
  bool done = false;
  do {
    switch (c) {
      case '-':
        s.left = true;
        break;
      case '+':
        s.sign = '+';
        break;
      case ' ':
        s.sign = ' ';
        break;
      case '#':
        s.alt = true;
        break;
      case '!':
        s.alt2 = true;
        break;
      case '0':
        s.zero_pad = true;
        break;
      case ',':
        s.thousands = ',';
        break;
      case 'l':
        s.length = 1;
        c = *++f;
        if (c == 'l') {
          c = *++f;
          s.length = 2;
        }
        done = true;
        break;
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9': {
        uint32_t w = static_cast<uint32_t>(c - '0');
        while ((c = *++f) >= '0' && c <= '9') w = w * 10 + static_cast<uint32_t>(c - '0');
        s.width = static_cast<int>(w & 0x7fffffff);
        if (c != '.' && c != 'l') {
          done = true;
        } else {
          --f;
        }
        break;
      }
      case '*': {
        int w = args->Int();
        if (w < 0) {
          s.left = true;
          w = w >= -2147483647 ? -w : 0;
        }
        s.width = w;
        if ((c = f[1]) != '.' && c != 'l') {
          c = *++f;
          done = true;
        }
        break;
      }
      case '.': {
        c = *++f;
        if (c == '*') {
          int p = args->Int();
          if (p < 0) p = p >= -2147483647 ? -p : -1;
          s.precision = p;
          c = *++f;
        } else {
          uint32_t p = 0;
          while (c >= '0' && c <= '9') {
            p = p * 10 + static_cast<uint32_t>(c - '0');
            c = *++f;
          }
          s.precision = static_cast<int>(p & 0x7fffffff);
        }
        if (c == 'l') {
          --f;
        } else {
          done = true;
        }
        break;
      }
      default:
        done = true;
        break;
    }
  } while (!done && (c = *++f) != 0);
  *fmt = f;
  return s;
}

// Integer conversions: d i u x X o p r.
void FormatInteger(const ConvInfo& ci, Spec s, ArgSource* args, Sink* sink) {
  uint64_t mag;
  char prefix = 0;
  int length = ci.kind == Kind::kPointer ? 2 : s.length;
  if (ci.kind != Kind::kDecimal) s.thousands = 0;
  if (ci.kind == Kind::kPointer) {
    mag = args->Pointer();
  } else if (ci.is_signed) {
    int64_t v = args->Signed(length);
    if (v < 0) {
      mag = static_cast<uint64_t>(0) - static_cast<uint64_t>(v);
      prefix = '-';
    } else {
      mag = static_cast<uint64_t>(v);
      prefix = s.sign;
    }
  } else {
    mag = args->Unsigned(length);
  }
  if (mag == 0) s.alt = false;
  int precision = s.precision;
  if (s.zero_pad && precision < s.width - (prefix != 0)) precision = s.width - (prefix != 0);

  int64_t cap = kConvBuf;
  if (precision >= kConvBuf - 10 - kConvBuf / 3) {
    cap = int64_t(precision) + 10;
    if (s.thousands) cap += precision / 3;
    if (!sink->CanAllocate(cap)) return;
  }
  char small[kConvBuf];
  std::vector<char> big;
  char* buf = small;
  if (cap > kConvBuf) {
    big.resize(static_cast<size_t>(cap));
    buf = big.data();
  }
  // Digits are written backwards from the end.
  char* end = buf + cap - 1;
  char* p = end;
  if (ci.kind == Kind::kOrdinal) {
    static constexpr char kSuffix[] = "thstndrd";
    int x = static_cast<int>(mag % 10);
    if (x >= 4 || (mag / 10) % 10 == 1) x = 0;
    *--p = kSuffix[x * 2 + 1];
    *--p = kSuffix[x * 2];
  }
  do {
    *--p = ci.digits[mag % ci.base];
    mag /= ci.base;
  } while (mag > 0);
  int64_t len = end - p;
  while (precision > len) {
    *--p = '0';
    ++len;
  }
  if (s.thousands) {
    int64_t commas = (len - 1) / 3;
    int64_t group = (len - 1) % 3 + 1;
    p -= commas;
    for (int64_t i = 0; commas > 0; ++i) {
      p[i] = p[i + commas];
      if (--group == 0) {
        p[++i] = s.thousands;
        --commas;
        group = 3;
      }
    }
  }
  if (prefix) *--p = prefix;
  if (s.alt && ci.alt_prefix) {
    for (const char* a = ci.alt_prefix + std::strlen(ci.alt_prefix); a > ci.alt_prefix;)
      *--p = *--a;
  }
  len = end - p;
  int64_t pad = int64_t(s.width) - len;
  if (pad > 0 && !s.left) sink->Repeat(' ', pad);
  sink->Append(p, static_cast<size_t>(len));
  if (pad > 0 && s.left) sink->Repeat(' ', pad);
}

void FormatFloatConv(char conv, const Spec& s, ArgSource* args, Sink* sink) {
  FloatSpec fs;
  fs.conv = conv;
  fs.precision = s.precision;
  fs.width = s.width;
  fs.sign = s.sign;
  fs.alt = s.alt;
  fs.alt2 = s.alt2;
  fs.zero_pad = s.zero_pad;
  fs.left = s.left;
  PreparedFloat pf = PrepareFloat(args->Real(), fs);
  char small[kConvBuf];
  std::vector<char> big;
  char* buf = small;
  if (pf.needed > kConvBuf) {
    if (!sink->CanAllocate(pf.needed)) return;
    big.resize(static_cast<size_t>(pf.needed));
    buf = big.data();
  }
  size_t len = EmitFloat(pf, buf);
  int64_t pad = int64_t(s.width) - int64_t(len);
  if (pad > 0 && !s.left) sink->Repeat(' ', pad);
  sink->Append(buf, len);
  if (pad > 0 && s.left) sink->Repeat(' ', pad);
}

// Emits bytes with width padding; with '!' the width counts characters.
void EmitPadded(const char* p, size_t len, const Spec& s, bool utf8_width, Sink* sink) {
  int64_t width = s.width;
  if (utf8_width && width > 0) width += ContinuationBytes(p, len);
  int64_t pad = width - int64_t(len);
  if (pad > 0 && !s.left) sink->Repeat(' ', pad);
  sink->Append(p, len);
  if (pad > 0 && s.left) sink->Repeat(' ', pad);
}

void FormatChar(Spec s, ArgSource* args, Sink* sink) {
  char buf[4];
  size_t len = 1;
  if (args->sql()) {
    size_t n;
    const char* t = args->Str(&n);
    buf[0] = (t && n > 0) ? t[0] : 0;
    if (t && n > 0 && (static_cast<unsigned char>(buf[0]) & 0xc0) == 0xc0) {
      while (len < 4 && len < n && (static_cast<unsigned char>(t[len]) & 0xc0) == 0x80) {
        buf[len] = t[len];
        ++len;
      }
    }
  } else {
    uint32_t ch = args->CodePoint();
    if (ch < 0x80) {
      buf[0] = static_cast<char>(ch & 0xff);
    } else if (ch < 0x800) {
      buf[0] = static_cast<char>(0xc0 | ((ch >> 6) & 0x1f));
      buf[1] = static_cast<char>(0x80 | (ch & 0x3f));
      len = 2;
    } else if (ch < 0x10000) {
      buf[0] = static_cast<char>(0xe0 | ((ch >> 12) & 0x0f));
      buf[1] = static_cast<char>(0x80 | ((ch >> 6) & 0x3f));
      buf[2] = static_cast<char>(0x80 | (ch & 0x3f));
      len = 3;
    } else {
      buf[0] = static_cast<char>(0xf0 | ((ch >> 18) & 0x07));
      buf[1] = static_cast<char>(0x80 | ((ch >> 12) & 0x3f));
      buf[2] = static_cast<char>(0x80 | ((ch >> 6) & 0x3f));
      buf[3] = static_cast<char>(0x80 | (ch & 0x3f));
      len = 4;
    }
  }
  // A precision repeats the character; the width covers all copies.
  if (s.precision > 1) {
    s.width -= s.precision - 1;
    if (s.width > 1 && !s.left) {
      sink->Repeat(' ', s.width - 1);
      s.width = 0;
    }
    for (int i = 1; i < s.precision && !sink->failed(); ++i) sink->Append(buf, len);
  }
  EmitPadded(buf, len, s, true, sink);
}

void FormatString(Kind kind, const Spec& s, ArgSource* args, Sink* sink) {
  size_t n;
  const char* str = args->Str(&n);
  char* to_free = (kind == Kind::kDynString && !args->sql()) ? const_cast<char*>(str) : nullptr;
  if (str == nullptr) {
    str = "";
    n = 0;
  }
  size_t len = n;
  if (s.precision >= 0) {
    if (s.alt2) {
      // Precision counts UTF-8 characters.
      size_t i = 0;
      for (int k = s.precision; k > 0 && i < n; --k) {
        ++i;
        while (i < n && (static_cast<unsigned char>(str[i]) & 0xc0) == 0x80) ++i;
      }
      len = i;
    } else if (static_cast<size_t>(s.precision) < n) {
      len = static_cast<size_t>(s.precision);
    }
  }
  EmitPadded(str, len, s, s.alt2, sink);
  mem::Free(to_free);  // %z: the argument came from sqlite3_malloc
}

// %q %Q %w: the argument with the quote character doubled.
void FormatEscaped(Kind kind, const Spec& s, ArgSource* args, Sink* sink) {
  char q = kind == Kind::kEscape3 ? '"' : '\'';
  size_t n;
  const char* arg = args->Str(&n);
  bool is_null = arg == nullptr;
  if (is_null) {
    arg = kind == Kind::kEscape2 ? "NULL" : "(NULL)";
    n = std::strlen(arg);
  }
  // The precision limits how much of the input is used (characters with '!').
  size_t used = 0;
  int64_t quotes = 0;
  for (int64_t k = s.precision; k != 0 && used < n; ++used, --k) {
    if (arg[used] == q) ++quotes;
    if (s.alt2 && (static_cast<unsigned char>(arg[used]) & 0xc0) == 0xc0) {
      while (used + 1 < n && (static_cast<unsigned char>(arg[used + 1]) & 0xc0) == 0x80) ++used;
    }
  }
  bool quoted = !is_null && kind == Kind::kEscape2;
  int64_t need = int64_t(used) + quotes + 3;
  if (!sink->CanAllocate(need)) return;
  std::string tmp;
  tmp.reserve(static_cast<size_t>(need));
  if (quoted) tmp.push_back(q);
  for (size_t i = 0; i < used; ++i) {
    tmp.push_back(arg[i]);
    if (arg[i] == q) tmp.push_back(q);
  }
  if (quoted) tmp.push_back(q);
  EmitPadded(tmp.data(), tmp.size(), s, s.alt2, sink);
}

// The engine: walks fmt, appending to sink.
void Format(const char* fmt, ArgSource* args, Sink* sink) {
  const char* f = fmt;
  while (*f != 0 && !sink->failed()) {
    if (*f != '%') {
      const char* start = f;
      while (*f != 0 && *f != '%') ++f;
      sink->Append(start, static_cast<size_t>(f - start));
      continue;
    }
    ++f;
    if (*f == 0) {
      sink->Append("%", 1);
      break;
    }
    Spec s = ParseSpec(&f, args);
    const ConvInfo* ci = FindConv(*f);
    if (ci == nullptr) return;  // unknown conversion (or end of format): stop
    ++f;
    switch (ci->kind) {
      case Kind::kDecimal:
      case Kind::kRadix:
      case Kind::kOrdinal:
      case Kind::kPointer:
        FormatInteger(*ci, s, args, sink);
        break;
      case Kind::kFloat:
        FormatFloatConv(ci->letter, s, args, sink);
        break;
      case Kind::kCount:
        if (!args->sql()) {
          int* p = args->CountPtr();
          if (p) *p = static_cast<int>(sink->size());
        }
        sink->Append("", 0);
        break;
      case Kind::kPercent:
        EmitPadded("%", 1, s, false, sink);
        break;
      case Kind::kChar:
        FormatChar(s, args, sink);
        break;
      case Kind::kString:
      case Kind::kDynString:
        FormatString(ci->kind, s, args, sink);
        break;
      case Kind::kEscape:
      case Kind::kEscape2:
      case Kind::kEscape3:
        FormatEscaped(ci->kind, s, args, sink);
        break;
      case Kind::kInvalid:
        return;
    }
  }
}

}  // namespace

bool SqlVAppendf(std::string* out, size_t max_len, const char* fmt, va_list ap) {
  VaSource src(ap);
  Sink sink(out, max_len);
  Format(fmt, &src, &sink);
  return !sink.failed();
}

std::string SqlVPrintf(const char* fmt, va_list ap) {
  std::string out;
  if (!SqlVAppendf(&out, kPrintfMaxLength, fmt, ap)) out.clear();
  return out;
}

std::string SqlPrintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = SqlVPrintf(fmt, ap);
  va_end(ap);
  return s;
}

char* SqlVSnprintf(int n, char* buf, const char* fmt, va_list ap) {
  if (n <= 0) return buf;
  std::string s = SqlVPrintf(fmt, ap);
  size_t len = s.size() < static_cast<size_t>(n - 1) ? s.size() : static_cast<size_t>(n - 1);
  std::memcpy(buf, s.data(), len);
  buf[len] = 0;
  return buf;
}

char* SqlSnprintf(int n, char* buf, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  SqlVSnprintf(n, buf, fmt, ap);
  va_end(ap);
  return buf;
}

bool SqlFormat(const char* fmt, PrintfArgs* args, size_t max_len, std::string* out) {
  SqlSource src(args);
  Sink sink(out, max_len);
  Format(fmt, &src, &sink);
  return !sink.failed() && sink.touched();
}

int FormatRealSql(double r, char* buf) {
  FloatSpec fs;
  fs.conv = 'g';
  fs.precision = 15;
  fs.alt2 = true;
  PreparedFloat pf = PrepareFloat(r, fs);
  size_t len = EmitFloat(pf, buf);
  buf[len] = 0;
  return static_cast<int>(len);
}

}  // namespace basalt
