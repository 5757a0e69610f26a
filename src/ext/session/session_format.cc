// Encoding and decoding of changesets (format: session_format.h).
#include "ext/session/session_format.h"

#include <algorithm>

namespace basalt::session {

void PutVarint(std::string* out, uint64_t v) {
  uint8_t buf[10];
  if (v > 0x00ffffffffffffffULL) {
    // Nine bytes: eight 7-bit groups, then the low 8 bits whole.
    buf[8] = static_cast<uint8_t>(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i) {
      buf[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out->append(reinterpret_cast<char*>(buf), 9);
    return;
  }
  int n = 0;
  do {
    buf[n++] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  } while (v != 0);
  buf[0] &= 0x7f;  // the last group (written first here) ends the varint
  for (int i = n - 1; i >= 0; --i) out->push_back(static_cast<char>(buf[i]));
}

void PutInt64(std::string* out, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  for (int s = 56; s >= 0; s -= 8) out->push_back(static_cast<char>((u >> s) & 0xff));
}

namespace {

void PutReal(std::string* out, double d) {
  int64_t bits;
  std::memcpy(&bits, &d, 8);
  PutInt64(out, bits);
}

void PutBytes(std::string* out, int type, const void* p, int n) {
  out->push_back(static_cast<char>(type));
  PutVarint(out, static_cast<uint64_t>(n));
  if (n > 0) out->append(static_cast<const char*>(p), static_cast<size_t>(n));
}

}  // namespace

void PutValue(std::string* out, sqlite3_value* v) {
  if (v == nullptr) {
    out->push_back(0);
    return;
  }
  int t = sqlite3_value_type(v);
  switch (t) {
    case SQLITE_INTEGER:
      out->push_back(SQLITE_INTEGER);
      PutInt64(out, sqlite3_value_int64(v));
      break;
    case SQLITE_FLOAT:
      out->push_back(SQLITE_FLOAT);
      PutReal(out, sqlite3_value_double(v));
      break;
    case SQLITE_TEXT: {
      const unsigned char* z = sqlite3_value_text(v);
      PutBytes(out, SQLITE_TEXT, z, sqlite3_value_bytes(v));
      break;
    }
    case SQLITE_BLOB: {
      const void* z = sqlite3_value_blob(v);
      PutBytes(out, SQLITE_BLOB, z, sqlite3_value_bytes(v));
      break;
    }
    default:
      out->push_back(SQLITE_NULL);
      break;
  }
}

void PutColumn(std::string* out, sqlite3_stmt* stmt, int i) {
  PutValue(out, sqlite3_column_value(stmt, i));
}

bool GetVarint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
  uint64_t x = 0;
  const uint8_t* s = *p;
  for (int i = 0; i < 9; ++i) {
    if (s >= end) return false;
    uint8_t b = *s++;
    if (i == 8) {
      x = (x << 8) | b;
      break;
    }
    x = (x << 7) | (b & 0x7f);
    if ((b & 0x80) == 0) break;
  }
  *p = s;
  *v = x;
  return true;
}

int64_t GetInt64(const uint8_t* p) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | p[i];
  return static_cast<int64_t>(u);
}

bool GetField(const uint8_t** p, const uint8_t* end, Field* f) {
  const uint8_t* s = *p;
  if (s >= end) return false;
  const uint8_t* start = s;
  f->type = *s++;
  switch (f->type) {
    case 0:
    case SQLITE_NULL:
      break;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      if (end - s < 8) return false;
      f->i = GetInt64(s);
      std::memcpy(&f->r, &f->i, 8);
      s += 8;
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      uint64_t n;
      if (!GetVarint(&s, end, &n) || n > static_cast<uint64_t>(end - s)) return false;
      f->bytes = std::string_view(reinterpret_cast<const char*>(s), n);
      s += n;
      break;
    }
    default:
      return false;
  }
  f->raw = std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(s - start));
  *p = s;
  return true;
}

int BindField(sqlite3_stmt* stmt, int param, const Field& f) {
  switch (f.type) {
    case SQLITE_INTEGER:
      return sqlite3_bind_int64(stmt, param, f.i);
    case SQLITE_FLOAT:
      return sqlite3_bind_double(stmt, param, f.r);
    case SQLITE_TEXT:
      return sqlite3_bind_text(stmt, param, f.bytes.data(), static_cast<int>(f.bytes.size()),
                               SQLITE_TRANSIENT);
    case SQLITE_BLOB:
      return sqlite3_bind_blob(stmt, param, f.bytes.data(), static_cast<int>(f.bytes.size()),
                               SQLITE_TRANSIENT);
    case SQLITE_NULL:
      return sqlite3_bind_null(stmt, param);
    default:
      return SQLITE_OK;
  }
}

bool FieldEquals(const Field& f, sqlite3_value* v) {
  if (v == nullptr) return f.type == 0;
  int t = sqlite3_value_type(v);
  if (t != f.type) return false;
  switch (t) {
    case SQLITE_INTEGER:
      return sqlite3_value_int64(v) == f.i;
    case SQLITE_FLOAT: {
      double d = sqlite3_value_double(v);
      return std::memcmp(&d, &f.r, 8) == 0;
    }
    case SQLITE_TEXT: {
      const unsigned char* z = sqlite3_value_text(v);
      int n = sqlite3_value_bytes(v);
      return static_cast<size_t>(n) == f.bytes.size() &&
             (n == 0 || std::memcmp(z, f.bytes.data(), static_cast<size_t>(n)) == 0);
    }
    case SQLITE_BLOB: {
      const void* z = sqlite3_value_blob(v);
      int n = sqlite3_value_bytes(v);
      return static_cast<size_t>(n) == f.bytes.size() &&
             (n == 0 || std::memcmp(z, f.bytes.data(), static_cast<size_t>(n)) == 0);
    }
    default:
      return true;
  }
}

