// .lint fkey-indexes: foreign keys whose child columns no index covers
// (so that every parent-row change scans the child table), each with the
// CREATE INDEX statement that would fix it.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct ForeignKey {
  std::string child, parent;
  std::vector<std::string> from, to;
};

std::vector<std::string> Tables(sqlite3* db) {
  std::vector<std::string> t;
  ForEachRow(db, "SELECT name FROM sqlite_schema WHERE type='table' ORDER BY name",
             [&](sqlite3_stmt* st) { t.push_back(ColText(st, 0)); });
  return t;
}

// The parent's primary key columns, for a REFERENCES clause without them.
std::vector<std::string> PrimaryKey(sqlite3* db, const std::string& table) {
  std::map<int, std::string> pk;
  ForEachRow(db, "PRAGMA table_info=" + QuoteLiteral(table), [&](sqlite3_stmt* st) {
    if (int k = sqlite3_column_int(st, 5)) pk[k] = ColText(st, 1);
  });
  std::vector<std::string> cols;
  for (auto& [k, name] : pk) cols.push_back(name);
  return cols;
}

// True when an index on `table` starts with exactly the columns `cols`, in
// any order (an equality search on them can use it).
bool Covered(sqlite3* db, const std::string& table, const std::vector<std::string>& cols) {
  std::vector<std::string> want = cols;
  for (std::string& c : want) c = QuoteLiteral(c);
  std::sort(want.begin(), want.end());
  std::vector<std::string> indexes;
  ForEachRow(db, "PRAGMA index_list=" + QuoteLiteral(table),
             [&](sqlite3_stmt* st) { indexes.push_back(ColText(st, 1)); });
  for (const std::string& idx : indexes) {
    std::vector<std::string> have;
    ForEachRow(db, "PRAGMA index_info=" + QuoteLiteral(idx), [&](sqlite3_stmt* st) {
      if (have.size() < want.size()) have.push_back(QuoteLiteral(ColText(st, 2)));
    });
    std::sort(have.begin(), have.end());
    if (have == want) return true;
  }
  return false;
}

std::string Join(const std::vector<std::string>& v, const char* sep, bool quote) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) r += sep;
    r += quote ? QuoteLiteral(v[i]) : v[i];
  }
  return r;
}

int FkeyIndexes(Shell& sh, const std::vector<std::string>& a) {
  bool verbose = false, by_parent = false;
  for (size_t i = 2; i < a.size(); ++i) {
    const int n = static_cast<int>(a[i].size());
    if (n > 1 && sqlite3_strnicmp("-verbose", a[i].c_str(), n) == 0) {
      verbose = true;
    } else if (n > 1 && sqlite3_strnicmp("-groupbyparent", a[i].c_str(), n) == 0) {
      by_parent = true;
    } else {
      std::fprintf(stderr, "Usage: %s %s ?-verbose? ?-groupbyparent?\n", a[0].c_str(),
                   a[1].c_str());
      return 1;
    }
  }
  std::vector<ForeignKey> fks;
  for (const std::string& t : Tables(sh.db)) {
    std::map<int, ForeignKey> by_id;
    ForEachRow(sh.db, "PRAGMA foreign_key_list=" + QuoteLiteral(t), [&](sqlite3_stmt* st) {
      ForeignKey& fk = by_id[sqlite3_column_int(st, 0)];
      fk.child = t;
      fk.parent = ColText(st, 2);
      fk.from.push_back(ColText(st, 3));
      fk.to.push_back(sqlite3_column_type(st, 4) == SQLITE_NULL ? "" : ColText(st, 4));
    });
    for (auto& [id, fk] : by_id) {
      std::vector<std::string> pk = PrimaryKey(sh.db, fk.parent);
      for (size_t i = 0; i < fk.to.size(); ++i) {
        if (fk.to[i].empty() && i < pk.size()) fk.to[i] = pk[i];
      }
      fks.push_back(fk);
    }
  }
  if (by_parent) {
    std::stable_sort(fks.begin(), fks.end(),
                     [](const ForeignKey& x, const ForeignKey& y) { return x.parent < y.parent; });
  }
  std::string prev;
  const char* indent = by_parent ? "    " : "";
  for (const ForeignKey& fk : fks) {
    const bool ok = Covered(sh.db, fk.child, fk.from);
    const std::string target = fk.parent + "(" + Join(fk.to, ",", false) + ")";
    if (by_parent && (verbose || !ok) && sqlite3_stricmp(fk.parent.c_str(), prev.c_str()) != 0) {
      std::fprintf(sh.out, "-- Parent table %s\n", fk.parent.c_str());
      prev = fk.parent;
    }
    if (!ok) {
      std::fprintf(sh.out, "%sCREATE INDEX %s ON %s(%s); --> %s\n", indent,
                   QuoteLiteral(fk.child + "_" + Join(fk.from, "_", false)).c_str(),
                   QuoteLiteral(fk.child).c_str(), Join(fk.from, ", ", true).c_str(),
                   target.c_str());
    } else if (verbose) {
      std::fprintf(sh.out, "%s/* no extra indexes required for %s(%s) -> %s */\n", indent,
                   fk.child.c_str(), Join(fk.from, ", ", false).c_str(), target.c_str());
    }
  }
  return 0;
}

}  // namespace

int DotLint(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, false);
  if (a.size() >= 2 && a[1].size() > 1 &&
      sqlite3_strnicmp("fkey-indexes", a[1].c_str(), static_cast<int>(a[1].size())) == 0) {
    FkeyIndexes(sh, a);
    return 0;
  }
  std::fprintf(stderr, "Usage %s sub-command ?switches...?\n", a[0].c_str());
  std::fprintf(stderr, "Where sub-commands are:\n    fkey-indexes\n");
  return 0;
}

}  // namespace shell
