// sqlite3_rebaser: rebases a changeset on the conflict resolutions an
// earlier sqlite3changeset_apply_v2 recorded (its rebase buffer).
//
// The rebase buffer is a changeset-like list per table of the rows whose
// conflicts were resolved: op INSERT (the remote change wrote the row) or
// DELETE (it deleted it), the "indirect" byte set when the resolution was
// REPLACE. A local change to one of those rows is rewritten:
//   INSERT over an OMITted remote INSERT      -> UPDATE from the remote row
//   UPDATE of a row the remote side deleted   -> dropped, or (OMIT) an
//                                                INSERT of the merged row
//   UPDATE of a row the remote side wrote     -> OMIT: old values from the
//                                                remote row; REPLACE: the
//                                                columns it set left out
//   DELETE of a row the remote side inserted  -> DELETE of the remote row
#include "ext/session/session_internal.h"

namespace basalt::session {
namespace {

struct RebaseRow {
  int op = 0;
  bool replaced = false;
  std::vector<Field> rec;
};

struct RebaseTable {
  TableHeader hdr;
  std::vector<RebaseRow> rows;  // fields point into sqlite3_rebaser::buffers
};

bool SameKey(const TableHeader& t, const std::vector<Field>& a, const std::vector<Field>& b) {
  for (int i = 0; i < t.n_col; ++i) {
    size_t k = static_cast<size_t>(i);
    if (t.pk[k] && a[k].raw != b[k].raw) return false;
  }
  return true;
}

// Field by field: a's unless undefined, then b's.
void MergeRecords(std::string* out, const std::vector<Field>& a, const std::vector<Field>& b) {
  for (size_t i = 0; i < a.size(); ++i) out->append(a[i].type != 0 ? a[i].raw : b[i].raw);
}

// A local UPDATE of a row a remote UPDATE (or INSERT) also wrote. OMIT: its
// old values become the remote new ones; REPLACE: the columns the remote
// change set are left out, and nothing is left if no column remains.
void RebaseUpdate(std::string* out, const TableHeader& t, const Change& c, bool replaced,
                  const std::vector<Field>& remote) {
  const size_t n = static_cast<size_t>(t.n_col);
  std::string olds, news;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const bool remote_set = !t.pk[i] && remote[i].type != 0;
    if (replaced && remote_set) {
      olds.push_back(0);
      news.push_back(0);
      continue;
    }
    if (!t.pk[i] && c.new_rec[i].type != 0) any = true;
    olds.append(!replaced && remote_set && c.old_rec[i].type != 0 ? remote[i].raw
                                                                  : c.old_rec[i].raw);
    news.append(c.new_rec[i].raw);
  }
  if (!any) return;
  out->push_back(static_cast<char>(kOpUpdate));
  out->push_back(c.indirect ? 1 : 0);
  out->append(olds);
  out->append(news);
}

}  // namespace
}  // namespace basalt::session

struct sqlite3_rebaser {
  std::vector<std::unique_ptr<std::string>> buffers;  // the configured rebase buffers
  std::vector<std::unique_ptr<basalt::session::RebaseTable>> tables;
};

