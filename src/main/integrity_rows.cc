// The row-level part of PRAGMA integrity_check and quick_check, run after
// the B-tree structure checks: NOT NULL columns hold no NULL; the columns
// of a STRICT table hold values of their types; CHECK constraints hold;
// and (full check only) every row has its entry in each index of its table
// and each index has as many entries as rows belong in it.
//
// Plain indexes (on stored columns, not partial) and the NOT NULL / STRICT
// checks are done here on the decoded records. CHECK constraints and
// indexes on expressions, on VIRTUAL columns or with a WHERE need the VM:
// a program from exec (CompileRowCheck) reports those. The messages of
// both are merged into SQLite's order: by row, then NOT NULL / type, CHECK,
// and indexes in the table's order; the entry counts last.
#include <algorithm>
#include <span>

#include "exec/codegen.h"
#include "exec/vm.h"
#include "main/connection.h"
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

// A message with its place in SQLite's order.
struct RowMsg {
  int64_t row;  // INT64_MAX: the entry counts after the scan
  int phase;    // 0 NOT NULL / type, 1 CHECK, 2 index entries and counts
  int index;    // position of the index in the table's list
  std::string text;
};

// The position of idx in the order SQLite checks t's indexes: newest
// first (the order of PRAGMA index_list).
int IndexPos(const Table& t, const Index* idx) {
  const std::vector<const Index*> all = t.IndexesInCreationOrder();
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i] == idx) return static_cast<int>(all.size() - 1 - i);
  }
  return 0;
}

// The VM's checks (CompileRowCheck) of CHECK constraints and of `idxs`.
void CheckWithVm(Connection* conn, const Table& t, const std::vector<const Index*>& idxs,
                 bool checks, size_t max_errors, std::vector<RowMsg>* msgs) {
  Arena arena;
  CompileContext ctx;
  ctx.arena = &arena;
  ctx.catalog = &conn->dbs().catalog();
  ctx.vtabs = &conn->vtabs();
  ctx.funcs = &conn->funcs();
  ctx.options = conn->options();
  Result<std::unique_ptr<Program>> prog = CompileRowCheck(&t, idxs, checks, &ctx);
  if (!prog.ok()) return;
  Vm vm(prog->get(), conn->env());
  while (msgs->size() < max_errors && vm.Step() == StepResult::kRow) {
    const Value* r = vm.row();
    const int64_t value = r[0].int_value();
    const int kind = static_cast<int>(r[1].int_value());
    const Index* idx = idxs.empty() ? nullptr : idxs[static_cast<size_t>(r[2].int_value())];
    if (kind == 0) {
      msgs->push_back({value, 1, 0, "CHECK constraint failed in " + t.name});
    } else if (kind == 1) {
      msgs->push_back({value, 2, IndexPos(t, idx),
                       "row " + std::to_string(value) + " missing from index " + idx->name});
    } else {
      int64_t entries = 0;
      BtCursor cur;
      Status st = conn->dbs().at(t.db())->bt->OpenCursor(idx->root, false, &cur);
      if (st.ok()) st = cur.Count(&entries);
      if (st.ok() && entries != value) {
        msgs->push_back(
            {INT64_MAX, 2, IndexPos(t, idx), "wrong # of entries in index " + idx->name});
      }
    }
  }
}

Status CheckStoredRows(Database* db, const Table& t, const std::vector<const Index*>& idxs,
                       size_t max_errors, std::vector<RowMsg>* msgs, bool* malformed);

// Whether the record header (its size varint and the bytes it counts) lies
// within the local part of the payload.
bool HeaderIsLocal(std::span<const uint8_t> local) {
  uint64_t hdr = 0;
  size_t i = 0;
  for (; i < local.size() && i < 9; ++i) {
    hdr = (hdr << 7) | (local[i] & 0x7f);
    if ((local[i] & 0x80) == 0) return hdr <= local.size();
  }
  return false;
}

}  // namespace

Status CheckTableRows(Connection* conn, Database* db, const Table& t, bool full, size_t max_errors,
                      std::vector<std::string>* out, bool* malformed) {
  std::vector<const Index*> plain, computed;
  if (full) {
    for (const Index* idx : t.indexes) {
      if (idx->root > 1) (PlainIndex(*idx) ? plain : computed).push_back(idx);
    }
  }
  std::vector<RowMsg> msgs;
  const Status scanned = CheckStoredRows(db, t, plain, max_errors, &msgs, malformed);
  const bool checks = !t.checks.empty() && !conn->options().ignore_check_constraints;
  if (scanned.ok() && !*malformed && (checks || !computed.empty()) && t.root > 1) {
    std::vector<RowMsg> vm_msgs;
    CheckWithVm(conn, t, computed, checks, max_errors, &vm_msgs);
    msgs.insert(msgs.end(), vm_msgs.begin(), vm_msgs.end());
  }
  std::stable_sort(msgs.begin(), msgs.end(), [](const RowMsg& a, const RowMsg& b) {
    if (a.row != b.row) return a.row < b.row;
    if (a.phase != b.phase) return a.phase < b.phase;
    return a.index < b.index;
  });
  for (RowMsg& m : msgs) {
    if (out->size() >= max_errors) break;
    out->push_back(std::move(m.text));
  }
  return scanned;
}

