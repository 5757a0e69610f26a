// SQLite's printf engine (printf.in), shared by sqlite3_mprintf & co, the SQL
// printf()/format() function, and REAL-to-TEXT rendering.
//
// Conversions: d i u x X o c s q Q w z f e E g G p n r % (r: 1st 2nd 3rd...).
// Flags: - + space 0 # ! and ',' (thousands separator for d i u). Width and
// precision as digits or '*'; length modifiers l and ll (ignored for the SQL
// function, whose integers are always 64-bit). An unknown conversion ends the
// output at that point (what was produced before it is kept).
//
// Floating point reproduces SQLite 3.40 digit for digit: the value is scaled
// in x87 long double, at most 16 significant digits are produced (26 with the
// '!' flag) and the rest are '0'. "%!.15g" is the REAL-to-TEXT format.
//
// How SQL values map onto conversions (PrintfArgs, as SQLite's printf() does):
//   integer conversions (d i u x X o p r, '*' width/precision): the value as
//     sqlite3_value_int64 sees it: NULL → 0, REAL truncated, text '12abc' → 12;
//   f e E g G: as sqlite3_value_double: NULL → 0.0, text by numeric prefix;
//   s z: the text rendering; NULL → empty string;
//   q w: like s with quotes doubled, NULL → "(NULL)"; Q: quoted, NULL → NULL;
//   c: the first character of the text rendering (a NUL byte for NULL or '');
//   n: consumes nothing, prints nothing.
// Missing arguments behave like NULL.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace basalt {

// Where the SQL printf() function's arguments come from. Each Next* call
// consumes one argument.
class PrintfArgs {
 public:
  virtual ~PrintfArgs() = default;
  // sqlite3_value_int64 of the next argument; 0 when none is left.
  virtual int64_t NextInt64() = 0;
  // sqlite3_value_double of the next argument; 0.0 when none is left.
  virtual double NextDouble() = 0;
  // sqlite3_value_text of the next argument: false for NULL or when none is
  // left. The text stays valid until the formatting call returns; the engine
  // treats a NUL byte inside it as the end, as SQLite does.
  virtual bool NextText(std::string_view* text) = 0;
};

// Default cap on a formatted result (SQLITE_MAX_LENGTH).
inline constexpr size_t kPrintfMaxLength = 1000000000;

// Formats with C varargs (sqlite3_vmprintf). %z frees its argument with
// std::free after use; %n stores the output length so far into an int*.
// Returns false, leaving *out empty, if the result would need more than
// max_len - 1 bytes (SQLITE_TOOBIG).
bool SqlVAppendf(std::string* out, size_t max_len, const char* fmt, va_list ap);

// Convenience forms without a limit check beyond kPrintfMaxLength.
std::string SqlVPrintf(const char* fmt, va_list ap);
std::string SqlPrintf(const char* fmt, ...);

// sqlite3_vsnprintf: writes at most n-1 bytes plus a NUL into buf (nothing
// if n <= 0) and returns buf.
char* SqlVSnprintf(int n, char* buf, const char* fmt, va_list ap);
char* SqlSnprintf(int n, char* buf, const char* fmt, ...);

// The SQL printf()/format() function body: formats fmt with arguments from
// `args`, appending to *out. Returns false when SQLite's printf() returns
// NULL (not an error): the result would exceed max_len - 1 bytes (max_len
// being SQLITE_LIMIT_LENGTH; *out is then cleared), or nothing at all was
// emitted (an empty format, or one that starts with an unknown conversion).
bool SqlFormat(const char* fmt, PrintfArgs* args, size_t max_len, std::string* out);

// "%!.15g" of r: REAL-to-TEXT rendering ("1.0", "1.0e+20", "Inf", "-Inf",
// "0.0" for -0.0). buf must hold 32 bytes; returns the length (NUL written).
int FormatRealSql(double r, char* buf);

}  // namespace basalt
