// The date/time SQL functions: date, time, datetime, julianday, unixepoch,
// strftime, current_date, current_time, current_timestamp (lang_datefunc),
// and the per-step clock behind 'now'.
#include <chrono>
#include <cstdio>
#include <string>

#include "common/printf.h"
#include "func/builtins.h"
#include "func/datetime.h"

namespace basalt {

namespace {
thread_local StepClock* g_step_clock = nullptr;

int64_t SystemUnixTimeMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}
}  // namespace

StepClock::StepClock() : prev_(g_step_clock) { g_step_clock = this; }
StepClock::~StepClock() { g_step_clock = prev_; }

int64_t CurrentUnixTimeMs() {
  StepClock* c = g_step_clock;
  if (c == nullptr) return SystemUnixTimeMs();
  if (c->ms_ == 0) c->ms_ = SystemUnixTimeMs();
  return c->ms_;
}

namespace func {
namespace {

// Writes two digits of v (0..99) at out.
inline void Put2(char* out, int v) {
  out[0] = static_cast<char>('0' + (v / 10) % 10);
  out[1] = static_cast<char>('0' + v % 10);
}

// YYYY-MM-DD with a '-' in front of negative years (always four digits).
size_t FormatDate(const DateTime& x, char* out) {
  size_t n = 0;
  int y = x.Y < 0 ? -x.Y : x.Y;
  if (x.Y < 0) out[n++] = '-';
  Put2(out + n, y / 100);
  Put2(out + n + 2, y % 100);
  out[n + 4] = '-';
  Put2(out + n + 5, x.M);
  out[n + 7] = '-';
  Put2(out + n + 8, x.D);
  return n + 10;
}

// HH:MM:SS (seconds truncated).
size_t FormatTime(const DateTime& x, char* out) {
  Put2(out, x.h);
  out[2] = ':';
  Put2(out + 3, x.m);
  out[5] = ':';
  Put2(out + 6, static_cast<int>(x.s));
  return 8;
}

void DateFunc(FuncContext* ctx, int argc, Value** argv) {
  DateTime x;
  if (!ReadDateTime(ctx, argc, argv, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeYmd(&x);
  char buf[16];
  size_t n = FormatDate(x, buf);
  ctx->result->SetText(std::string_view(buf, n));
}

void TimeFunc(FuncContext* ctx, int argc, Value** argv) {
  DateTime x;
  if (!ReadDateTime(ctx, argc, argv, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeHms(&x);
  char buf[16];
  size_t n = FormatTime(x, buf);
  ctx->result->SetText(std::string_view(buf, n));
}

void DatetimeFunc(FuncContext* ctx, int argc, Value** argv) {
  DateTime x;
  if (!ReadDateTime(ctx, argc, argv, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeYmdHms(&x);
  char buf[32];
  size_t n = FormatDate(x, buf);
  buf[n++] = ' ';
  n += FormatTime(x, buf + n);
  ctx->result->SetText(std::string_view(buf, n));
}

void JuliandayFunc(FuncContext* ctx, int argc, Value** argv) {
  DateTime x;
  if (!ReadDateTime(ctx, argc, argv, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeJd(&x);
  ResultReal(ctx, static_cast<double>(x.jd_ms) / 86400000.0);
}

void UnixepochFunc(FuncContext* ctx, int argc, Value** argv) {
  DateTime x;
  if (!ReadDateTime(ctx, argc, argv, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeJd(&x);
  ctx->result->SetInt(x.jd_ms / 1000 - 21086676 * int64_t{10000});
}

// strftime(FORMAT, time-value, modifiers...): %d %f %H %j %J %m %M %s %S %w
// %W %Y %%; any other conversion (or a trailing '%') makes the result NULL.
void StrftimeFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc == 0) {
    ctx->result->SetNull();
    return;
  }
  TextOf fmt_text(*argv[0]);
  DateTime x;
  if (fmt_text.is_null() || !ReadDateTime(ctx, argc - 1, argv + 1, &x)) {
    ctx->result->SetNull();
    return;
  }
  ComputeJd(&x);
  ComputeYmdHms(&x);
  thread_local std::string out;
  out.clear();
  const char* f = fmt_text.data();
  size_t fn = fmt_text.c_size();
  char buf[64];
  size_t lit = 0;  // start of the pending literal run
  for (size_t i = 0; i < fn; ++i) {
    if (f[i] != '%') continue;
    out.append(f + lit, i - lit);
    ++i;
    lit = i + 1;
    char conv = i < fn ? f[i] : '\0';
    int len = 0;
    switch (conv) {
      case 'd':
        len = std::snprintf(buf, sizeof buf, "%02d", x.D);
        break;
      case 'f': {
        double s = x.s > 59.999 ? 59.999 : x.s;
        SqlSnprintf(sizeof buf, buf, "%06.3f", s);
        len = static_cast<int>(std::strlen(buf));
        break;
      }
      case 'H':
        len = std::snprintf(buf, sizeof buf, "%02d", x.h);
        break;
      case 'W':
      case 'j': {
        DateTime y = x;
        y.valid_jd = false;
        y.M = 1;
        y.D = 1;
        ComputeJd(&y);
        int days = static_cast<int>((x.jd_ms - y.jd_ms + 43200000) / kMsPerDay);
        if (conv == 'W') {
          int wd = static_cast<int>(((x.jd_ms + 43200000) / kMsPerDay) % 7);  // 0 = Monday
          len = std::snprintf(buf, sizeof buf, "%02d", (days + 7 - wd) / 7);
        } else {
          len = std::snprintf(buf, sizeof buf, "%03d", days + 1);
        }
        break;
      }
      case 'J':
        SqlSnprintf(sizeof buf, buf, "%.16g", static_cast<double>(x.jd_ms) / 86400000.0);
        len = static_cast<int>(std::strlen(buf));
        break;
      case 'm':
        len = std::snprintf(buf, sizeof buf, "%02d", x.M);
        break;
      case 'M':
        len = std::snprintf(buf, sizeof buf, "%02d", x.m);
        break;
      case 's':
        len = std::snprintf(buf, sizeof buf, "%lld",
                            static_cast<long long>(x.jd_ms / 1000 - 21086676 * int64_t{10000}));
        break;
      case 'S':
        len = std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(x.s));
        break;
      case 'w':
        buf[0] = static_cast<char>('0' + ((x.jd_ms + 129600000) / kMsPerDay) % 7);
        len = 1;
        break;
      case 'Y':
        len = std::snprintf(buf, sizeof buf, "%04d", x.Y);
        break;
      case '%':
        buf[0] = '%';
        len = 1;
        break;
      default:
        ctx->result->SetNull();
        return;
    }
    out.append(buf, static_cast<size_t>(len));
  }
  if (lit < fn) out.append(f + lit, fn - lit);
  if (static_cast<int64_t>(out.size()) >= MaxLength(ctx)) {
    ResultTooBig(ctx);
    return;
  }
  ctx->result->SetText(out);
}

void CurrentDateFunc(FuncContext* ctx, int, Value**) { DateFunc(ctx, 0, nullptr); }
void CurrentTimeFunc(FuncContext* ctx, int, Value**) { TimeFunc(ctx, 0, nullptr); }
void CurrentTimestampFunc(FuncContext* ctx, int, Value**) { DatetimeFunc(ctx, 0, nullptr); }

constexpr BuiltinSpec kTable[] = {
    Scalar("date", -1, kPure, DateFunc),
    Scalar("time", -1, kPure, TimeFunc),
    Scalar("datetime", -1, kPure, DatetimeFunc),
    Scalar("julianday", -1, kPure, JuliandayFunc),
    Scalar("unixepoch", -1, kPure, UnixepochFunc),
    Scalar("strftime", -1, kPure, StrftimeFunc),
    Scalar("current_date", 0, kImpure, CurrentDateFunc),
    Scalar("current_time", 0, kImpure, CurrentTimeFunc),
    Scalar("current_timestamp", 0, kImpure, CurrentTimestampFunc),
};

}  // namespace

std::span<const BuiltinSpec> DateTimeFunctions() { return kTable; }

}  // namespace func
}  // namespace basalt
