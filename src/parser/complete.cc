// Parser::IsComplete: does the text end with a complete statement? (the
// semantics of sqlite3_complete)
//
// A small state machine over a coarse token stream. Statements normally end
// at ';', but CREATE [TEMP] TRIGGER ... needs ";END;" — so the machine tracks
// whether the statement began with [EXPLAIN] CREATE [TEMP] TRIGGER.
//
// States: 0 nothing seen yet, 1 between statements, 2 inside an ordinary
// statement, 3 after EXPLAIN, 4 after CREATE [TEMP], 5 inside a trigger,
// 6 after a ';' inside a trigger, 7 after ";END" inside a trigger.
// Tokens: ';' whitespace/comment other EXPLAIN CREATE TEMP TRIGGER END.
#include <cstdint>

#include "parser/parser.h"
#include "parser/tokenizer.h"

namespace basalt {

namespace {

enum CTok : uint8_t { kSemi, kWs, kOther, kExplain, kCreate, kTemp, kTrigger, kEnd };

// kNext[state][token] -> next state.
constexpr uint8_t kNext[8][8] = {
    //          ;  ws other explain create temp trigger end
    /* 0 */ {1, 0, 2, 3, 4, 2, 2, 2},
    /* 1 */ {1, 1, 2, 3, 4, 2, 2, 2},
    /* 2 */ {1, 2, 2, 2, 2, 2, 2, 2},
    /* 3 */ {1, 3, 3, 2, 4, 2, 2, 2},
    /* 4 */ {1, 4, 2, 2, 2, 4, 5, 2},
    /* 5 */ {6, 5, 5, 5, 5, 5, 5, 5},
    /* 6 */ {6, 6, 5, 5, 5, 5, 5, 7},
    /* 7 */ {1, 7, 5, 5, 5, 5, 5, 5},
};

bool WordIs(const char* z, size_t n, const char* word) {
  size_t i = 0;
  for (; i < n && word[i]; ++i) {
    char c = z[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c != word[i]) return false;
  }
  return i == n && word[i] == 0;
}

}  // namespace

// Runs the state machine over sql. With stop_at_first_end, returns the
// offset just past the first ';' that ends a statement (or sql.size());
// otherwise returns 1 if the text ends with a complete statement, else 0.
static size_t RunMachine(std::string_view sql, bool stop_at_first_end) {
  const char* z = sql.data();
  const char* end = z + sql.size();
  uint8_t state = 0;
  while (z < end && *z != 0) {
    CTok tok;
    switch (*z) {
      case ';':
        tok = kSemi;
        break;
      case ' ':
      case '\r':
      case '\t':
      case '\n':
      case '\f':
        tok = kWs;
        break;
      case '/':
        if (z + 1 >= end || z[1] != '*') {
          tok = kOther;
          break;
        }
        z += 2;
        while (z < end && *z != 0 && !(*z == '*' && z + 1 < end && z[1] == '/')) ++z;
        if (z >= end || *z == 0) return stop_at_first_end ? sql.size() : 0;  // unterminated
        ++z;
        tok = kWs;
        break;
      case '-':
        if (z + 1 >= end || z[1] != '-') {
          tok = kOther;
          break;
        }
        while (z < end && *z != 0 && *z != '\n') ++z;
        if (z >= end || *z == 0) return stop_at_first_end ? sql.size() : (state == 1);
        tok = kWs;
        break;
      case '[':
        ++z;
        while (z < end && *z != 0 && *z != ']') ++z;
        if (z >= end || *z == 0) return stop_at_first_end ? sql.size() : 0;
        tok = kOther;
        break;
      case '`':
      case '"':
      case '\'': {
        char q = *z;
        ++z;
        while (z < end && *z != 0 && *z != q) ++z;
        if (z >= end || *z == 0) return stop_at_first_end ? sql.size() : 0;
        tok = kOther;
        break;
      }
      default: {
        unsigned char c = static_cast<unsigned char>(*z);
        if (!parser::IsIdChar(c)) {
          tok = kOther;
          break;
        }
        size_t n = 1;
        while (z + n < end && parser::IsIdChar(static_cast<unsigned char>(z[n]))) ++n;
        tok = kOther;
        switch (c | 0x20) {
          case 'c':
            if (WordIs(z, n, "create")) tok = kCreate;
            break;
          case 't':
            if (WordIs(z, n, "trigger")) {
              tok = kTrigger;
            } else if (WordIs(z, n, "temp") || WordIs(z, n, "temporary")) {
              tok = kTemp;
            }
            break;
          case 'e':
            if (WordIs(z, n, "end")) {
              tok = kEnd;
            } else if (WordIs(z, n, "explain")) {
              tok = kExplain;
            }
            break;
          default:
            break;
        }
        z += n - 1;
        break;
      }
    }
    uint8_t next = kNext[state][tok];
    ++z;
    if (stop_at_first_end && next == 1 && state >= 2) return static_cast<size_t>(z - sql.data());
    state = next;
  }
  return stop_at_first_end ? sql.size() : (state == 1);
}

bool Parser::IsComplete(std::string_view sql) { return RunMachine(sql, false) != 0; }

size_t Parser::StatementEnd(std::string_view sql) { return RunMachine(sql, true); }

}  // namespace basalt
