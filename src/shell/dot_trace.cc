// .trace ?OPTIONS? ?FILE|stdout|stderr|off?: logs SQL through
// sqlite3_trace_v2 to a file or stream.
//
// State: Shell::trace_out is where lines go (nullptr: tracing off, and the
// callback is removed); Shell::trace_expanded chooses sqlite3_expanded_sql
// over sqlite3_sql. Both persist across .trace commands; the event mask does
// not: every .trace installs the mask its own options name (statements when
// none is named).
//
// Line formats, as sqlite3 writes them (trailing ';' of the SQL dropped):
//   statement or row event   "SQL;"
//   profile event            "SQL; -- N ns"
//   connection closing       "-- closing database connection"
// A statement event whose text starts with '-' is a trigger comment
// ("-- TRIGGER t") and is written as given.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

void CloseTraceFile(FILE* f) {
  if (f != nullptr && f != stdout && f != stderr) std::fclose(f);
}

// Opens what a .trace argument names; nullptr for "off" or on failure (which
// is reported, as sqlite3 does).
FILE* OpenTraceFile(const std::string& name) {
  if (name == "stdout") return stdout;
  if (name == "stderr") return stderr;
  if (name == "off") return nullptr;
  FILE* f = std::fopen(name.c_str(), "wb");
  if (f == nullptr) std::fprintf(stderr, "Error: cannot open \"%s\"\n", name.c_str());
  return f;
}

int TraceCallback(unsigned type, void* ctx, void* p, void* x) {
  Shell& sh = *static_cast<Shell*>(ctx);
  if (sh.trace_out == nullptr) return 0;
  if (type == SQLITE_TRACE_CLOSE) {
    std::fputs("-- closing database connection\n", sh.trace_out);
    return 0;
  }
  auto* stmt = static_cast<sqlite3_stmt*>(p);
  const char* sql = nullptr;
  char* expanded = nullptr;  // owned: freed below
  if (type != SQLITE_TRACE_ROW && static_cast<const char*>(x)[0] == '-') {
    sql = static_cast<const char*>(x);
  } else if (sh.trace_expanded) {
    expanded = sqlite3_expanded_sql(stmt);
    sql = expanded;
  } else {
    sql = sqlite3_sql(stmt);
  }
  if (sql == nullptr) return 0;
  int n = static_cast<int>(std::strlen(sql));
  while (n > 0 && sql[n - 1] == ';') --n;
  if (type == SQLITE_TRACE_PROFILE) {
    const long long ns = *static_cast<sqlite3_int64*>(x);
    std::fprintf(sh.trace_out, "%.*s; -- %lld ns\n", n, sql, ns);
  } else if (type == SQLITE_TRACE_ROW || type == SQLITE_TRACE_STMT) {
    std::fprintf(sh.trace_out, "%.*s;\n", n, sql);
  }
  sqlite3_free(expanded);
  return 0;
}

bool OptionIs(const std::string& arg, const char* name) {
  const char* z = arg.c_str() + 1;
  if (*z == '-') ++z;
  return std::strcmp(z, name) == 0;
}

}  // namespace

int DotTrace(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, false);
  unsigned mask = 0;
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& z = a[i];
    if (z[0] == '-') {
      if (OptionIs(z, "expanded")) {
        sh.trace_expanded = true;
      } else if (OptionIs(z, "plain")) {
        sh.trace_expanded = false;
      } else if (OptionIs(z, "profile")) {
        mask |= SQLITE_TRACE_PROFILE;
      } else if (OptionIs(z, "row")) {
        mask |= SQLITE_TRACE_ROW;
      } else if (OptionIs(z, "stmt")) {
        mask |= SQLITE_TRACE_STMT;
      } else if (OptionIs(z, "close")) {
        mask |= SQLITE_TRACE_CLOSE;
      } else {
        std::fprintf(stderr, "Unknown option \"%s\" on \".trace\"\n", z.c_str());
        return 1;
      }
    } else {
      CloseTraceFile(sh.trace_out);
      // sqlite3 opens its first argument here whichever argument is the
      // file name; kept so that "--row FILE" behaves the same.
      sh.trace_out = OpenTraceFile(a[1]);
    }
  }
  if (sh.trace_out == nullptr) {
    sqlite3_trace_v2(sh.db, 0, nullptr, nullptr);
  } else {
    sqlite3_trace_v2(sh.db, mask ? mask : SQLITE_TRACE_STMT, TraceCallback, &sh);
  }
  return 0;
}

}  // namespace shell
