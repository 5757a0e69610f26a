// .stats ?on|off|stmt|vmstep?: the library's counters, after each statement
// (on, stmt, vmstep) or once (no argument), laid out as sqlite3 lays them
// out: a 36-column label, a space, the figure.
//
// Blocks, in order (Shell::stats: 1 on, 2 stmt, 3 vmstep):
//   1. stmt only: the statement's columns and their metadata;
//   2. vmstep only: "VM-steps: N" for the statement, and nothing else;
//   3. process-wide memory (sqlite3_status64);
//   4. with a connection: lookaside, page cache and heap (sqlite3_db_status);
//   5. with a statement: its counters (sqlite3_stmt_status);
//   6. the process's I/O counters from /proc/self/io.
// Memory figures measure each library's own allocator and so differ
// between Basalt and SQLite; the layout and the lines shown do not.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

// One sqlite3_status64 line; with_max shows "CUR (max HIGH)", else HIGH.
void StatusLine(FILE* out, const char* label, int op, const char* unit, bool with_max) {
  sqlite3_int64 cur = -1;
  sqlite3_int64 high = -1;
  sqlite3_status64(op, &cur, &high, 0);
  std::string figure =
      with_max ? std::to_string(cur) + " (max " + std::to_string(high) + ")" : std::to_string(high);
  if (unit[0] != 0) figure += std::string(" ") + unit;
  std::fprintf(out, "%-36s %s\n", label, figure.c_str());
}

// sqlite3_db_status: reports the current value, or the high-water mark.
int DbStatus(sqlite3* db, int op, bool high) {
  int cur = -1;
  int hi = -1;
  sqlite3_db_status(db, op, &cur, &hi, 0);
  return high ? hi : cur;
}

void ColumnInfo(FILE* out, sqlite3_stmt* st) {
  const int n = sqlite3_column_count(st);
  std::fprintf(out, "%-36s %d\n", "Number of output columns:", n);
  auto text = [](const char* z) { return z ? z : "(null)"; };
  for (int i = 0; i < n; ++i) {
    const std::string col = "Column " + std::to_string(i) + " ";
    std::fprintf(out, "%-36s %s\n", (col + "name:").c_str(), text(sqlite3_column_name(st, i)));
    std::fprintf(out, "%-36s %s\n", (col + "declared type:").c_str(),
                 text(sqlite3_column_decltype(st, i)));
    std::fprintf(out, "%-36s %s\n", (col + "database name:").c_str(),
                 text(sqlite3_column_database_name(st, i)));
    std::fprintf(out, "%-36s %s\n", (col + "table name:").c_str(),
                 text(sqlite3_column_table_name(st, i)));
    std::fprintf(out, "%-36s %s\n", (col + "origin name:").c_str(),
                 text(sqlite3_column_origin_name(st, i)));
  }
}

void ConnectionStats(FILE* out, sqlite3* db) {
  std::fprintf(out, "%-36s %d (max %d)\n",
               "Lookaside Slots Used:", DbStatus(db, SQLITE_DBSTATUS_LOOKASIDE_USED, false),
               DbStatus(db, SQLITE_DBSTATUS_LOOKASIDE_USED, true));
  std::fprintf(out, "%-36s %d\n",
               "Successful lookaside attempts:", DbStatus(db, SQLITE_DBSTATUS_LOOKASIDE_HIT, true));
  std::fprintf(out, "%-36s %d\n", "Lookaside failures due to size:",
               DbStatus(db, SQLITE_DBSTATUS_LOOKASIDE_MISS_SIZE, true));
  std::fprintf(out, "%-36s %d\n", "Lookaside failures due to OOM:",
               DbStatus(db, SQLITE_DBSTATUS_LOOKASIDE_MISS_FULL, true));
  std::fprintf(out, "%-36s %d bytes\n",
               "Pager Heap Usage:", DbStatus(db, SQLITE_DBSTATUS_CACHE_USED, false));
  std::fprintf(out, "%-36s %d\n",
               "Page cache hits:", DbStatus(db, SQLITE_DBSTATUS_CACHE_HIT, false));
  std::fprintf(out, "%-36s %d\n",
               "Page cache misses:", DbStatus(db, SQLITE_DBSTATUS_CACHE_MISS, false));
  std::fprintf(out, "%-36s %d\n",
               "Page cache writes:", DbStatus(db, SQLITE_DBSTATUS_CACHE_WRITE, false));
  std::fprintf(out, "%-36s %d\n",
               "Page cache spills:", DbStatus(db, SQLITE_DBSTATUS_CACHE_SPILL, false));
  std::fprintf(out, "%-36s %d bytes\n",
               "Schema Heap Usage:", DbStatus(db, SQLITE_DBSTATUS_SCHEMA_USED, false));
  std::fprintf(out, "%-36s %d bytes\n",
               "Statement Heap/Lookaside Usage:", DbStatus(db, SQLITE_DBSTATUS_STMT_USED, false));
}

