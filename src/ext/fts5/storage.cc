// Storage of an fts5 table beside its index: %_content (or the external
// content table), %_docsize, the averages record, and the commands that
// rebuild or check the whole index.
#include <cstring>

#include "ext/fts5/table.h"

namespace basalt::fts5 {

void Table::SetError(const std::string& m) {
  sqlite3_free(base.zErrMsg);
  base.zErrMsg = sqlite3_mprintf("%s", m.c_str());
}

std::string Table::ContentSelect() const {
  std::string sql = "SELECT ";
  if (cfg.content == Content::kExternal) {
    sql += "T." + QuoteIdent(cfg.content_rowid);
    for (const std::string& c : cfg.cols) sql += ", T." + QuoteIdent(c);
    sql += " FROM " + QuoteLiteral(cfg.schema) + "." + QuoteLiteral(cfg.content_table) + " AS T";
  } else {
    sql += "T.id";
    for (int i = 0; i < cfg.ncol(); ++i) sql += ", T.c" + std::to_string(i);
    sql += " FROM " + cfg.Shadow("_content") + " AS T";
  }
  return sql;
}

int Table::LoadTotals(bool cache) {
  if (totals_valid) return SQLITE_OK;
  std::string b;
  int rc = index->ReadAverages(&b);
  if (rc != SQLITE_OK) return rc;
  total_size.assign(cfg.ncol(), 0);
  total_rows = 0;
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  const uint8_t* end = p + b.size();
  uint64_t v;
  int k;
  if (p < end && (k = GetVarint(p, end, &v)) > 0) {
    total_rows = static_cast<int64_t>(v);
    p += k;
  }
  for (int i = 0; i < cfg.ncol() && p < end; ++i) {
    if ((k = GetVarint(p, end, &v)) == 0) break;
    total_size[i] = static_cast<int64_t>(v);
    p += k;
  }
  totals_valid = cache;
  return SQLITE_OK;
}

int Table::SaveTotals() {
  std::string b;
  PutVarint(&b, static_cast<uint64_t>(total_rows));
  for (int64_t s : total_size) PutVarint(&b, static_cast<uint64_t>(s));
  return index->WriteAverages(b);
}

int Table::Sync() {
  int rc = SQLITE_OK;
  sqlite3_int64 last = sqlite3_last_insert_rowid(cfg.db);
  if (totals_valid) {
    rc = SaveTotals();
    totals_valid = false;
  }
  if (rc == SQLITE_OK) rc = index->Flush();
  sqlite3_set_last_insert_rowid(cfg.db, last);
  return rc;
}

namespace {

struct TokCtx {
  Index* index;
  int col;  // -1: delete markers
  int size = 0;
};

int OnToken(void* ctx, int flags, const char* tok, int n, int, int) {
  auto* c = static_cast<TokCtx*>(ctx);
  if (n > kMaxTokenSize) n = kMaxTokenSize;
  if ((flags & FTS5_TOKEN_COLOCATED) == 0 || c->size == 0) ++c->size;
  return c->index->Write(c->col, c->size - 1, tok, n);
}

}  // namespace

int Table::IndexInsert(sqlite3_value** vals, int64_t rowid) {
  int rc = LoadTotals();
  if (rc == SQLITE_OK) rc = index->BeginWrite(rowid, false);
  std::string docsize;
  for (int i = 0; rc == SQLITE_OK && i < cfg.ncol(); ++i) {
    TokCtx ctx{index.get(), i};
    if (!cfg.unindexed[i]) {
      const char* t = reinterpret_cast<const char*>(sqlite3_value_text(vals[i]));
      int n = sqlite3_value_bytes(vals[i]);
      rc = cfg.Tokenize(FTS5_TOKENIZE_DOCUMENT, t, n, &ctx, &OnToken);
      total_size[i] += ctx.size;
    }
    PutVarint(&docsize, static_cast<uint64_t>(ctx.size));
  }
  ++total_rows;
  if (rc == SQLITE_OK && cfg.columnsize) {
    Stmt& s = docsize_write;
    if (!s) rc = s.Prepare(cfg.db, "REPLACE INTO " + cfg.Shadow("_docsize") + " VALUES(?,?)");
    if (rc == SQLITE_OK) {
      sqlite3_bind_int64(s, 1, rowid);
      sqlite3_bind_blob(s, 2, docsize.data(), static_cast<int>(docsize.size()), SQLITE_STATIC);
      sqlite3_step(s);
      rc = sqlite3_reset(s);
    }
  }
  return rc;
}

int Table::ContentInsert(sqlite3_value** argv, int64_t* rowid) {
  // argv[1] is the new rowid, argv[2..] the column values.
  if (cfg.content != Content::kNormal) {
    if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
      *rowid = sqlite3_value_int64(argv[1]);
      return SQLITE_OK;
    }
    if (!cfg.columnsize) return SQLITE_MISMATCH;
    Stmt s;
    int rc = s.Prepare(cfg.db, "REPLACE INTO " + cfg.Shadow("_docsize") + " VALUES(?,?)");
    if (rc != SQLITE_OK) return rc;
    sqlite3_step(s);
    rc = sqlite3_reset(s);
    *rowid = sqlite3_last_insert_rowid(cfg.db);
    return rc;
  }
  Stmt& s = content_write;
  if (!s) {
    std::string sql = "INSERT INTO " + cfg.Shadow("_content") + " VALUES(?";
    for (int i = 0; i < cfg.ncol(); ++i) sql += ",?";
    sql += ")";
    int rc = s.Prepare(cfg.db, sql);
    if (rc != SQLITE_OK) return rc;
  }
  int rc;
  for (int i = 0; i <= cfg.ncol(); ++i) sqlite3_bind_value(s, i + 1, argv[i + 1]);
  sqlite3_step(s);
  rc = sqlite3_reset(s);
  *rowid = sqlite3_last_insert_rowid(cfg.db);
  return rc;
}

