#include "kill_workload.h"

#include <algorithm>

namespace basalt::testing {

const char* const kKillSchema =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, w INT, txn INT, k INT, upd INT, v TEXT);\n"
    "CREATE UNIQUE INDEX t_key ON t(w, txn, k);\n"
    "CREATE INDEX t_upd ON t(upd, w);\n"
    "CREATE TABLE c(w INT, txn INT, rows INT, PRIMARY KEY(w, txn));\n"
    "CREATE TABLE h(w INTEGER PRIMARY KEY, last INT);\n";

namespace {

// A 64-bit mixing step (the finalizer of a counter-based generator): every
// output bit depends on every input bit.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string Num(int64_t v) { return std::to_string(v); }

}  // namespace

int RowsIn(int64_t txn) { return txn % 9 == 4 ? 24 : 4 + static_cast<int>(txn % 3); }

std::string Payload(int slot, int64_t txn, int k, int64_t upd) {
  uint64_t h = Mix(Mix(Mix(static_cast<uint64_t>(slot) + 1) ^ static_cast<uint64_t>(txn)) ^
                   (static_cast<uint64_t>(k) << 32 | static_cast<uint64_t>(upd)));
  // Half small, three in ten a few hundred bytes to a page, one in five
  // spread over several overflow pages (the default page is 4096 bytes).
  size_t len;
  uint64_t pick = h % 100;
  if (pick < 50) {
    len = 1 + (h >> 8) % 200;
  } else if (pick < 80) {
    len = 300 + (h >> 8) % 3800;
  } else {
    len = 4000 + (h >> 8) % 8000;
  }
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out(len, ' ');
  uint64_t x = h;
  for (size_t i = 0; i < len; ++i) {
    if (i % 8 == 0) x = Mix(x);
    out[i] = kAlphabet[(x >> (8 * (i % 8))) % 62];
  }
  return out;
}

std::string TxnSql(int slot, int64_t txn) {
  const std::string s = Num(slot), n = Num(txn);
  std::string sql = "BEGIN IMMEDIATE;\n";
  for (int k = 0; k < RowsIn(txn); ++k) {
    sql += "INSERT INTO t(w, txn, k, upd, v) VALUES(" + s + ", " + n + ", " + Num(k) + ", 0, '" +
           Payload(slot, txn, k, 0) + "');\n";
  }
  if (txn > 1) {
    for (int k = 0; k < RowsIn(txn - 1); k += 2) {
      sql += "UPDATE t SET upd = " + n + ", v = '" + Payload(slot, txn - 1, k, txn) +
             "' WHERE w = " + s + " AND txn = " + Num(txn - 1) + " AND k = " + Num(k) + ";\n";
    }
  }
  if (txn > 3) sql += "DELETE FROM t WHERE w = " + s + " AND txn = " + Num(txn - 3) + ";\n";
  sql += "INSERT INTO c(w, txn, rows) VALUES(" + s + ", " + n + ", " + Num(RowsIn(txn)) + ");\n";
  sql += "INSERT OR REPLACE INTO h(w, last) VALUES(" + s + ", " + n + ");\n";
  sql += "COMMIT;\n";
  return sql;
}

std::string SlotStateQuery(int slot) {
  const std::string s = Num(slot);
  return "SELECT 'T', txn, k, upd, v FROM t WHERE w = " + s + " ORDER BY txn, k;\n" +
         "SELECT 'C', count(*), coalesce(sum(txn), 0), coalesce(sum(rows), 0), "
         "coalesce(max(txn), 0) FROM c WHERE w = " +
         s + ";\n" + "SELECT 'H', last FROM h WHERE w = " + s + ";\n";
}

std::string ExpectedSlotState(int slot, int64_t m) {
  std::string out;
  for (int64_t j = std::max<int64_t>(1, m - 2); j <= m; ++j) {
    for (int k = 0; k < RowsIn(j); ++k) {
      int64_t upd = (j + 1 <= m && k % 2 == 0) ? j + 1 : 0;
      out += "T|" + Num(j) + "|" + Num(k) + "|" + Num(upd) + "|" + Payload(slot, j, k, upd) + "\n";
    }
  }
  int64_t rows = 0;
  for (int64_t j = 1; j <= m; ++j) rows += RowsIn(j);
  out += "C|" + Num(m) + "|" + Num(m * (m + 1) / 2) + "|" + Num(rows) + "|" + Num(m) + "\n";
  if (m > 0) out += "H|" + Num(m) + "\n";
  return out;
}

std::string FirstDifference(const std::string& got, const std::string& want) {
  if (got == want) return "";
  size_t line = 1, start = 0, i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) {
    if (got[i] == '\n') {
      ++line;
      start = i + 1;
    }
    ++i;
  }
  auto excerpt = [&](const std::string& s) {
    size_t end = s.find('\n', start);
    std::string l = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (start >= s.size()) return std::string("<end>");
    return l.size() > 80 ? l.substr(0, 80) + "...(" + Num(static_cast<int64_t>(l.size())) + ")" : l;
  };
  return "line " + Num(static_cast<int64_t>(line)) + ": got [" + excerpt(got) + "], want [" +
         excerpt(want) + "]";
}

}  // namespace basalt::testing
