// Shared pieces of the built-in function families (internal to src/func).
//
// Each family file (string.cc, numeric.cc, ...) defines its functions and a
// static table of BuiltinSpec rows; register.cc turns the tables into
// FunctionDefs. The helpers below reproduce the sqlite3_value_* accessors the
// SQLite semantics are written in terms of.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "catalog/function.h"
#include "common/result_code.h"
#include "record/value.h"
#include "record/value_ops.h"

namespace basalt::func {

// SQLITE_MAX_LENGTH (the default SQLITE_LIMIT_LENGTH): longest string or blob.
inline constexpr int64_t kMaxLength = 1000000000;
// The connection's SQLITE_LIMIT_LENGTH (kMaxLength without a connection):
// functions check a result's size against it before building the result.
inline int64_t MaxLength(FuncContext* ctx) {
  int limit = ctx->conn != nullptr ? ctx->conn->Limit(0) : -1;
  return limit >= 0 ? limit : kMaxLength;
}

// One row of a family's registration table.
struct BuiltinSpec {
  const char* name;
  int nargs;       // exact count, or -1 for "min_args or more"
  int min_args;    // only for nargs == -1
  uint32_t flags;  // FuncFlags
  ScalarFn scalar;
  ScalarFn step;
  FinalFn final;
  FinalFn value;
  ScalarFn inverse;
};

// Shorthands for the tables. SQLite marks its deterministic built-ins
// SQLITE_DETERMINISTIC|SQLITE_INNOCUOUS and the others SQLITE_INNOCUOUS.
inline constexpr uint32_t kPure = kFuncDeterministic | kFuncInnocuous;
inline constexpr uint32_t kImpure = kFuncInnocuous;

inline constexpr BuiltinSpec Scalar(const char* name, int nargs, uint32_t flags, ScalarFn fn,
                                    int min_args = 0) {
  return BuiltinSpec{name, nargs, min_args, flags, fn, nullptr, nullptr, nullptr, nullptr};
}
inline constexpr BuiltinSpec Aggregate(const char* name, int nargs, uint32_t flags, ScalarFn step,
                                       FinalFn final, FinalFn value = nullptr,
                                       ScalarFn inverse = nullptr) {
  return BuiltinSpec{name, nargs, 0, flags | kFuncAggregate, nullptr, step, final, value, inverse};
}

// The family tables.
std::span<const BuiltinSpec> StringFunctions();
std::span<const BuiltinSpec> EncodeFunctions();
std::span<const BuiltinSpec> NumericFunctions();
std::span<const BuiltinSpec> MiscFunctions();
std::span<const BuiltinSpec> MathFunctions();
std::span<const BuiltinSpec> AggregateFunctions();
std::span<const BuiltinSpec> WindowFunctions();  // window.cc
std::span<const BuiltinSpec> DateTimeFunctions();
std::span<const BuiltinSpec> OptionFunctions();
std::span<const BuiltinSpec> PatternFunctions();  // glob (like is registered apart)
std::span<const BuiltinSpec> JsonFunctions();     // json_*.cc, -> and ->>
// like(2) and like(3) for the chosen case sensitivity.
std::span<const BuiltinSpec> LikeFunctions(bool case_sensitive);

// ---- Value access ---------------------------------------------------------

// The bytes sqlite3_value_text()/sqlite3_value_blob() expose for a value:
// text and blobs as stored, integers and reals rendered as text ("%!.15g"
// for reals) into an internal buffer. Null for SQL NULL. Not copyable: the
// view may point into the object.
class TextOf {
 public:
  explicit TextOf(const Value& v) {
    switch (v.type()) {
      case Type::kNull:
        null_ = true;
        break;
      case Type::kInteger:
        size_ = static_cast<size_t>(IntToText(v.int_value(), buf_));
        data_ = buf_;
        break;
      case Type::kReal:
        size_ = static_cast<size_t>(RealToText(v.real_value(), buf_));
        data_ = buf_;
        break;
      default:
        data_ = v.data();
        size_ = v.size();
        if (data_ == nullptr) data_ = "";
        break;
    }
  }
  TextOf(const TextOf&) = delete;
  TextOf& operator=(const TextOf&) = delete;

