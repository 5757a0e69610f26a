// Date/time parsing, calendar arithmetic and modifiers (lang_datefunc), as
// SQLite 3.40.1 performs them. The arithmetic deliberately mirrors SQLite's
// integer and floating-point steps (C truncating division, the same
// constants, float-typed limits), since results are compared bit for bit.
//
// Time values (ReadDateTime, first argument):
//   YYYY-MM-DD, optionally followed by spaces/'T' and a time; HH:MM[:SS[.F*]]
//   with an optional [+-]HH:MM or Z suffix; 'now'; or a number (a Julian day
//   number unless 'unixepoch' or 'auto' follows). A leading '-' negates the
//   year. Anything else is NULL.
// Modifiers, applied left to right; an unknown one makes the result NULL:
//   NNN days|hours|minutes|seconds|months|years (trailing 's' optional),
//   [+-]HH:MM[:SS[.F*]], start of day|month|year, weekday N, unixepoch,
//   julianday and auto (only as the first modifier), localtime, utc.
#include <ctime>
#include <string>

#include "func/builtins.h"
#include "func/datetime.h"

namespace basalt::func {
namespace {

void SetError(DateTime* p) {
  *p = DateTime{};
  p->is_error = true;
}

void ClearYmdHmsTz(DateTime* p) {
  p->valid_ymd = false;
  p->valid_hms = false;
  p->valid_tz = false;
}

// sqlite3AtoF(z, n) > 0: the whole range is a number (spaces allowed).
bool WholeNumber(const char* z, size_t n, double* r) {
  int64_t i = 0;
  switch (ParseNumericText(z, n, &i, r)) {
    case 1:
      *r = static_cast<double>(i);
      return true;
    case 2:
      return true;
    default:
      return false;
  }
}

// One fixed-width group of digits at z: `width` digits whose value lies in
// [lo, hi], followed by `next` (unless next is 0). Callers test the groups
// left to right, so a failed group never lets a later one read past the end.
bool Digits(const char* z, int width, int lo, int hi, char next, int* out) {
  int v = 0;
  for (int k = 0; k < width; ++k) {
    if (!IsAsciiDigit(static_cast<unsigned char>(z[k]))) return false;
    v = v * 10 + (z[k] - '0');
  }
  if (v < lo || v > hi || (next != 0 && z[width] != next)) return false;
  *out = v;
  return true;
}

// [+-]HH:MM or Z (or nothing) at z, then only spaces. Returns false on
// anything else.
bool ParseTimezone(const char* z, DateTime* p) {
  while (IsAsciiSpace(static_cast<unsigned char>(*z))) ++z;
  p->tz = 0;
  int sign = 0;
  char c = *z;
  if (c == '-') {
    sign = -1;
  } else if (c == '+') {
    sign = 1;
  } else if (c == 'Z' || c == 'z') {
    ++z;
  } else {
    return c == 0;
  }
  if (sign != 0) {
    ++z;
    int hr, mn;
    if (!Digits(z, 2, 0, 14, ':', &hr) || !Digits(z + 3, 2, 0, 59, 0, &mn)) return false;
    z += 5;
    p->tz = sign * (mn + hr * 60);
  }
  while (IsAsciiSpace(static_cast<unsigned char>(*z))) ++z;
  p->tz_set = true;
  return *z == 0;
}

// HH:MM[:SS[.FFF...]] followed by an optional timezone.
bool ParseHms(const char* z, DateTime* p) {
  int h, m, s = 0;
  double frac = 0.0;
  if (!Digits(z, 2, 0, 24, ':', &h) || !Digits(z + 3, 2, 0, 59, 0, &m)) return false;
  z += 5;
  if (*z == ':') {
    ++z;
    if (!Digits(z, 2, 0, 59, 0, &s)) return false;
    z += 2;
    if (*z == '.' && IsAsciiDigit(static_cast<unsigned char>(z[1]))) {
      double scale = 1.0;
      ++z;
      while (IsAsciiDigit(static_cast<unsigned char>(*z))) {
        frac = frac * 10.0 + (*z - '0');
        scale *= 10.0;
        ++z;
      }
      frac /= scale;
    }
  }
  p->valid_jd = false;
  p->raw_s = false;
  p->valid_hms = true;
  p->h = h;
  p->m = m;
  p->s = s + frac;
  if (!ParseTimezone(z, p)) return false;
  p->valid_tz = p->tz != 0;
  return true;
}

// [-]YYYY-MM-DD, then optionally spaces/'T's and a time.
bool ParseYmd(const char* z, DateTime* p) {
  bool neg = false;
  if (z[0] == '-') {
    ++z;
    neg = true;
  }
  int Y, M, D;
  if (!Digits(z, 4, 0, 9999, '-', &Y) || !Digits(z + 5, 2, 1, 12, '-', &M) ||
      !Digits(z + 8, 2, 1, 31, 0, &D)) {
    return false;
  }
  z += 10;
  while (IsAsciiSpace(static_cast<unsigned char>(*z)) || *z == 'T') ++z;
  if (ParseHms(z, p)) {
    // date and time
  } else if (*z == 0) {
    p->valid_hms = false;
  } else {
    return false;
  }
  p->valid_jd = false;
  p->valid_ymd = true;
  p->Y = neg ? -Y : Y;
  p->M = M;
  p->D = D;
  if (p->valid_tz) ComputeJd(p);
  return true;
}

void SetRawNumber(DateTime* p, double r) {
  p->s = r;
  p->raw_s = true;
  if (r >= 0.0 && r < 5373484.5) {
    p->jd_ms = static_cast<int64_t>(r * 86400000.0 + 0.5);
    p->valid_jd = true;
  }
}

// A call that reads the clock or the time zone where that is refused (a
// generated column): sets the error and returns true.
bool ImpureUse(FuncContext* ctx) {
  if (ctx->pure_context == nullptr) return false;
  SetFuncError(ctx, "non-deterministic use of " + ctx->def->name + "() in " + ctx->pure_context);
  return true;
}

void SetNow(DateTime* p) {
  p->jd_ms = CurrentUnixTimeMs() + kUnixEpochJdMs;
  p->valid_jd = true;
}

bool ParseTimeValue(const char* z, DateTime* p) {
  if (ParseYmd(z, p)) return true;
  if (ParseHms(z, p)) return true;
  if (EqualsNoCase(z, "now")) {
    SetNow(p);
    return true;
  }
  double r;
  if (WholeNumber(z, std::strlen(z), &r)) {
    SetRawNumber(p, r);
    return true;
  }
  return false;
}

// UTC → local time through localtime_r. Outside 1970-01-01 .. 2038-01-18 the
// year is first mapped to one in 2000..2003 with the same leap-year phase and
// mapped back afterwards.
bool ToLocaltime(DateTime* p, FuncContext* ctx) {
  ComputeJd(p);
  int64_t t;
  int year_diff = 0;
  if (p->jd_ms < 2108667600 * int64_t{100000} || p->jd_ms > 2130141456 * int64_t{100000}) {
    DateTime x = *p;
    ComputeYmdHms(&x);
    year_diff = (2000 + x.Y % 4) - x.Y;
    x.Y += year_diff;
    x.valid_jd = false;
    ComputeJd(&x);
    t = x.jd_ms / 1000 - 21086676 * int64_t{10000};
  } else {
    t = p->jd_ms / 1000 - 21086676 * int64_t{10000};
  }
  time_t tt = static_cast<time_t>(t);
  struct tm local {};
  if (localtime_r(&tt, &local) == nullptr) {
    SetFuncError(ctx, "local time unavailable");
    return false;
  }
  p->Y = local.tm_year + 1900 - year_diff;
  p->M = local.tm_mon + 1;
  p->D = local.tm_mday;
  p->h = local.tm_hour;
  p->m = local.tm_min;
  p->s = local.tm_sec + static_cast<double>(p->jd_ms % 1000) * 0.001;
  p->valid_ymd = true;
  p->valid_hms = true;
  p->valid_jd = false;
  p->raw_s = false;
  p->valid_tz = false;
  p->is_error = false;
  return true;
}

// Local time → UTC: search for the UTC instant whose local rendering is the
// current value (at most four rounds, as SQLite does). A no-op once the value
// is known to be UTC (an explicit timezone, 'Z', or an earlier 'utc').
// SQLite 3.40 keeps the per-round error in a 32-bit int, so a huge error
// (a probe before 0000-01-01, where toLocaltime falls back to year 0) wraps;
// the referee's results for such inputs are only reproduced with the same
// truncation.
bool ToUtc(DateTime* p, FuncContext* ctx) {
  if (p->tz_set) return true;
  ComputeJd(p);
  int64_t orig = p->jd_ms;
  int64_t guess = orig;
  int32_t err = 0;
  int rounds = 0;
  do {
    DateTime probe;
    guess -= err;
    probe.jd_ms = guess;
    probe.valid_jd = true;
    if (!ToLocaltime(&probe, ctx)) return false;
    ComputeJd(&probe);
    err = static_cast<int32_t>(probe.jd_ms - orig);
  } while (err != 0 && rounds++ < 3);
  *p = DateTime{};
  p->jd_ms = guess;
  p->valid_jd = true;
  p->tz_set = true;
  return true;
}

// The "NNN unit" transforms: name, the largest magnitude accepted, and the
// seconds per unit. The limits are single-precision values in SQLite, so
// they are kept as float here to compare identically.
struct Xform {
  const char* name;
  size_t len;
  float limit;
  float seconds;
};
constexpr Xform kXforms[] = {
    {"second", 6, 4.6427e+14f, 1.0f},    {"minute", 6, 7.7379e+12f, 60.0f},
    {"hour", 4, 1.2897e+11f, 3600.0f},   {"day", 3, 5373485.0f, 86400.0f},
    {"month", 5, 176546.0f, 2592000.0f}, {"year", 4, 14713.0f, 31536000.0f},
};

bool StartsWithNoCase(const char* z, std::string_view prefix) {
  for (size_t k = 0; k < prefix.size(); ++k) {
    if (z[k] == 0 || AsciiLower(static_cast<unsigned char>(z[k])) !=
                         AsciiLower(static_cast<unsigned char>(prefix[k]))) {
      return false;
    }
  }
  return true;
}

// Normalises p->M into 1..12, carrying into p->Y.
void NormalizeMonth(DateTime* p) {
  int x = p->M > 0 ? (p->M - 1) / 12 : (p->M - 12) / 12;
  p->Y += x;
  p->M -= x * 12;
}

// Numeric modifiers: "[+-]HH:MM[:SS.F]" and "NNN unit".
bool ApplyNumericModifier(const char* z, DateTime* p) {
  size_t n = 1;
  while (z[n] != 0 && z[n] != ':' && !IsAsciiSpace(static_cast<unsigned char>(z[n]))) ++n;
  double r;
  if (!WholeNumber(z, n, &r)) return false;
  if (z[n] == ':') {
    const char* t = z;
    if (!IsAsciiDigit(static_cast<unsigned char>(*t))) ++t;
    DateTime tx;
    if (!ParseHms(t, &tx)) return false;
    ComputeJd(&tx);
    tx.jd_ms -= 43200000;
    int64_t day = tx.jd_ms / kMsPerDay;
    tx.jd_ms -= day * kMsPerDay;
    if (z[0] == '-') tx.jd_ms = -tx.jd_ms;
    ComputeJd(p);
    ClearYmdHmsTz(p);
    p->jd_ms += tx.jd_ms;
    return true;
  }
  z += n;
  while (IsAsciiSpace(static_cast<unsigned char>(*z))) ++z;
  size_t len = std::strlen(z);
  if (len > 10 || len < 3) return false;
  if (AsciiLower(static_cast<unsigned char>(z[len - 1])) == 's') --len;
  ComputeJd(p);
  bool ok = false;
  double rounder = r < 0 ? -0.5 : 0.5;
  for (size_t k = 0; k < std::size(kXforms); ++k) {
    const Xform& x = kXforms[k];
    if (x.len == len && StartsWithNoCase(z, std::string_view(x.name, len)) &&
        r > -static_cast<double>(x.limit) && r < static_cast<double>(x.limit)) {
      if (k == 4) {  // months: calendar arithmetic on the whole part
        ComputeYmdHms(p);
        p->M += static_cast<int>(r);
        NormalizeMonth(p);
        p->valid_jd = false;
        r -= static_cast<int>(r);
      } else if (k == 5) {  // years
        ComputeYmdHms(p);
        p->Y += static_cast<int>(r);
        p->valid_jd = false;
        r -= static_cast<int>(r);
      }
      ComputeJd(p);
      p->jd_ms += static_cast<int64_t>(r * 1000.0 * static_cast<double>(x.seconds) + rounder);
      ok = true;
      break;
    }
  }
  ClearYmdHmsTz(p);
  return ok;
}

// Applies modifier z (the idx-th argument, 1-based) to p. Returns false when
// the modifier is unknown or does not apply, which makes the result NULL;
// *failed_hard is set when an error was raised on ctx.
bool ApplyModifier(FuncContext* ctx, const char* z, DateTime* p, int idx, bool* failed_hard) {
  switch (AsciiLower(static_cast<unsigned char>(z[0]))) {
    case 'a':
      if (EqualsNoCase(z, "auto")) {
        if (idx > 1) return false;
        if (!p->raw_s || p->valid_jd) {
          p->raw_s = false;
          return true;
        }
        if (p->s >= -21086676 * int64_t{10000} && p->s <= 25340230 * int64_t{10000} + 799) {
          double r = p->s * 1000.0 + 210866760000000.0;
          ClearYmdHmsTz(p);
          p->jd_ms = static_cast<int64_t>(r + 0.5);
          p->valid_jd = true;
          p->raw_s = false;
          return true;
        }
      }
      return false;
    case 'j':
      if (EqualsNoCase(z, "julianday")) {
        if (idx > 1) return false;
        if (p->valid_jd && p->raw_s) {
          p->raw_s = false;
          return true;
        }
      }
      return false;
    case 'l':
      if (EqualsNoCase(z, "localtime")) {
        if (ImpureUse(ctx) || !ToLocaltime(p, ctx)) {
          *failed_hard = true;
          return false;
        }
        return true;
      }
      return false;
    case 'u':
      if (EqualsNoCase(z, "unixepoch") && p->raw_s) {
        if (idx > 1) return false;
        double r = p->s * 1000.0 + 210866760000000.0;
        if (r >= 0.0 && r < 464269060800000.0) {
          ClearYmdHmsTz(p);
          p->jd_ms = static_cast<int64_t>(r + 0.5);
          p->valid_jd = true;
          p->raw_s = false;
          return true;
        }
        return false;
      }
      if (EqualsNoCase(z, "utc")) {
        if (ImpureUse(ctx) || !ToUtc(p, ctx)) {
          *failed_hard = true;
          return false;
        }
        return true;
      }
      return false;
    case 'w': {
      double r;
      if (!StartsWithNoCase(z, "weekday ") || !WholeNumber(z + 8, std::strlen(z + 8), &r)) {
        return false;
      }
      int n = static_cast<int>(r);
      if (n != r || n < 0 || r >= 7) return false;
      ComputeYmdHms(p);
      p->valid_tz = false;
      p->valid_jd = false;
      ComputeJd(p);
      int64_t wd = ((p->jd_ms + 129600000) / kMsPerDay) % 7;
      if (wd > n) wd -= 7;
      p->jd_ms += (n - wd) * kMsPerDay;
      ClearYmdHmsTz(p);
      return true;
    }
    case 's': {
      if (!StartsWithNoCase(z, "start of ")) return false;
      if (!p->valid_jd && !p->valid_ymd && !p->valid_hms) return false;
      const char* unit = z + 9;
      ComputeYmd(p);
      p->valid_hms = true;
      p->h = p->m = 0;
      p->s = 0.0;
      p->raw_s = false;
      p->valid_tz = false;
      p->valid_jd = false;
      if (EqualsNoCase(unit, "month")) {
        p->D = 1;
        return true;
      }
      if (EqualsNoCase(unit, "year")) {
        p->M = 1;
        p->D = 1;
        return true;
      }
      return EqualsNoCase(unit, "day");
    }
    case '+':
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      return ApplyNumericModifier(z, p);
    default:
      return false;
  }
}

// A NUL-terminated copy of an argument's text, cut at its first NUL (what
// sqlite3_value_text shows C code). Short strings stay on the stack.
class CText {
 public:
  explicit CText(const Value& v) : t_(v) {
    if (t_.is_null()) return;
    size_t n = t_.c_size();
    if (n < sizeof small_) {
      std::memcpy(small_, t_.data(), n);
      small_[n] = 0;
      z_ = small_;
    } else {
      big_.assign(t_.data(), n);
      z_ = big_.c_str();
    }
  }
  const char* get() const { return z_; }  // null for SQL NULL

