// Helpers shared by the function families: UTF-8 reading the way SQLite
// reads it, sqlite3_value_numeric_type(), case-insensitive names.
#include "func/func_internal.h"

namespace basalt::func {

uint32_t ReadUtf8(const unsigned char** p, const unsigned char* end) {
  const unsigned char* z = *p;
  uint32_t c = *z++;
  if (c >= 0xc0) {
    // Payload bits of the lead byte: 5 for 110xxxxx, 4 for 1110xxxx, 3 for
    // 11110xxx, then 2, 1 and 0 for the (invalid) longer lead bytes.
    if (c < 0xe0) {
      c -= 0xc0;
    } else if (c < 0xf0) {
      c -= 0xe0;
    } else if (c < 0xf8) {
      c -= 0xf0;
    } else if (c < 0xfc) {
      c -= 0xf8;
    } else if (c < 0xfe) {
      c -= 0xfc;
    } else {
      c = 0;
    }
    while (z < end && (*z & 0xc0) == 0x80) c = (c << 6) + (*z++ & 0x3f);
    if (c < 0x80 || (c & 0xfffff800) == 0xd800 || (c & 0xfffffffe) == 0xfffe) c = 0xfffd;
  }
  *p = z;
  return c;
}

Type NumericType(const Value& v, int64_t* i, double* r) {
  switch (v.type()) {
    case Type::kInteger:
      *i = v.int_value();
      return Type::kInteger;
    case Type::kReal:
      *r = v.real_value();
      return Type::kReal;
    case Type::kText:
      switch (ParseNumericText(v.data(), v.size(), i, r)) {
        case 1:
          return Type::kInteger;
        case 2:
          return Type::kReal;
        default:
          return Type::kText;
      }
    default:
      return v.type();
  }
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (AsciiLower(static_cast<unsigned char>(a[k])) !=
        AsciiLower(static_cast<unsigned char>(b[k]))) {
      return false;
    }
  }
  return true;
}

}  // namespace basalt::func
