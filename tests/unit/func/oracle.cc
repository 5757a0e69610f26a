#include "oracle.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace basalt::functest {

// The C API entry points used, declared by hand (no sqlite3.h dependency).
struct Oracle::Impl {
  void* lib = nullptr;
  void* db = nullptr;
  std::unordered_map<std::string, void*> stmts;
  int (*open)(const char*, void**);
  int (*close)(void*);
  int (*prepare)(void*, const char*, int, void**, const char**);
  int (*step)(void*);
  int (*reset)(void*);
  int (*finalize)(void*);
  int (*clear_bindings)(void*);
  int (*bind_int64)(void*, int, long long);
  int (*bind_double)(void*, int, double);
  int (*bind_text)(void*, int, const char*, int, void (*)(void*));
  int (*bind_blob)(void*, int, const void*, int, void (*)(void*));
  int (*bind_null)(void*, int);
  int (*column_type)(void*, int);
  long long (*column_int64)(void*, int);
  double (*column_double)(void*, int);
  const unsigned char* (*column_text)(void*, int);
  const void* (*column_blob)(void*, int);
  int (*column_bytes)(void*, int);
  const char* (*errmsg)(void*);
  int (*exec)(void*, const char*, void*, void*, char**);
};

namespace {
void (*const kTransient)(void*) = reinterpret_cast<void (*)(void*)>(-1);

template <typename F>
bool Sym(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}
}  // namespace

std::unique_ptr<Oracle> Oracle::Open() {
  void* lib = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return nullptr;
  auto impl = std::make_unique<Impl>();
  impl->lib = lib;
  Impl& a = *impl;
  bool ok = Sym(lib, "sqlite3_open", &a.open) && Sym(lib, "sqlite3_close", &a.close) &&
            Sym(lib, "sqlite3_prepare_v2", &a.prepare) && Sym(lib, "sqlite3_step", &a.step) &&
            Sym(lib, "sqlite3_reset", &a.reset) && Sym(lib, "sqlite3_finalize", &a.finalize) &&
            Sym(lib, "sqlite3_clear_bindings", &a.clear_bindings) &&
            Sym(lib, "sqlite3_bind_int64", &a.bind_int64) &&
            Sym(lib, "sqlite3_bind_double", &a.bind_double) &&
            Sym(lib, "sqlite3_bind_text", &a.bind_text) &&
            Sym(lib, "sqlite3_bind_blob", &a.bind_blob) &&
            Sym(lib, "sqlite3_bind_null", &a.bind_null) &&
            Sym(lib, "sqlite3_column_type", &a.column_type) &&
            Sym(lib, "sqlite3_column_int64", &a.column_int64) &&
            Sym(lib, "sqlite3_column_double", &a.column_double) &&
            Sym(lib, "sqlite3_column_text", &a.column_text) &&
            Sym(lib, "sqlite3_column_blob", &a.column_blob) &&
            Sym(lib, "sqlite3_column_bytes", &a.column_bytes) &&
            Sym(lib, "sqlite3_errmsg", &a.errmsg) && Sym(lib, "sqlite3_exec", &a.exec);
  if (!ok || a.open(":memory:", &a.db) != 0) {
    dlclose(lib);
    return nullptr;
  }
  std::unique_ptr<Oracle> o(new Oracle());
  o->impl_ = impl.release();
  return o;
}

Oracle::~Oracle() {
  if (impl_ == nullptr) return;
  for (auto& [sql, stmt] : impl_->stmts) impl_->finalize(stmt);
  impl_->close(impl_->db);
  dlclose(impl_->lib);
  delete impl_;
}

bool Oracle::Exec(const std::string& sql) {
  return impl_->exec(impl_->db, sql.c_str(), nullptr, nullptr, nullptr) == 0;
}

bool Oracle::Eval(const std::string& sql, const std::vector<Value>& args, Value* out,
                  std::string* error) {
  Impl& a = *impl_;
  out->SetNull();
  void* stmt = nullptr;
  auto it = a.stmts.find(sql);
  if (it != a.stmts.end()) {
    stmt = it->second;
  } else {
    if (a.prepare(a.db, sql.c_str(), -1, &stmt, nullptr) != 0) {
      *error = a.errmsg(a.db);
      return false;
    }
    a.stmts.emplace(sql, stmt);
  }
  a.reset(stmt);
  a.clear_bindings(stmt);
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    int k = static_cast<int>(i) + 1;
    switch (v.type()) {
      case Type::kNull:
        a.bind_null(stmt, k);
        break;
      case Type::kInteger:
        a.bind_int64(stmt, k, v.int_value());
        break;
      case Type::kReal:
        a.bind_double(stmt, k, v.real_value());
        break;
      case Type::kText:
        a.bind_text(stmt, k, v.size() ? v.data() : "", static_cast<int>(v.size()), kTransient);
        break;
      case Type::kBlob:
        a.bind_blob(stmt, k, v.size() ? v.data() : "", static_cast<int>(v.size()), kTransient);
        break;
    }
  }
  int rc = a.step(stmt);
  if (rc != 100) {
    bool ok = rc == 101;
    if (!ok) *error = a.errmsg(a.db);
    a.reset(stmt);
    return ok;
  }
  switch (a.column_type(stmt, 0)) {
    case 1:
      out->SetInt(a.column_int64(stmt, 0));
      break;
    case 2:
      out->SetReal(a.column_double(stmt, 0));
      break;
    case 3: {
      const unsigned char* t = a.column_text(stmt, 0);
      int n = a.column_bytes(stmt, 0);
      out->SetText(std::string_view(reinterpret_cast<const char*>(t), static_cast<size_t>(n)));
      break;
    }
    case 4: {
      const void* b = a.column_blob(stmt, 0);
      int n = a.column_bytes(stmt, 0);
      out->SetBlob(n ? b : "", static_cast<size_t>(n));
      break;
    }
    default:
      break;
  }
  // Drain the statement so errors raised after the first row surface.
  rc = a.step(stmt);
  bool ok = rc == 100 || rc == 101;
  if (!ok) *error = a.errmsg(a.db);
  a.reset(stmt);
  return ok;
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
    case Type::kText: {
      std::string s = "text:'";
      for (char c : v.text()) {
        if (static_cast<unsigned char>(c) < 0x20) {
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          s += buf;
        } else {
          s += c;
        }
      }
      return s + "'";
    }
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

bool SameValue(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Type::kNull:
      return true;
    case Type::kInteger:
      return a.int_value() == b.int_value();
    case Type::kReal: {
      double x = a.real_value(), y = b.real_value();
      if (x == 0.0 && y == 0.0) return true;
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a.text() == b.text();
  }
}

}  // namespace basalt::functest
