// .testcase and .check: the shell's own test harness.
//
//   .testcase ?NAME?   sends output to ./testcase-out.txt and names the case
//                      (at most 29 bytes; "?" when no NAME is given)
//   .check PATTERN     ends the capture and matches the captured text against
//                      PATTERN; "testcase-NAME ok" on standard output or a
//                      FAILED report on standard error (an error)
// A missing argument or an unreadable capture file makes .check end the
// shell quietly, as sqlite3 does.
//
// Pattern language (not SQL's GLOB): '*' any run, '?' one character,
// '[...]' a class ('^' inverts, 'a-z' ranges, ']' first is literal), '#' an
// optionally signed run of digits, white space matches one or more white
// space characters, and trailing white space in the text is ignored.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

bool Space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool Digit(char c) { return c >= '0' && c <= '9'; }

// Matches the class starting after '[' at *p against c; leaves *p after ']'.
bool ClassMatch(const char** p, char c) {
  const char* g = *p;
  bool invert = false;
  bool seen = false;
  if (*g == '^') {
    invert = true;
    ++g;
  }
  if (*g == ']') {
    seen = c == ']';
    ++g;
  }
  char prev = 0;
  while (*g != 0 && *g != ']') {
    if (*g == '-' && prev != 0 && g[1] != ']' && g[1] != 0) {
      if (c >= prev && c <= g[1]) seen = true;
      prev = 0;
      g += 2;
      continue;
    }
    if (*g == c) seen = true;
    prev = *g++;
  }
  if (*g == 0) return false;  // an unterminated class matches nothing
  *p = g + 1;
  return seen != invert;
}

bool TestGlob(const char* g, const char* z) {
  while (*g != 0) {
    const char c = *g++;
    if (Space(c)) {
      if (!Space(*z)) return false;
      while (Space(*g)) ++g;
      while (Space(*z)) ++z;
    } else if (c == '*') {
      // A run of '*' and '?' : each '?' consumes one character.
      while (*g == '*' || *g == '?') {
        if (*g++ == '?' && *z++ == 0) return false;
      }
      if (*g == 0) return true;
      if (*g == '[') {
        for (; *z != 0; ++z) {
          if (TestGlob(g, z)) return true;
        }
        return false;
      }
      // Any other character after '*' is taken literally, even '#' or a
      // space: the rest must match right after one of its occurrences.
      const char lit = *g++;
      for (; *z != 0; ++z) {
        if (*z == lit && TestGlob(g, z + 1)) return true;
      }
      return false;
    } else if (c == '?') {
      if (*z++ == 0) return false;
    } else if (c == '[') {
      if (*z == 0 || !ClassMatch(&g, *z)) return false;
      ++z;
    } else if (c == '#') {
      if ((*z == '-' || *z == '+') && Digit(z[1])) ++z;
      if (!Digit(*z)) return false;
      while (Digit(*z)) ++z;
    } else if (c != *z++) {
      return false;
    }
  }
  while (Space(*z)) ++z;
  return *z == 0;
}

}  // namespace

int DotTestcase(Shell& sh, const std::vector<std::string>& a) {
  OutputReset(sh);
  FILE* f = std::fopen("testcase-out.txt", "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "Error: cannot open 'testcase-out.txt'\n");
  } else {
    SetOutput(sh, f, false, "testcase-out.txt");
  }
  sh.testcase = a.size() >= 2 ? a[1].substr(0, 29) : "?";
  return 0;
}

int DotCheck(Shell& sh, const std::vector<std::string>& a) {
  OutputReset(sh);
  if (a.size() != 2) {
    std::fprintf(stderr, "Usage: .check GLOB-PATTERN\n");
    return 2;
  }
  std::ifstream in("testcase-out.txt", std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "Error: cannot read 'testcase-out.txt'\n");
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string got = text.str();
  if (!TestGlob(a[1].c_str(), got.c_str())) {
    std::fprintf(stderr, "testcase-%s FAILED\n Expected: [%s]\n      Got: [%s]\n",
                 sh.testcase.c_str(), a[1].c_str(), got.c_str());
    return 1;
  }
  std::fprintf(stdout, "testcase-%s ok\n", sh.testcase.c_str());
  return 0;
}

}  // namespace shell
