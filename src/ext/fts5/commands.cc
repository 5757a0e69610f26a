// The special INSERT commands of an fts5 table ('delete-all', 'rebuild',
// 'optimize', 'merge', 'integrity-check' and the %_config options), and
// the integrity check.
#include <map>
#include <set>
#include <tuple>

#include "ext/fts5/integrity.h"
#include "ext/fts5/module.h"

namespace basalt::fts5 {
namespace {

// (term, rowid, column, offset) of every token, the check's unit.
using Posting = std::tuple<std::string, int64_t, uint64_t>;

struct CheckCtx {
  const Config* cfg;
  std::set<Posting>* out;
  int64_t rowid;
  int col;
  int size = 0;
};

int CollectToken(void* ctx, int flags, const char* tok, int n, int, int) {
  auto* c = static_cast<CheckCtx*>(ctx);
  if (n > kMaxTokenSize) n = kMaxTokenSize;
  if ((flags & FTS5_TOKEN_COLOCATED) == 0 || c->size == 0) ++c->size;
  uint64_t pos = c->cfg->detail == Detail::kFull
                     ? (uint64_t(c->col) << 32) | uint64_t(c->size - 1)
                     : (c->cfg->detail == Detail::kColumn ? uint64_t(c->col) << 32 : 0);
  c->out->insert({std::string(1, kMainPrefix) + std::string(tok, n), c->rowid, pos});
  return SQLITE_OK;
}

}  // namespace

int Table::Integrity() {
  int rc = index->Flush();
  if (rc != SQLITE_OK) return rc;
  if ((rc = CheckIndexTrees(index.get())) != SQLITE_OK) return rc;
  std::vector<std::pair<std::string, RawDoclist>> terms;
  if ((rc = index->ScanTerms(std::string(1, kMainPrefix), &terms, true)) != SQLITE_OK) return rc;
  if ((rc = CheckPrefixIndexes(index.get(), terms)) != SQLITE_OK) return rc;
  if (cfg.content == Content::kNone) return SQLITE_OK;
  std::set<Posting> from_index, from_content;
  std::vector<uint64_t> pos;
  for (auto& [term, dl] : terms) {
    for (RawEntry& e : dl) {
      if (cfg.detail == Detail::kNone) {
        from_index.insert({term, e.rowid, 0});
        continue;
      }
      DecodePositions(e.pos, cfg.detail, &pos);
      for (uint64_t p : pos) from_index.insert({term, e.rowid, p});
    }
  }
  Stmt scan;
  if ((rc = scan.Prepare(cfg.db, ContentSelect())) != SQLITE_OK) return rc;
  int64_t nrow = 0;
  std::vector<int64_t> totals(cfg.ncol(), 0);
  while ((rc = sqlite3_step(scan)) == SQLITE_ROW) {
    ++nrow;
    int64_t rowid = sqlite3_column_int64(scan, 0);
    std::vector<int> sizes;
    bool found = false;
    if (cfg.columnsize && (rc = DocSize(rowid, &sizes, &found)) != SQLITE_OK) return rc;
    if (cfg.columnsize && !found) return SQLITE_CORRUPT_VTAB;
    for (int i = 0; i < cfg.ncol(); ++i) {
      if (cfg.unindexed[i]) continue;
      CheckCtx ctx{&cfg, &from_content, rowid, i};
      const char* t = reinterpret_cast<const char*>(sqlite3_column_text(scan, i + 1));
      rc = cfg.Tokenize(FTS5_TOKENIZE_DOCUMENT, t, sqlite3_column_bytes(scan, i + 1), &ctx,
                        &CollectToken);
      if (rc != SQLITE_OK) return rc;
      totals[i] += ctx.size;
      if (cfg.columnsize && sizes[i] != ctx.size) return SQLITE_CORRUPT_VTAB;
    }
  }
  if (rc != SQLITE_DONE) return rc;
  if (from_index != from_content) return SQLITE_CORRUPT_VTAB;
  totals_valid = false;
  if ((rc = LoadTotals()) != SQLITE_OK) return rc;
  if (total_rows != nrow || total_size != totals) return SQLITE_CORRUPT_VTAB;
  return SQLITE_OK;
}

int SpecialInsert(Table* t, const char* cmd, sqlite3_value* arg) {
  const Config& cfg = t->cfg;
  if (sqlite3_stricmp(cmd, "delete-all") == 0) {
    if (cfg.content == Content::kNormal) {
      t->SetError(
          "'delete-all' may only be used with a contentless or external content fts5 table");
      return SQLITE_ERROR;
    }
    return t->DeleteAll();
  }
  if (sqlite3_stricmp(cmd, "rebuild") == 0) {
    if (cfg.content == Content::kNone) {
      t->SetError("'rebuild' may not be used with a contentless fts5 table");
      return SQLITE_ERROR;
    }
    return t->Rebuild();
  }
  if (sqlite3_stricmp(cmd, "optimize") == 0) return t->index->Optimize();
  if (sqlite3_stricmp(cmd, "merge") == 0) return t->index->Merge(sqlite3_value_int(arg));
  if (sqlite3_stricmp(cmd, "integrity-check") == 0) return t->Integrity();
  Structure s;
  int rc = t->index->ReadStructure(&s);  // reloads %_config if it changed
  if (rc != SQLITE_OK) return rc;
  bool bad = false;
  rc = t->cfg.SetValue(cmd, arg, &bad);
  if (rc == SQLITE_OK && bad) return SQLITE_ERROR;
  if (rc == SQLITE_OK) rc = t->ConfigValue(cmd, arg, 0);
  return rc;
}

}  // namespace basalt::fts5
