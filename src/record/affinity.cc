#include "record/affinity.h"

#include <cstring>

#include "record/numeric_text.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// Case-insensitive search for an upper-case ASCII needle.
bool ContainsNoCase(std::string_view hay, const char* needle) {
  size_t n = std::strlen(needle);
  if (hay.size() < n) return false;
  for (size_t i = 0; i + n <= hay.size(); ++i) {
    size_t j = 0;
    while (j < n) {
      char c = hay[i + j];
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      if (c != needle[j]) break;
      ++j;
    }
    if (j == n) return true;
  }
  return false;
}

// A REAL that holds an integer strictly between the int64 limits becomes
// INTEGER (SQLite excludes the limits themselves).
void RealToIntIfExact(Value* v) {
  double r = v->real_value();
  int64_t i = RealToInt64Saturating(r);
  if (r == static_cast<double>(i) && i > INT64_MIN && i < INT64_MAX) v->SetInt(i);
}

// NUMERIC affinity on a TEXT value: only text that is entirely a number
// changes.
void TextToNumeric(Value* v) {
  int64_t i;
  double r;
  int kind = ParseNumericText(v->data(), v->size(), &i, &r);
  if (kind == 1) {
    v->SetInt(i);
  } else if (kind == 2) {
    v->SetReal(r);
    RealToIntIfExact(v);
  }
}

}  // namespace

Affinity AffinityFromDeclType(std::string_view decl) {
  if (ContainsNoCase(decl, "INT")) return Affinity::kInteger;
  if (ContainsNoCase(decl, "CHAR") || ContainsNoCase(decl, "CLOB") || ContainsNoCase(decl, "TEXT"))
    return Affinity::kText;
  if (ContainsNoCase(decl, "BLOB") || decl.empty()) return Affinity::kBlob;
  if (ContainsNoCase(decl, "REAL") || ContainsNoCase(decl, "FLOA") || ContainsNoCase(decl, "DOUB"))
    return Affinity::kReal;
  return Affinity::kNumeric;
}

void ApplyAffinity(Value* v, Affinity aff) {
  switch (aff) {
    case Affinity::kBlob:
      return;
    case Affinity::kText:
      if (v->is_numeric()) Stringify(v);
      return;
    case Affinity::kNumeric:
    case Affinity::kInteger:
    case Affinity::kReal:
      break;
  }
  switch (v->type()) {
    case Type::kReal:
      if (aff != Affinity::kReal) RealToIntIfExact(v);
      return;
    case Type::kText:
      TextToNumeric(v);
      if (aff == Affinity::kReal && v->is_int()) v->SetReal(static_cast<double>(v->int_value()));
      return;
    case Type::kInteger:
      if (aff == Affinity::kReal) v->SetReal(static_cast<double>(v->int_value()));
      return;
    default:
      return;
  }
}

Affinity ComparisonAffinity(Affinity left, Affinity right) {
  if (IsNumericAffinity(left) || IsNumericAffinity(right)) return Affinity::kNumeric;
  if (left == Affinity::kText || right == Affinity::kText) return Affinity::kText;
  return Affinity::kBlob;
}

void CastValue(Value* v, Affinity aff) {
  switch (v->type()) {
    case Type::kNull:
      return;
    case Type::kInteger:
    case Type::kReal:
      switch (aff) {
        case Affinity::kInteger:
          if (v->is_real()) v->SetInt(RealToInt64Saturating(v->real_value()));
          return;
        case Affinity::kReal:
          if (v->is_int()) v->SetReal(static_cast<double>(v->int_value()));
          return;
        case Affinity::kNumeric:
          return;  // numbers keep their storage class, reals included
        case Affinity::kText:
          Stringify(v);
          return;
        case Affinity::kBlob:
          Stringify(v);
          v->RetagStringLike(Type::kBlob);
          return;
      }
      return;
    case Type::kText:
    case Type::kBlob:
      break;
  }
  // TEXT or BLOB.
  switch (aff) {
    case Affinity::kInteger:
      v->SetInt(ValueToInt64(*v));
      return;
    case Affinity::kReal:
      v->SetReal(ValueToDouble(*v));
      return;
    case Affinity::kNumeric: {
      double r;
      int kind = ScanReal(v->data(), v->size(), &r);
      int64_t i = 0;
      if ((kind == kRealNotNumber || kind == kRealPureInteger) &&
          ScanInt64(v->data(), v->size(), &i) <= kIntTrailing) {
        v->SetInt(i);
      } else if (RealIsSmallInt(r, RealToInt64Trunc(r))) {
        v->SetInt(RealToInt64Trunc(r));
      } else {
        v->SetReal(r);
      }
      return;
    }
    case Affinity::kText:
      v->RetagStringLike(Type::kText);
      return;
    case Affinity::kBlob:
      v->RetagStringLike(Type::kBlob);
      return;
  }
}

}  // namespace basalt
