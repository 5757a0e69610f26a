// sqlite3_session: records changes through the preupdate hook and writes
// them out as a changeset or patchset (format: session_format.h).
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <atomic>
#include <cstring>

#include "ext/session/session_internal.h"

namespace basalt::session {

std::string QuoteId(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q.push_back('"');
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

int LoadTableInfo(sqlite3* db, const std::string& db_name, SessionTable* t) {
  std::string sql = "PRAGMA " + QuoteId(db_name) + ".table_info(" + QuoteId(t->name) + ")";
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
  if (rc != SQLITE_OK) return rc;
  t->cols.clear();
  t->pk.clear();
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const unsigned char* name = sqlite3_column_text(st, 1);
    t->cols.emplace_back(name != nullptr ? reinterpret_cast<const char*>(name) : "");
    t->pk.push_back(static_cast<uint8_t>(sqlite3_column_int(st, 5)));
  }
  rc = sqlite3_finalize(st);
  t->n_col = static_cast<int>(t->cols.size());
  t->loaded = rc == SQLITE_OK;
  return rc;
}

namespace {

// The key fields of a stored record (all columns serialized).
std::vector<Field> RecordFields(const std::string& rec, int n_col) {
  std::vector<Field> f(static_cast<size_t>(n_col));
  const uint8_t* p = reinterpret_cast<const uint8_t*>(rec.data());
  const uint8_t* end = p + rec.size();
  for (int i = 0; i < n_col; ++i) GetField(&p, end, &f[static_cast<size_t>(i)]);
  return f;
}

uint32_t KeyHash(const SessionTable& t, const std::vector<Field>& f) {
  uint32_t h = 0;
  for (int i = 0; i < t.n_col; ++i) {
    if (t.pk[static_cast<size_t>(i)]) h = HashField(h, f[static_cast<size_t>(i)]);
  }
  return h;
}

// S2: doubles the buckets (from 256) when half full, rehashing each chain
// in order (each change goes to the front of its new bucket).
void Grow(SessionTable* t) {
  const size_t n = t->buckets.size();
  if (n != 0 && static_cast<size_t>(t->n_entry) < n / 2) return;
  std::vector<SessionChange*> fresh(n == 0 ? 256 : n * 2, nullptr);
  for (size_t i = 0; i < n; ++i) {
    SessionChange* next = nullptr;
    for (SessionChange* c = t->buckets[i]; c != nullptr; c = next) {
      next = c->next;
      size_t b = KeyHash(*t, RecordFields(c->record, t->n_col)) % fresh.size();
      c->next = fresh[b];
      fresh[b] = c;
    }
  }
  t->buckets.swap(fresh);
}

// One side (old or new) of the row the preupdate hook reports.
std::string RowRecord(sqlite3* db, int n_col, bool new_side) {
  std::string rec;
  for (int i = 0; i < n_col; ++i) {
    sqlite3_value* v = nullptr;
    if (new_side) {
      sqlite3_preupdate_new(db, i, &v);
    } else {
      sqlite3_preupdate_old(db, i, &v);
    }
    PutValue(&rec, v);
  }
  return rec;
}

bool SameKey(const SessionTable& t, const std::vector<Field>& a, const std::vector<Field>& b) {
  for (int i = 0; i < t.n_col; ++i) {
    if (!t.pk[static_cast<size_t>(i)]) continue;
    const Field& x = a[static_cast<size_t>(i)];
    const Field& y = b[static_cast<size_t>(i)];
    if (x.raw != y.raw) return false;
  }
  return true;
}

}  // namespace

bool PrepareTable(sqlite3_session* s, SessionTable* t, int n_col) {
  if (!t->loaded) {
    int rc = LoadTableInfo(s->db, s->db_name, t);
    if (rc != SQLITE_OK) {
      s->rc = rc;
      return false;
    }
    if (t->n_col == 0) {
      t->loaded = false;  // no such table (yet): look again next time
      return false;
    }
    if (s->size_on) {  // the table header
      std::string v;
      PutVarint(&v, static_cast<uint64_t>(t->n_col));
      s->max_size +=
          static_cast<int64_t>(1 + v.size() + static_cast<size_t>(t->n_col) + t->name.size() + 1);
    }
  }
  if (!t->has_pk()) return false;
  if (t->n_col != n_col) {
    s->rc = SQLITE_SCHEMA;
    return false;
  }
  Grow(t);
  return true;
}

namespace {

// The size of field f once encoded.
int64_t EncodedSize(const Field& f) { return static_cast<int64_t>(f.raw.size()); }

// SQLite's running estimate of the change's size in a changeset (the
// largest it has been), kept in c->max_size and summed in s->max_size.
void UpdateMaxSize(sqlite3_session* s, const SessionTable& t, SessionChange* c, int op,
                   const std::string* new_rec) {
  int64_t n = 2;
  if (c->op == kOpInsert) {
    if (op != kOpDelete && new_rec != nullptr) n += static_cast<int64_t>(new_rec->size());
  } else if (op == kOpDelete) {
    n += static_cast<int64_t>(c->record.size());
  } else if (new_rec != nullptr) {
    std::vector<Field> o = RecordFields(c->record, t.n_col);
    std::vector<Field> w = RecordFields(*new_rec, t.n_col);
    for (int i = 0; i < t.n_col; ++i) {
      const size_t k = static_cast<size_t>(i);
      const bool changed = o[k].raw != w[k].raw;
      const int64_t old_body = EncodedSize(o[k]) - 1;  // without the type byte
      if (changed && t.pk[k]) {
        n = static_cast<int64_t>(c->record.size()) + 2;
        break;
      }
      if (changed) {
        n += 1 + old_body + EncodedSize(w[k]);
      } else if (t.pk[k]) {
        n += 2 + old_body;
      } else {
        n += 2;
      }
    }
  }
  if (n > c->max_size) {
    s->max_size += n - c->max_size;
    c->max_size = n;
  }
}

}  // namespace

void RecordRow(sqlite3_session* s, SessionTable* t, int op, std::string rec, bool indirect,
               const std::string* new_rec) {
  std::vector<Field> f = RecordFields(rec, t->n_col);
  for (int i = 0; i < t->n_col; ++i) {
    if (t->pk[static_cast<size_t>(i)] && f[static_cast<size_t>(i)].type == SQLITE_NULL) return;
  }
  size_t b = KeyHash(*t, f) % t->buckets.size();
  for (SessionChange* c = t->buckets[b]; c != nullptr; c = c->next) {
    if (SameKey(*t, RecordFields(c->record, t->n_col), f)) {
      if (!indirect) c->indirect = false;
      if (s->size_on) UpdateMaxSize(s, *t, c, op, new_rec);
      return;
    }
  }
  auto c = std::make_unique<SessionChange>();
  c->op = op;
  c->indirect = indirect;
  c->record = std::move(rec);
  c->next = t->buckets[b];
  t->buckets[b] = c.get();
  SessionChange* made = c.get();
  t->owned.push_back(std::move(c));
  ++t->n_entry;
  if (s->size_on) UpdateMaxSize(s, *t, made, op, new_rec);
}

namespace {

void RecordChange(sqlite3_session* s, SessionTable* t, int op) {
  if (!PrepareTable(s, t, sqlite3_preupdate_count(s->db))) return;
  std::string new_rec;
  if (NeedsNewRecord(s, op)) new_rec = RowRecord(s->db, t->n_col, true);
  RecordRow(s, t, op, RowRecord(s->db, t->n_col, op == kOpInsert),
            s->indirect || sqlite3_preupdate_depth(s->db) > 0, &new_rec);
}

}  // namespace

SessionTable* FindTable(sqlite3_session* s, const char* name) {
  for (auto& t : s->tables) {
    if (sqlite3_stricmp(t->name.c_str(), name) == 0) return t.get();
  }
  if (!s->auto_attach) return nullptr;
  if (s->filter != nullptr && s->filter(s->filter_ctx, name) == 0) return nullptr;
  auto t = std::make_unique<SessionTable>();
  t->name = name;
  s->tables.push_back(std::move(t));
  return s->tables.back().get();
}

namespace {

void PreUpdateHook(void* arg, sqlite3* db, int op, const char* db_name, const char* table,
                   sqlite3_int64, sqlite3_int64) {
  (void)db;
  for (auto* s = static_cast<sqlite3_session*>(arg); s != nullptr; s = s->next) {
    if (!s->enabled || s->rc != SQLITE_OK) continue;
    if (sqlite3_stricmp(db_name, s->db_name.c_str()) != 0) continue;
    SessionTable* t = FindTable(s, table);
    if (t == nullptr) continue;
    RecordChange(s, t, op);
    if (op == kOpUpdate) RecordChange(s, t, kOpInsert);
  }
}

// The row of the table whose key the change holds, by a SELECT.
std::string SelectSql(const sqlite3_session* s, const SessionTable& t) {
  std::string sql = "SELECT * FROM " + QuoteId(s->db_name) + "." + QuoteId(t.name) + " WHERE ";
  bool first = true;
  for (int i = 0; i < t.n_col; ++i) {
    if (!t.pk[static_cast<size_t>(i)]) continue;
    if (!first) sql += " AND ";
    first = false;
    // (A change's key has no NULL: "=" finds the row by its key, as IS would.)
    sql += QuoteId(t.cols[static_cast<size_t>(i)]) + " = ?" + std::to_string(i + 1);
  }
  return sql;
}

// UPDATE: old values of the changed and key columns, then the new values
// of the changed ones (patchset: the key ones too); nothing if no column
// changed.
void AppendUpdate(std::string* out, bool patchset, const SessionTable& t, const SessionChange& c,
                  sqlite3_stmt* row) {
  std::vector<Field> f = RecordFields(c.record, t.n_col);
  std::string olds, news;
  bool changed_any = false;
  for (int i = 0; i < t.n_col; ++i) {
    const Field& o = f[static_cast<size_t>(i)];
    const bool changed = !FieldEquals(o, sqlite3_column_value(row, i));
    const bool key = t.pk[static_cast<size_t>(i)] != 0;
    changed_any = changed_any || changed;
    if (changed || key) {
      olds.append(o.raw);
    } else {
      olds.push_back(0);
    }
    if (changed || (patchset && key)) {
      PutColumn(&news, row, i);
    } else {
      news.push_back(0);
    }
  }
  if (!changed_any) return;
  out->push_back(static_cast<char>(kOpUpdate));
  out->push_back(c.indirect ? 1 : 0);
  if (!patchset) out->append(olds);
  out->append(news);
}

void AppendDelete(std::string* out, bool patchset, const SessionTable& t, const SessionChange& c) {
  out->push_back(static_cast<char>(kOpDelete));
  out->push_back(c.indirect ? 1 : 0);
  if (!patchset) {
    out->append(c.record);
    return;
  }
  std::vector<Field> f = RecordFields(c.record, t.n_col);
  for (int i = 0; i < t.n_col; ++i) {
    if (t.pk[static_cast<size_t>(i)]) out->append(f[static_cast<size_t>(i)].raw);
  }
}

int AppendTable(sqlite3_session* s, const SessionTable& t, bool patchset, std::string* out) {
  TableHeader h;
  h.patchset = patchset;
  h.n_col = t.n_col;
  h.pk = t.pk;
  h.name = t.name;
  const size_t rewind = out->size();
  PutTableHeader(out, h);
  const size_t empty = out->size();
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(s->db, SelectSql(s, t).c_str(), -1, &st, nullptr);
  if (rc != SQLITE_OK) return rc;
  for (SessionChange* head : t.buckets) {
    for (SessionChange* c = head; c != nullptr && rc == SQLITE_OK; c = c->next) {
      std::vector<Field> f = RecordFields(c->record, t.n_col);
      for (int i = 0; i < t.n_col; ++i) {
        if (t.pk[static_cast<size_t>(i)]) BindField(st, i + 1, f[static_cast<size_t>(i)]);
      }
      int step = sqlite3_step(st);
      if (step == SQLITE_ROW) {
        if (c->op == kOpInsert) {
          out->push_back(static_cast<char>(kOpInsert));
          out->push_back(c->indirect ? 1 : 0);
          for (int i = 0; i < t.n_col; ++i) PutColumn(out, st, i);
        } else {
          AppendUpdate(out, patchset, t, *c, st);
        }
      } else if (step == SQLITE_DONE) {
        if (c->op != kOpInsert) AppendDelete(out, patchset, t, *c);
      }
      rc = sqlite3_reset(st);
    }
  }
  sqlite3_finalize(st);
  if (out->size() == empty) out->resize(rewind);
  return rc;
}

int Generate(sqlite3_session* s, bool patchset, std::string* out) {
  if (s->rc != SQLITE_OK) return s->rc;
  sqlite3_mutex_enter(sqlite3_db_mutex(s->db));
  int rc = SQLITE_OK;
  for (auto& t : s->tables) {
    if (t->n_entry == 0) continue;
    rc = AppendTable(s, *t, patchset, out);
    if (rc != SQLITE_OK) break;
  }
  sqlite3_mutex_leave(sqlite3_db_mutex(s->db));
  return rc;
}

}  // namespace

}  // namespace basalt::session

