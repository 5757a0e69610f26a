// Errors are values. A Status is OK or carries an SQLite result code (primary
// or extended) and a message; a Result<T> is a T or a non-OK Status. Nothing
// in the engine throws across a layer boundary.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/result_code.h"

namespace basalt {

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(int code, std::string_view message);
  // A code with the default text for it (ResultCodeText).
  explicit Status(int code);

  Status(const Status& other) : code_(other.code_) {
    if (other.msg_) msg_ = std::make_unique<std::string>(*other.msg_);
  }
  Status& operator=(const Status& other) {
    if (this != &other) {
      code_ = other.code_;
      msg_ = other.msg_ ? std::make_unique<std::string>(*other.msg_) : nullptr;
    }
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status Ok() { return Status(); }
  // SQLITE_CORRUPT, recording the source line that detected it.
  static Status Corrupt(int line);
  static Status NoMem() { return Status(kNoMem); }

  bool ok() const { return code_ == kOk; }
  int code() const { return code_; }
  int primary() const { return code_ & 0xff; }
  const std::string& message() const;

  // The source line of the most recent Corrupt() (for debugging only).
  static thread_local int last_corrupt_line;

 private:
  int code_ = kOk;
  std::unique_ptr<std::string> msg_;  // null when OK
};

// Formats an error message printf-style.
std::string StrFormat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace basalt

#define BASALT_CONCAT_IMPL(a, b) a##b
#define BASALT_CONCAT(a, b) BASALT_CONCAT_IMPL(a, b)

// Returns the Status from the enclosing function if `expr` is not OK.
#define TRY(expr)                                \
  do {                                           \
    ::basalt::Status _basalt_st = (expr);        \
    if (!_basalt_st.ok()) return _basalt_st;     \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, F())` declares x from a Result or returns its error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(BASALT_CONCAT(_basalt_res_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return std::move(tmp).status(); \
  lhs = std::move(tmp).value()

#define CORRUPT() ::basalt::Status::Corrupt(__LINE__)
