// ANALYZE (lang_analyze): statistics in sqlite_stat1(tbl, idx, stat), one
// row per index with rows ("N a1 a2 ..": N entries, then for each prefix of
// the index's columns the average number of entries sharing a value of that
// prefix, rounded up), and one row (tbl, NULL, N) per table without
// indexes. Empty tables get no row. Prefixes compare with the index's
// collations, NULLs equal to each other, as entries sort in the index.
#include <algorithm>

#include "exec/codegen.h"
#include "main/ddl.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "record/record.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// The stat text of index `idx`: its entry count, then for each column
// prefix the average number of entries per distinct value, rounded up.
Status IndexStat(Database* db, const Index& idx, int64_t* entries, std::string* stat) {
  const size_t k = idx.columns.size();
  std::vector<int64_t> distinct(k, 0);
  std::vector<Value> prev(k), cur(k);
  std::vector<uint32_t> types, offsets;
  std::string buf;
  int64_t n = 0;
  BtCursor c;
  TRY(db->bt->OpenCursor(idx.root, false, &c));
  for (Status st = c.First(); !c.eof(); st = c.Next()) {
    TRY(st);
    const uint32_t len = c.payload_size();
    buf.resize(len);
    TRY(c.ReadPayload(0, len, reinterpret_cast<uint8_t*>(buf.data())));
    const auto* rec = reinterpret_cast<const uint8_t*>(buf.data());
    Result<int> nf = ParseRecordHeader(rec, len, &types, &offsets);
    if (!nf.ok()) return nf.status();
    for (size_t i = 0; i < k; ++i) {
      cur[i].SetNull();
      if (static_cast<int>(i) < *nf) DecodeSerialEnc(rec + offsets[i], types[i], &cur[i], db->enc);
      cur[i].MakeOwned();
    }
    // The first column where this entry differs from the previous one:
    // every prefix from there on has one more distinct value.
    size_t from = 0;
    if (n > 0) {
      while (from < k) {
        const bool both_null = prev[from].is_null() && cur[from].is_null();
        if (!both_null && CompareValues(prev[from], cur[from], idx.collations[from]) != 0) break;
        ++from;
      }
    }
    for (size_t j = from; j < k; ++j) ++distinct[j];
    std::swap(prev, cur);
    ++n;
  }
  *entries = n;
  *stat = std::to_string(n);
  for (size_t j = 0; j < k; ++j) {
    const int64_t d = distinct[j] > 0 ? distinct[j] : 1;
    *stat += ' ';
    *stat += std::to_string((n + d - 1) / d);
  }
  return Status();
}

}  // namespace

// sqlite_stat1 of database db, created (reserved name and all) when missing.
Status DdlExecutor::EnsureStatTable(Database* db) {
  if (db->schema.FindTable("sqlite_stat1") != nullptr) return Status();
  const char* sql = "CREATE TABLE sqlite_stat1(tbl,idx,stat)";
  Arena a;
  Parser parser(&a, a.CopyString(sql));
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  BuiltTable built;
  TRY(BuildTable((*r)->As<ast::CreateTableStmt>(), sql, &built));
  ASSIGN_OR_RETURN(Pgno root, db->bt->CreateTree(TreeKind::kTable));
  built.table->root = root;
  TRY(db->InsertSchemaRow("table", "sqlite_stat1", "sqlite_stat1", root, sql));
  TRY(db->BumpSchemaCookie());
  db->schema.AddTable(std::move(built.table));
  return Status();
}

Status DdlExecutor::RunSql(const std::string& sql) {
  Arena arena;
  std::string_view text = arena.CopyString(sql);
  Parser parser(&arena, text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  CompileContext ctx;
  InitContext(&ctx, &arena);
  ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, CompileStatement(*r, &ctx));
  // Internal statements fire the preupdate hook but not the update hook.
  for (Instr& in : prog->ops) in.p5 &= static_cast<uint8_t>(~kInsUpdHook);
  return Run(prog.get());
}

Status DdlExecutor::AnalyzeTable(Database* db, const Table& t) {
  const std::string stat_table = IdentQuote(db->name) + ".sqlite_stat1";
  TRY(RunSql("DELETE FROM " + stat_table + " WHERE tbl=" + QuoteSql(t.name, '\'')));
  auto insert = [&](std::string_view idx, const std::string& stat) {
    return RunSql("INSERT INTO " + stat_table + " VALUES(" + QuoteSql(t.name, '\'') + "," +
                  (idx.empty() ? std::string("NULL") : QuoteSql(idx, '\'')) + "," +
                  QuoteSql(stat, '\'') + ")");
  };
  // A WITHOUT ROWID table's rows are counted through its primary-key index
  // (whose sqlite_stat1 row carries the table's name, as in SQLite).
  const std::vector<const Index*> indexes = t.IndexesInCreationOrder();
  if (indexes.empty()) {
    BtCursor c;
    TRY(db->bt->OpenCursor(t.root, false, &c));
    int64_t n = 0;
    TRY(c.Count(&n));
    c.Close();
    if (n > 0) TRY(insert({}, std::to_string(n)));
    return Status();
  }
  for (const Index* idx : indexes) {
    int64_t entries = 0;
    std::string stat;
    TRY(IndexStat(db, *idx, &entries, &stat));
    if (entries > 0) TRY(insert(idx->is_table_store() ? t.name : idx->name, stat));
  }
  return Status();
}

Status DdlExecutor::Analyze(ast::AnalyzeStmt* st) {
  // What to analyze: every database but TEMP; one database; or one table
  // (or the table of one index).
  std::vector<int> dbs;
  const Table* only = nullptr;
  const Catalog& cat = store_->catalog();
  if (st->name.empty()) {
    for (int i = 0; i < store_->size(); ++i) {
      if (i != Catalog::kTemp && store_->at(i)->is_open()) dbs.push_back(i);
    }
  } else if (st->schema.empty() && cat.Find(st->name) >= 0) {
    dbs.push_back(cat.Find(st->name));
  } else {
    if (!st->schema.empty() && cat.Find(st->schema) < 0) {
      SetErrorOffset(st->schema);
      return Status(kError, "unknown database " + std::string(st->schema));
    }
    only = cat.FindTable(st->schema, st->name);
    if (only == nullptr) {
      if (const Index* idx = cat.FindIndex(st->schema, st->name)) only = idx->table;
    }
    if (only == nullptr) {
      return Status(
          kError,
          "no such table: " + (st->schema.empty() ? std::string() : std::string(st->schema) + ".") +
              std::string(st->name));
    }
    dbs.push_back(only->db());
  }
  if (dry_run_) return Status();
  for (int i : dbs) {
    Database* db = store_->at(i);
    TRY(store_->EnsureSchema(i));
    std::vector<const Table*> tables;
    if (only != nullptr) {
      tables.push_back(only);
    } else {
      for (const auto& [key, t] : db->schema.tables()) tables.push_back(t.get());
      std::sort(tables.begin(), tables.end(),
                [](const Table* a, const Table* b) { return a->name < b->name; });
    }
    std::vector<const Table*> todo;
    for (const Table* t : tables) {
      if (t->is_view || t->is_virtual || t->root < 2) continue;
      if (t->name.size() >= 7 &&
          EqualsIgnoreCase(std::string_view(t->name).substr(0, 7), "sqlite_")) {
        continue;
      }
      todo.push_back(t);
    }
    TRY(EnsureStatTable(db));
    for (const Table* t : todo) TRY(AnalyzeTable(db, *t));
  }
  return Status();
}

}  // namespace basalt
