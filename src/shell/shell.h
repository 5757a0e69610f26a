// The basalt shell's state and the interfaces between its parts. The shell
// is a client of the public C API only (sqlite3.h); every behaviour copies
// Debian's sqlite3 3.40.1 command-line tool byte for byte.
//
// Parts (one concept per file):
//   text_out.cc         quoting and escaping helpers shared by the modes
//   render_row.cc       row-at-a-time modes (list, line, csv, html, insert, ...)
//   render_columnar.cc  column, table, markdown, box (whole result buffered)
//   run_sql.cc          preparing and stepping statements, errors, EXPLAIN
//   input.cc            the line loop: SQL accumulation, dot-command dispatch
//   dot_*.cc            the dot-commands, grouped by concern
//   options.cc          command-line options
#ifndef BASALT_SHELL_SHELL_H_
#define BASALT_SHELL_SHELL_H_

#include <cstdio>
#include <string>
#include <vector>

#include "sqlite3.h"

struct sqlite3_session;  // the session extension (ext/session/session_api.h)

namespace shell {

// Output modes, in sqlite3's order (the names in ModeName follow it).
enum class Mode {
  kLine,
  kColumn,
  kList,
  kSemi,
  kHtml,
  kInsert,
  kQuote,
  kTcl,
  kCsv,
  kExplain,
  kAscii,
  kPretty,
  kEqp,
  kJson,
  kMarkdown,
  kTable,
  kBox,
  kCount,
  kOff,
};
const char* ModeName(Mode m);
inline bool IsColumnar(Mode m) {
  return m == Mode::kColumn || m == Mode::kMarkdown || m == Mode::kTable || m == Mode::kBox;
}

// Options of the columnar modes (.mode box --wrap N --wordwrap on --quote).
struct ColumnOpts {
  int wrap = 60;
  bool word_wrap = false;
  bool quote = false;
};

struct EqpRow {
  int id;
  int parent;
  std::string detail;
};

// Ctrl-C presses not yet seen by the input loop (set by the signal handler).
extern volatile int g_interrupts;

struct Expert;  // expert.h

// One .session (dot_session.cc): the library's session object (owned), its
// name and the GLOBs of the tables it leaves out.
struct ShellSession {
  ::sqlite3_session* p = nullptr;
  std::string name;
  std::vector<std::string> filters;
};

// One of the .connection slots (dot_connection.cc) while it is not active.
struct ShellConn {
  sqlite3* db = nullptr;  // owned
  std::string db_name;
  std::vector<ShellSession> sessions;
};
constexpr size_t kConnections = 5;

struct Shell {
  sqlite3* volatile db = nullptr;
  std::string db_name;       // file name given on the command line or by .open
  int open_flags = 0;        // extra sqlite3_open_v2 flags (-readonly, -nofollow)
  bool deserialize = false;  // -deserialize: work on an in-memory copy of the file
  bool zip_default = false;  // -A, .open --zip: a missing or empty *.zip is a ZIP archive
  bool open_append = false;  // -append, .open --append: open through "apndvfs"
  bool open_zip = false;     // the database is a ZIP file: ":memory:" with a "zip" table
  FILE* out = nullptr;       // current output (stdout, a file or a pipe)
  bool out_is_pipe = false;
  std::string out_name;  // "stdout" or the file of .output/.once
  int once_pending = 0;  // 1 while .once output is in effect
  Mode mode = Mode::kList;
  Mode cmode = Mode::kList;        // the mode used for the current statement
  Mode normal_mode = Mode::kList;  // restored by ".explain off"
  bool headers = false;
  bool headers_set = false;  // .headers was used (column mode keeps it)
  std::string col_sep = "|";
  std::string row_sep = "\n";
  std::string null_value;
  std::string dest_table = "\"table\"";  // the (quoted) table of insert mode
  std::vector<int> widths;               // .width
  std::vector<int> actual_widths;
  ColumnOpts copts;
  int autoexplain = 1;  // .explain auto
  int eqp = 0;          // .eqp: 0 off, 1 on, 2 full
  bool echo = false;
  bool bail = false;
  bool timer = false;
  bool count_changes = false;
  int stats = 0;  // .stats: 0 off, 1 on, 2 stmt, 3 vmstep
  bool interactive = false;
  Expert* expert = nullptr;  // owned: .expert is waiting for SQL (see expert.h)
  bool safe_mode = false;
  bool safe_persist = false;   // -safe was given (safe_mode is off only while .nonce allows)
  bool has_nonce = false;      // -nonce STRING was given
  std::string nonce;           // its STRING, for .nonce
  bool nonce_restore = false;  // .nonce suspended safe mode: restore it after the next command
  bool dump_newlines = false;  // insert mode keeps newlines (.dump --newlines)
  bool preserve_rowids = false;
  int lineno = 0;
  int input_nesting = 0;
  FILE* in = nullptr;  // nullptr: standard input
  std::string prompt = "sqlite> ";
  std::string continue_prompt = "   ...> ";
  sqlite3_stmt* stmt = nullptr;  // the statement being rendered
  int cnt = 0;                   // rows rendered for the current statement
  std::vector<EqpRow> eqp_rows;
  std::vector<int> explain_indent;
  size_t explain_row = 0;
  std::string init_file;
  bool warn_memory_db = false;         // no arguments: say the database is transient
  FILE* log = nullptr;                 // .log: where SQLITE_CONFIG_LOG messages go
  FILE* trace_out = nullptr;           // .trace: where traced SQL goes (nullptr: off)
  bool trace_expanded = false;         // .trace --expanded: bound values substituted
  bool scan_stats = false;             // .scanstats (accepted; this build shows none)
  std::vector<ShellSession> sessions;  // .session; capacity fixed (see dot_session.cc)
  ShellConn conns[kConnections];       // .connection; conns[active_conn] is in db/db_name/sessions
  size_t active_conn = 0;
  std::string testcase;  // .testcase NAME, reported by .check
};

// text_out.cc
void OutQuoted(FILE* out, const char* z);
void OutQuotedEscaped(FILE* out, const char* z);
void OutHexBlob(FILE* out, const void* blob, int n);
void OutCString(FILE* out, const char* z);
void OutHtml(FILE* out, const char* z);
void OutJsonString(FILE* out, const char* z, long long n);
void OutCsv(Shell& sh, const char* z, bool sep);
void OutReal(FILE* out, double r, bool integral_as_dot0, bool inf_as_1e999);
void WidthPrint(FILE* out, int w, const char* z);
int CharCount(const char* z);
std::string QuoteIdentIfNeeded(const std::string& name);  // "x" only if needed
bool NeedsQuote(const char* name);
std::string QuoteIdent(const std::string& name);  // always "x", quotes doubled
std::string QuoteLiteral(const std::string& s);   // 'x', quotes doubled

// render_row.cc: one row of a row-at-a-time mode; types may be null.
void RenderRow(Shell& sh, int n, const char* const* vals, const char* const* cols,
               const int* types);
void RenderEqp(Shell& sh);
void PrepareExplainIndent(Shell& sh, sqlite3_stmt* stmt);

// render_columnar.cc
void RenderColumnar(Shell& sh, sqlite3_stmt* stmt);

// run_sql.cc: runs every statement of sql; returns the result code and sets
// *err to sqlite3's message ("in prepare, ...", "stepping, ...").
int ExecSql(Shell& sh, const char* sql, std::string* err);
bool OpenDb(Shell& sh, bool keep_going);
void RegisterShellFunctions(sqlite3* db);  // sha3(), sha3_query()
int RunSqlLine(Shell& sh, const std::string& sql, int startline);
// Runs a query and calls fn for each row; returns the result code.
template <typename F>
int ForEachRow(sqlite3* db, const std::string& sql, F fn) {
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) fn(st);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
inline std::string ColText(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

// input.cc
int ProcessInput(Shell& sh);
bool AllWhitespace(const char* z);

// dot_commands.cc: returns 0 ok, 1 error, 2 exit requested.
int DoMetaCommand(Shell& sh, const std::string& line);
std::vector<std::string> SplitArgs(const std::string& line);
std::string ResolveBackslashes(const std::string& s);
bool BooleanValue(const std::string& s);
long long IntegerValue(const std::string& s);
void OutputReset(Shell& sh);
void SetOutput(Shell& sh, FILE* f, bool pipe, const std::string& name);

// dot_schema.cc, dot_dump.cc, dot_io.cc, dot_misc.cc: each returns like
// DoMetaCommand; args[0] is the command name.
int DotTables(Shell& sh, const std::vector<std::string>& args, bool indexes);
int DotSchema(Shell& sh, const std::vector<std::string>& args, bool full);
int DotDatabases(Shell& sh, const std::vector<std::string>& args);
int DotDump(Shell& sh, const std::vector<std::string>& args);
int DotRead(Shell& sh, const std::vector<std::string>& args);
int DotOutput(Shell& sh, const std::vector<std::string>& args, bool once);
int DotOpen(Shell& sh, const std::vector<std::string>& args);
int DotRecover(Shell& sh, const std::vector<std::string>& args);  // dot_recover.cc
int DotNonce(Shell& sh, const std::vector<std::string>& args);
int DotVfsInfo(Shell& sh, const std::vector<std::string>& args);  // dot_vfs.cc
int DotVfsName(Shell& sh, const std::vector<std::string>& args);
int DotVfsList(Shell& sh, const std::vector<std::string>& args);
int DotImport(Shell& sh, const std::vector<std::string>& args);
int DotParameter(Shell& sh, const std::vector<std::string>& args);
int DotShow(Shell& sh, const std::vector<std::string>& args);
int DotMode(Shell& sh, const std::vector<std::string>& args);
int DotHelp(Shell& sh, const std::vector<std::string>& args);
int ShowHelp(FILE* out, const std::string& pattern);  // .help PATTERN; returns matches
int DotBackup(Shell& sh, const std::vector<std::string>& args);
int DotRestore(Shell& sh, const std::vector<std::string>& args);
int DotLint(Shell& sh, const std::vector<std::string>& args);
int DotLimit(Shell& sh, const std::vector<std::string>& args);
// dot_clone.cc
int DotClone(Shell& sh, const std::vector<std::string>& args);
// dot_extension.cc
int DotLoad(Shell& sh, const std::vector<std::string>& args);
int DotLog(Shell& sh, const std::vector<std::string>& args);
void ShellLog(void* shell, int code, const char* msg);
int DotSha3(Shell& sh, const std::vector<std::string>& args);
void BindParameters(Shell& sh, sqlite3_stmt* stmt);

int DotDbConfig(Shell& sh, const std::vector<std::string>& args);   // dot_dbconfig.cc
int DotTrace(Shell& sh, const std::vector<std::string>& args);      // dot_trace.cc
int DotScanStats(Shell& sh, const std::vector<std::string>& args);  // dot_diag.cc
int DotDbInfo(Shell& sh, const std::vector<std::string>& args);
int DotImposter(Shell& sh, const std::vector<std::string>& args);
int DotTestcase(Shell& sh, const std::vector<std::string>& args);  // dot_testcase.cc
int DotCheck(Shell& sh, const std::vector<std::string>& args);
int DotStats(Shell& sh, const std::vector<std::string>& args);  // dot_stats.cc
void DisplayStats(Shell& sh);  // after each statement while .stats is on
int DotFileCtrl(Shell& sh, const std::vector<std::string>& args);  // dot_filectrl.cc
int DotSession(Shell& sh, const std::vector<std::string>& args);   // dot_session.cc
void SessionCloseAll(Shell& sh);  // before the connection is closed
void DeleteSessions(std::vector<ShellSession>* sessions);
int DotConnection(Shell& sh, const std::vector<std::string>& args);  // dot_connection.cc
void CloseOtherConnections(Shell& sh);                             // at exit, after the active one
int DotSelftest(Shell& sh, const std::vector<std::string>& args);  // dot_selftest.cc

// options.cc: the whole of main() after the shell is constructed.
int RunMain(Shell& sh, int argc, char** argv);

}  // namespace shell

#endif  // BASALT_SHELL_SHELL_H_
