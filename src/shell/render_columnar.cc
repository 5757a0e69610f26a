// The columnar modes (column, table, markdown, box). The whole result is
// read first, because each column is as wide as its widest value: every
// value is split into display lines of at most the column's wrap width
// (.width N, else --wrap N), then the grid is drawn.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

// Box-drawing pieces, named by the directions their lines go.
constexpr const char* kH = "\342\224\200";      // horizontal line
constexpr const char* kV = "\342\224\202";      // vertical line
constexpr const char* kDR = "\342\224\214";     // top-left corner
constexpr const char* kDL = "\342\224\220";     // top-right corner
constexpr const char* kUR = "\342\224\224";     // bottom-left corner
constexpr const char* kUL = "\342\224\230";     // bottom-right corner
constexpr const char* kVR = "\342\224\234";     // left tee
constexpr const char* kVL = "\342\224\244";     // right tee
constexpr const char* kDH = "\342\224\254";     // top tee
constexpr const char* kUH = "\342\224\264";     // bottom tee
constexpr const char* kCross = "\342\224\274";  // cross

bool Cont(unsigned char c) { return (c & 0xc0) == 0x80; }

// The first display line of z, at most max_width characters (tabs expand
// to the next multiple of 8; any other control character ends the line).
// *tail is set to where the next line starts, or null when none follows.
std::string NextDisplayLine(const unsigned char* z, const unsigned char** tail, int max_width,
                            bool word_wrap) {
  if (max_width < 0) max_width = -max_width;
  if (max_width == 0) max_width = 1000000;
  size_t i = 0;
  int n = 0;
  while (n < max_width) {
    if (z[i] >= ' ') {
      ++n;
      do {
        ++i;
      } while (Cont(z[i]));
      continue;
    }
    if (z[i] == '\t') {
      do {
        ++n;
      } while ((n & 7) != 0 && n < max_width);
      ++i;
      continue;
    }
    break;
  }
  size_t k = i;  // bytes of z shown on this line
  if (n >= max_width && word_wrap) {
    // Back up to a space, or else to a change between word and non-word
    // characters, if one is in the second half of the line.
    for (k = i; k > i / 2; --k) {
      if (std::isspace(z[k - 1])) break;
    }
    if (k <= i / 2) {
      for (k = i; k > i / 2; --k) {
        if ((std::isalnum(z[k - 1]) != 0) != (std::isalnum(z[k]) != 0) && !Cont(z[k])) break;
      }
    }
    if (k <= i / 2) {
      k = i;
    } else {
      i = k;
      while (z[i] == ' ') ++i;
    }
  }
  if (n >= max_width && z[i] >= ' ') {
    *tail = &z[i];
  } else if (z[i] == '\r' && z[i + 1] == '\n') {
    *tail = z[i + 2] ? &z[i + 2] : nullptr;
  } else if (z[i] == 0 || z[i + 1] == 0) {
    *tail = nullptr;
  } else {
    *tail = &z[i + 1];
  }
  std::string out;
  n = 0;
  for (size_t j = 0; j < k;) {
    if (z[j] >= ' ') {
      ++n;
      do {
        out += static_cast<char>(z[j++]);
      } while (Cont(z[j]));
      continue;
    }
    if (z[j] == '\t') {
      do {
        ++n;
        out += ' ';
      } while ((n & 7) != 0 && n < max_width);
      ++j;
      continue;
    }
    break;
  }
  return out;
}

// The --quote form of a value: SQL literal syntax.
std::string QuotedColumn(sqlite3_stmt* st, int i) {
  switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      return ColText(st, i);
    case SQLITE_TEXT:
      return QuoteLiteral(ColText(st, i));
    default: {
      const unsigned char* b = static_cast<const unsigned char*>(sqlite3_column_blob(st, i));
      int n = sqlite3_column_bytes(st, i);
      std::string r = "x'";
      char hex[3];
      for (int j = 0; j < n; ++j) {
        std::snprintf(hex, sizeof(hex), "%02x", b[j]);
        r += hex;
      }
      return r + "'";
    }
  }
}

void Dashes(FILE* out, int n, const char* piece) {
  for (int i = 0; i < n; ++i) std::fputs(piece, out);
}

// A rule across the grid: left, (column, middle)*, right.
void Rule(Shell& sh, int ncol, const char* left, const char* mid, const char* right,
          const char* line) {
  if (ncol > 0) {
    std::fputs(left, sh.out);
    for (int i = 0; i < ncol; ++i) {
      if (i > 0) std::fputs(mid, sh.out);
      Dashes(sh.out, sh.actual_widths[static_cast<size_t>(i)] + 2, line);
    }
    std::fputs(right, sh.out);
  }
  std::fputs("\n", sh.out);
}

void CenteredHeader(Shell& sh, const std::vector<std::string>& data, int ncol, const char* left,
                    const char* sep, const char* end) {
  std::fputs(left, sh.out);
  for (int i = 0; i < ncol; ++i) {
    int w = sh.actual_widths[static_cast<size_t>(i)];
    int n = CharCount(data[static_cast<size_t>(i)].c_str());
    std::fprintf(sh.out, "%*s%s%*s", (w - n) / 2, "", data[static_cast<size_t>(i)].c_str(),
                 (w - n + 1) / 2, "");
    std::fputs(i == ncol - 1 ? end : sep, sh.out);
  }
}

}  // namespace

