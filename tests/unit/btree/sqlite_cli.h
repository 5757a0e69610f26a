// Running the system sqlite3 shell from tests, exchanging database files
// with it, and a small stand-in for the connection layer's schema handling
// (sqlite_schema rows, tables with indexes kept in step) so that tests can
// change databases the way the engine will and let sqlite3 judge them.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "btree_test_util.h"

namespace basalt::testing {

inline constexpr const char* kSqlite = "/usr/bin/sqlite3";

inline bool HaveSqlite() { return access(kSqlite, X_OK) == 0; }

inline std::string TempPath(const char* tag) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "/tmp/basalt_%s_%d_XXXXXX", tag, int(getpid()));
  int fd = mkstemp(buf);
  if (fd >= 0) close(fd);
  return buf;
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs sqlite3 on `file` with `sql` (fed on standard input); returns its
// output, trailing newlines trimmed.
inline std::string RunSqlite(const std::string& file, const std::string& sql) {
  std::string script = TempPath("sql");
  WriteFile(script, sql + "\n");
  std::string cmd = std::string(kSqlite) + " -batch '" + file + "' < '" + script + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "<popen failed>";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  unlink(script.c_str());
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// One sqlite_schema row.
struct SchemaRow {
  int64_t rowid = 0;
  std::string type, name, tbl, sql;
  Pgno root = 0;
};

// A table of NULL/integer/text columns with its indexes (each a list of
// column numbers; the key is those columns then the rowid), as a model
// and in the database.
struct TableModel {
  std::string name;
  std::vector<std::vector<int>> index_cols;  // parallel to index_names
  std::vector<std::string> index_names;
  std::map<int64_t, std::vector<Field>> rows;
};

// sqlite_schema and the tables it describes, changed through the B-tree API
// inside the caller's write transaction.
class SchemaDb {
 public:
  explicit SchemaDb(std::unique_ptr<Btree> bt) : bt_(std::move(bt)) {}
  Btree& bt() { return *bt_; }
  std::map<std::string, SchemaRow>& rows() { return rows_; }

  // Reads sqlite_schema (inside a transaction).
  void Load() {
    rows_.clear();
    BtCursor s;
    ASSERT_OK(bt_->OpenCursor(1, false, &s));
    ASSERT_OK(s.First());
    while (!s.eof()) {
      std::string rec = Payload(s);
      std::vector<Field> f;
      ASSERT_TRUE(DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()),
                                      uint32_t(rec.size()), &f));
      SchemaRow r;
      r.rowid = s.rowid();
      r.type = f[0].s;
      r.name = f[1].s;
      r.tbl = f[2].s;
      r.root = Pgno(f[3].i);
      r.sql = f[4].s;
      rows_[r.name] = r;
      ASSERT_OK(s.Next());
    }
  }

  // Reads every row of a table into its model.
  void LoadRows(TableModel* t) {
    t->rows.clear();
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root(t->name), false, &c));
    ASSERT_OK(c.First());
    while (!c.eof()) {
      std::string rec = Payload(c);
      std::vector<Field> f;
      ASSERT_TRUE(DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()),
                                      uint32_t(rec.size()), &f));
      t->rows[c.rowid()] = f;
      ASSERT_OK(c.Next());
    }
  }

  Pgno root(const std::string& name) { return rows_.at(name).root; }

  void Add(const std::string& type, const std::string& name, const std::string& tbl,
           const std::string& sql) {
    auto r = bt_->CreateTree(type == "table" ? TreeKind::kTable : TreeKind::kIndex);
    ASSERT_TRUE(r.ok()) << r.status().message();
    SchemaRow row;
    row.rowid = 1;
    for (auto& [n, x] : rows_) row.rowid = std::max(row.rowid, x.rowid + 1);
    row.type = type;
    row.name = name;
    row.tbl = tbl;
    row.root = *r;
    row.sql = sql;
    rows_[name] = row;
    WriteRow(row);
    BumpCookie();
  }

  // Drops a table or index tree; roots that move are updated in
  // sqlite_schema, as the connection layer must.
  void Drop(const std::string& name) {
    SchemaRow gone = rows_.at(name);
    Pgno moved = 0;
    ASSERT_OK(bt_->DropTree(gone.root, &moved));
    BtCursor s;
    ASSERT_OK(bt_->OpenCursor(1, true, &s));
    int res;
    ASSERT_OK(s.SeekRowid(gone.rowid, &res));
    ASSERT_EQ(res, 0);
    ASSERT_OK(s.Delete());
    s.Close();
    rows_.erase(name);
    if (moved != 0) {
      bool found = false;
      for (auto& [n, r] : rows_) {
        if (r.root == moved) {
          r.root = gone.root;
          WriteRow(r);
          found = true;
        }
      }
      ASSERT_TRUE(found) << "moved root " << moved << " not in sqlite_schema";
    }
    BumpCookie();
  }

  void Insert(TableModel& t, int64_t rowid, const std::vector<Field>& f) {
    ASSERT_EQ(t.rows.count(rowid), 0u);
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root(t.name), true, &c));
    std::string rec = EncodeRecordForTest(f);
    ASSERT_OK(
        c.InsertRow(rowid, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
    for (size_t i = 0; i < t.index_names.size(); ++i) {
      BtCursor ix;
      ASSERT_OK(bt_->OpenCursor(root(t.index_names[i]), true, &ix, RecordKeyCompare));
      std::string key = IndexKey(t.index_cols[i], f, rowid);
      ASSERT_OK(ix.InsertKey(reinterpret_cast<const uint8_t*>(key.data()), uint32_t(key.size()),
                             RecordSearch, &key));
    }
    t.rows[rowid] = f;
  }

  void Delete(TableModel& t, int64_t rowid) {
    const std::vector<Field> f = t.rows.at(rowid);
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root(t.name), true, &c));
    int res;
    ASSERT_OK(c.SeekRowid(rowid, &res));
    ASSERT_EQ(res, 0);
    ASSERT_OK(c.Delete());
    for (size_t i = 0; i < t.index_names.size(); ++i) {
      BtCursor ix;
      ASSERT_OK(bt_->OpenCursor(root(t.index_names[i]), true, &ix, RecordKeyCompare));
      std::string key = IndexKey(t.index_cols[i], f, rowid);
      ASSERT_OK(ix.SeekIndex(RecordSearch, &key, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(ix.Delete());
    }
    t.rows.erase(rowid);
  }

  void BumpCookie() {
    uint32_t cookie;
    ASSERT_OK(bt_->GetMeta(Meta::kSchemaCookie, &cookie));
    ASSERT_OK(bt_->SetMeta(Meta::kSchemaCookie, cookie + 1));
  }

  std::vector<IntegrityRoot> IntegrityRoots() {
    std::vector<IntegrityRoot> roots;
    for (auto& [n, r] : rows_) {
      if (r.root == 0) continue;
      roots.push_back({r.root, r.type == "index" ? RecordKeyCompare : nullptr, nullptr});
    }
    return roots;
  }

  // What `SELECT rowid, * FROM t ORDER BY rowid` prints in sqlite3.
  static std::string Dump(const TableModel& t) {
    std::string out;
    for (auto& [rowid, f] : t.rows) {
      if (!out.empty()) out += '\n';
      out += std::to_string(rowid);
      for (const Field& x : f) {
        out += '|';
        if (x.kind == Field::kInt) out += std::to_string(x.i);
        if (x.kind == Field::kText) out += x.s;
      }
    }
    return out;
  }

 private:
  static std::string IndexKey(const std::vector<int>& cols, const std::vector<Field>& f,
                              int64_t rowid) {
    std::vector<Field> k;
    for (int c : cols) k.push_back(c < int(f.size()) ? f[c] : Field::Null());
    k.push_back(Field::Int(rowid));
    return EncodeRecordForTest(k);
  }

  void WriteRow(const SchemaRow& r) {
    BtCursor s;
    ASSERT_OK(bt_->OpenCursor(1, true, &s));
    std::string rec =
        EncodeRecordForTest({Field::Text(r.type), Field::Text(r.name), Field::Text(r.tbl),
                             Field::Int(r.root), Field::Text(r.sql)});
    ASSERT_OK(
        s.InsertRow(r.rowid, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
  }

  std::unique_ptr<Btree> bt_;
  std::map<std::string, SchemaRow> rows_;
};

}  // namespace basalt::testing
