// sqlite3_value accessors, function results, and user-defined functions.
//
// Values and function contexts take no lock: a context exists only while
// its statement's step (holding the connection's mutex) calls the function,
// and values are protected the way SQLite documents (the application keeps
// a statement's column values to the thread stepping it). Their entry
// points still run through the guard, so an exception never escapes: a
// value accessor then returns its empty result, a context records
// SQLITE_NOMEM as the function's error. (The few that only read or set a
// field -- value_type, value_subtype, user_data, result_int and the like
// -- cannot throw and call nothing that could.)
#include <cstdint>
#include <cstring>
#include <memory>

#include "api/guard.h"
#include "api/handles.h"
#include "record/value_ops.h"

using basalt::FuncContext;
using basalt::FunctionDef;
using basalt::Type;
using basalt::Value;
using basalt::api::AsCtx;
using basalt::api::AsValue;
using basalt::api::Guard;
using basalt::api::GuardVoid;
using basalt::api::kCodeOnThrow;

namespace {

// SQLITE_LIMIT_LENGTH for a function result of n bytes: true (and the
// result is the "string or blob too big" error) when n exceeds it.
bool OverLengthLimit(basalt::FuncContext* ctx, size_t n) {
  int limit = ctx->conn != nullptr ? ctx->conn->Limit(0) : -1;
  if (limit < 0 || n <= static_cast<size_t>(limit)) return false;
  sqlite3_result_error_toobig(reinterpret_cast<sqlite3_context*>(ctx));
  return true;
}

void Destroy(const void* p, void (*del)(void*)) {
  if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr) del(const_cast<void*>(p));
}

using XFunc = void (*)(sqlite3_context*, int, sqlite3_value**);
using XFinal = void (*)(sqlite3_context*);

void ScalarTrampoline(FuncContext* ctx, int argc, Value** argv) {
  reinterpret_cast<XFunc>(ctx->def->api_func)(reinterpret_cast<sqlite3_context*>(ctx), argc,
                                              reinterpret_cast<sqlite3_value**>(argv));
}
void StepTrampoline(FuncContext* ctx, int argc, Value** argv) {
  reinterpret_cast<XFunc>(ctx->def->api_step)(reinterpret_cast<sqlite3_context*>(ctx), argc,
                                              reinterpret_cast<sqlite3_value**>(argv));
}
void FinalTrampoline(FuncContext* ctx) {
  reinterpret_cast<XFinal>(ctx->def->api_final)(reinterpret_cast<sqlite3_context*>(ctx));
}
void ValueTrampoline(FuncContext* ctx) {
  reinterpret_cast<XFinal>(ctx->def->api_value)(reinterpret_cast<sqlite3_context*>(ctx));
}
void InverseTrampoline(FuncContext* ctx, int argc, Value** argv) {
  reinterpret_cast<XFunc>(ctx->def->api_inverse)(reinterpret_cast<sqlite3_context*>(ctx), argc,
                                                 reinterpret_cast<sqlite3_value**>(argv));
}

// The callbacks of a user function (sqlite3_create_function_v2,
// sqlite3_create_window_function).
struct Callbacks {
  XFunc func;
  XFunc step;
  XFinal final;
  XFinal value;
  XFunc inverse;
};

