// Helpers for the file-backed pager tests: temporary directories, running
// the real sqlite3, and a small schema of text tables built through the
// B-tree API (records encoded by btree_test_util.h).
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "btree/btree.h"
#include "btree_test_util.h"
#include "os/vfs.h"
#include "pager/file_pager.h"

namespace basalt::testing {

inline constexpr const char* kSqlite3 = "/usr/bin/sqlite3";
inline bool HaveSqlite() { return access(kSqlite3, X_OK) == 0; }

// A fresh directory under /tmp, removed (with its files) when destroyed.
class TempDir {
 public:
  TempDir() {
    char buf[] = "/tmp/basalt_pager_XXXXXX";
    char* p = mkdtemp(buf);
    path_ = p ? p : "/tmp";
  }
  ~TempDir() {
    DIR* d = opendir(path_.c_str());
    if (d == nullptr) return;
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") unlink((path_ + "/" + n).c_str());
    }
    closedir(d);
    rmdir(path_.c_str());
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void WriteWholeFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

// Runs `sqlite3 -batch db` with `sql` on stdin; returns stdout+stderr,
// trailing newlines trimmed.
inline std::string RunSqlite(const std::string& db, const std::string& sql) {
  std::string script = db + ".sql";
  WriteWholeFile(script, sql + "\n");
  std::string cmd = std::string(kSqlite3) + " -batch '" + db + "' < '" + script + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  if (p != nullptr) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  unlink(script.c_str());
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

inline std::unique_ptr<Btree> OpenBtree(Vfs* vfs, const std::string& path,
                                        const PagerOptions& opt = PagerOptions(),
                                        FilePager** fp = nullptr, Status* err = nullptr) {
  auto pager = FilePager::Open(vfs, path, opt);
  if (!pager.ok()) {
    if (err) *err = pager.status();
    return nullptr;
  }
  if (fp) *fp = pager->get();
  auto bt = Btree::Open(std::move(pager).value());
  if (!bt.ok()) {
    if (err) *err = bt.status();
    return nullptr;
  }
  return std::move(bt).value();
}

// Adds "CREATE TABLE name(v)" to sqlite_schema with a new root (inside a
// write transaction).
inline Status CreateTextTable(Btree& bt, const std::string& name, Pgno* root) {
  ASSIGN_OR_RETURN(*root, bt.CreateTree(TreeKind::kTable));
  BtCursor schema;
  TRY(bt.OpenCursor(1, true, &schema));
  TRY(schema.Last());
  int64_t rowid = schema.eof() ? 1 : schema.rowid() + 1;
  std::string rec =
      EncodeRecordForTest({Field::Text("table"), Field::Text(name), Field::Text(name),
                           Field::Int(*root), Field::Text("CREATE TABLE " + name + "(v)")});
  TRY(schema.InsertRow(rowid, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size())));
  uint32_t cookie = 0;
  TRY(bt.GetMeta(Meta::kSchemaCookie, &cookie));
  return bt.SetMeta(Meta::kSchemaCookie, cookie + 1);
}

// The root page of table `name` per sqlite_schema (0 if absent).
inline Status FindTable(Btree& bt, const std::string& name, Pgno* root) {
  *root = 0;
  bool own = !bt.in_transaction();
  if (own) TRY(bt.BeginTransaction(false));
  Status st = [&]() -> Status {
    if (bt.page_count() == 0) return Status();
    BtCursor c;
    TRY(bt.OpenCursor(1, false, &c));
    TRY(c.First());
    while (!c.eof()) {
      std::string rec = Payload(c);
      std::vector<Field> f;
      if (DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size()),
                              &f) &&
          f.size() == 5 && f[1].s == name) {
        *root = Pgno(f[3].i);
      }
      TRY(c.Next());
    }
    return Status();
  }();
  if (own) {
    Status end = bt.Commit();
    if (st.ok()) st = end;
  }
  return st;
}

inline Status PutText(Btree& bt, Pgno root, int64_t rowid, const std::string& v) {
  BtCursor c;
  TRY(bt.OpenCursor(root, true, &c));
  std::string rec = EncodeRecordForTest({Field::Text(v)});
  return c.InsertRow(rowid, reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size()));
}

inline Status DeleteRow(Btree& bt, Pgno root, int64_t rowid) {
  BtCursor c;
  TRY(bt.OpenCursor(root, true, &c));
  int res = 0;
  TRY(c.SeekRowid(rowid, &res));
  if (res != 0 || c.eof()) return Status();
  return c.Delete();
}

// Every row of a text table (inside the current transaction, or its own).
inline Status ReadTextRows(Btree& bt, Pgno root, std::map<int64_t, std::string>* out) {
  out->clear();
  bool own = !bt.in_transaction();
  if (own) TRY(bt.BeginTransaction(false));
  Status st = [&]() -> Status {
    BtCursor c;
    TRY(bt.OpenCursor(root, false, &c));
    TRY(c.First());
    while (!c.eof()) {
      std::string rec = Payload(c);
      std::vector<Field> f;
      if (!DecodeRecordForTest(reinterpret_cast<const uint8_t*>(rec.data()), uint32_t(rec.size()),
                               &f) ||
          f.size() != 1) {
        return CORRUPT();
      }
      (*out)[c.rowid()] = f[0].s;
      TRY(c.Next());
    }
    return Status();
  }();
  if (own) {
    Status end = bt.Commit();
    if (st.ok()) st = end;
  }
  return st;
}

// The same rows as sqlite3 prints them for "SELECT rowid, v FROM t".
inline std::string FormatRows(const std::map<int64_t, std::string>& rows) {
  std::string s;
  for (const auto& [k, v] : rows) {
    if (!s.empty()) s += "\n";
    s += std::to_string(k) + "|" + v;
  }
  return s;
}

inline std::vector<std::string> CheckIntegrity(Btree& bt, const std::vector<Pgno>& roots) {
  std::vector<IntegrityRoot> r;
  for (Pgno p : roots) r.push_back(IntegrityRoot{p, nullptr, nullptr});
  std::vector<std::string> msgs;
  bool own = !bt.in_transaction();
  if (own && !bt.BeginTransaction(false).ok()) return {"cannot begin"};
  Status st = bt.IntegrityCheck(r, 100, &msgs);
  if (own) (void)bt.Commit();
  if (!st.ok()) msgs.push_back("integrity check failed: " + st.message());
  return msgs;
}

}  // namespace basalt::testing
