// Tracing: sqlite3_trace_v2, the legacy sqlite3_trace and sqlite3_profile,
// the events the statement entry points raise, and sqlite3_expanded_sql
// (the SQL text with its parameters replaced by their bound values, which
// the legacy trace passes).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api/guard.h"
#include "api/trace.h"
#include "common/printf.h"
#include "parser/tokenizer.h"

using basalt::Value;
using basalt::api::Guard;

namespace {

// The connection's trace mask holds, besides the trace_v2 events, two bits
// of the legacy interfaces, as SQLite's does: sqlite3_trace sets the mask to
// kLegacyTrace alone, sqlite3_profile adds kLegacyProfile and drops
// kLegacyTrace, and sqlite3_trace_v2 replaces the whole mask (so each
// setter can silence what an earlier one asked for).
constexpr unsigned kLegacyTrace = 0x40;
constexpr unsigned kLegacyProfile = 0x80;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The SQL literal SQLite's expansion writes for a bound value.
void AppendLiteral(std::string* out, const Value* v) {
  if (v == nullptr || v->is_null()) {
    out->append("NULL");
  } else if (v->is_int()) {
    out->append(std::to_string(v->int_value()));
  } else if (v->is_real()) {
    char buf[32];
    out->append(buf, static_cast<size_t>(basalt::FormatRealSql(v->real_value(), buf)));
  } else if (v->is_text()) {
    out->push_back('\'');
    for (char c : v->text()) {
      if (c == '\'') out->push_back('\'');
      out->push_back(c);
    }
    out->push_back('\'');
  } else {
    static const char kHex[] = "0123456789abcdef";
    out->append("x'");
    const auto* p = reinterpret_cast<const unsigned char*>(v->data());
    for (uint32_t i = 0; i < v->size(); ++i) {
      out->push_back(kHex[p[i] >> 4]);
      out->push_back(kHex[p[i] & 15]);
    }
    out->push_back('\'');
  }
}

// The statement's text with each parameter replaced by its value: `?`
// takes the number after the highest seen so far, `?N` is N, a named one
// its own number. False when the result exceeds `limit` bytes.
bool ExpandSql(basalt::Statement* st, int64_t limit, std::string* out) {
  const std::string& sql = st->sql();
  const char* pos = sql.data();
  const char* end = pos + sql.size();
  int next = 1;
  while (pos < end) {
    basalt::parser::Tk type;
    uint32_t n = basalt::parser::ScanToken(pos, end, &type);
    if (n == 0) break;
    if (type != basalt::parser::Tk::kVariable) {
      out->append(pos, n);
    } else {
      std::string_view name(pos, n);
      int idx;
      if (n == 1) {
        idx = next;
      } else if (name[0] == '?') {
        idx = std::atoi(std::string(name.substr(1)).c_str());
      } else {
        idx = st->ParamIndex(name);
      }
      if (idx >= next) next = idx + 1;
      AppendLiteral(out, idx >= 1 && idx <= st->param_count() ? st->param(idx) : nullptr);
    }
    if (static_cast<int64_t>(out->size()) > limit) return false;
    pos += n;
  }
  return true;
}

char* CopyOut(const std::string& s) {
  char* p = static_cast<char*>(sqlite3_malloc64(s.size() + 1));
  if (p == nullptr) return nullptr;
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

}  // namespace

namespace basalt::api {

void TraceStart(sqlite3_stmt* s) {
  sqlite3* db = s->db;
  if (!Traced(db)) return;
  const ApiCallbacks cb = db->cb;  // a callback may change the settings
  if ((cb.trace_mask & (SQLITE_TRACE_PROFILE | kLegacyProfile)) != 0) s->trace_start_ns = NowNs();
  if ((cb.trace_mask & kLegacyTrace) != 0 && cb.trace_legacy != nullptr) {
    char* x = sqlite3_expanded_sql(s);
    cb.trace_legacy(cb.trace_arg, x != nullptr ? x : s->stmt->sql().c_str());
    sqlite3_free(x);
  } else if ((cb.trace_mask & SQLITE_TRACE_STMT) != 0 && cb.trace_v2 != nullptr) {
    cb.trace_v2(SQLITE_TRACE_STMT, cb.trace_arg, s, const_cast<char*>(s->stmt->sql().c_str()));
  }
}

void TraceRow(sqlite3_stmt* s) {
  const ApiCallbacks& cb = s->db->cb;
  if ((cb.trace_mask & SQLITE_TRACE_ROW) != 0 && cb.trace_v2 != nullptr) {
    cb.trace_v2(SQLITE_TRACE_ROW, cb.trace_arg, s, nullptr);
  }
}

void TraceEnd(sqlite3_stmt* s) {
  if (s->trace_start_ns < 0) return;
  sqlite3_int64 ns = NowNs() - s->trace_start_ns;
  s->trace_start_ns = -1;
  const ApiCallbacks cb = s->db->cb;
  if ((cb.trace_mask & kLegacyProfile) != 0 && cb.profile != nullptr) {
    cb.profile(cb.profile_arg, s->stmt->sql().c_str(), static_cast<sqlite3_uint64>(ns));
  }
  if ((cb.trace_mask & SQLITE_TRACE_PROFILE) != 0 && cb.trace_v2 != nullptr) {
    cb.trace_v2(SQLITE_TRACE_PROFILE, cb.trace_arg, s, &ns);
  }
}

// A Trace op of a trigger program (VmEnv::trace_fn): the comment goes to
// the statement tracer with the statement being stepped.
void TraceTriggerText(void* arg, const char* text) {
  sqlite3* db = static_cast<sqlite3*>(arg);
  const ApiCallbacks cb = db->cb;
  if ((cb.trace_mask & kLegacyTrace) != 0 && cb.trace_legacy != nullptr) {
    cb.trace_legacy(cb.trace_arg, text);
  } else if ((cb.trace_mask & SQLITE_TRACE_STMT) != 0 && cb.trace_v2 != nullptr &&
             db->stepping != nullptr) {
    cb.trace_v2(SQLITE_TRACE_STMT, cb.trace_arg, db->stepping, const_cast<char*>(text));
  }
}

// Points the VM's trace hook at TraceTriggerText while statements are traced.
void SyncTraceHook(sqlite3* db) {
  basalt::VmEnv* env = db->conn->env();
  const bool on = (db->cb.trace_mask & (kLegacyTrace | SQLITE_TRACE_STMT)) != 0;
  env->trace_fn = on ? &TraceTriggerText : nullptr;
  env->trace_arg = db;
}

void TraceClose(sqlite3* db) {
  const ApiCallbacks cb = db->cb;
  if ((cb.trace_mask & SQLITE_TRACE_CLOSE) != 0 && cb.trace_v2 != nullptr) {
    cb.trace_v2(SQLITE_TRACE_CLOSE, cb.trace_arg, db, nullptr);
  }
}

}  // namespace basalt::api

extern "C" {

int sqlite3_trace_v2(sqlite3* db, unsigned mask, int (*cb)(unsigned, void*, void*, void*),
                     void* arg) {
  if (!basalt::api::HasConnection(db)) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    if (mask == 0 || cb == nullptr) {
      mask = 0;
      cb = nullptr;
    }
    db->cb.trace_mask =
        mask & (SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE | SQLITE_TRACE_ROW | SQLITE_TRACE_CLOSE);
    db->cb.trace_v2 = cb;
    db->cb.trace_legacy = nullptr;
    db->cb.trace_arg = arg;
    basalt::api::SyncTraceHook(db);
    return SQLITE_OK;
  });
}

