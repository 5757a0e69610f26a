// CompareValues: the total order of SQL values (datatype3 section 4.1).
#include <cmath>
#include <cstring>

#include "record/value_ops.h"

namespace basalt {

namespace {

// Exact comparison of an int64 with a double (no rounding of either).
int CompareIntReal(int64_t i, double r) {
  if (std::isnan(r)) return 0;  // SQLite's long double comparison says "equal"
  if (r < -9223372036854775808.0) return 1;
  if (r >= 9223372036854775808.0) return -1;
  // r is within the int64 range: compare integer parts, then the fraction.
  double t = std::trunc(r);
  int64_t ri = static_cast<int64_t>(t);
  if (i < ri) return -1;
  if (i > ri) return 1;
  if (r > t) return -1;
  if (r < t) return 1;
  return 0;
}

int CompareNumbers(const Value& a, const Value& b) {
  if (a.is_int()) {
    if (b.is_int()) return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
    return CompareIntReal(a.int_value(), b.real_value());
  }
  if (b.is_int()) return -CompareIntReal(b.int_value(), a.real_value());
  double x = a.real_value(), y = b.real_value();
  if (x < y) return -1;
  if (x > y) return 1;
  return 0;
}

// Rank of a storage class in the sort order.
inline int ClassRank(Type t) {
  switch (t) {
    case Type::kNull:
      return 0;
    case Type::kInteger:
    case Type::kReal:
      return 1;
    case Type::kText:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

int CompareValuesSlow(const Value& a, const Value& b, const Collation* coll) {
  int ra = ClassRank(a.type()), rb = ClassRank(b.type());
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return CompareNumbers(a, b);
    case 2:
      if (coll != nullptr && coll != BinaryCollation()) {
        return coll->compare(coll->arg, static_cast<int>(a.size()), a.data(),
                             static_cast<int>(b.size()), b.data());
      }
      [[fallthrough]];
    default: {
      uint32_t n = a.size() < b.size() ? a.size() : b.size();
      int rc = n ? std::memcmp(a.data(), b.data(), n) : 0;
      if (rc != 0) return rc;
      return a.size() < b.size() ? -1 : a.size() > b.size();
    }
  }
}

}  // namespace basalt
