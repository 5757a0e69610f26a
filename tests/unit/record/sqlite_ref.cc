#include "sqlite_ref.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace basalt::testing {

// The handful of C API entry points we need, declared here (no sqlite3.h).
struct SqliteRef::Api {
  void* lib = nullptr;
  int (*open)(const char*, void**) = nullptr;
  int (*close)(void*) = nullptr;
  int (*prepare)(void*, const char*, int, void**, const char**) = nullptr;
  int (*step)(void*) = nullptr;
  int (*reset)(void*) = nullptr;
  int (*finalize)(void*) = nullptr;
  int (*clear_bindings)(void*) = nullptr;
  int (*bind_int64)(void*, int, long long) = nullptr;
  int (*bind_double)(void*, int, double) = nullptr;
  int (*bind_text)(void*, int, const char*, int, void (*)(void*)) = nullptr;
  int (*bind_blob)(void*, int, const void*, int, void (*)(void*)) = nullptr;
  int (*bind_null)(void*, int) = nullptr;
  int (*column_type)(void*, int) = nullptr;
  long long (*column_int64)(void*, int) = nullptr;
  double (*column_double)(void*, int) = nullptr;
  const unsigned char* (*column_text)(void*, int) = nullptr;
  const void* (*column_blob)(void*, int) = nullptr;
  int (*column_bytes)(void*, int) = nullptr;
  const char* (*errmsg)(void*) = nullptr;
  int (*exec)(void*, const char*, void*, void*, char**) = nullptr;
};

struct SqliteRef::Cache {
  std::unordered_map<std::string, void*> stmts;
};

namespace {
// SQLITE_TRANSIENT
void (*const kTransient)(void*) = reinterpret_cast<void (*)(void*)>(-1);
constexpr int kRow = 100;

template <typename F>
bool Load(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}
}  // namespace

std::unique_ptr<SqliteRef> SqliteRef::Open() {
  void* lib = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return nullptr;
  auto api = std::make_unique<Api>();
  api->lib = lib;
  bool ok = Load(lib, "sqlite3_open", &api->open) && Load(lib, "sqlite3_close", &api->close) &&
            Load(lib, "sqlite3_prepare_v2", &api->prepare) &&
            Load(lib, "sqlite3_step", &api->step) && Load(lib, "sqlite3_reset", &api->reset) &&
            Load(lib, "sqlite3_finalize", &api->finalize) &&
            Load(lib, "sqlite3_clear_bindings", &api->clear_bindings) &&
            Load(lib, "sqlite3_bind_int64", &api->bind_int64) &&
            Load(lib, "sqlite3_bind_double", &api->bind_double) &&
            Load(lib, "sqlite3_bind_text", &api->bind_text) &&
            Load(lib, "sqlite3_bind_blob", &api->bind_blob) &&
            Load(lib, "sqlite3_bind_null", &api->bind_null) &&
            Load(lib, "sqlite3_column_type", &api->column_type) &&
            Load(lib, "sqlite3_column_int64", &api->column_int64) &&
            Load(lib, "sqlite3_column_double", &api->column_double) &&
            Load(lib, "sqlite3_column_text", &api->column_text) &&
            Load(lib, "sqlite3_column_blob", &api->column_blob) &&
            Load(lib, "sqlite3_column_bytes", &api->column_bytes) &&
            Load(lib, "sqlite3_errmsg", &api->errmsg) && Load(lib, "sqlite3_exec", &api->exec);
  if (!ok) {
    dlclose(lib);
    return nullptr;
  }
  std::unique_ptr<SqliteRef> ref(new SqliteRef());
  if (api->open(":memory:", &ref->db_) != 0) {
    dlclose(lib);
    return nullptr;
  }
  ref->api_ = api.release();
  ref->cache_ = new Cache();
  return ref;
}

