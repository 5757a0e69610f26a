#include "common/status.h"

#include <cstdarg>
#include <cstdio>

namespace basalt {

namespace {
const std::string& EmptyString() {
  static const std::string* empty = new std::string();
  return *empty;
}
}  // namespace

Status::Status(int code, std::string_view message) : code_(code) {
  if (code != kOk) msg_ = std::make_unique<std::string>(message);
}

Status::Status(int code) : code_(code) {
  if (code != kOk) msg_ = std::make_unique<std::string>(ResultCodeText(code));
}

Status Status::Corrupt(int line) {
  // The line is kept for debugging; the message is SQLite's.
  Status s(kCorrupt);
  last_corrupt_line = line;
  return s;
}

thread_local int Status::last_corrupt_line = 0;

const std::string& Status::message() const { return msg_ ? *msg_ : EmptyString(); }

std::string StrFormat(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string out;
  if (n > 0) {
    out.resize(static_cast<size_t>(n));
    std::vsnprintf(out.data(), out.size() + 1, fmt, ap2);
  }
  va_end(ap2);
  return out;
}

}  // namespace basalt
