// .mode and .show: choosing an output mode (with its separators and
// columnar options) and listing the current settings.
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {

const char* ModeName(Mode m) {
  static const char* const kNames[] = {"line",   "column",      "list",  "semi", "html",
                                       "insert", "quote",       "tcl",   "csv",  "explain",
                                       "ascii",  "prettyprint", "eqp",   "json", "markdown",
                                       "table",  "box",         "count", "off"};
  return kNames[static_cast<int>(m)];
}

namespace {

bool OptionMatch(const std::string& arg, const char* name) {
  const char* z = arg.c_str();
  if (*z != '-') return false;
  ++z;
  if (*z == '-') ++z;
  return std::strcmp(z, name) == 0;
}

void PrintColumnOpts(FILE* out, const Shell& sh) {
  std::fprintf(out, " --wrap %d --wordwrap %s --%squote\n", sh.copts.wrap,
               sh.copts.word_wrap ? "on" : "off", sh.copts.quote ? "" : "no");
}

bool HasColumnOpts(Mode m) { return IsColumnar(m); }

}  // namespace

int DotMode(Shell& sh, const std::vector<std::string>& a) {
  std::string mode;
  std::string table;
  bool have_mode = false, have_table = false;
  ColumnOpts opts;
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& z = a[i];
    if (OptionMatch(z, "wrap") && i + 1 < a.size()) {
      opts.wrap = static_cast<int>(IntegerValue(a[++i]));
    } else if (OptionMatch(z, "ww")) {
      opts.word_wrap = true;
    } else if (OptionMatch(z, "wordwrap") && i + 1 < a.size()) {
      opts.word_wrap = BooleanValue(a[++i]);
    } else if (OptionMatch(z, "quote")) {
      opts.quote = true;
    } else if (OptionMatch(z, "noquote")) {
      opts.quote = false;
    } else if (!have_mode) {
      have_mode = true;
      mode = z;
      if (z == "qbox") {
        mode = "box";
        opts = ColumnOpts{60, false, true};
      }
    } else if (!have_table) {
      have_table = true;
      table = z;
    } else if (z[0] == '-') {
      std::fprintf(stderr, "unknown option: %s\n", z.c_str());
      std::fprintf(stderr,
                   "options:\n  --noquote\n  --quote\n  --wordwrap on/off\n  --wrap N\n  --ww\n");
      return 1;
    } else {
      std::fprintf(stderr, "extra argument: \"%s\"\n", z.c_str());
      return 1;
    }
  }
  if (!have_mode) {
    std::fprintf(sh.out, "current output mode: %s", ModeName(sh.mode));
    if (HasColumnOpts(sh.mode)) {
      PrintColumnOpts(sh.out, sh);
    } else {
      std::fputc('\n', sh.out);
    }
    mode = ModeName(sh.mode);
  }
  auto is = [&](const char* name) { return std::strncmp(name, mode.c_str(), mode.size()) == 0; };
  if (is("lines")) {
    sh.mode = Mode::kLine;
    sh.row_sep = "\n";
  } else if (is("columns")) {
    sh.mode = Mode::kColumn;
    if (!sh.headers_set) sh.headers = true;
    sh.row_sep = "\n";
    sh.copts = opts;
  } else if (is("list")) {
    sh.mode = Mode::kList;
    sh.col_sep = "|";
    sh.row_sep = "\n";
  } else if (is("html")) {
    sh.mode = Mode::kHtml;
  } else if (is("tcl")) {
    sh.mode = Mode::kTcl;
    sh.col_sep = " ";
    sh.row_sep = "\n";
  } else if (is("csv")) {
    sh.mode = Mode::kCsv;
    sh.col_sep = ",";
    sh.row_sep = "\r\n";
  } else if (is("tabs")) {
    sh.mode = Mode::kList;
    sh.col_sep = "\t";
  } else if (is("insert")) {
    sh.mode = Mode::kInsert;
    sh.dest_table = QuoteIdentIfNeeded(have_table ? table : "table");
  } else if (is("quote")) {
    sh.mode = Mode::kQuote;
    sh.col_sep = ",";
    sh.row_sep = "\n";
  } else if (is("ascii")) {
    sh.mode = Mode::kAscii;
    sh.col_sep = "\x1f";
    sh.row_sep = "\x1e";
  } else if (is("markdown")) {
    sh.mode = Mode::kMarkdown;
    sh.copts = opts;
  } else if (is("table")) {
    sh.mode = Mode::kTable;
    sh.copts = opts;
  } else if (is("box")) {
    sh.mode = Mode::kBox;
    sh.copts = opts;
  } else if (is("count")) {
    sh.mode = Mode::kCount;
  } else if (is("off")) {
    sh.mode = Mode::kOff;
  } else if (is("json")) {
    sh.mode = Mode::kJson;
  } else {
    std::fprintf(stderr,
                 "Error: mode should be one of: ascii box column csv html insert json line list "
                 "markdown qbox quote table tabs tcl\n");
    return 1;
  }
  sh.cmode = sh.mode;
  return 0;
}

int DotShow(Shell& sh, const std::vector<std::string>& a) {
  static const char* const kBool[] = {"off", "on", "trigger", "full"};
  if (a.size() != 1) {
    std::fprintf(stderr, "Usage: .show\n");
    return 1;
  }
  FILE* out = sh.out;
  std::fprintf(out, "%12.12s: %s\n", "echo", kBool[sh.echo ? 1 : 0]);
  std::fprintf(out, "%12.12s: %s\n", "eqp", kBool[sh.eqp & 3]);
  std::fprintf(out, "%12.12s: %s\n", "explain",
               sh.mode == Mode::kExplain ? "on" : (sh.autoexplain ? "auto" : "off"));
  std::fprintf(out, "%12.12s: %s\n", "headers", kBool[sh.headers ? 1 : 0]);
  std::fprintf(out, "%12.12s: %s", "mode", ModeName(sh.mode));
  if (HasColumnOpts(sh.mode)) {
    PrintColumnOpts(out, sh);
  } else {
    std::fputc('\n', out);
  }
  std::fprintf(out, "%12.12s: ", "nullvalue");
  OutCString(out, sh.null_value.c_str());
  std::fprintf(out, "\n%12.12s: %s\n", "output",
               sh.out_name.empty() ? "stdout" : sh.out_name.c_str());
  std::fprintf(out, "%12.12s: ", "colseparator");
  OutCString(out, sh.col_sep.c_str());
  std::fprintf(out, "\n%12.12s: ", "rowseparator");
  OutCString(out, sh.row_sep.c_str());
  static const char* const kStats[] = {"off", "on", "stmt", "vmstep"};
  std::fprintf(out, "\n%12.12s: %s\n", "stats", kStats[sh.stats & 3]);
  std::fprintf(out, "%12.12s: ", "width");
  for (int w : sh.widths) std::fprintf(out, "%d ", w);
  std::fprintf(out, "\n%12.12s: %s\n", "filename", sh.db_name.c_str());
  return 0;
}

}  // namespace shell