SqliteRef::~SqliteRef() {
  if (cache_) {
    for (auto& [sql, stmt] : cache_->stmts) api_->finalize(stmt);
    delete cache_;
  }
  if (api_) {
    api_->close(db_);
    dlclose(api_->lib);
    delete api_;
  }
}

void SqliteRef::SetLengthLimit(int n) {
  auto limit = reinterpret_cast<int (*)(void*, int, int)>(Symbol("sqlite3_limit"));
  if (limit) limit(db_, 0, n);
}

void* SqliteRef::Symbol(const char* name) const { return dlsym(api_->lib, name); }

bool SqliteRef::Exec(const std::string& sql) {
  return api_->exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == 0;
}

bool SqliteRef::Eval(const std::string& sql, const std::vector<Value>& args, Value* out,
                     std::string* error) {
  void*& stmt = cache_->stmts[sql];
  if (stmt == nullptr) {
    if (api_->prepare(db_, sql.c_str(), -1, &stmt, nullptr) != 0) {
      if (error) *error = api_->errmsg(db_);
      cache_->stmts.erase(sql);
      return false;
    }
  }
  api_->reset(stmt);
  api_->clear_bindings(stmt);
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    int k = static_cast<int>(i) + 1;
    switch (v.type()) {
      case Type::kNull:
        api_->bind_null(stmt, k);
        break;
      case Type::kInteger:
        api_->bind_int64(stmt, k, v.int_value());
        break;
      case Type::kReal:
        api_->bind_double(stmt, k, v.real_value());
        break;
      case Type::kText:
        api_->bind_text(stmt, k, v.size() ? v.data() : "", static_cast<int>(v.size()), kTransient);
        break;
      case Type::kBlob:
        api_->bind_blob(stmt, k, v.size() ? v.data() : "", static_cast<int>(v.size()), kTransient);
        break;
    }
  }
  int rc = api_->step(stmt);
  if (rc != kRow) {
    out->SetNull();
    if (rc != 101) {  // SQLITE_DONE
      if (error) *error = api_->errmsg(db_);
      api_->reset(stmt);
      return false;
    }
    return true;
  }
  switch (api_->column_type(stmt, 0)) {
    case 1:
      out->SetInt(api_->column_int64(stmt, 0));
      break;
    case 2:
      out->SetReal(api_->column_double(stmt, 0));
      break;
    case 3: {
      const unsigned char* t = api_->column_text(stmt, 0);
      int n = api_->column_bytes(stmt, 0);
      out->SetText(std::string_view(reinterpret_cast<const char*>(t), static_cast<size_t>(n)));
      break;
    }
    case 4: {
      const void* b = api_->column_blob(stmt, 0);
      int n = api_->column_bytes(stmt, 0);
      out->SetBlob(b, static_cast<size_t>(n));
      break;
    }
    default:
      out->SetNull();
      break;
  }
  api_->reset(stmt);
  return true;
}

std::string Describe(const Value& v) {
  char buf[64];
  switch (v.type()) {
    case Type::kNull:
      return "null";
    case Type::kInteger:
      std::snprintf(buf, sizeof buf, "integer:%lld", static_cast<long long>(v.int_value()));
      return buf;
    case Type::kReal:
      std::snprintf(buf, sizeof buf, "real:%.17g", v.real_value());
      return buf;
    case Type::kText:
      return "text:'" + std::string(v.text()) + "'";
    case Type::kBlob: {
      std::string s = "blob:x'";
      for (uint32_t i = 0; i < v.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(v.data()[i]));
        s += buf;
      }
      return s + "'";
    }
  }
  return "?";
}

bool SameValue(const Value& a, const Value& b, bool strict_zero_sign) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Type::kNull:
      return true;
    case Type::kInteger:
      return a.int_value() == b.int_value();
    case Type::kReal: {
      double x = a.real_value(), y = b.real_value();
      if (!strict_zero_sign && x == 0.0 && y == 0.0) return true;
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a.text() == b.text();
  }
}

}  // namespace basalt::testing
