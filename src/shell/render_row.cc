// The row-at-a-time output modes: each result row is written as soon as it
// is stepped. `cnt` counts the rows of the current statement, so headers
// are written before the first one.
#include <cstdlib>
#include <cstring>
#include <string>

#include "shell/shell.h"

namespace shell {
namespace {

const char* Or(const char* z, const std::string& dflt) { return z ? z : dflt.c_str(); }

void RenderLine(Shell& sh, int n, const char* const* vals, const char* const* cols) {
  int w = 5;
  for (int i = 0; i < n; ++i) {
    int len = static_cast<int>(std::strlen(cols[i] ? cols[i] : ""));
    if (len > w) w = len;
  }
  if (sh.cnt++ > 0) std::fputs(sh.row_sep.c_str(), sh.out);
  for (int i = 0; i < n; ++i) {
    std::fprintf(sh.out, "%*s = %s%s", w, cols[i], Or(vals[i], sh.null_value), sh.row_sep.c_str());
  }
}

// sqlite3's fixed column widths for EXPLAIN output; the comment column
// (the last) is never padded.
void RenderExplain(Shell& sh, int n, const char* const* vals, const char* const* cols) {
  static const int kWidth[] = {4, 13, 4, 4, 4, 13, 2, 13};
  if (n > 8) n = 8;
  if (sh.cnt++ == 0) {
    for (int i = 0; i < n; ++i) {
      WidthPrint(sh.out, kWidth[i], cols[i]);
      std::fputs(i == n - 1 ? "\n" : "  ", sh.out);
    }
    for (int i = 0; i < n; ++i) {
      std::fputs(std::string(static_cast<size_t>(kWidth[i]), '-').c_str(), sh.out);
      std::fputs(i == n - 1 ? "\n" : "  ", sh.out);
    }
  }
  for (int i = 0; i < n; ++i) {
    int w = i == n - 1 ? 0 : kWidth[i];
    if (vals[i] && CharCount(vals[i]) > w) w = CharCount(vals[i]);
    if (i == 1 && sh.stmt && !sh.explain_indent.empty()) {
      if (sh.explain_row < sh.explain_indent.size()) {
        std::fprintf(sh.out, "%*.s", sh.explain_indent[sh.explain_row], "");
      }
      ++sh.explain_row;
    }
    WidthPrint(sh.out, w, Or(vals[i], sh.null_value));
    std::fputs(i == n - 1 ? "\n" : "  ", sh.out);
  }
}

void RenderSeparated(Shell& sh, int n, const char* const* vals, const char* const* cols, bool tcl) {
  auto put = [&](const char* z) {
    if (tcl) {
      OutCString(sh.out, z);
    } else {
      std::fputs(z, sh.out);
    }
  };
  if (sh.cnt++ == 0 && sh.headers) {
    for (int i = 0; i < n; ++i) {
      if (i > 0) std::fputs(sh.col_sep.c_str(), sh.out);
      put(cols[i] ? cols[i] : "");
    }
    std::fputs(sh.row_sep.c_str(), sh.out);
  }
  for (int i = 0; i < n; ++i) {
    if (i > 0) std::fputs(sh.col_sep.c_str(), sh.out);
    put(Or(vals[i], sh.null_value));
  }
  std::fputs(sh.row_sep.c_str(), sh.out);
}

void RenderHtml(Shell& sh, int n, const char* const* vals, const char* const* cols) {
  if (sh.cnt++ == 0 && sh.headers) {
    std::fputs("<TR>", sh.out);
    for (int i = 0; i < n; ++i) {
      std::fputs("<TH>", sh.out);
      OutHtml(sh.out, cols[i]);
      std::fputs("</TH>\n", sh.out);
    }
    std::fputs("</TR>\n", sh.out);
  }
  std::fputs("<TR>", sh.out);
  for (int i = 0; i < n; ++i) {
    std::fputs("<TD>", sh.out);
    OutHtml(sh.out, Or(vals[i], sh.null_value));
    std::fputs("</TD>\n", sh.out);
  }
  std::fputs("</TR>\n", sh.out);
}

// One value of the quote and insert modes, by its storage class.
void RenderQuotedValue(Shell& sh, int i, const char* val, int type, bool insert) {
  if (val == nullptr || type == SQLITE_NULL) {
    std::fputs("NULL", sh.out);
  } else if (type == SQLITE_TEXT) {
    if (insert && !sh.dump_newlines) {
      OutQuotedEscaped(sh.out, val);
    } else {
      OutQuoted(sh.out, val);
    }
  } else if (type == SQLITE_INTEGER) {
    std::fputs(val, sh.out);
  } else if (type == SQLITE_FLOAT) {
    OutReal(sh.out, sqlite3_column_double(sh.stmt, i), insert, insert);
  } else {
    OutHexBlob(sh.out, sqlite3_column_blob(sh.stmt, i), sqlite3_column_bytes(sh.stmt, i));
  }
}

void RenderInsert(Shell& sh, int n, const char* const* vals, const char* const* cols,
                  const int* types) {
  std::fprintf(sh.out, "INSERT INTO %s", sh.dest_table.c_str());
  if (sh.headers) {
    putc_unlocked('(', sh.out);
    for (int i = 0; i < n; ++i) {
      if (i > 0) putc_unlocked(',', sh.out);
      std::fputs(QuoteIdentIfNeeded(cols[i]).c_str(), sh.out);
    }
    putc_unlocked(')', sh.out);
  }
  ++sh.cnt;
  for (int i = 0; i < n; ++i) {
    std::fputs(i > 0 ? "," : " VALUES(", sh.out);
    RenderQuotedValue(sh, i, vals[i], types[i], true);
  }
  std::fputs(");\n", sh.out);
}

void RenderQuote(Shell& sh, int n, const char* const* vals, const char* const* cols,
                 const int* types) {
  if (sh.cnt == 0 && sh.headers) {
    for (int i = 0; i < n; ++i) {
      if (i > 0) std::fputs(sh.col_sep.c_str(), sh.out);
      OutQuoted(sh.out, cols[i]);
    }
    std::fputs(sh.row_sep.c_str(), sh.out);
  }
  ++sh.cnt;
  for (int i = 0; i < n; ++i) {
    if (i > 0) std::fputs(sh.col_sep.c_str(), sh.out);
    RenderQuotedValue(sh, i, vals[i], types[i], false);
  }
  std::fputs(sh.row_sep.c_str(), sh.out);
}

void RenderJson(Shell& sh, int n, const char* const* vals, const char* const* cols,
                const int* types) {
  std::fputs(sh.cnt == 0 ? "[{" : ",\n{", sh.out);
  ++sh.cnt;
  for (int i = 0; i < n; ++i) {
    OutJsonString(sh.out, cols[i], -1);
    putc_unlocked(':', sh.out);
    if (vals[i] == nullptr || types[i] == SQLITE_NULL) {
      std::fputs("null", sh.out);
    } else if (types[i] == SQLITE_FLOAT) {
      OutReal(sh.out, sqlite3_column_double(sh.stmt, i), false, true);
    } else if (types[i] == SQLITE_BLOB) {
      OutJsonString(sh.out, static_cast<const char*>(sqlite3_column_blob(sh.stmt, i)),
                    sqlite3_column_bytes(sh.stmt, i));
    } else if (types[i] == SQLITE_TEXT) {
      OutJsonString(sh.out, vals[i], -1);
    } else {
      std::fputs(vals[i], sh.out);
    }
    if (i < n - 1) putc_unlocked(',', sh.out);
  }
  putc_unlocked('}', sh.out);
}

// The EXPLAIN QUERY PLAN tree: each row under its parent, drawn with |--
// (more siblings follow) or `-- (the last one).
void RenderEqpLevel(Shell& sh, int parent, std::string* prefix) {
  std::vector<const EqpRow*> level;
  for (const EqpRow& r : sh.eqp_rows) {
    if (r.parent == parent) level.push_back(&r);
  }
  for (size_t i = 0; i < level.size(); ++i) {
    const bool more = i + 1 < level.size();
    std::fprintf(sh.out, "%s%s%s\n", prefix->c_str(), more ? "|--" : "`--",
                 level[i]->detail.c_str());
    const size_t n = prefix->size();
    if (n < 93) {  // sqlite3's prefix buffer bounds the depth drawn
      *prefix += more ? "|  " : "   ";
      RenderEqpLevel(sh, level[i]->id, prefix);
      prefix->resize(n);
    }
  }
}

bool InList(const char* z, const char* const* list) {
  for (; *list; ++list) {
    if (std::strcmp(z, *list) == 0) return true;
  }
  return false;
}

}  // namespace

void RenderEqp(Shell& sh) {
  if (sh.eqp_rows.empty()) return;
  std::fputs("QUERY PLAN\n", sh.out);
  std::string prefix;
  RenderEqpLevel(sh, 0, &prefix);
  sh.eqp_rows.clear();
}

// Indents the opcodes of loop bodies as sqlite3 does: the body of each
// Next/Prev loop, and the body between a Goto and a Yield/Seek it jumps
// back to. Steps the statement, then resets it.
void PrepareExplainIndent(Shell& sh, sqlite3_stmt* stmt) {
  static const char* const kNext[] = {"Next", "Prev", "VPrev", "VNext", "SorterNext", nullptr};
  static const char* const kYield[] = {"Yield",      "SeekLT", "SeekGT",
                                       "RowSetRead", "Rewind", nullptr};
  sh.explain_indent.clear();
  sh.explain_row = 0;
  if (sqlite3_column_count(stmt) != 8) {
    sh.cmode = sh.mode;
    return;
  }
  const char* sql = sqlite3_sql(stmt);
  if (sql == nullptr) return;
  while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '\f' || *sql == '\r') ++sql;
  if (sqlite3_strnicmp(sql, "explain", 7) != 0) {
    sh.cmode = sh.mode;
    return;
  }
  std::vector<bool> yield;
  for (int op = 0; sqlite3_step(stmt) == SQLITE_ROW; ++op) {
    const int addr = sqlite3_column_int(stmt, 0);
    const char* name = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    if (name == nullptr) name = "";
    const int p2op = sqlite3_column_int(stmt, 3) + (op - addr);
    yield.push_back(InList(name, kYield));
    sh.explain_indent.push_back(0);
    bool indent = InList(name, kNext) && p2op > 0;
    if (std::strcmp(name, "Goto") == 0 && p2op < static_cast<int>(yield.size()) && p2op >= 0 &&
        (yield[static_cast<size_t>(p2op)] || sqlite3_column_int(stmt, 2))) {
      indent = true;
    }
    if (indent) {
      for (int i = p2op; i < op; ++i) sh.explain_indent[static_cast<size_t>(i)] += 2;
    }
  }
  sqlite3_reset(stmt);
}

