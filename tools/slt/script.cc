// Script parsing. One pass over the lines:
//   1. skip blank and comment lines between records;
//   2. collect condition lines (and comments among them);
//   3. read the command line and, by command, the SQL lines up to a blank line
//      (or up to "----" for a query, then the expected values up to a blank
//      line).
// A bad command line yields a kMalformed record spanning its block, so that
// one bad record never stops the rest of the file.
#include "script.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace basalt::slt {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (!IsSpace(c)) return false;
  }
  return true;
}

bool IsComment(std::string_view line) { return !line.empty() && line[0] == '#'; }

// Splits a command line into words; a word starting with '#' ends the line.
std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size() || line[i] == '#') break;
    size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    words.push_back(line.substr(start, i - start));
  }
  return words;
}

// Removes every '\r' that ends a line, and makes the text end with '\n'.
void NormalizeLineEnds(std::string* text) {
  size_t out = 0;
  const size_t n = text->size();
  char* p = text->data();
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == '\r' && (i + 1 == n || p[i + 1] == '\n')) continue;
    p[out++] = p[i];
  }
  text->resize(out);
  if (text->empty() || text->back() != '\n') text->push_back('\n');
}

bool ParseInt(std::string_view s, int* value) {
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

class Parser {
 public:
  explicit Parser(Script* script) : s_(*script), lines_(script->lines) {}

  void Run() {
    size_t i = 0;
    while (i < lines_.size()) {
      if (IsBlank(lines_[i]) || IsComment(lines_[i])) {
        ++i;
        continue;
      }
      i = ParseRecord(i);
    }
  }

 private:
  size_t EndOfBlock(size_t i) const {
    while (i < lines_.size() && !IsBlank(lines_[i])) ++i;
    return i;
  }

  // Parses the record starting at line index i; returns the index after it.
  size_t ParseRecord(size_t i) {
    Record r;
    r.first_line = static_cast<int>(i) + 1;
    r.condition_begin = static_cast<uint32_t>(s_.conditions.size());
    for (; i < lines_.size() && !IsBlank(lines_[i]); ++i) {
      if (IsComment(lines_[i])) continue;
      std::vector<std::string_view> words = Words(lines_[i]);
      if (words.empty()) continue;  // only an indented comment
      const bool skip_if = words[0] == "skipif";
      if (!skip_if && words[0] != "onlyif") break;
      if (words.size() < 2) return Malformed(std::move(r), i, "condition without an engine name");
      s_.conditions.push_back(Condition{!skip_if, words[1]});
    }
    r.condition_count = static_cast<uint32_t>(s_.conditions.size()) - r.condition_begin;
    if (i == lines_.size() || IsBlank(lines_[i])) {
      return Malformed(std::move(r), i > 0 ? i - 1 : 0, "condition not followed by a record");
    }
    r.line = static_cast<int>(i) + 1;
    std::vector<std::string_view> words = Words(lines_[i]);
    const std::string_view command = words.empty() ? std::string_view() : words[0];
    if (command == "statement") {
      if (words.size() != 2 || (words[1] != "ok" && words[1] != "error")) {
        return Malformed(std::move(r), i, "expected 'statement ok' or 'statement error'");
      }
      r.kind = RecordKind::kStatement;
      r.expect_error = words[1] == "error";
      return ReadSql(std::move(r), i + 1, /*stop_at_separator=*/false);
    }
    if (command == "query") {
      if (words.size() < 2 || words.size() > 4) {
        return Malformed(std::move(r), i, "expected 'query TYPES [SORT] [LABEL]'");
      }
      for (char c : words[1]) {
        if (c != 'T' && c != 'I' && c != 'R') {
          return Malformed(std::move(r), i,
                           "bad column type '" + std::string(1, c) + "' (want T, I or R)");
        }
      }
      r.kind = RecordKind::kQuery;
      r.types = words[1];
      if (words.size() >= 3) {
        if (words[2] == "nosort") {
          r.sort = SortMode::kNoSort;
        } else if (words[2] == "rowsort") {
          r.sort = SortMode::kRowSort;
        } else if (words[2] == "valuesort") {
          r.sort = SortMode::kValueSort;
        } else {
          return Malformed(std::move(r), i, "unknown sort mode '" + std::string(words[2]) + "'");
        }
      }
      if (words.size() == 4) r.label = words[3];
      return ReadSql(std::move(r), i + 1, /*stop_at_separator=*/true);
    }
    if (command == "hash-threshold") {
      if (words.size() != 2 || !ParseInt(words[1], &r.hash_threshold)) {
        return Malformed(std::move(r), i, "expected 'hash-threshold N'");
      }
      r.kind = RecordKind::kHashThreshold;
      return Finish(std::move(r), EndOfBlock(i + 1));
    }
    if (command == "halt") {
      r.kind = RecordKind::kHalt;
      return Finish(std::move(r), EndOfBlock(i + 1));
    }
    return Malformed(std::move(r), i, "unknown record type '" + std::string(command) + "'");
  }

  size_t ReadSql(Record r, size_t i, bool stop_at_separator) {
    const size_t first = i;
    while (i < lines_.size() && !IsBlank(lines_[i]) &&
           !(stop_at_separator && lines_[i] == "----")) {
      ++i;
    }
    r.sql_line = static_cast<int>(first) + 1;
    r.sql_lines = static_cast<int>(i - first);
    if (i > first) {
      const char* begin = lines_[first].data();
      const char* end = lines_[i - 1].data() + lines_[i - 1].size();
      r.sql = std::string_view(begin, end - begin);
      // The newline after the last SQL line becomes the terminating NUL.
      *const_cast<char*>(end) = '\0';
    } else {
      // No SQL: point at an empty, NUL-terminated string.
      r.sql = std::string_view(kEmpty, 0);
    }
    if (stop_at_separator && i < lines_.size() && lines_[i] == "----") {
      r.has_separator = true;
      ++i;
      r.expected_line = static_cast<int>(i) + 1;
      r.expected_begin = static_cast<uint32_t>(i);
      const size_t end = EndOfBlock(i);
      r.expected_count = static_cast<uint32_t>(end - i);
      i = end;
    }
    return Finish(std::move(r), i);
  }

  size_t Malformed(Record r, size_t i, std::string why) {
    r.kind = RecordKind::kMalformed;
    if (r.line == 0) r.line = static_cast<int>(i) + 1;
    r.error = std::move(why);
    return Finish(std::move(r), EndOfBlock(i));
  }

  size_t Finish(Record r, size_t end) {
    r.end_line = static_cast<int>(end) + 1;
    s_.records.push_back(std::move(r));
    return end;
  }

  static constexpr char kEmpty[] = "";
  Script& s_;
  const std::vector<std::string_view>& lines_;
};

}  // namespace

void ParseScript(std::string text, Script* script) {
  script->text = std::move(text);
  script->lines.clear();
  script->conditions.clear();
  script->records.clear();
  NormalizeLineEnds(&script->text);
  const char* p = script->text.data();
  const char* end = p + script->text.size();
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    script->lines.emplace_back(p, nl - p);
    p = nl + 1;
  }
  Parser(script).Run();
}

bool LoadScript(const std::string& path, Script* script, std::string* error) {
  script->path = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  std::string text;
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) text.reserve(st.st_size + 1);
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = std::string("cannot read: ") + std::strerror(errno);
      ::close(fd);
      return false;
    }
    text.append(buf, n);
  }
  ::close(fd);
  ParseScript(std::move(text), script);
  return true;
}

bool Applies(const Script& script, const Record& record, std::string_view engine) {
  for (uint32_t i = 0; i < record.condition_count; ++i) {
    const Condition& c = script.conditions[record.condition_begin + i];
    if (c.only_if != (c.engine == engine)) return false;
  }
  return true;
}

}  // namespace basalt::slt
