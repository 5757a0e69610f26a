// MATCH constraints: sqlite3_rtree_geometry_callback() and
// sqlite3_rtree_query_callback() create an SQL function whose value, on
// the right of MATCH, carries the callback and the call's arguments into
// xFilter.
//
// The value is a blob (this library has no pointer values):
//   u32 magic, u32 nParam, GeomCallback* (native width), then per argument
//   its value as a double, one type byte and its payload: int64 / double (8 bytes native), or
//   u32 length + bytes for text and blobs; nothing for NULL.
// A blob is only trusted when its callback pointer is one this library
// registered and has not destroyed (the `Registry` set below), so no
// user-written blob can make the module call an arbitrary address.
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ext/rtree/cursor.h"

namespace basalt::rtree {

struct GeomCallback {
  int (*geom)(sqlite3_rtree_geometry*, int, sqlite3_rtree_dbl*, int*) = nullptr;
  int (*query)(sqlite3_rtree_query_info*) = nullptr;
  void (*destructor)(void*) = nullptr;
  void* context = nullptr;
};

// A MATCH constraint's state for one scan.
struct MatchArg {
  sqlite3_rtree_query_info info{};
  GeomCallback cb;
  std::vector<double> params;
  std::vector<sqlite3_value*> values;

  ~MatchArg() {
    if (info.xDelUser != nullptr) info.xDelUser(info.pUser);
    for (sqlite3_value* v : values) sqlite3_value_free(v);
  }
};

namespace {

constexpr uint32_t kMagic = 0x52544d41;  // "RTMA"

struct Registry {
  std::mutex mu;
  std::set<const GeomCallback*> live;
};
Registry& Callbacks() {
  static Registry* r = new Registry();  // never destroyed: used at exit
  return *r;
}

bool IsLive(const GeomCallback* cb) {
  Registry& r = Callbacks();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.live.count(cb) != 0;
}

void FreeCallback(void* p) {
  auto* cb = static_cast<GeomCallback*>(p);
  {
    Registry& r = Callbacks();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.erase(cb);
  }
  if (cb->destructor != nullptr) cb->destructor(cb->context);
  delete cb;
}

template <typename T>
void Append(std::string* out, const T& v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <typename T>
bool Take(const uint8_t** p, const uint8_t* end, T* v) {
  if (size_t(end - *p) < sizeof(T)) return false;
  std::memcpy(v, *p, sizeof(T));
  *p += sizeof(T);
  return true;
}

void GeomFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* cb = static_cast<GeomCallback*>(sqlite3_user_data(ctx));
  std::string blob;
  Append(&blob, kMagic);
  Append(&blob, uint32_t(argc));
  Append(&blob, cb);
  for (int i = 0; i < argc; ++i) {
    uint8_t type = uint8_t(sqlite3_value_type(argv[i]));
    Append(&blob, sqlite3_value_double(argv[i]));
    Append(&blob, type);
    if (type == SQLITE_INTEGER) {
      Append(&blob, int64_t(sqlite3_value_int64(argv[i])));
    } else if (type == SQLITE_FLOAT) {
      Append(&blob, sqlite3_value_double(argv[i]));
    } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
      const void* p = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(argv[i]))
                                          : sqlite3_value_blob(argv[i]);
      uint32_t n = uint32_t(sqlite3_value_bytes(argv[i]));
      Append(&blob, n);
      if (n > 0) blob.append(static_cast<const char*>(p), n);
    }
  }
  sqlite3_result_blob(ctx, blob.data(), int(blob.size()), SQLITE_TRANSIENT);
}

int Register(sqlite3* db, const char* name, GeomCallback* cb) {
  {
    Registry& r = Callbacks();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.insert(cb);
  }
  return sqlite3_create_function_v2(db, name, -1, SQLITE_ANY, cb, GeomFunction, nullptr, nullptr,
                                    FreeCallback);
}

// Rebuilds the call's argument values (for apSqlParam) through a SELECT
// of bound parameters.
int RebuildValues(sqlite3* db, const std::vector<std::pair<int, std::string>>& args, MatchArg* m) {
  if (args.empty()) return SQLITE_OK;
  std::string sql = "SELECT ?";
  for (size_t i = 1; i < args.size(); ++i) sql += ",?";
  Stmt s;
  int rc = Prepare(db, sql, &s);
  if (rc != SQLITE_OK) return rc;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& [type, bytes] = args[i];
    int col = int(i) + 1;
    if (type == SQLITE_INTEGER) {
      int64_t v;
      std::memcpy(&v, bytes.data(), 8);
      sqlite3_bind_int64(s.get(), col, v);
    } else if (type == SQLITE_FLOAT) {
      double v;
      std::memcpy(&v, bytes.data(), 8);
      sqlite3_bind_double(s.get(), col, v);
    } else if (type == SQLITE_TEXT) {
      sqlite3_bind_text(s.get(), col, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
    } else if (type == SQLITE_BLOB) {
      sqlite3_bind_blob(s.get(), col, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
    }
  }
  if (sqlite3_step(s.get()) != SQLITE_ROW) return SQLITE_ERROR;
  for (size_t i = 0; i < args.size(); ++i) {
    sqlite3_value* v = sqlite3_value_dup(sqlite3_column_value(s.get(), int(i)));
    if (v == nullptr) return SQLITE_NOMEM;
    m->values.push_back(v);
  }
  return SQLITE_OK;
}

}  // namespace

