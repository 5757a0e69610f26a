// Function-call extras: sqlite3_get_auxdata / set_auxdata (metadata kept
// per call site and argument, catalog/function.h AuxDataStore),
// sqlite3_overload_function, the UTF-16 result setters, and the
// deprecated sqlite3_aggregate_count.
#include <cstring>
#include <string>

#include "api/guard.h"
#include "api/handles.h"
#include "common/utf.h"

using basalt::api::AsCtx;
using basalt::api::Guard;
using basalt::api::GuardVoid;

namespace {

bool NativeBigEndian() {
  const uint16_t one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 0;
}

// UTF-8 of n bytes of UTF-16 (n < 0: up to a 0x0000 unit).
std::string FromUtf16(const void* z, int64_t n, bool big_endian) {
  if (n < 0) {
    n = 0;
    const auto* p = static_cast<const unsigned char*>(z);
    while (p[n] != 0 || p[n + 1] != 0) n += 2;
  }
  return basalt::Utf16ToUtf8(z, static_cast<size_t>(n) & ~size_t{1}, big_endian);
}

void Destroy(const void* p, void (*del)(void*)) {
  if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr) del(const_cast<void*>(p));
}

void ResultUtf16(sqlite3_context* c, const void* z, int64_t n, void (*del)(void*),
                 bool big_endian) {
  GuardVoid(AsCtx(c), [&] {
    if (z == nullptr) {
      AsCtx(c)->result->SetNull();
    } else {
      AsCtx(c)->result->SetText(FromUtf16(z, n, big_endian));
    }
  });
  Destroy(z, del);
}

// The function sqlite3_overload_function installs: usable only when a
// virtual table's xFindFunction supplies the real one.
void Unusable(sqlite3_context* ctx, int, sqlite3_value**) {
  const char* name = static_cast<const char*>(sqlite3_user_data(ctx));
  std::string msg = std::string("unable to use function ") + name + " in the requested context";
  sqlite3_result_error(ctx, msg.c_str(), -1);
}

}  // namespace

extern "C" {

void* sqlite3_get_auxdata(sqlite3_context* c, int n) {
  return Guard(AsCtx(c), static_cast<void*>(nullptr), [&]() -> void* {
    basalt::FuncContext* ctx = AsCtx(c);
    if (ctx->aux == nullptr || n < 0 || n >= ctx->argc) return nullptr;
    return ctx->aux->Get(ctx->call_site, n, *ctx->argv[n]);
  });
}

void sqlite3_set_auxdata(sqlite3_context* c, int n, void* p, void (*del)(void*)) {
  basalt::FuncContext* ctx = AsCtx(c);
  if (ctx->aux == nullptr || n < 0 || n >= ctx->argc) {
    if (del != nullptr && p != nullptr) del(p);  // nowhere to keep it
    return;
  }
  GuardVoid(ctx, [&] { ctx->aux->Set(ctx->call_site, n, *ctx->argv[n], p, del); });
}

int sqlite3_overload_function(sqlite3* db, const char* name, int nargs) {
  if (!basalt::api::HasConnection(db) || name == nullptr || nargs < -2) return SQLITE_MISUSE;
  bool exists = Guard(db, false, [&] { return db->conn->funcs().Find(name, nargs) != nullptr; });
  if (exists) return SQLITE_OK;
  char* copy = sqlite3_mprintf("%s", name);
  if (copy == nullptr) return SQLITE_NOMEM;
  return sqlite3_create_function_v2(db, name, nargs, SQLITE_UTF8, copy, Unusable, nullptr, nullptr,
                                    sqlite3_free);
}

void sqlite3_result_text16(sqlite3_context* c, const void* z, int n, void (*del)(void*)) {
  ResultUtf16(c, z, n, del, NativeBigEndian());
}
void sqlite3_result_text16le(sqlite3_context* c, const void* z, int n, void (*del)(void*)) {
  ResultUtf16(c, z, n, del, false);
}
void sqlite3_result_text16be(sqlite3_context* c, const void* z, int n, void (*del)(void*)) {
  ResultUtf16(c, z, n, del, true);
}

void sqlite3_result_error16(sqlite3_context* c, const void* z, int n) {
  GuardVoid(AsCtx(c), [&] {
    std::string msg = z != nullptr ? FromUtf16(z, n, NativeBigEndian()) : std::string();
    sqlite3_result_error(c, msg.c_str(), static_cast<int>(msg.size()));
  });
}

// Deprecated: the number of step calls of the current aggregate so far.
int sqlite3_aggregate_count(sqlite3_context* c) {
  return c != nullptr ? static_cast<int>(AsCtx(c)->agg_steps) : 0;
}

}  // extern "C"