int Table::DeleteById(Stmt* s, const char* shadow, int64_t rowid) {
  if (!*s) {
    int rc = s->Prepare(cfg.db, "DELETE FROM " + cfg.Shadow(shadow) + " WHERE id=?");
    if (rc != SQLITE_OK) return rc;
  }
  sqlite3_bind_int64(*s, 1, rowid);
  sqlite3_step(*s);
  return sqlite3_reset(*s);
}

void Table::ResetStatements() {
  index->store()->Reset();
  for (Stmt* s :
       {&docsize_stmt, &docsize_write, &content_write, &docsize_delete, &content_delete}) {
    s->Finalize();
  }
}

int Table::Delete(int64_t rowid, sqlite3_value** vals) {
  int rc = LoadTotals();
  if (rc != SQLITE_OK) return rc;
  Stmt seek;
  if (vals == nullptr && cfg.content != Content::kNone) {
    std::string col = cfg.content == Content::kExternal ? QuoteIdent(cfg.content_rowid) : "id";
    rc = seek.Prepare(cfg.db, ContentSelect() + " WHERE T." + col + "=?");
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(seek, 1, rowid);
    rc = sqlite3_step(seek);
    if (rc != SQLITE_ROW) rc = sqlite3_reset(seek);
  }
  if (vals != nullptr || rc == SQLITE_ROW) {
    rc = index->BeginWrite(rowid, true);
    for (int i = 0; rc == SQLITE_OK && i < cfg.ncol(); ++i) {
      if (cfg.unindexed[i]) continue;
      const char* t;
      int n;
      if (vals != nullptr) {
        t = reinterpret_cast<const char*>(sqlite3_value_text(vals[i]));
        n = sqlite3_value_bytes(vals[i]);
      } else {
        t = reinterpret_cast<const char*>(sqlite3_column_text(seek, i + 1));
        n = sqlite3_column_bytes(seek, i + 1);
      }
      TokCtx ctx{index.get(), -1};
      rc = cfg.Tokenize(FTS5_TOKENIZE_DOCUMENT, t, n, &ctx, &OnToken);
      total_size[i] -= ctx.size;
      if (total_size[i] < 0) rc = SQLITE_CORRUPT_VTAB;
    }
    if (rc == SQLITE_OK && total_rows < 1)
      rc = SQLITE_CORRUPT_VTAB;
    else
      --total_rows;
  }
  if (rc != SQLITE_OK) return rc;
  if (cfg.columnsize) rc = DeleteById(&docsize_delete, "_docsize", rowid);
  if (rc == SQLITE_OK && cfg.content == Content::kNormal) {
    rc = DeleteById(&content_delete, "_content", rowid);
  }
  return rc;
}