namespace basalt::session {
namespace {

int Configure(sqlite3_rebaser* r, const void* data, int n) {
  r->buffers.push_back(std::make_unique<std::string>(static_cast<const char*>(data),
                                                     static_cast<size_t>(n > 0 ? n : 0)));
  const std::string& copy = *r->buffers.back();
  std::vector<ParsedTable> parsed;
  int rc = ParseChangeset(copy.data(), static_cast<int>(copy.size()), &parsed);
  if (rc != SQLITE_OK) return rc;
  for (ParsedTable& pt : parsed) {
    auto t = std::make_unique<RebaseTable>();
    t->hdr = pt.hdr;
    for (Change& c : pt.changes) {
      RebaseRow row;
      row.op = c.op;
      row.replaced = c.indirect;
      row.rec = c.op == kOpDelete ? c.old_rec : c.new_rec;
      t->rows.push_back(std::move(row));
    }
    r->tables.push_back(std::move(t));
  }
  return SQLITE_OK;
}

const RebaseRow* Find(const RebaseTable* t, const Change& c) {
  const std::vector<Field>& key = c.op == kOpInsert ? c.new_rec : c.old_rec;
  for (size_t i = t->rows.size(); i-- > 0;) {
    if (SameKey(t->hdr, t->rows[i].rec, key)) return &t->rows[i];
  }
  return nullptr;
}

int Rebase(sqlite3_rebaser* r, const void* data, int n, std::string* out) {
  std::vector<ParsedTable> parsed;
  int rc = ParseChangeset(data, n, &parsed);
  if (rc != SQLITE_OK) return rc;
  for (const ParsedTable& pt : parsed) {
    std::vector<const RebaseTable*> rts;
    for (auto& t : r->tables) {
      if (sqlite3_stricmp(t->hdr.name.c_str(), pt.hdr.name.c_str()) == 0) rts.push_back(t.get());
    }
    PutTableHeader(out, pt.hdr);
    for (const Change& c : pt.changes) {
      const RebaseRow* row = nullptr;
      for (const RebaseTable* rt : rts) {
        if (const RebaseRow* found = Find(rt, c)) row = found;
      }
      if (row == nullptr) {
        out->append(c.raw);
        continue;
      }
      if (c.op == kOpInsert) {
        if (row->op != kOpInsert) {
          out->append(c.raw);
        } else if (!row->replaced) {
          out->push_back(static_cast<char>(kOpUpdate));
          out->push_back(c.indirect ? 1 : 0);
          for (const Field& f : row->rec) out->append(f.raw);
          for (const Field& f : c.new_rec) out->append(f.raw);
        }
      } else if (c.op == kOpUpdate) {
        if (row->op == kOpDelete) {
          if (!row->replaced) {
            out->push_back(static_cast<char>(kOpInsert));
            out->push_back(c.indirect ? 1 : 0);
            MergeRecords(out, c.new_rec, row->rec);
          }
        } else {
          RebaseUpdate(out, pt.hdr, c, row->replaced, row->rec);
        }
      } else if (row->op == kOpInsert) {
        out->push_back(static_cast<char>(kOpDelete));
        out->push_back(c.indirect ? 1 : 0);
        MergeRecords(out, row->rec, c.old_rec);
      }
    }
  }
  return SQLITE_OK;
}

}  // namespace
}  // namespace basalt::session

using basalt::session::ReadAll;
using basalt::session::ReturnBuffer;
using basalt::session::WriteAll;

extern "C" {

int sqlite3rebaser_create(sqlite3_rebaser** pp) {
  *pp = new (std::nothrow) sqlite3_rebaser;
  return *pp != nullptr ? SQLITE_OK : SQLITE_NOMEM;
}

int sqlite3rebaser_configure(sqlite3_rebaser* r, int n, const void* data) {
  return basalt::session::Configure(r, data, n);
}

int sqlite3rebaser_rebase(sqlite3_rebaser* r, int n, const void* in, int* pn, void** pp) {
  std::string out;
  int rc = basalt::session::Rebase(r, in, n, &out);
  if (rc != SQLITE_OK) {
    ReturnBuffer(std::string(), pn, pp);
    return rc;
  }
  return ReturnBuffer(out, pn, pp);
}

int sqlite3rebaser_rebase_strm(sqlite3_rebaser* r, SessionInput input, void* in,
                               SessionOutput output, void* out) {
  std::string data, buf;
  int rc = ReadAll(input, in, &data);
  if (rc == SQLITE_OK)
    rc = basalt::session::Rebase(r, data.data(), static_cast<int>(data.size()), &buf);
  return rc != SQLITE_OK ? rc : WriteAll(output, out, buf);
}

void sqlite3rebaser_delete(sqlite3_rebaser* r) { delete r; }

}  // extern "C"
