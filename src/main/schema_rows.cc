// The rows of sqlite_schema (and sqlite_sequence) that DDL maintains
// directly through the B-tree, and dropping trees in an auto-vacuum database,
// where the B-tree moves the largest root into the freed page.
#include <algorithm>

#include "main/database.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

Status Database::ReadSchemaFields(BtCursor* cur, std::string* rec, Value* v, int n, int* nfields) {
  uint32_t len = cur->payload_size();
  rec->assign(len, '\0');
  TRY(cur->ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec->data())));
  if (IsUtf16(enc)) {
    std::string utf8;
    TRY(TranscodeRecord(reinterpret_cast<const uint8_t*>(rec->data()), len, enc, kUtf8, &utf8));
    rec->swap(utf8);
  }
  const auto* data = reinterpret_cast<const uint8_t*>(rec->data());
  std::vector<uint32_t> types, offsets;
  Result<int> nf = ParseRecordHeader(data, static_cast<uint32_t>(rec->size()), &types, &offsets);
  if (!nf.ok()) return nf.status();
  *nfields = *nf;
  for (int f = 0; f < n; ++f) {
    v[f].SetNull();
    if (f < *nf) {
      DecodeSerial(data + offsets[static_cast<size_t>(f)], types[static_cast<size_t>(f)], &v[f],
                   true);
    }
  }
  return Status();
}

Status Database::WriteSchemaRecord(BtCursor* cur, int64_t rowid, const std::string& rec) {
  const std::string* out = &rec;
  std::string encoded;
  if (IsUtf16(enc)) {
    TRY(TranscodeRecord(reinterpret_cast<const uint8_t*>(rec.data()),
                        static_cast<uint32_t>(rec.size()), kUtf8, enc, &encoded));
    out = &encoded;
  }
  return cur->InsertRow(rowid, reinterpret_cast<const uint8_t*>(out->data()),
                        static_cast<uint32_t>(out->size()));
}

Status Database::InsertSchemaRow(std::string_view type, std::string_view name, std::string_view tbl,
                                 uint32_t root, std::string_view sql) {
  Value vals[5];
  vals[0].SetTextStatic(type);
  vals[1].SetTextStatic(name);
  vals[2].SetTextStatic(tbl);
  vals[3].SetInt(root);
  if (sql.data() != nullptr && !sql.empty()) vals[4].SetTextStatic(sql);
  std::string rec;
  EncodeRecord(vals, 5, &rec);
  BtCursor cur;
  TRY(bt->OpenCursor(1, true, &cur));
  TRY(cur.Last());
  int64_t rowid = cur.eof() ? 1 : cur.rowid() + 1;
  TRY(WriteSchemaRecord(&cur, rowid, rec));
  schema_changed_in_txn = true;
  return Status();
}

// Deletes the rows of table `root` whose first column is `name`.
Status Database::DeleteRowsNamed(uint32_t root, std::string_view name) {
  BtCursor cur;
  TRY(bt->OpenCursor(root, true, &cur));
  TRY(cur.First());
  std::string buf;
  while (!cur.eof()) {
    Value v;
    int nf = 0;
    TRY(ReadSchemaFields(&cur, &buf, &v, 1, &nf));
    if (v.is_text() && v.text() == name) {
      TRY(cur.Delete());
    }
    TRY(cur.Next());
  }
  return Status();
}

// Deletes the sqlite_schema rows whose name (or, for tables, tbl_name) matches.
Status Database::DeleteSchemaRows(std::string_view name) {
  BtCursor cur;
  TRY(bt->OpenCursor(1, true, &cur));
  TRY(cur.First());
  std::string buf;
  while (!cur.eof()) {
    Value v[3];
    int nf = 0;
    TRY(ReadSchemaFields(&cur, &buf, v, 3, &nf));
    bool match = false;
    for (int f = 1; f <= 2; ++f) {
      if (v[f].is_text() && EqualsIgnoreCase(v[f].text(), name)) match = true;
    }
    if (match) TRY(cur.Delete());
    TRY(cur.Next());
  }
  schema_changed_in_txn = true;
  return Status();
}

// Drops trees largest root first: in an auto-vacuum database each drop may
// move the tree with the largest root into the freed page, and going from
// the largest down never moves a tree still to be dropped.
Status Database::DropTrees(std::vector<uint32_t> roots) {
  std::sort(roots.begin(), roots.end(), std::greater<uint32_t>());
  for (uint32_t root : roots) {
    Pgno moved_from = 0;
    TRY(bt->DropTree(root, &moved_from));
    if (moved_from != 0) TRY(MoveSchemaRoot(moved_from, root));
  }
  return Status();
}

// A tree's root page moved from `from` to `to`: rewrite its sqlite_schema
// row and the in-memory schema object.
Status Database::MoveSchemaRoot(uint32_t from, uint32_t to) {
  BtCursor cur;
  TRY(bt->OpenCursor(1, true, &cur));
  TRY(cur.First());
  std::string buf;
  while (!cur.eof()) {
    Value v[5];
    int nf = 0;
    TRY(ReadSchemaFields(&cur, &buf, v, 5, &nf));
    if (nf >= 5) {
      if (v[3].is_int() && v[3].int_value() == static_cast<int64_t>(from)) {
        v[3].SetInt(to);
        std::string rec;
        EncodeRecord(v, 5, &rec);
        int64_t rowid = cur.rowid();
        TRY(WriteSchemaRecord(&cur, rowid, rec));
        break;
      }
    }
    TRY(cur.Next());
  }
  cur.Close();
  for (auto& [name, t] : schema.tables()) {
    if (t->root == from) t->SetRoot(to);
  }
  for (auto& [name, idx] : schema.indexes()) {
    if (idx->root == from) idx->root = to;
  }
  schema.Touch();
  schema_changed_in_txn = true;
  return Status();
}

// sqlite_sequence(name, seq): created with the first AUTOINCREMENT table.
Status Database::CreateSequenceTable() {
  const char* sql = "CREATE TABLE sqlite_sequence(name,seq)";
  Arena a;
  std::string_view text = a.CopyString(sql);
  Parser parser(&a, text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  BuiltTable built;
  TRY(BuildTable((*r)->As<ast::CreateTableStmt>(), sql, &built));
  ASSIGN_OR_RETURN(Pgno root, bt->CreateTree(TreeKind::kTable));
  built.table->root = root;
  TRY(InsertSchemaRow("table", "sqlite_sequence", "sqlite_sequence", root, sql));
  schema.AddTable(std::move(built.table));
  return Status();
}

}  // namespace basalt
