// Arbitrary-precision decimal text arithmetic as the sqlite3 3.40.1 shell
// offers it: decimal(X), decimal_add/sub/mul(X,Y), decimal_cmp(X,Y), the
// aggregate and window decimal_sum(X), the collation decimal; and the
// collation uint (runs of digits compare as unsigned integers).
//
// A Decimal is sign + digits (most significant first) of which the last
// `frac` follow the decimal point. Invariant: 0 <= frac <= digits.size().
// Parsing follows the reference's lenient reading of the value's text:
// leading spaces, one sign, leading zeros dropped; every '.' moves the point
// to after the digits read so far; other characters are skipped; an 'e'
// introduces the exponent (its non-digits skipped) and ends the number.
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell_ext.h"

namespace shell {
namespace {

struct Decimal {
  bool neg = false;
  bool null = false;
  std::vector<signed char> d;
  int frac = 0;
  int Whole() const { return static_cast<int>(d.size()) - frac; }
};

Decimal Parse(const unsigned char* z, int n) {
  Decimal r;
  int i = 0;
  while (i < n && std::isspace(z[i])) ++i;
  if (i < n && z[i] == '-') {
    r.neg = true;
    ++i;
  } else if (i < n && z[i] == '+') {
    ++i;
  }
  while (i < n && z[i] == '0') ++i;
  int point = 0;  // digits before the last '.' plus one; 0: no point
  long exp = 0;
  for (; i < n; ++i) {
    const unsigned char c = z[i];
    if (c >= '0' && c <= '9') {
      r.d.push_back(static_cast<signed char>(c - '0'));
    } else if (c == '.') {
      point = static_cast<int>(r.d.size()) + 1;
    } else if (c == 'e' || c == 'E') {
      int j = i + 1;
      if (j >= n) break;
      bool eneg = false;
      if (z[j] == '-') {
        eneg = true;
        ++j;
      } else if (z[j] == '+') {
        ++j;
      }
      for (; j < n && exp < 1000000; ++j) {
        if (z[j] >= '0' && z[j] <= '9') exp = exp * 10 + (z[j] - '0');
      }
      if (eneg) exp = -exp;
      break;
    }
  }
  if (point) r.frac = static_cast<int>(r.d.size()) - (point - 1);
  if (exp > 0) {
    const long shift = exp <= r.frac ? exp : r.frac;
    r.frac -= static_cast<int>(shift);
    r.d.insert(r.d.end(), static_cast<size_t>(exp - shift), 0);
  } else if (exp < 0) {
    long e = -exp;
    const int spare = static_cast<int>(r.d.size()) - r.frac - 1;  // whole digits but one
    if (spare != 0) {
      if (spare >= e) {
        r.frac += static_cast<int>(e);
        e = 0;
      } else {
        e -= spare;
        r.frac = static_cast<int>(r.d.size()) - 1;
      }
    }
    if (e > 0) {
      r.d.insert(r.d.begin(), static_cast<size_t>(e), 0);
      r.frac += static_cast<int>(e);
    }
  }
  return r;
}

Decimal FromValue(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    Decimal r;
    r.null = true;
    return r;
  }
  const unsigned char* z = sqlite3_value_text(v);
  return Parse(z, z ? sqlite3_value_bytes(v) : 0);
}

void Result(sqlite3_context* ctx, const Decimal& p) {
  if (p.null) {
    sqlite3_result_null(ctx);
    return;
  }
  std::string z;
  const bool zero = p.d.empty() || (p.d.size() == 1 && p.d[0] == 0);
  if (p.neg && !zero) z += '-';
  int n = p.Whole();
  if (n <= 0) z += '0';
  size_t j = 0;
  while (n > 1 && p.d[j] == 0) {
    ++j;
    --n;
  }
  for (; n > 0; --n) z += static_cast<char>('0' + p.d[j++]);
  if (p.frac) {
    z += '.';
    while (j < p.d.size()) z += static_cast<char>('0' + p.d[j++]);
  }
  sqlite3_result_text(ctx, z.c_str(), static_cast<int>(z.size()), SQLITE_TRANSIENT);
}

// Widens p to `digits` digits of which `frac` are fractional (zeros added).
void Expand(Decimal* p, int digits, int frac) {
  const int add_frac = frac - p->frac;
  const int add_whole = digits - static_cast<int>(p->d.size()) - add_frac;
  p->d.insert(p->d.begin(), static_cast<size_t>(add_whole), 0);
  p->d.insert(p->d.end(), static_cast<size_t>(add_frac), 0);
  p->frac = frac;
}

void Add(Decimal* a, Decimal b) {
  if (a->null || b.null) {
    a->null = true;
    return;
  }
  int whole = a->Whole();
  if (whole && a->d[0] == 0) --whole;
  if (whole < b.Whole()) whole = b.Whole();
  const int frac = a->frac > b.frac ? a->frac : b.frac;
  const int digits = whole + frac + 1;
  Expand(a, digits, frac);
  Expand(&b, digits, frac);
  if (a->neg == b.neg) {
    int carry = 0;
    for (int i = digits - 1; i >= 0; --i) {
      const int x = a->d[i] + b.d[i] + carry;
      a->d[i] = static_cast<signed char>(x % 10);
      carry = x / 10;
    }
    return;
  }
  const int rc = std::memcmp(a->d.data(), b.d.data(), static_cast<size_t>(digits));
  std::vector<signed char> big = a->d, small = b.d;
  if (rc < 0) {
    std::swap(big, small);
    a->neg = !a->neg;
  }
  int borrow = 0;
  for (int i = digits - 1; i >= 0; --i) {
    int x = big[i] - small[i] - borrow;
    borrow = x < 0;
    if (x < 0) x += 10;
    a->d[i] = static_cast<signed char>(x);
  }
}

int Compare(const Decimal* a, const Decimal* b) {
  if (a->neg != b->neg) return a->neg ? -1 : 1;
  if (a->neg) std::swap(a, b);
  if (a->Whole() != b->Whole()) return a->Whole() - b->Whole();
  const size_t n = a->d.size() < b->d.size() ? a->d.size() : b->d.size();
  const int rc = std::memcmp(a->d.data(), b->d.data(), n);
  if (rc != 0) return rc;
  return static_cast<int>(a->d.size()) - static_cast<int>(b->d.size());
}

void DecimalFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Result(ctx, FromValue(argv[0]));
}

void AddFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Decimal a = FromValue(argv[0]);
  Decimal b = FromValue(argv[1]);
  if (sqlite3_user_data(ctx) != nullptr) b.neg = !b.neg;  // decimal_sub
  Add(&a, b);
  Result(ctx, a);
}

void MulFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Decimal a = FromValue(argv[0]);
  const Decimal b = FromValue(argv[1]);
  if (a.null || b.null) return;
  const int min_frac = a.frac < b.frac ? a.frac : b.frac;
  const size_t na = a.d.size(), nb = b.d.size();
  std::vector<signed char> acc(na + nb + 2, 0);
  for (size_t i = na; i-- > 0;) {
    const int f = a.d[i];
    int carry = 0;
    size_t k = i + nb + 2;  // acc position of a[i] * b[last]
    for (size_t j = nb; j-- > 0; --k) {
      const int x = acc[k] + f * b.d[j] + carry;
      acc[k] = static_cast<signed char>(x % 10);
      carry = x / 10;
    }
    const int x = acc[k] + carry;
    acc[k] = static_cast<signed char>(x % 10);
    acc[k - 1] = static_cast<signed char>(acc[k - 1] + x / 10);
  }
  a.d = std::move(acc);
  a.frac += b.frac;
  a.neg = a.neg != b.neg;
  while (a.frac > min_frac && a.d.back() == 0) {
    a.d.pop_back();
    --a.frac;
  }
  Result(ctx, a);
}

void CmpFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const Decimal a = FromValue(argv[0]);
  const Decimal b = FromValue(argv[1]);
  if (a.null || b.null) return;
  const int rc = Compare(&a, &b);
  sqlite3_result_int(ctx, rc < 0 ? -1 : rc > 0 ? 1 : 0);
}

// decimal_sum keeps a heap Decimal in its aggregate context (a pointer).
Decimal* SumState(sqlite3_context* ctx, bool create) {
  auto** slot =
      static_cast<Decimal**>(sqlite3_aggregate_context(ctx, create ? sizeof(Decimal*) : 0));
  if (slot == nullptr) return nullptr;
  if (*slot == nullptr && create) {
    *slot = new Decimal();
    (*slot)->d.assign(1, 0);
  }
  return *slot;
}

void SumStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Decimal* s = SumState(ctx, true);
  if (s == nullptr || sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  Add(s, FromValue(argv[0]));
}

void SumInverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  Decimal* s = SumState(ctx, true);
  if (s == nullptr || sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  Decimal v = FromValue(argv[0]);
  v.neg = !v.neg;
  Add(s, v);
}

void SumValue(sqlite3_context* ctx) {
  if (Decimal* s = SumState(ctx, false)) Result(ctx, *s);
}

void SumFinal(sqlite3_context* ctx) {
  Decimal* s = SumState(ctx, false);
  if (s == nullptr) return;
  Result(ctx, *s);
  delete s;
}

int DecimalCollate(void*, int n1, const void* k1, int n2, const void* k2) {
  const Decimal a = Parse(static_cast<const unsigned char*>(k1), n1);
  const Decimal b = Parse(static_cast<const unsigned char*>(k2), n2);
  return Compare(&a, &b);
}

int UintCollate(void*, int n1, const void* k1, int n2, const void* k2) {
  const auto* a = static_cast<const unsigned char*>(k1);
  const auto* b = static_cast<const unsigned char*>(k2);
  int i = 0, j = 0;
  while (i < n1 && j < n2) {
    const int x = a[i] - b[j];
    if (!std::isdigit(a[i])) {
      if (x) return x;
      ++i;
      ++j;
      continue;
    }
    if (!std::isdigit(b[j])) return x;
    while (i < n1 && a[i] == '0') ++i;
    while (j < n2 && b[j] == '0') ++j;
    int k = 0;
    while (i + k < n1 && std::isdigit(a[i + k]) && j + k < n2 && std::isdigit(b[j + k])) ++k;
    if (i + k < n1 && std::isdigit(a[i + k])) return 1;
    if (j + k < n2 && std::isdigit(b[j + k])) return -1;
    const int rc = std::memcmp(a + i, b + j, static_cast<size_t>(k));
    if (rc) return rc;
    i += k;
    j += k;
  }
  return (n1 - i) - (n2 - j);
}

}  // namespace

void RegisterDecimal(sqlite3* db) {
  static int sub = 1;
  const int f = SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC;
  sqlite3_create_function(db, "decimal", 1, f, nullptr, DecimalFunc, nullptr, nullptr);
  sqlite3_create_function(db, "decimal_cmp", 2, f, nullptr, CmpFunc, nullptr, nullptr);
  sqlite3_create_function(db, "decimal_add", 2, f, nullptr, AddFunc, nullptr, nullptr);
  sqlite3_create_function(db, "decimal_sub", 2, f, &sub, AddFunc, nullptr, nullptr);
  sqlite3_create_function(db, "decimal_mul", 2, f, nullptr, MulFunc, nullptr, nullptr);
  sqlite3_create_window_function(db, "decimal_sum", 1, f, nullptr, SumStep, SumFinal, SumValue,
                                 SumInverse, nullptr);
  sqlite3_create_collation(db, "decimal", SQLITE_UTF8, nullptr, DecimalCollate);
  sqlite3_create_collation(db, "uint", SQLITE_UTF8, nullptr, UintCollate);
}

}  // namespace shell