// Registers (or with no callback at all removes) a user function, with
// SQLite's rules: a scalar xFunc alone, or xStep with xFinal, plus xValue
// with xInverse for a window function; anything else is SQLITE_MISUSE.
// When the function is not registered, xDestroy runs at once (as SQLite).
int CreateFunction(sqlite3* db, const char* name, int nargs, int rep, void* user,
                   const Callbacks& cb, void (*xDestroy)(void*)) {
  if (!basalt::api::HasConnection(db)) return SQLITE_MISUSE;
  bool owned = false;  // the FunctionDef has taken user (its destructor calls xDestroy)
  int rc = Guard(db, kCodeOnThrow, [&] {
    bool bad = name == nullptr || nargs < -1 || nargs > 127 ||
               (cb.func != nullptr && (cb.step != nullptr || cb.final != nullptr)) ||
               (cb.step == nullptr) != (cb.final == nullptr) ||
               (cb.value == nullptr) != (cb.inverse == nullptr) ||
               (cb.value != nullptr && cb.step == nullptr);
    if (bad || !basalt::api::HasConnection(db)) return SQLITE_MISUSE;
    if (cb.func == nullptr && cb.step == nullptr) {
      // All callbacks NULL: removes the function.
      db->conn->funcs().Remove(name, nargs);
      db->conn->schema().Touch();
      return SQLITE_OK;
    }
    auto def = std::make_unique<FunctionDef>();
    def->user_data = user;
    def->destroy = xDestroy;
    owned = true;
    def->name = name;
    def->nargs = nargs;
    def->text_rep = rep & 7;
    if (rep & SQLITE_DETERMINISTIC) def->flags |= basalt::kFuncDeterministic;
    if (rep & SQLITE_DIRECTONLY) def->flags |= basalt::kFuncDirectOnly;
    if (rep & SQLITE_INNOCUOUS) def->flags |= basalt::kFuncInnocuous;
    if (rep & SQLITE_SUBTYPE) def->flags |= basalt::kFuncSubtype;
    if (cb.func != nullptr) {
      def->api_func = reinterpret_cast<void*>(cb.func);
      def->scalar = ScalarTrampoline;
    } else {
      def->flags |= basalt::kFuncAggregate;
      def->api_step = reinterpret_cast<void*>(cb.step);
      def->api_final = reinterpret_cast<void*>(cb.final);
      def->step = StepTrampoline;
      def->final = FinalTrampoline;
    }
    if (cb.value != nullptr) {
      def->api_value = reinterpret_cast<void*>(cb.value);
      def->api_inverse = reinterpret_cast<void*>(cb.inverse);
      def->value = ValueTrampoline;
      def->inverse = InverseTrampoline;
    }
    db->conn->funcs().Add(std::move(def));
    db->conn->schema().Touch();
    return SQLITE_OK;
  });
  if (!owned && xDestroy != nullptr) xDestroy(user);
  return rc;
}

// The text form of a numeric value, kept beside its number (the value's
// type does not change, as in SQLite, where the value then holds both).
const char* NumericText(Value* x) {
  char buf[32];
  int n = x->is_int() ? basalt::IntToText(x->int_value(), buf)
                      : basalt::RealToText(x->real_value(), buf);
  return x->CacheNumericText(buf, static_cast<size_t>(n));
}

}  // namespace

