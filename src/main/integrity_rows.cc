// The row-level part of PRAGMA integrity_check and quick_check, run after
// the B-tree structure checks: NOT NULL columns hold no NULL and (full
// check only) every row has its entry in each index of its table and each
// index has as many entries as the table has rows; the columns of a STRICT
// table hold values of their types. Partial indexes, indexes on expressions
// or VIRTUAL generated columns, and the values of VIRTUAL columns are left
// out (they need the VM).
#include "main/database.h"
#include "main/pragma_families.h"
#include "record/record.h"

namespace basalt {
namespace {

struct KeySearch {
  const Value* vals;
  int n;
  const KeyInfo* ki;
  Status* status;
};

int CompareWithKey(void* ctx, const uint8_t* key, uint32_t n) {
  auto* s = static_cast<KeySearch*>(ctx);
  return CompareRecordWithKey(key, n, s->vals, s->n, *s->ki, 0, s->status);
}

bool PlainIndex(const Index& idx) {
  if (!idx.where_sql.empty()) return false;
  for (int c : idx.columns) {
    if (c < 0 || idx.table->columns[static_cast<size_t>(c)].is_virtual()) return false;
  }
  return true;
}

// Whether a field of serial type `type` suits STRICT column type `decl`
// (one of INT, INTEGER, REAL, TEXT, BLOB, ANY). NULL always does; REAL
// columns may hold integers (SQLite stores integral reals that way).
bool FitsStrict(std::string_view decl, uint32_t type) {
  const bool is_int = (type >= 1 && type <= 6) || type == 8 || type == 9;
  if (type == 0 || decl.empty()) return true;
  switch (decl[0]) {
    case 'I':
      return is_int;
    case 'R':
      return is_int || type == 7;
    case 'T':
      return type >= 13 && (type & 1) == 1;
    case 'B':
      return type >= 12 && (type & 1) == 0;
    default:
      return true;
  }
}

}  // namespace

void CheckTableRows(Database* db, const Table& t, bool full, size_t max_errors,
                    std::vector<std::string>* msgs) {
  std::vector<const Index*> idxs;
  if (full) {
    for (const Index* idx : t.indexes) {
      if (idx->root > 1 && PlainIndex(*idx)) idxs.push_back(idx);
    }
  }
  // Columns to check: NOT NULL ones, and all of a STRICT table.
  std::vector<int> checked;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    const Column& col = t.columns[c];
    if ((col.not_null || t.strict) && static_cast<int>(c) != t.rowid_alias && !col.is_virtual()) {
      checked.push_back(static_cast<int>(c));
    }
  }
  if ((idxs.empty() && checked.empty()) || t.root <= 1) return;
  BtCursor cur;
  if (!db->bt->OpenCursor(t.root, false, &cur).ok()) return;
  std::vector<std::unique_ptr<BtCursor>> icur;
  std::vector<KeyInfo> kis;
  for (const Index* idx : idxs) {
    icur.push_back(std::make_unique<BtCursor>());
    if (!db->bt->OpenCursor(idx->root, false, icur.back().get()).ok()) return;
    kis.push_back(idx->key_info);
    kis.back().enc = db->enc;
  }
  auto report = [&](std::string m) {
    msgs->push_back(std::move(m));
    return msgs->size() >= max_errors;
  };
  std::string rec;
  std::vector<uint32_t> types, offsets;
  std::vector<Value> key;
  int64_t rows = 0;
  Status st = cur.First();
  for (; st.ok() && !cur.eof(); st = cur.Next()) {
    ++rows;
    uint32_t len = cur.payload_size();
    rec.assign(len, '\0');
    if (!cur.ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec.data())).ok()) return;
    const auto* data = reinterpret_cast<const uint8_t*>(rec.data());
    Result<int> nf = ParseRecordHeader(data, len, &types, &offsets);
    if (!nf.ok()) return;
    for (int c : checked) {
      const Column& col = t.columns[static_cast<size_t>(c)];
      const int f = t.Field(c);
      if (f >= *nf) continue;
      const uint32_t type = types[static_cast<size_t>(f)];
      if (col.not_null && type == 0 && report("NULL value in " + t.name + "." + col.name)) return;
      if (t.strict && !FitsStrict(col.decl_type, type) &&
          report("non-" + col.decl_type + " value in " + t.name + "." + col.name)) {
        return;
      }
    }
    for (size_t i = 0; i < idxs.size(); ++i) {
      const Index& idx = *idxs[i];
      // The entry: its key columns, then the rowid (or a WITHOUT ROWID
      // table's primary-key columns the key lacks).
      const size_t nk = idx.columns.size();
      key.assign(static_cast<size_t>(idx.n_fields()), Value());
      bool complete = true;
      for (size_t k = 0; k < key.size(); ++k) {
        const int c = k < nk ? idx.columns[k] : t.without_rowid ? idx.suffix[k - nk] : kRowidColumn;
        const int f = c >= 0 ? t.Field(c) : c;
        if (c == kRowidColumn || c == t.rowid_alias) {
          key[k].SetInt(cur.rowid());
        } else if (f < *nf) {
          DecodeSerialEnc(data + offsets[static_cast<size_t>(f)], types[static_cast<size_t>(f)],
                          &key[k], db->enc);
        } else {
          complete = false;  // a short record: the column has its default
        }
      }
      if (!complete) continue;
      int n = static_cast<int>(key.size());
      PrepareKeyForEncoding(key.data(), n, kis[i]);
      Status cmp_st;
      KeySearch ks{key.data(), n, &kis[i], &cmp_st};
      int res = 1;
      Status seek = icur[i]->SeekIndex(CompareWithKey, &ks, &res);
      if (!seek.ok() || !cmp_st.ok()) return;
      if (res != 0 && report("row " + std::to_string(rows) + " missing from index " + idx.name)) {
        return;
      }
    }
  }
  if (!st.ok()) return;
  for (size_t i = 0; i < idxs.size(); ++i) {
    int64_t entries = 0;
    if (!icur[i]->Count(&entries).ok()) return;
    if (entries != rows && report("wrong # of entries in index " + idxs[i]->name)) return;
  }
}

}  // namespace basalt