int LoadMatchArg(sqlite3* db, sqlite3_value* v, Constraint* k, int ncoord, unsigned* queued,
                 int max_level) {
  if (sqlite3_value_type(v) != SQLITE_BLOB) return SQLITE_ERROR;
  const auto* p = static_cast<const uint8_t*>(sqlite3_value_blob(v));
  const uint8_t* end = p + sqlite3_value_bytes(v);
  uint32_t magic = 0, argc = 0;
  GeomCallback* cb = nullptr;
  if (p == nullptr || !Take(&p, end, &magic) || magic != kMagic || !Take(&p, end, &argc) ||
      !Take(&p, end, &cb) || !IsLive(cb)) {
    return SQLITE_ERROR;
  }
  auto m = std::make_shared<MatchArg>();
  m->cb = *cb;
  std::vector<std::pair<int, std::string>> args;
  for (uint32_t i = 0; i < argc; ++i) {
    uint8_t type = 0;
    double num = 0;
    if (!Take(&p, end, &num) || !Take(&p, end, &type)) return SQLITE_ERROR;
    std::string bytes;
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
      if (size_t(end - p) < 8) return SQLITE_ERROR;
      bytes.assign(reinterpret_cast<const char*>(p), 8);
      p += 8;
    } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
      uint32_t n = 0;
      if (!Take(&p, end, &n) || size_t(end - p) < n) return SQLITE_ERROR;
      bytes.assign(reinterpret_cast<const char*>(p), n);
      p += n;
    }
    m->params.push_back(num);
    args.emplace_back(type, std::move(bytes));
  }
  int rc = RebuildValues(db, args, m.get());
  if (rc != SQLITE_OK) return rc;
  m->info.pContext = m->cb.context;
  m->info.nParam = int(argc);
  m->info.aParam = m->params.data();
  m->info.apSqlParam = m->values.data();
  m->info.nCoord = ncoord;
  m->info.anQueue = queued;
  m->info.mxLevel = max_level;
  if (m->cb.geom == nullptr) k->op = kOpQuery;
  k->match = std::move(m);
  return SQLITE_OK;
}

int CallbackTest(Constraint* k, bool is_int, const uint8_t* cell, const SearchPoint& parent,
                 double* score, int* within) {
  MatchArg* m = k->match.get();
  sqlite3_rtree_query_info* info = &m->info;
  if (k->op == kOpQuery && parent.level == 1) info->iRowid = Get64(cell);
  double coords[kMaxDims * 2];
  for (int i = 0; i < info->nCoord; ++i) {
    Coord c;
    c.u = Get32(cell + 8 + 4 * i);
    coords[i] = is_int ? double(c.i) : double(c.f);
  }
  int rc;
  if (k->op == kOpMatch) {
    int inside = 0;
    rc = m->cb.geom(reinterpret_cast<sqlite3_rtree_geometry*>(info), info->nCoord, coords, &inside);
    if (inside == 0) *within = NOT_WITHIN;
    *score = 0;
  } else {
    info->aCoord = coords;
    info->iLevel = parent.level - 1;
    info->rScore = info->rParentScore = parent.score;
    info->eWithin = info->eParentWithin = parent.within;
    rc = m->cb.query(info);
    if (info->eWithin < *within) *within = info->eWithin;
    if (info->rScore < *score || *score < 0) *score = info->rScore;
  }
  return rc;
}

}  // namespace basalt::rtree

extern "C" {

SQLITE_API int sqlite3_rtree_geometry_callback(sqlite3* db, const char* name,
                                               int (*xGeom)(sqlite3_rtree_geometry*, int,
                                                            sqlite3_rtree_dbl*, int*),
                                               void* context) {
  auto* cb = new basalt::rtree::GeomCallback();
  cb->geom = xGeom;
  cb->context = context;
  return basalt::rtree::Register(db, name, cb);
}

SQLITE_API int sqlite3_rtree_query_callback(sqlite3* db, const char* name,
                                            int (*xQueryFunc)(sqlite3_rtree_query_info*),
                                            void* context, void (*xDestructor)(void*)) {
  auto* cb = new basalt::rtree::GeomCallback();
  cb->query = xQueryFunc;
  cb->destructor = xDestructor;
  cb->context = context;
  return basalt::rtree::Register(db, name, cb);
}

}  // extern "C"