void StatementStats(FILE* out, sqlite3_stmt* st) {
  auto stat = [st](int op) { return sqlite3_stmt_status(st, op, 0); };
  std::fprintf(out, "%-36s %d\n", "Fullscan Steps:", stat(SQLITE_STMTSTATUS_FULLSCAN_STEP));
  std::fprintf(out, "%-36s %d\n", "Sort Operations:", stat(SQLITE_STMTSTATUS_SORT));
  std::fprintf(out, "%-36s %d\n", "Autoindex Inserts:", stat(SQLITE_STMTSTATUS_AUTOINDEX));
  const int hit = stat(SQLITE_STMTSTATUS_FILTER_HIT);
  const int miss = stat(SQLITE_STMTSTATUS_FILTER_MISS);
  if (hit != 0 || miss != 0) {
    std::fprintf(out, "%-36s %d/%d\n", "Bloom filter bypass taken:", hit, hit + miss);
  }
  std::fprintf(out, "%-36s %d\n", "Virtual Machine Steps:", stat(SQLITE_STMTSTATUS_VM_STEP));
  std::fprintf(out, "%-36s %d\n", "Reprepare operations:", stat(SQLITE_STMTSTATUS_REPREPARE));
  std::fprintf(out, "%-36s %d\n", "Number of times run:", stat(SQLITE_STMTSTATUS_RUN));
  std::fprintf(out, "%-36s %d\n", "Memory used by prepared stmt:", stat(SQLITE_STMTSTATUS_MEMUSED));
}

void LinuxIoStats(FILE* out) {
  static const char* const kTrans[][2] = {
      {"rchar: ", "Bytes received by read():"},
      {"wchar: ", "Bytes sent to write():"},
      {"syscr: ", "Read() system calls:"},
      {"syscw: ", "Write() system calls:"},
      {"read_bytes: ", "Bytes read from storage:"},
      {"write_bytes: ", "Bytes written to storage:"},
      {"cancelled_write_bytes: ", "Cancelled write bytes:"},
  };
  FILE* in = std::fopen("/proc/self/io", "rb");
  if (in == nullptr) return;
  char line[200];
  while (std::fgets(line, sizeof line, in) != nullptr) {
    for (const auto& t : kTrans) {
      const size_t n = std::strlen(t[0]);
      if (std::strncmp(t[0], line, n) == 0) {
        std::fprintf(out, "%-36s %s", t[1], line + n);
        break;
      }
    }
  }
  std::fclose(in);
}

}  // namespace

void DisplayStats(Shell& sh) {
  FILE* out = sh.out;
  if (sh.stmt != nullptr && sh.stats == 2) ColumnInfo(out, sh.stmt);
  if (sh.stats == 3) {
    if (sh.stmt != nullptr) {
      std::fprintf(out, "VM-steps: %d\n",
                   sqlite3_stmt_status(sh.stmt, SQLITE_STMTSTATUS_VM_STEP, 0));
    }
    return;
  }
  StatusLine(out, "Memory Used:", SQLITE_STATUS_MEMORY_USED, "bytes", true);
  StatusLine(out, "Number of Outstanding Allocations:", SQLITE_STATUS_MALLOC_COUNT, "", true);
  StatusLine(out, "Number of Pcache Overflow Bytes:", SQLITE_STATUS_PAGECACHE_OVERFLOW, "bytes",
             true);
  StatusLine(out, "Largest Allocation:", SQLITE_STATUS_MALLOC_SIZE, "bytes", false);
  StatusLine(out, "Largest Pcache Allocation:", SQLITE_STATUS_PAGECACHE_SIZE, "bytes", false);
  if (sh.db != nullptr) ConnectionStats(out, sh.db);
  if (sh.stmt != nullptr) StatementStats(out, sh.stmt);
  LinuxIoStats(out);
}

int DotStats(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() == 2 && a[1] == "stmt") {
    sh.stats = 2;
  } else if (a.size() == 2 && a[1] == "vmstep") {
    sh.stats = 3;
  } else if (a.size() == 2) {
    sh.stats = BooleanValue(a[1]) ? 1 : 0;
  } else if (a.size() == 1) {
    DisplayStats(sh);
  } else {
    std::fprintf(stderr, "Usage: .stats ?on|off|stmt|vmstep?\n");
    return 1;
  }
  return 0;
}

}  // namespace shell