void RenderRow(Shell& sh, int n, const char* const* vals, const char* const* cols,
               const int* types) {
  switch (sh.cmode) {
    case Mode::kLine:
      RenderLine(sh, n, vals, cols);
      break;
    case Mode::kExplain:
      RenderExplain(sh, n, vals, cols);
      break;
    case Mode::kSemi:
    case Mode::kPretty:
    case Mode::kList:
      RenderSeparated(sh, n, vals, cols, false);
      break;
    case Mode::kAscii:
      RenderSeparated(sh, n, vals, cols, false);
      break;
    case Mode::kTcl:
      RenderSeparated(sh, n, vals, cols, true);
      break;
    case Mode::kHtml:
      RenderHtml(sh, n, vals, cols);
      break;
    case Mode::kCsv:
      if (sh.cnt++ == 0 && sh.headers) {
        for (int i = 0; i < n; ++i) OutCsv(sh, cols[i] ? cols[i] : "", i < n - 1);
        std::fputs(sh.row_sep.c_str(), sh.out);
      }
      for (int i = 0; i < n; ++i) OutCsv(sh, vals[i], i < n - 1);
      std::fputs(sh.row_sep.c_str(), sh.out);
      break;
    case Mode::kInsert:
      RenderInsert(sh, n, vals, cols, types);
      break;
    case Mode::kQuote:
      RenderQuote(sh, n, vals, cols, types);
      break;
    case Mode::kJson:
      RenderJson(sh, n, vals, cols, types);
      break;
    case Mode::kEqp:
      sh.eqp_rows.push_back(
          {std::atoi(Or(vals[0], "")), std::atoi(Or(vals[1], "")), Or(vals[3], "")});
      break;
    case Mode::kCount:
    case Mode::kOff:
    case Mode::kColumn:
    case Mode::kMarkdown:
    case Mode::kTable:
    case Mode::kBox:
      break;
  }
}

}  // namespace shell
