// The rows of sqlite_schema (and sqlite_sequence) that DDL maintains
// directly through the B-tree, and dropping trees in an auto-vacuum database,
// where the B-tree moves the largest root into the freed page.
#include <algorithm>

#include "main/connection.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

Status Connection::ReadSchemaFields(BtCursor* cur, std::string* rec, Value* v, int n,
                                    int* nfields) {
  uint32_t len = cur->payload_size();
  rec->assign(len, '\0');
  TRY(cur->ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec->data())));
  if (IsUtf16(enc_)) {
    std::string utf8;
    TRY(TranscodeRecord(reinterpret_cast<const uint8_t*>(rec->data()), len, enc_, kUtf8, &utf8));
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

Status Connection::WriteSchemaRecord(BtCursor* cur, int64_t rowid, const std::string& rec) {
  const std::string* out = &rec;
  std::string encoded;
  if (IsUtf16(enc_)) {
    TRY(TranscodeRecord(reinterpret_cast<const uint8_t*>(rec.data()),
                        static_cast<uint32_t>(rec.size()), kUtf8, enc_, &encoded));
    out = &encoded;
  }
  return cur->InsertRow(rowid, reinterpret_cast<const uint8_t*>(out->data()),
                        static_cast<uint32_t>(out->size()));
}

void Connection::SetTextEncoding(uint8_t enc) {
  enc_ = enc;
  if (env_.encs.empty()) env_.encs.resize(1, kUtf8);
  env_.encs[0] = enc;
  main_->SetNewDatabaseEncoding(enc);
}

Status Connection::InsertSchemaRow(std::string_view type, std::string_view name,
                                   std::string_view tbl, uint32_t root, std::string_view sql) {
  Value vals[5];
  vals[0].SetTextStatic(type);
  vals[1].SetTextStatic(name);
  vals[2].SetTextStatic(tbl);
  vals[3].SetInt(root);
  if (sql.data() != nullptr && !sql.empty()) vals[4].SetTextStatic(sql);
  std::string rec;
  EncodeRecord(vals, 5, &rec);
  BtCursor cur;
  TRY(main_->OpenCursor(1, true, &cur));
  TRY(cur.Last());
  int64_t rowid = cur.eof() ? 1 : cur.rowid() + 1;
  TRY(WriteSchemaRecord(&cur, rowid, rec));
  schema_changed_in_txn_ = true;
  return Status();
}

// Deletes the rows of table `root` whose first column is `name`.
Status Connection::DeleteRowsNamed(uint32_t root, std::string_view name) {
  BtCursor cur;
  TRY(main_->OpenCursor(root, true, &cur));
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
Status Connection::DeleteSchemaRows(std::string_view name) {
  BtCursor cur;
  TRY(main_->OpenCursor(1, true, &cur));
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
  schema_changed_in_txn_ = true;
  return Status();
}

// Drops trees largest root first: in an auto-vacuum database each drop may
// move the tree with the largest root into the freed page, and going from
// the largest down never moves a tree still to be dropped.
Status Connection::DropTrees(std::vector<uint32_t> roots) {
  std::sort(roots.begin(), roots.end(), std::greater<uint32_t>());
  for (uint32_t root : roots) {
    Pgno moved_from = 0;
    TRY(main_->DropTree(root, &moved_from));
    if (moved_from != 0) TRY(MoveSchemaRoot(moved_from, root));
  }
  return Status();
}

// A tree's root page moved from `from` to `to`: rewrite its sqlite_schema
// row and the in-memory schema object.
Status Connection::MoveSchemaRoot(uint32_t from, uint32_t to) {
  BtCursor cur;
  TRY(main_->OpenCursor(1, true, &cur));
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
  for (auto& [name, t] : schema_.tables()) {
    if (t->root == from) t->root = to;
  }
  for (auto& [name, idx] : schema_.indexes()) {
    if (idx->root == from) idx->root = to;
  }
  schema_.Touch();
  schema_changed_in_txn_ = true;
  return Status();
}

}  // namespace basalt
