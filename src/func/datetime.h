// The date/time model behind date(), time(), datetime(), julianday(),
// unixepoch() and strftime() (lang_datefunc), internal to src/func.
//
// A moment is held in up to three forms, each with a validity flag:
//   jd_ms   the Julian day number times 86 400 000 (milliseconds since
//           -4713-11-24 12:00:00), the canonical form;
//   Y M D   the proleptic Gregorian calendar date;
//   h m s   the time of day (s with fraction).
// Parsing fills whichever form the input gives; ComputeJd / ComputeYmd /
// ComputeHms derive one form from another. A bare number is first kept raw
// (raw_s) because the 'unixepoch' / 'julianday' / 'auto' modifiers may still
// reinterpret it. Valid moments lie in 0000-01-01 .. 9999-12-31 23:59:59.999
// (jd_ms 0 .. kMaxJdMs); anything outside makes the function return NULL.
#pragma once

#include <cstdint>

#include "func/func_internal.h"

namespace basalt::func {

inline constexpr int64_t kMsPerDay = 86400000;
// Largest valid jd_ms: 9999-12-31 23:59:59.999.
inline constexpr int64_t kMaxJdMs = 464269060799999;
// jd_ms of the Unix epoch 1970-01-01 00:00:00 (2440587.5 days).
inline constexpr int64_t kUnixEpochJdMs = 210866760000000;

struct DateTime {
  int64_t jd_ms = 0;
  int Y = 0, M = 0, D = 0;
  int h = 0, m = 0;
  int tz = 0;      // timezone offset in minutes, applied by ComputeJd
  double s = 0.0;  // seconds, or the raw number when raw_s
  bool valid_jd = false;
  bool raw_s = false;  // s holds an unconverted numeric time value
  bool valid_ymd = false;
  bool valid_hms = false;
  bool valid_tz = false;
  bool tz_set = false;  // the value is known to be UTC ('utc' is then a no-op)
  bool is_error = false;
};

// Derivations (SQLite's computeJD / computeYMD / computeHMS).
void ComputeJd(DateTime* p);
void ComputeYmd(DateTime* p);
void ComputeHms(DateTime* p);
inline void ComputeYmdHms(DateTime* p) {
  ComputeYmd(p);
  ComputeHms(p);
}
inline bool ValidJd(int64_t jd_ms) { return jd_ms >= 0 && jd_ms <= kMaxJdMs; }

// Builds the moment described by argv (time value then modifiers), the way
// every date/time function reads its arguments; argc == 0 means 'now'.
// Returns false when the result is NULL. May set an error on ctx
// ("local time unavailable").
bool ReadDateTime(FuncContext* ctx, int argc, Value** argv, DateTime* p);

}  // namespace basalt::func