namespace {

// Scans every row of t (as SQLite's check does, whatever there is to
// check): a page or record the scan cannot read ends it with that error.
Status CheckStoredRows(Database* db, const Table& t, const std::vector<const Index*>& idxs,
                       size_t max_errors, std::vector<RowMsg>* msgs, bool* malformed) {
  // Columns to check: NOT NULL ones, and all of a STRICT table.
  std::vector<int> checked;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    const Column& col = t.columns[c];
    if ((col.not_null || t.strict) && static_cast<int>(c) != t.rowid_alias && !col.is_virtual()) {
      checked.push_back(static_cast<int>(c));
    }
  }
  if (t.root <= 1) return Status();
  BtCursor cur;
  // The kind the schema says: a root of the other kind is corrupt.
  TRY(db->bt->OpenCursor(t.root, false, &cur, nullptr, nullptr,
                         t.without_rowid ? TreeKind::kIndex : TreeKind::kTable));
  std::vector<std::unique_ptr<BtCursor>> icur;
  std::vector<KeyInfo> kis;
  for (const Index* idx : idxs) {
    icur.push_back(std::make_unique<BtCursor>());
    TRY(db->bt->OpenCursor(idx->root, false, icur.back().get(), nullptr, nullptr,
                           TreeKind::kIndex));
    kis.push_back(idx->key_info);
    kis.back().enc = db->enc;
  }
  int64_t rows = 0;
  auto report = [&](int phase, int index, std::string m) {
    msgs->push_back({phase == 3 ? INT64_MAX : rows, phase == 3 ? 2 : phase, index, std::move(m)});
    return msgs->size() >= max_errors;
  };
  std::string rec;
  std::vector<uint32_t> types, offsets;
  std::vector<Value> key;
  Status st = cur.First();
  for (; st.ok() && !cur.eof(); st = cur.Next()) {
    ++rows;
    uint32_t len = cur.payload_size();
    const uint8_t* data = nullptr;
    std::span<const uint8_t> local = cur.local_payload();
    if (checked.empty() && idxs.empty() && HeaderIsLocal(local)) {
      data = local.data();  // only the header is needed: no overflow page read
    } else {
      rec.assign(len, '\0');
      TRY(cur.ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec.data())));
      data = reinterpret_cast<const uint8_t*>(rec.data());
    }
    // Every record's header is decoded (SQLite's sanity check): one that
    // does not decode ends the whole check with the message row "database
    // disk image is malformed" (not an error), as SQLite's program does.
    Result<int> nf = ParseRecordHeader(data, len, &types, &offsets);
    if (!nf.ok()) {
      *malformed = true;
      return Status();
    }
    if (checked.empty() && idxs.empty()) continue;
    for (int c : checked) {
      const Column& col = t.columns[static_cast<size_t>(c)];
      const int f = t.Field(c);
      if (f >= *nf) continue;
      const uint32_t type = types[static_cast<size_t>(f)];
      if (col.not_null && type == 0 && report(0, 0, "NULL value in " + t.name + "." + col.name))
        return Status();
      if (t.strict && !FitsStrict(col.decl_type, type) &&
          report(0, 0, "non-" + col.decl_type + " value in " + t.name + "." + col.name)) {
        return Status();
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
      TRY(icur[i]->SeekIndex(CompareWithKey, &ks, &res));
      TRY(cmp_st);
      if (res != 0 && report(2, IndexPos(t, &idx),
                             "row " + std::to_string(rows) + " missing from index " + idx.name)) {
        return Status();
      }
    }
  }
  TRY(st);
  for (size_t i = 0; i < idxs.size(); ++i) {
    int64_t entries = 0;
    TRY(icur[i]->Count(&entries));
    if (entries != rows &&
        report(3, IndexPos(t, idxs[i]), "wrong # of entries in index " + idxs[i]->name)) {
      return Status();
    }
  }
  return Status();
}

}  // namespace

}  // namespace basalt
