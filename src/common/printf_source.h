// Where the printf engine's arguments come from (internal to common/): C
// varargs for sqlite3_mprintf & co, or a PrintfArgs for the SQL function.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstring>

#include "common/printf.h"

namespace basalt {
namespace printf_internal {

// One place arguments come from: C varargs or SQL values.
class ArgSource {
 public:
  virtual ~ArgSource() = default;
  virtual bool sql() const = 0;
  // length: 0 int, 1 long, 2 long long (varargs only).
  virtual int64_t Signed(int length) = 0;
  virtual uint64_t Unsigned(int length) = 0;
  virtual int Int() = 0;  // '*' width or precision
  virtual double Real() = 0;
  // A string argument: null for a NULL pointer / SQL NULL. *len is the
  // length up to the first NUL.
  virtual const char* Str(size_t* len) = 0;
  virtual uint32_t CodePoint() = 0;  // %c from varargs
  virtual uint64_t Pointer() = 0;
  virtual int* CountPtr() = 0;  // %n from varargs
};

class VaSource final : public ArgSource {
 public:
  explicit VaSource(va_list ap) { va_copy(ap_, ap); }
  ~VaSource() override { va_end(ap_); }
  bool sql() const override { return false; }
  int64_t Signed(int length) override {
    if (length == 2) return va_arg(ap_, long long);
    if (length == 1) return va_arg(ap_, long);
    return va_arg(ap_, int);
  }
  uint64_t Unsigned(int length) override {
    if (length == 2) return va_arg(ap_, unsigned long long);
    if (length == 1) return va_arg(ap_, unsigned long);
    return va_arg(ap_, unsigned int);
  }
  int Int() override { return va_arg(ap_, int); }
  double Real() override { return va_arg(ap_, double); }
  const char* Str(size_t* len) override {
    const char* s = va_arg(ap_, const char*);
    *len = s ? std::strlen(s) : 0;
    return s;
  }
  uint32_t CodePoint() override { return va_arg(ap_, unsigned int); }
  uint64_t Pointer() override { return reinterpret_cast<uintptr_t>(va_arg(ap_, void*)); }
  int* CountPtr() override { return va_arg(ap_, int*); }

 private:
  va_list ap_;
};

class SqlSource final : public ArgSource {
 public:
  explicit SqlSource(PrintfArgs* args) : args_(args) {}
  bool sql() const override { return true; }
  int64_t Signed(int) override { return args_->NextInt64(); }
  uint64_t Unsigned(int) override { return static_cast<uint64_t>(args_->NextInt64()); }
  int Int() override { return static_cast<int>(args_->NextInt64()); }
  double Real() override { return args_->NextDouble(); }
  const char* Str(size_t* len) override {
    std::string_view t;
    if (!args_->NextText(&t)) {
      *len = 0;
      return nullptr;
    }
    if (t.data() == nullptr) {
      *len = 0;
      return "";
    }
    const void* nul = std::memchr(t.data(), 0, t.size());
    *len = nul ? static_cast<size_t>(static_cast<const char*>(nul) - t.data()) : t.size();
    return t.data();
  }
  uint32_t CodePoint() override { return 0; }
  uint64_t Pointer() override { return static_cast<uint64_t>(args_->NextInt64()); }
  int* CountPtr() override { return nullptr; }

 private:
  PrintfArgs* args_;
};

}  // namespace printf_internal
}  // namespace basalt
