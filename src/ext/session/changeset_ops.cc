// sqlite3changeset_invert, sqlite3changeset_concat and sqlite3_changegroup.
//
// A changegroup keeps, per table, the changes in hash buckets exactly as
// the session object does (session_internal.h S1, S2): a change merged
// with an earlier one for the same key moves to the front of its bucket,
// and the output is written bucket by bucket, which is SQLite's order.
#include "ext/session/session_internal.h"

namespace basalt::session {
namespace {

using Rec = std::vector<Field>;

// The fields of a record at `s` (n columns; pk_only: only key columns are
// present); advances s.
Rec ReadRec(const uint8_t** s, const uint8_t* end, const TableHeader& t, bool pk_only) {
  Rec r(static_cast<size_t>(t.n_col));
  for (int i = 0; i < t.n_col; ++i) {
    if (pk_only && !t.pk[static_cast<size_t>(i)]) continue;
    GetField(s, end, &r[static_cast<size_t>(i)]);
  }
  return r;
}

struct GroupChange {
  int op = 0;
  bool indirect = false;
  std::string rec;  // the records after the op and indirect bytes
  GroupChange* next = nullptr;
};

struct GroupTable {
  TableHeader hdr;
  std::vector<GroupChange*> buckets;
  int n_entry = 0;
  std::vector<std::unique_ptr<GroupChange>> owned;
};

bool PkOnly(const TableHeader& t, int op) { return t.patchset && op == kOpDelete; }

uint32_t ChangeHash(const TableHeader& t, const GroupChange& c) {
  const uint8_t* s = reinterpret_cast<const uint8_t*>(c.rec.data());
  Rec r = ReadRec(&s, s + c.rec.size(), t, PkOnly(t, c.op));
  uint32_t h = 0;
  for (int i = 0; i < t.n_col; ++i) {
    if (t.pk[static_cast<size_t>(i)]) h = HashField(h, r[static_cast<size_t>(i)]);
  }
  return h;
}

bool SameKey(const TableHeader& t, const GroupChange& a, const GroupChange& b) {
  const uint8_t* s1 = reinterpret_cast<const uint8_t*>(a.rec.data());
  const uint8_t* s2 = reinterpret_cast<const uint8_t*>(b.rec.data());
  Rec r1 = ReadRec(&s1, s1 + a.rec.size(), t, PkOnly(t, a.op));
  Rec r2 = ReadRec(&s2, s2 + b.rec.size(), t, PkOnly(t, b.op));
  for (int i = 0; i < t.n_col; ++i) {
    size_t k = static_cast<size_t>(i);
    if (t.pk[k] && r1[k].raw != r2[k].raw) return false;
  }
  return true;
}

void Grow(GroupTable* t) {
  const size_t n = t->buckets.size();
  if (n != 0 && static_cast<size_t>(t->n_entry) < n / 2) return;
  std::vector<GroupChange*> fresh(n == 0 ? 256 : n * 2, nullptr);
  for (size_t i = 0; i < n; ++i) {
    GroupChange* next = nullptr;
    for (GroupChange* c = t->buckets[i]; c != nullptr; c = next) {
      next = c->next;
      size_t b = ChangeHash(t->hdr, *c) % fresh.size();
      c->next = fresh[b];
      fresh[b] = c;
    }
  }
  t->buckets.swap(fresh);
}

// Field i of `a`, unless b (may be null) defines it.
std::string_view Pick(const Rec& a, const Rec* b, size_t i) {
  if (b != nullptr && (*b)[i].type != 0) return (*b)[i].raw;
  return a[i].raw;
}

// An UPDATE from old values (o1, falling back to... o2 preferred when
// defined) and new values (n2 preferred over n1). False: nothing changes.
bool MergeUpdate(std::string* out, const TableHeader& t, const Rec& o1, const Rec* o2,
                 const Rec& n1, const Rec* n2) {
  const size_t n = static_cast<size_t>(t.n_col);
  if (!t.patchset) {
    bool required = false;
    for (size_t i = 0; i < n; ++i) {
      std::string_view o = Pick(o1, o2, i), w = Pick(n1, n2, i);
      if (t.pk[i] || o != w) {
        if (!t.pk[i]) required = true;
        out->append(o);
      } else {
        out->push_back(0);
      }
    }
    if (!required) return false;
  }
  for (size_t i = 0; i < n; ++i) {
    std::string_view o = Pick(o1, o2, i), w = Pick(n1, n2, i);
    if (!t.patchset && (t.pk[i] || o == w)) {
      out->push_back(0);
    } else {
      out->append(w);
    }
  }
  return true;
}

// Merges change b into the earlier change a of the same row. Returns the
// change to keep (a itself, a new one in *made, or null: none).
GroupChange* Merge(const TableHeader& t, GroupChange* a, const GroupChange& b,
                   std::unique_ptr<GroupChange>* made) {
  const int op1 = a->op, op2 = b.op;
  if ((op1 == kOpInsert && op2 == kOpInsert) || (op1 == kOpUpdate && op2 == kOpInsert) ||
      (op1 == kOpDelete && op2 == kOpUpdate) || (op1 == kOpDelete && op2 == kOpDelete)) {
    return a;
  }
  if (op1 == kOpInsert && op2 == kOpDelete) return nullptr;
  auto c = std::make_unique<GroupChange>();
  c->indirect = a->indirect && b.indirect;
  const uint8_t* sa = reinterpret_cast<const uint8_t*>(a->rec.data());
  const uint8_t* ea = sa + a->rec.size();
  const uint8_t* sb = reinterpret_cast<const uint8_t*>(b.rec.data());
  const uint8_t* eb = sb + b.rec.size();
  const size_t n = static_cast<size_t>(t.n_col);
  if (op1 == kOpInsert) {  // INSERT + UPDATE
    c->op = kOpInsert;
    Rec ins = ReadRec(&sa, ea, t, false);
    if (!t.patchset) ReadRec(&sb, eb, t, false);
    Rec upd = ReadRec(&sb, eb, t, false);
    for (size_t i = 0; i < n; ++i) c->rec.append(Pick(ins, &upd, i));
  } else if (op1 == kOpDelete) {  // DELETE + INSERT
    c->op = kOpUpdate;
    if (t.patchset) {
      c->rec = b.rec;
    } else {
      Rec del = ReadRec(&sa, ea, t, false);
      Rec ins = ReadRec(&sb, eb, t, false);
      if (!MergeUpdate(&c->rec, t, del, nullptr, ins, nullptr)) return nullptr;
    }
  } else if (op2 == kOpUpdate) {  // UPDATE + UPDATE
    c->op = kOpUpdate;
    Rec o1, o2;
    if (!t.patchset) {
      o1 = ReadRec(&sa, ea, t, false);
      o2 = ReadRec(&sb, eb, t, false);
    }
    Rec n1 = ReadRec(&sa, ea, t, false);
    Rec n2 = ReadRec(&sb, eb, t, false);
    if (t.patchset) {
      o1 = n2;
      o2 = n1;
    }
    // Old values: the first UPDATE's where it has them, else the second's.
    if (!MergeUpdate(&c->rec, t, o2, &o1, n1, &n2)) return nullptr;
  } else {  // UPDATE + DELETE
    c->op = kOpDelete;
    if (t.patchset) {
      c->rec = b.rec;
    } else {
      Rec upd_old = ReadRec(&sa, ea, t, false);
      Rec del = ReadRec(&sb, eb, t, false);
      for (size_t i = 0; i < n; ++i) c->rec.append(Pick(del, &upd_old, i));
    }
  }
  GroupChange* out = c.get();
  *made = std::move(c);
  return out;
}

}  // namespace
}  // namespace basalt::session

