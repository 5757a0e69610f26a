// A scenario's answers as text, one line per call, so that the transcripts
// of Basalt and of the system libsqlite3 can be compared as a whole.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "engines.h"

namespace basalt::apitest {

class Transcript {
 public:
  void Int(const std::string& what, long long v) { Line(what, std::to_string(v)); }
  void Str(const std::string& what, const char* s) {
    if (s == nullptr) {
      Line(what, "NULL");
      return;
    }
    std::string quoted = "\"";
    quoted.append(s);
    quoted.append("\"");
    Line(what, quoted);
  }
  void Str(const std::string& what, const unsigned char* s) {
    Str(what, reinterpret_cast<const char*>(s));
  }
  void Bool(const std::string& what, bool b) { Line(what, b ? "yes" : "no"); }
  const std::string& text() const { return text_; }

 private:
  void Line(const std::string& what, const std::string& answer) {
    text_.append(what);
    text_.append(" -> ");
    text_.append(answer);
    text_.push_back('\n');
  }
  std::string text_;
};

// Runs `scenario` on both engines and expects the same transcript; returns
// Basalt's for further checks. Skips the comparison (not the Basalt run)
// when the system library is missing.
template <typename Scenario>
std::string SameAsSqlite(Scenario&& scenario) {
  Transcript ours;
  scenario(Basalt(), &ours);
  const Api* ref = Sqlite();
  if (ref == nullptr) {
    ADD_FAILURE() << "libsqlite3.so.0 not loadable: no reference";
    return ours.text();
  }
  Transcript theirs;
  scenario(*ref, &theirs);
  EXPECT_EQ(ours.text(), theirs.text());
  return ours.text();
}

}  // namespace basalt::apitest