using basalt::session::Generate;
using basalt::session::PreUpdateHook;
using basalt::session::ReturnBuffer;
using basalt::session::SessionTable;

extern "C" {

int sqlite3session_create(sqlite3* db, const char* zDb, sqlite3_session** pp) {
  *pp = nullptr;
  auto* s = new (std::nothrow) sqlite3_session;
  if (s == nullptr) return SQLITE_NOMEM;
  s->db = db;
  s->db_name = zDb != nullptr ? zDb : "main";
  sqlite3_mutex_enter(sqlite3_db_mutex(db));
  s->next = static_cast<sqlite3_session*>(sqlite3_preupdate_hook(db, &PreUpdateHook, s));
  sqlite3_mutex_leave(sqlite3_db_mutex(db));
  *pp = s;
  return SQLITE_OK;
}

void sqlite3session_delete(sqlite3_session* s) {
  if (s == nullptr) return;
  sqlite3* db = s->db;
  sqlite3_mutex_enter(sqlite3_db_mutex(db));
  auto* head = static_cast<sqlite3_session*>(sqlite3_preupdate_hook(db, nullptr, nullptr));
  for (sqlite3_session** pp = &head; *pp != nullptr; pp = &(*pp)->next) {
    if (*pp == s) {
      *pp = s->next;
      break;
    }
  }
  if (head != nullptr) sqlite3_preupdate_hook(db, &PreUpdateHook, head);
  sqlite3_mutex_leave(sqlite3_db_mutex(db));
  delete s;
}

int sqlite3session_object_config(sqlite3_session* s, int op, void* arg) {
  if (op != SQLITE_SESSION_OBJCONFIG_SIZE) return SQLITE_MISUSE;
  int* v = static_cast<int*>(arg);
  if (*v >= 0) {
    if (!s->tables.empty()) return SQLITE_MISUSE;  // only before any table is attached
    s->size_on = *v != 0;
  }
  *v = s->size_on ? 1 : 0;
  return SQLITE_OK;
}

int sqlite3session_enable(sqlite3_session* s, int enable) {
  if (enable >= 0) s->enabled = enable != 0;
  return s->enabled ? 1 : 0;
}

int sqlite3session_indirect(sqlite3_session* s, int indirect) {
  if (indirect >= 0) s->indirect = indirect != 0;
  return s->indirect ? 1 : 0;
}

int sqlite3session_attach(sqlite3_session* s, const char* zTab) {
  sqlite3_mutex_enter(sqlite3_db_mutex(s->db));
  if (zTab == nullptr) {
    s->auto_attach = true;
  } else {
    bool found = false;
    for (auto& t : s->tables) found = found || sqlite3_stricmp(t->name.c_str(), zTab) == 0;
    if (!found) {
      auto t = std::make_unique<SessionTable>();
      t->name = zTab;
      s->tables.push_back(std::move(t));
    }
  }
  sqlite3_mutex_leave(sqlite3_db_mutex(s->db));
  return SQLITE_OK;
}

void sqlite3session_table_filter(sqlite3_session* s, SessionFilter filter, void* ctx) {
  s->auto_attach = true;
  s->filter = filter;
  s->filter_ctx = ctx;
}

int sqlite3session_changeset(sqlite3_session* s, int* n, void** p) {
  std::string out;
  int rc = Generate(s, false, &out);
  if (rc != SQLITE_OK) {
    ReturnBuffer(std::string(), n, p);
    return rc;
  }
  return ReturnBuffer(out, n, p);
}

int sqlite3session_patchset(sqlite3_session* s, int* n, void** p) {
  std::string out;
  int rc = Generate(s, true, &out);
  if (rc != SQLITE_OK) {
    ReturnBuffer(std::string(), n, p);
    return rc;
  }
  return ReturnBuffer(out, n, p);
}

int sqlite3session_changeset_strm(sqlite3_session* s, SessionOutput output, void* out) {
  std::string buf;
  int rc = Generate(s, false, &buf);
  return rc != SQLITE_OK ? rc : basalt::session::WriteAll(output, out, buf);
}

int sqlite3session_patchset_strm(sqlite3_session* s, SessionOutput output, void* out) {
  std::string buf;
  int rc = Generate(s, true, &buf);
  return rc != SQLITE_OK ? rc : basalt::session::WriteAll(output, out, buf);
}

int sqlite3session_isempty(sqlite3_session* s) {
  for (auto& t : s->tables) {
    if (t->n_entry > 0) return 0;
  }
  return 1;
}

sqlite3_int64 sqlite3session_memory_used(sqlite3_session* s) {
  sqlite3_int64 n = static_cast<sqlite3_int64>(sizeof(*s));
  for (auto& t : s->tables) {
    n += static_cast<sqlite3_int64>(sizeof(*t) + t->buckets.size() * sizeof(void*));
    for (auto& c : t->owned) n += static_cast<sqlite3_int64>(sizeof(*c) + c->record.size());
  }
  return n;
}

sqlite3_int64 sqlite3session_changeset_size(sqlite3_session* s) { return s->max_size; }

int sqlite3session_config(int op, void* arg) {
  // The chunk size of the _strm functions (Basalt hands streams over in
  // one piece; the setting is kept and reported back).
  static std::atomic<int> strm_size{1024};
  if (op != SQLITE_SESSION_CONFIG_STRMSIZE) return SQLITE_MISUSE;
  int* v = static_cast<int*>(arg);
  if (*v > 0) strm_size.store(*v);
  *v = strm_size.load();
  return SQLITE_OK;
}

}  // extern "C"