void RenderColumnar(Shell& sh, sqlite3_stmt* stmt) {
  if (sqlite3_step(stmt) != SQLITE_ROW) return;
  const int ncol = sqlite3_column_count(stmt);
  const size_t nc = static_cast<size_t>(ncol);
  if (sh.widths.size() < nc) sh.widths.resize(nc, 0);
  sh.actual_widths.assign(nc, 0);
  for (size_t i = 0; i < nc; ++i) sh.actual_widths[i] = std::abs(sh.widths[i]);
  auto wrap_of = [&](size_t i) {
    int w = sh.widths[i];
    if (w == 0) w = sh.copts.wrap;
    return w < 0 ? -w : w;
  };
  std::vector<std::string> data;  // ncol names, then ncol values per line
  std::vector<bool> row_end;      // per display line: the last line of a row
  const unsigned char* unused = nullptr;
  for (size_t i = 0; i < nc; ++i) {
    const char* name = sqlite3_column_name(stmt, static_cast<int>(i));
    data.push_back(NextDisplayLine(reinterpret_cast<const unsigned char*>(name ? name : ""),
                                   &unused, static_cast<int>(wrap_of(i)), sh.copts.word_wrap));
  }
  std::vector<const unsigned char*> next(nc, nullptr);
  std::vector<std::string> quoted(nc);
  bool more_lines = false;
  bool multi_line = false;
  do {
    const bool use_next = more_lines;
    more_lines = false;
    row_end.push_back(true);
    for (size_t i = 0; i < nc; ++i) {
      const unsigned char* z;
      if (use_next) {
        z = next[i] ? next[i] : reinterpret_cast<const unsigned char*>("");
      } else if (sh.copts.quote) {
        quoted[i] = QuotedColumn(stmt, static_cast<int>(i));
        z = reinterpret_cast<const unsigned char*>(quoted[i].c_str());
      } else {
        z = sqlite3_column_text(stmt, static_cast<int>(i));
        if (z == nullptr) z = reinterpret_cast<const unsigned char*>(sh.null_value.c_str());
      }
      data.push_back(NextDisplayLine(z, &next[i], wrap_of(i), sh.copts.word_wrap));
      if (next[i]) {
        more_lines = true;
        row_end.back() = false;
        multi_line = true;
      }
    }
  } while (more_lines || sqlite3_step(stmt) == SQLITE_ROW);
  for (size_t i = 0; i < data.size(); ++i) {
    int n = CharCount(data[i].c_str());
    if (n > sh.actual_widths[i % nc]) sh.actual_widths[i % nc] = n;
  }
  if (ncol == 0) return;
  const char* col_sep = "  ";
  const char* row_sep = "\n";
  std::string box_v = std::string(" ") + kV + " ";
  std::string box_end = std::string(" ") + kV + "\n";
  switch (sh.cmode) {
    case Mode::kColumn:
      if (sh.headers) {
        for (size_t i = 0; i < nc; ++i) {
          int w = sh.actual_widths[i];
          if (sh.widths[i] < 0) w = -w;
          WidthPrint(sh.out, w, data[i].c_str());
          std::fputs(i == nc - 1 ? "\n" : "  ", sh.out);
        }
        for (size_t i = 0; i < nc; ++i) {
          Dashes(sh.out, sh.actual_widths[i], "-");
          std::fputs(i == nc - 1 ? "\n" : "  ", sh.out);
        }
      }
      break;
    case Mode::kTable:
      col_sep = " | ";
      row_sep = " |\n";
      Rule(sh, ncol, "+", "+", "+", "-");
      CenteredHeader(sh, data, ncol, "| ", " | ", " |\n");
      Rule(sh, ncol, "+", "+", "+", "-");
      break;
    case Mode::kMarkdown:
      col_sep = " | ";
      row_sep = " |\n";
      CenteredHeader(sh, data, ncol, "| ", " | ", " |\n");
      Rule(sh, ncol, "|", "|", "|", "-");
      break;
    default:  // box
      col_sep = box_v.c_str();
      row_sep = box_end.c_str();
      Rule(sh, ncol, kDR, kDH, kDL, kH);
      CenteredHeader(sh, data, ncol, (std::string(kV) + " ").c_str(), box_v.c_str(),
                     box_end.c_str());
      Rule(sh, ncol, kVR, kCross, kVL, kH);
      break;
  }
  const size_t total = data.size();
  for (size_t i = nc, j = 0; i < total; ++i, ++j) {
    if (j == 0 && sh.cmode != Mode::kColumn) {
      std::fputs(sh.cmode == Mode::kBox ? (std::string(kV) + " ").c_str() : "| ", sh.out);
    }
    int w = sh.actual_widths[j];
    if (sh.widths[j] < 0) w = -w;
    WidthPrint(sh.out, w, data[i].c_str());
    if (j == nc - 1) {
      std::fputs(row_sep, sh.out);
      if (multi_line && row_end[i / nc - 1] && i + 1 < total) {
        if (sh.cmode == Mode::kTable) {
          Rule(sh, ncol, "+", "+", "+", "-");
        } else if (sh.cmode == Mode::kBox) {
          Rule(sh, ncol, kVR, kCross, kVL, kH);
        } else if (sh.cmode == Mode::kColumn) {
          std::fputs("\n", sh.out);
        }
      }
      j = static_cast<size_t>(-1);
    } else {
      std::fputs(col_sep, sh.out);
    }
  }
  if (sh.cmode == Mode::kTable) {
    Rule(sh, ncol, "+", "+", "+", "-");
  } else if (sh.cmode == Mode::kBox) {
    Rule(sh, ncol, kUR, kUH, kUL, kH);
  }
}

}  // namespace shell