 private:
  TextOf t_;
  char small_[96];
  std::string big_;
  const char* z_ = nullptr;
};

}  // namespace

void ComputeJd(DateTime* p) {
  if (p->valid_jd) return;
  int Y, M, D;
  if (p->valid_ymd) {
    Y = p->Y;
    M = p->M;
    D = p->D;
  } else {
    Y = 2000;
    M = 1;
    D = 1;
  }
  if (Y < -4713 || Y > 9999 || p->raw_s) {
    SetError(p);
    return;
  }
  if (M <= 2) {
    --Y;
    M += 12;
  }
  int A = Y / 100;
  int B = 2 - A + (A / 4);
  int X1 = 36525 * (Y + 4716) / 100;
  int X2 = 306001 * (M + 1) / 10000;
  p->jd_ms = static_cast<int64_t>((X1 + X2 + D + B - 1524.5) * 86400000);
  p->valid_jd = true;
  if (p->valid_hms) {
    p->jd_ms += p->h * 3600000 + p->m * 60000 + static_cast<int64_t>(p->s * 1000 + 0.5);
    if (p->valid_tz) {
      p->jd_ms -= p->tz * 60000;
      p->valid_ymd = false;
      p->valid_hms = false;
      p->valid_tz = false;
    }
  }
}

void ComputeYmd(DateTime* p) {
  if (p->valid_ymd) return;
  if (!p->valid_jd) {
    p->Y = 2000;
    p->M = 1;
    p->D = 1;
  } else if (!ValidJd(p->jd_ms)) {
    SetError(p);
    return;
  } else {
    int Z = static_cast<int>((p->jd_ms + 43200000) / kMsPerDay);
    int A = static_cast<int>((Z - 1867216.25) / 36524.25);
    A = Z + 1 + A - (A / 4);
    int B = A + 1524;
    int C = static_cast<int>((B - 122.1) / 365.25);
    int D = (36525 * (C & 32767)) / 100;
    int E = static_cast<int>((B - D) / 30.6001);
    int X1 = static_cast<int>(30.6001 * E);
    p->D = B - D - X1;
    p->M = E < 14 ? E - 1 : E - 13;
    p->Y = p->M > 2 ? C - 4716 : C - 4715;
  }
  p->valid_ymd = true;
}

void ComputeHms(DateTime* p) {
  if (p->valid_hms) return;
  ComputeJd(p);
  int s = static_cast<int>((p->jd_ms + 43200000) % kMsPerDay);
  p->s = s / 1000.0;
  s = static_cast<int>(p->s);
  p->s -= s;
  p->h = s / 3600;
  s -= p->h * 3600;
  p->m = s / 60;
  p->s += s - p->m * 60;
  p->raw_s = false;
  p->valid_hms = true;
}

bool ReadDateTime(FuncContext* ctx, int argc, Value** argv, DateTime* p) {
  *p = DateTime{};
  if (argc == 0) {
    if (ImpureUse(ctx)) return false;
    SetNow(p);
  } else if (argv[0]->is_numeric()) {
    SetRawNumber(p, ValueToDouble(*argv[0]));
  } else {
    CText z(*argv[0]);
    if (z.get() != nullptr && EqualsNoCase(z.get(), "now") && ImpureUse(ctx)) return false;
    if (z.get() == nullptr || !ParseTimeValue(z.get(), p)) return false;
  }
  for (int k = 1; k < argc; ++k) {
    CText z(*argv[k]);
    bool failed_hard = false;
    if (z.get() == nullptr || !ApplyModifier(ctx, z.get(), p, k, &failed_hard)) return false;
  }
  ComputeJd(p);
  return !p->is_error && ValidJd(p->jd_ms);
}

}  // namespace basalt::func