uint32_t HashInt64(uint32_t h, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  h = HashStep(h, static_cast<uint32_t>(u & 0xffffffffu));
  return HashStep(h, static_cast<uint32_t>((u >> 32) & 0xffffffffu));
}

uint32_t HashBytes(uint32_t h, std::string_view b) {
  for (unsigned char c : b) h = HashStep(h, c);
  return h;
}

uint32_t HashField(uint32_t h, const Field& f) {
  h = HashStep(h, static_cast<uint32_t>(f.type));
  if (f.type == SQLITE_INTEGER || f.type == SQLITE_FLOAT) return HashInt64(h, f.i);
  return HashBytes(h, f.bytes);
}

bool GetTableHeader(const uint8_t** p, const uint8_t* end, TableHeader* t) {
  const uint8_t* s = *p;
  if (s >= end || (*s != 'T' && *s != 'P')) return false;
  t->patchset = *s++ == 'P';
  uint64_t n;
  if (!GetVarint(&s, end, &n) || n == 0 || n > 65536 || n > static_cast<uint64_t>(end - s)) {
    return false;
  }
  t->n_col = static_cast<int>(n);
  t->pk.assign(s, s + n);
  s += n;
  const uint8_t* z = std::find(s, end, 0);
  if (z == end) return false;
  t->name.assign(reinterpret_cast<const char*>(s), static_cast<size_t>(z - s));
  *p = z + 1;
  return true;
}

void PutTableHeader(std::string* out, const TableHeader& t) {
  out->push_back(t.patchset ? 'P' : 'T');
  PutVarint(out, static_cast<uint64_t>(t.n_col));
  out->append(reinterpret_cast<const char*>(t.pk.data()), t.pk.size());
  out->append(t.name);
  out->push_back(0);
}

namespace {

// n_col fields; with pk_only, only the key columns are present (the others
// are left undefined).
bool GetRecord(const uint8_t** p, const uint8_t* end, const TableHeader& t, bool pk_only,
               std::vector<Field>* rec) {
  rec->assign(static_cast<size_t>(t.n_col), Field());
  for (int i = 0; i < t.n_col; ++i) {
    if (pk_only && t.pk[static_cast<size_t>(i)] == 0) continue;
    if (!GetField(p, end, &(*rec)[static_cast<size_t>(i)])) return false;
  }
  return true;
}

}  // namespace

bool GetChange(const uint8_t** p, const uint8_t* end, const TableHeader& t, Change* c) {
  const uint8_t* s = *p;
  if (end - s < 2) return false;
  c->op = s[0];
  c->indirect = s[1] != 0;
  s += 2;
  c->old_rec.clear();
  c->new_rec.clear();
  bool ok = true;
  switch (c->op) {
    case kOpInsert:
      ok = GetRecord(&s, end, t, false, &c->new_rec);
      break;
    case kOpDelete:
      ok = GetRecord(&s, end, t, t.patchset, &c->old_rec);
      break;
    case kOpUpdate:
      if (!t.patchset) ok = GetRecord(&s, end, t, false, &c->old_rec);
      ok = ok && GetRecord(&s, end, t, false, &c->new_rec);
      break;
    default:
      return false;
  }
  if (!ok) return false;
  c->raw = std::string_view(reinterpret_cast<const char*>(*p), static_cast<size_t>(s - *p));
  *p = s;
  return true;
}

int ParseChangeset(const void* data, int n, std::vector<ParsedTable>* out) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint8_t* end = p + (n > 0 ? n : 0);
  while (p < end) {
    if (*p == 'T' || *p == 'P') {
      ParsedTable t;
      if (!GetTableHeader(&p, end, &t.hdr)) return SQLITE_CORRUPT;
      out->push_back(std::move(t));
      continue;
    }
    if (out->empty()) return SQLITE_CORRUPT;
    Change c;
    if (!GetChange(&p, end, out->back().hdr, &c)) return SQLITE_CORRUPT;
    out->back().changes.push_back(std::move(c));
  }
  return SQLITE_OK;
}

int ReadAll(int (*input)(void*, void*, int*), void* in, std::string* out) {
  char buf[1024];
  for (;;) {
    int n = static_cast<int>(sizeof(buf));
    int rc = input(in, buf, &n);
    if (rc != SQLITE_OK) return rc;
    if (n <= 0) return SQLITE_OK;
    out->append(buf, static_cast<size_t>(n));
  }
}

int WriteAll(int (*output)(void*, const void*, int), void* out, const std::string& data) {
  if (data.empty()) return SQLITE_OK;
  return output(out, data.data(), static_cast<int>(data.size()));
}

int ReturnBuffer(const std::string& s, int* n, void** p) {
  if (n != nullptr) *n = 0;
  if (p != nullptr) *p = nullptr;
  if (s.empty()) return SQLITE_OK;
  void* mem = sqlite3_malloc64(s.size());
  if (mem == nullptr) return SQLITE_NOMEM;
  std::memcpy(mem, s.data(), s.size());
  if (n != nullptr) *n = static_cast<int>(s.size());
  if (p != nullptr) *p = mem;
  return SQLITE_OK;
}

}  // namespace basalt::session