int Table::ConfigValue(const char* key, sqlite3_value* v, int ival) {
  Stmt s;
  int rc = s.Prepare(cfg.db, "REPLACE INTO " + cfg.Shadow("_config") + " VALUES(?,?)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
  if (v != nullptr) {
    sqlite3_bind_value(s, 2, v);
  } else {
    sqlite3_bind_int(s, 2, ival);
  }
  sqlite3_step(s);
  rc = sqlite3_reset(s);
  if (rc == SQLITE_OK && v != nullptr) {
    uint32_t cookie = cfg.cookie + 1;
    rc = index->SetCookie(cookie);
    if (rc == SQLITE_OK) cfg.cookie = cookie;
  }
  return rc;
}

int Table::DeleteAll() {
  totals_valid = false;
  std::string sql =
      "DELETE FROM " + cfg.Shadow("_data") + ";DELETE FROM " + cfg.Shadow("_idx") + ";";
  if (cfg.columnsize) sql += "DELETE FROM " + cfg.Shadow("_docsize") + ";";
  ResetStatements();
  int rc = ExecSql(cfg.db, sql, nullptr);
  if (rc == SQLITE_OK) rc = index->Reinit();
  if (rc == SQLITE_OK) rc = ConfigValue("version", nullptr, kFileFormatVersion);
  return rc;
}

int Table::Rebuild() {
  int rc = DeleteAll();
  if (rc == SQLITE_OK) rc = LoadTotals();
  if (rc != SQLITE_OK) return rc;
  Stmt scan;
  std::string col = cfg.content == Content::kExternal ? QuoteIdent(cfg.content_rowid) : "id";
  rc = scan.Prepare(cfg.db, ContentSelect() + " ORDER BY T." + col + " ASC");
  if (rc != SQLITE_OK) return rc;
  std::vector<sqlite3_value*> vals(cfg.ncol());
  while ((rc = sqlite3_step(scan)) == SQLITE_ROW) {
    for (int i = 0; i < cfg.ncol(); ++i) vals[i] = sqlite3_column_value(scan, i + 1);
    rc = IndexInsert(vals.data(), sqlite3_column_int64(scan, 0));
    if (rc != SQLITE_OK) return rc;
  }
  if (rc != SQLITE_DONE) return rc;
  return SaveTotals();
}

int Table::DocSize(int64_t rowid, std::vector<int>* sizes, bool* found) {
  Stmt& s = docsize_stmt;
  if (!s) {
    int rc = s.Prepare(cfg.db, "SELECT sz FROM " + cfg.Shadow("_docsize") + " WHERE id=?");
    if (rc != SQLITE_OK) return rc;
  }
  sqlite3_bind_int64(s, 1, rowid);
  sizes->assign(cfg.ncol(), 0);
  *found = sqlite3_step(s) == SQLITE_ROW;
  if (*found) {
    const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s, 0));
    const uint8_t* end = p + sqlite3_column_bytes(s, 0);
    for (int i = 0; i < cfg.ncol() && p < end; ++i) {
      uint64_t v;
      int k = GetVarint(p, end, &v);
      if (k == 0) break;
      (*sizes)[i] = static_cast<int>(v);
      p += k;
    }
  }
  return sqlite3_reset(s);
}

}  // namespace basalt::fts5