  bool is_null() const { return null_; }
  const char* data() const { return data_; }
  const unsigned char* udata() const { return reinterpret_cast<const unsigned char*>(data_); }
  size_t size() const { return size_; }
  std::string_view view() const { return std::string_view(data_, size_); }
  // Length up to the first NUL byte: what C-string based SQLite code sees.
  size_t c_size() const {
    const void* z = std::memchr(data_, 0, size_);
    return z ? static_cast<size_t>(static_cast<const char*>(z) - data_) : size_;
  }

 private:
  const char* data_ = "";
  size_t size_ = 0;
  bool null_ = false;
  char buf_[32];
};

// sqlite3_value_int(): the int64 value truncated to 32 bits.
inline int ValueToInt32(const Value& v) { return static_cast<int>(ValueToInt64(v)); }

// sqlite3_value_numeric_type(): TEXT that is entirely a number (surrounding
// spaces allowed) reads as INTEGER (when an integer literal that fits) or
// REAL; every other value keeps its type. *i / *r receive the number.
Type NumericType(const Value& v, int64_t* i, double* r);

// sqlite3_result_double(): NaN becomes NULL.
inline void ResultReal(FuncContext* ctx, double r) {
  if (std::isnan(r)) {
    ctx->result->SetNull();
  } else {
    ctx->result->SetReal(r);
  }
}

// sqlite3_result_value(): a deep copy.
inline void ResultCopy(FuncContext* ctx, const Value& v) { ctx->result->CopyFrom(v); }

// SQLITE_TOOBIG as sqlite3_result_error_toobig() reports it.
inline void ResultTooBig(FuncContext* ctx) { SetFuncError(ctx, "string or blob too big", kTooBig); }

// SQLite's UTF-8 reader (sqlite3Utf8Read): a lead byte >= 0xc0 takes every
// following continuation byte; overlong forms, surrogates and U+FFFE/U+FFFF
// read as U+FFFD. Never reads past `end`.
uint32_t ReadUtf8(const unsigned char** p, const unsigned char* end);

// SQLITE_SKIP_UTF8: one character forward (lead byte >= 0xc0 plus its
// continuation bytes; any other byte alone).
inline const unsigned char* SkipUtf8(const unsigned char* p, const unsigned char* end) {
  if (*p++ >= 0xc0) {
    while (p < end && (*p & 0xc0) == 0x80) ++p;
  }
  return p;
}

// Writes the UTF-8 form of c (as char() does: up to 4 bytes for c < 2^21).
inline int WriteUtf8(uint32_t c, char* out) {
  if (c < 0x80) {
    out[0] = static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<char>(0xc0 + (c >> 6));
    out[1] = static_cast<char>(0x80 + (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<char>(0xe0 + (c >> 12));
    out[1] = static_cast<char>(0x80 + ((c >> 6) & 0x3f));
    out[2] = static_cast<char>(0x80 + (c & 0x3f));
    return 3;
  }
  out[0] = static_cast<char>(0xf0 + ((c >> 18) & 0x07));
  out[1] = static_cast<char>(0x80 + ((c >> 12) & 0x3f));
  out[2] = static_cast<char>(0x80 + ((c >> 6) & 0x3f));
  out[3] = static_cast<char>(0x80 + (c & 0x3f));
  return 4;
}

inline bool IsAsciiSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
inline bool IsAsciiDigit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiAlpha(unsigned char c) { return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }
inline unsigned char AsciiLower(unsigned char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + 32) : c;
}
inline unsigned char AsciiUpper(unsigned char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<unsigned char>(c - 32) : c;
}
// sqlite3_stricmp over a NUL-free view and a literal (ASCII folding).
bool EqualsNoCase(std::string_view a, std::string_view b);

}  // namespace basalt::func