struct sqlite3_changegroup {
  int patchset = -1;  // unknown until the first changeset is added
  std::vector<std::unique_ptr<basalt::session::GroupTable>> tables;
};

namespace basalt::session {
namespace {

int AddChange(sqlite3_changegroup* g, GroupTable* t, GroupChange incoming) {
  Grow(t);
  size_t b = ChangeHash(t->hdr, incoming) % t->buckets.size();
  GroupChange* exist = nullptr;
  for (GroupChange** pp = &t->buckets[b]; *pp != nullptr; pp = &(*pp)->next) {
    if (SameKey(t->hdr, **pp, incoming)) {
      exist = *pp;
      *pp = exist->next;
      --t->n_entry;
      break;
    }
  }
  (void)g;
  GroupChange* keep = nullptr;
  std::unique_ptr<GroupChange> made;
  if (exist == nullptr) {
    made = std::make_unique<GroupChange>(std::move(incoming));
    keep = made.get();
  } else {
    keep = Merge(t->hdr, exist, incoming, &made);
  }
  if (made) t->owned.push_back(std::move(made));
  if (keep != nullptr) {
    keep->next = t->buckets[b];
    t->buckets[b] = keep;
    ++t->n_entry;
  }
  return SQLITE_OK;
}

int AddChangeset(sqlite3_changegroup* g, const void* data, int n) {
  std::vector<ParsedTable> parsed;
  int rc = ParseChangeset(data, n, &parsed);
  if (rc != SQLITE_OK) return rc;
  for (ParsedTable& pt : parsed) {
    if (g->patchset >= 0 && g->patchset != (pt.hdr.patchset ? 1 : 0)) return SQLITE_ERROR;
    g->patchset = pt.hdr.patchset ? 1 : 0;
    GroupTable* t = nullptr;
    for (auto& e : g->tables) {
      if (sqlite3_stricmp(e->hdr.name.c_str(), pt.hdr.name.c_str()) == 0) t = e.get();
    }
    if (t == nullptr) {
      g->tables.push_back(std::make_unique<GroupTable>());
      t = g->tables.back().get();
      t->hdr = pt.hdr;
    } else if (t->hdr.n_col != pt.hdr.n_col || t->hdr.pk != pt.hdr.pk) {
      return SQLITE_SCHEMA;
    }
    for (const Change& c : pt.changes) {
      GroupChange gc;
      gc.op = c.op;
      gc.indirect = c.indirect;
      gc.rec.assign(c.raw.substr(2));
      AddChange(g, t, std::move(gc));
    }
  }
  return SQLITE_OK;
}

void Output(const sqlite3_changegroup* g, std::string* out) {
  for (const auto& t : g->tables) {
    if (t->n_entry == 0) continue;
    PutTableHeader(out, t->hdr);
    for (GroupChange* head : t->buckets) {
      for (GroupChange* c = head; c != nullptr; c = c->next) {
        out->push_back(static_cast<char>(c->op));
        out->push_back(c->indirect ? 1 : 0);
        out->append(c->rec);
      }
    }
  }
}

int Invert(const void* data, int n, std::string* out) {
  std::vector<ParsedTable> parsed;
  int rc = ParseChangeset(data, n, &parsed);
  if (rc != SQLITE_OK) return rc;
  for (const ParsedTable& pt : parsed) {
    if (pt.hdr.patchset) return SQLITE_CORRUPT;
    PutTableHeader(out, pt.hdr);
    const size_t nc = static_cast<size_t>(pt.hdr.n_col);
    for (const Change& c : pt.changes) {
      std::string_view recs = c.raw.substr(2);
      if (c.op == kOpInsert || c.op == kOpDelete) {
        out->push_back(static_cast<char>(c.op == kOpInsert ? kOpDelete : kOpInsert));
        out->push_back(c.indirect ? 1 : 0);
        out->append(recs);
        continue;
      }
      out->push_back(static_cast<char>(kOpUpdate));
      out->push_back(c.indirect ? 1 : 0);
      for (size_t i = 0; i < nc; ++i) {
        out->append(pt.hdr.pk[i] ? c.old_rec[i].raw : c.new_rec[i].raw);
      }
      for (size_t i = 0; i < nc; ++i) {
        if (pt.hdr.pk[i]) {
          out->push_back(0);
        } else {
          out->append(c.old_rec[i].raw);
        }
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

int sqlite3changegroup_new(sqlite3_changegroup** pp) {
  *pp = new (std::nothrow) sqlite3_changegroup;
  return *pp != nullptr ? SQLITE_OK : SQLITE_NOMEM;
}

int sqlite3changegroup_add(sqlite3_changegroup* g, int n, void* data) {
  return basalt::session::AddChangeset(g, data, n);
}

int sqlite3changegroup_add_strm(sqlite3_changegroup* g, SessionInput input, void* in) {
  std::string data;
  int rc = ReadAll(input, in, &data);
  if (rc != SQLITE_OK) return rc;
  return basalt::session::AddChangeset(g, data.data(), static_cast<int>(data.size()));
}

int sqlite3changegroup_output(sqlite3_changegroup* g, int* n, void** p) {
  std::string out;
  basalt::session::Output(g, &out);
  return ReturnBuffer(out, n, p);
}

int sqlite3changegroup_output_strm(sqlite3_changegroup* g, SessionOutput output, void* out) {
  std::string buf;
  basalt::session::Output(g, &buf);
  return WriteAll(output, out, buf);
}

void sqlite3changegroup_delete(sqlite3_changegroup* g) { delete g; }

int sqlite3changeset_invert(int n, const void* in, int* pn, void** pp) {
  std::string out;
  int rc = basalt::session::Invert(in, n, &out);
  if (rc != SQLITE_OK) {
    ReturnBuffer(std::string(), pn, pp);
    return rc;
  }
  return ReturnBuffer(out, pn, pp);
}

int sqlite3changeset_invert_strm(SessionInput input, void* in, SessionOutput output, void* out) {
  std::string data, buf;
  int rc = ReadAll(input, in, &data);
  if (rc == SQLITE_OK)
    rc = basalt::session::Invert(data.data(), static_cast<int>(data.size()), &buf);
  return rc != SQLITE_OK ? rc : WriteAll(output, out, buf);
}

int sqlite3changeset_concat(int na, void* a, int nb, void* b, int* pn, void** pp) {
  sqlite3_changegroup g;
  int rc = basalt::session::AddChangeset(&g, a, na);
  if (rc == SQLITE_OK) rc = basalt::session::AddChangeset(&g, b, nb);
  std::string out;
  if (rc == SQLITE_OK) basalt::session::Output(&g, &out);
  if (rc != SQLITE_OK) {
    ReturnBuffer(std::string(), pn, pp);
    return rc;
  }
  return ReturnBuffer(out, pn, pp);
}

int sqlite3changeset_concat_strm(SessionInput ia, void* a, SessionInput ib, void* b,
                                 SessionOutput output, void* out) {
  std::string da, db;
  int rc = ReadAll(ia, a, &da);
  if (rc == SQLITE_OK) rc = ReadAll(ib, b, &db);
  if (rc != SQLITE_OK) return rc;
  sqlite3_changegroup g;
  rc = basalt::session::AddChangeset(&g, da.data(), static_cast<int>(da.size()));
  if (rc == SQLITE_OK)
    rc = basalt::session::AddChangeset(&g, db.data(), static_cast<int>(db.size()));
  if (rc != SQLITE_OK) return rc;
  std::string buf;
  basalt::session::Output(&g, &buf);
  return WriteAll(output, out, buf);
}

}  // extern "C"