extern "C" {

// ---- values ----

int sqlite3_value_type(sqlite3_value* v) {
  switch (AsValue(v)->type()) {
    case Type::kInteger:
      return SQLITE_INTEGER;
    case Type::kReal:
      return SQLITE_FLOAT;
    case Type::kText:
      return SQLITE_TEXT;
    case Type::kBlob:
      return SQLITE_BLOB;
    default:
      return SQLITE_NULL;
  }
}

int sqlite3_value_numeric_type(sqlite3_value* v) {
  return Guard(nullptr, SQLITE_NULL, [&] {
    Value* x = AsValue(v);
    if (x->is_text()) {
      int64_t i;
      double r;
      int k = basalt::ParseNumericText(x->data(), x->size(), &i, &r);
      if (k == 1) x->SetInt(i);
      if (k == 2) x->SetReal(r);
    }
    return sqlite3_value_type(v);
  });
}

int sqlite3_value_int(sqlite3_value* v) {
  return Guard(nullptr, 0, [&] { return static_cast<int>(basalt::ValueToInt64(*AsValue(v))); });
}
sqlite3_int64 sqlite3_value_int64(sqlite3_value* v) {
  return Guard(nullptr, sqlite3_int64{0}, [&] { return basalt::ValueToInt64(*AsValue(v)); });
}
double sqlite3_value_double(sqlite3_value* v) {
  return Guard(nullptr, 0.0, [&] { return basalt::ValueToDouble(*AsValue(v)); });
}

const unsigned char* sqlite3_value_text(sqlite3_value* v) {
  return Guard(nullptr, static_cast<const unsigned char*>(nullptr), [&]() -> const unsigned char* {
    Value* x = AsValue(v);
    if (x->is_null()) return nullptr;
    if (x->is_numeric()) return reinterpret_cast<const unsigned char*>(NumericText(x));
    // As in SQLite, a BLOB read as text becomes TEXT.
    if (x->is_blob()) x->RetagStringLike(Type::kText);
    if (!x->owns_bytes()) x->MakeOwned();
    return reinterpret_cast<const unsigned char*>(x->data());
  });
}

const void* sqlite3_value_blob(sqlite3_value* v) {
  return Guard(nullptr, static_cast<const void*>(nullptr), [&]() -> const void* {
    Value* x = AsValue(v);
    if (x->is_null()) return nullptr;
    if (x->is_numeric()) return static_cast<const void*>(NumericText(x));
    return x->size() ? x->data() : nullptr;
  });
}

int sqlite3_value_bytes(sqlite3_value* v) {
  return Guard(nullptr, 0, [&] {
    Value* x = AsValue(v);
    if (x->is_null()) return 0;
    if (x->is_numeric()) NumericText(x);
    return static_cast<int>(x->size());
  });
}

unsigned int sqlite3_value_subtype(sqlite3_value* v) { return AsValue(v)->subtype(); }

sqlite3_value* sqlite3_value_dup(const sqlite3_value* v) {
  if (v == nullptr) return nullptr;
  return Guard(nullptr, static_cast<sqlite3_value*>(nullptr), [&] {
    auto x = std::make_unique<Value>(*reinterpret_cast<const Value*>(v));
    x->MakeOwned();
    return basalt::api::AsApi(x.release());
  });
}

void sqlite3_value_free(sqlite3_value* v) { delete AsValue(v); }

int sqlite3_value_nochange(sqlite3_value* v) { return AsValue(v)->is_nochange() ? 1 : 0; }
int sqlite3_value_frombind(sqlite3_value* v) {
  (void)v;
  return 0;
}

// ---- function context ----

void* sqlite3_user_data(sqlite3_context* c) { return AsCtx(c)->def->user_data; }
sqlite3* sqlite3_context_db_handle(sqlite3_context* c) {
  return static_cast<sqlite3*>(AsCtx(c)->api_db);
}
// Out of memory: NULL, and the function fails with SQLITE_NOMEM.
void* sqlite3_aggregate_context(sqlite3_context* c, int n) {
  return Guard(AsCtx(c), static_cast<void*>(nullptr), [&] {
    return basalt::AggregateContext(AsCtx(c), n <= 0 ? 0 : static_cast<size_t>(n));
  });
}

void sqlite3_result_null(sqlite3_context* c) { AsCtx(c)->result->SetNull(); }
void sqlite3_result_int(sqlite3_context* c, int v) { AsCtx(c)->result->SetInt(v); }
void sqlite3_result_int64(sqlite3_context* c, sqlite3_int64 v) { AsCtx(c)->result->SetInt(v); }
void sqlite3_result_double(sqlite3_context* c, double v) {
  if (v != v) {
    AsCtx(c)->result->SetNull();
  } else {
    AsCtx(c)->result->SetReal(v);
  }
}
void sqlite3_result_text(sqlite3_context* c, const char* z, int n, void (*del)(void*)) {
  GuardVoid(AsCtx(c), [&] {
    if (z == nullptr) {
      AsCtx(c)->result->SetNull();
    } else {
      size_t len = n < 0 ? std::strlen(z) : static_cast<size_t>(n);
      if (OverLengthLimit(AsCtx(c), len)) return;
      AsCtx(c)->result->SetText(std::string_view(z, len));
    }
  });
  Destroy(z, del);
}
void sqlite3_result_text64(sqlite3_context* c, const char* z, sqlite3_uint64 n, void (*del)(void*),
                           unsigned char enc) {
  if (n > static_cast<sqlite3_uint64>(INT32_MAX)) {
    if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr)
      del(const_cast<char*>(z));
    sqlite3_result_error_toobig(c);
    return;
  }
  const int len = static_cast<int>(n);
  switch (enc) {
    case SQLITE_UTF16:
    case SQLITE_UTF16_ALIGNED:
      sqlite3_result_text16(c, z, len, del);
      return;
    case SQLITE_UTF16LE:
      sqlite3_result_text16le(c, z, len, del);
      return;
    case SQLITE_UTF16BE:
      sqlite3_result_text16be(c, z, len, del);
      return;
    default:
      sqlite3_result_text(c, z, len, del);
  }
}
void sqlite3_result_blob(sqlite3_context* c, const void* z, int n, void (*del)(void*)) {
  GuardVoid(AsCtx(c), [&] {
    if (z == nullptr && n > 0) {
      AsCtx(c)->result->SetNull();
    } else if (!OverLengthLimit(AsCtx(c), static_cast<size_t>(n < 0 ? 0 : n))) {
      AsCtx(c)->result->SetBlob(z, static_cast<size_t>(n < 0 ? 0 : n));
    }
  });
  Destroy(z, del);
}
void sqlite3_result_blob64(sqlite3_context* c, const void* z, sqlite3_uint64 n,
                           void (*del)(void*)) {
  if (n > static_cast<sqlite3_uint64>(INT32_MAX)) {
    Destroy(z, del);
    sqlite3_result_error_toobig(c);
    return;
  }
  sqlite3_result_blob(c, z, static_cast<int>(n), del);
}
void sqlite3_result_zeroblob(sqlite3_context* c, int n) {
  sqlite3_result_zeroblob64(c, static_cast<sqlite3_uint64>(n < 0 ? 0 : n));
}
int sqlite3_result_zeroblob64(sqlite3_context* c, sqlite3_uint64 n) {
  if (n > static_cast<sqlite3_uint64>(INT32_MAX) || OverLengthLimit(AsCtx(c), n)) {
    sqlite3_result_error_toobig(c);
    return SQLITE_TOOBIG;
  }
  GuardVoid(AsCtx(c), [&] {
    size_t k = static_cast<size_t>(n);
    std::memset(AsCtx(c)->result->Reserve(Type::kBlob, k), 0, k);
  });
  return SQLITE_OK;
}
void sqlite3_result_value(sqlite3_context* c, sqlite3_value* v) {
  GuardVoid(AsCtx(c), [&] { AsCtx(c)->result->CopyFrom(*AsValue(v)); });
}
void sqlite3_result_error(sqlite3_context* c, const char* msg, int n) {
  GuardVoid(AsCtx(c), [&] {
    basalt::SetFuncError(AsCtx(c),
                         std::string_view(msg, n < 0 ? std::strlen(msg) : static_cast<size_t>(n)));
  });
}
void sqlite3_result_error_code(sqlite3_context* c, int code) {
  GuardVoid(AsCtx(c), [&] {
    FuncContext* ctx = AsCtx(c);
    ctx->is_error = true;
    ctx->error_code = code;
    if (ctx->error_msg.empty()) ctx->error_msg = basalt::ResultCodeText(code);
  });
}
void sqlite3_result_error_nomem(sqlite3_context* c) {
  GuardVoid(AsCtx(c), [&] { basalt::SetFuncError(AsCtx(c), "out of memory", SQLITE_NOMEM); });
}
void sqlite3_result_error_toobig(sqlite3_context* c) {
  GuardVoid(AsCtx(c),
            [&] { basalt::SetFuncError(AsCtx(c), "string or blob too big", SQLITE_TOOBIG); });
}
void sqlite3_result_subtype(sqlite3_context* c, unsigned int t) {
  AsCtx(c)->result->set_subtype(static_cast<uint8_t>(t));
}

