// Rendering of result values as text, exactly as the reference sqllogictest
// harness does it through the C API:
//   NULL            "NULL"
//   'T' column      the text; "" becomes "(empty)"; every byte below ' ' or
//                   above '~' becomes '@'
//   'I' column      printf("%d") of the 32-bit sqlite3_column_int
//   'R' column      "%.3f" of sqlite3_column_double as SQLite's own printf
//                   formats it (see AppendSqliteFixed)
// Every Append* function appends to a caller's buffer and allocates nothing
// else.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace basalt::slt {

inline constexpr std::string_view kNullText = "NULL";
inline constexpr std::string_view kEmptyText = "(empty)";

// Appends text with the '@' substitution, or "(empty)" for "".
void AppendText(std::string_view text, std::string* out);

// Appends a 32-bit integer in decimal.
void AppendInt(int32_t value, std::string* out);

// Appends value with `precision` digits after the point, the way SQLite's
// printf("%.*f") does (3.43 and later): the decimal expansion of the double is
// rounded half away from zero at the last printed place, but never to more
// than 16 significant digits; places beyond the 16th print as '0'. Hence
// -9223372036854775808.0 gives "-9223372036854776000.000". Infinities print
// as "Inf" / "-Inf", NaN as "NaN", and -0.0 as 0. precision: 0..40.
void AppendSqliteFixed(double value, int precision, std::string* out);

// The 'R' rendering: AppendSqliteFixed with 3 places.
inline void AppendReal(double value, std::string* out) { AppendSqliteFixed(value, 3, out); }

}  // namespace basalt::slt