void* sqlite3_trace(sqlite3* db, void (*cb)(void*, const char*), void* arg) {
  if (!basalt::api::HasConnection(db)) return nullptr;
  return Guard(db, static_cast<void*>(nullptr), [&] {
    void* old = db->cb.trace_legacy != nullptr ? db->cb.trace_arg : nullptr;
    db->cb.trace_mask = cb != nullptr ? kLegacyTrace : 0;  // drops kLegacyProfile too
    db->cb.trace_legacy = cb;
    db->cb.trace_v2 = nullptr;
    db->cb.trace_arg = arg;
    basalt::api::SyncTraceHook(db);
    return old;
  });
}

void* sqlite3_profile(sqlite3* db, void (*cb)(void*, const char*, sqlite3_uint64), void* arg) {
  if (!basalt::api::HasConnection(db)) return nullptr;
  return Guard(db, static_cast<void*>(nullptr), [&] {
    void* old = db->cb.profile_arg;
    db->cb.profile = cb;
    db->cb.profile_arg = arg;
    db->cb.trace_mask &= ~(kLegacyTrace | kLegacyProfile);
    if (cb != nullptr) db->cb.trace_mask |= kLegacyProfile;
    basalt::api::SyncTraceHook(db);
    return old;
  });
}

char* sqlite3_expanded_sql(sqlite3_stmt* s) {
  if (s == nullptr) return nullptr;
  return Guard(s->db, static_cast<char*>(nullptr), [&]() -> char* {
    int64_t limit =
        s->db->conn != nullptr ? s->db->conn->limits().get(basalt::LimitId::kLength) : INT32_MAX;
    std::string out;
    if (!ExpandSql(s->stmt.get(), limit, &out)) return nullptr;
    return CopyOut(out);
  });
}

}  // extern "C"