int sqlite3_create_function_v2(sqlite3* db, const char* name, int nargs, int rep, void* user,
                               void (*xFunc)(sqlite3_context*, int, sqlite3_value**),
                               void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                               void (*xFinal)(sqlite3_context*), void (*xDestroy)(void*)) {
  return CreateFunction(db, name, nargs, rep, user, {xFunc, xStep, xFinal, nullptr, nullptr},
                        xDestroy);
}

int sqlite3_create_function(sqlite3* db, const char* name, int nargs, int rep, void* user,
                            void (*xFunc)(sqlite3_context*, int, sqlite3_value**),
                            void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                            void (*xFinal)(sqlite3_context*)) {
  return sqlite3_create_function_v2(db, name, nargs, rep, user, xFunc, xStep, xFinal, nullptr);
}

// A window function: xStep, xFinal, xValue and xInverse all set; with
// xValue and xInverse both NULL an ordinary aggregate; all four NULL
// removes the function. Any other combination is SQLITE_MISUSE.
int sqlite3_create_window_function(sqlite3* db, const char* name, int nargs, int rep, void* user,
                                   void (*xStep)(sqlite3_context*, int, sqlite3_value**),
                                   void (*xFinal)(sqlite3_context*),
                                   void (*xValue)(sqlite3_context*),
                                   void (*xInverse)(sqlite3_context*, int, sqlite3_value**),
                                   void (*xDestroy)(void*)) {
  return CreateFunction(db, name, nargs, rep, user, {nullptr, xStep, xFinal, xValue, xInverse},
                        xDestroy);
}

}  // extern "C"
