// JSON paths (json1.html "PATH arguments") as SQLite 3.40 reads them:
//
//   path    := '$' step*
//   step    := '.' key | '.' '"' any-but-quote* '"' | '[' index ']'
//   key     := one or more bytes up to the next '.' or '[' (or the end)
//   index   := digits | '#' | '#-' digits
//
// Particulars reproduced:
//   - a step is only checked once the value it applies to is known: a '.'
//     on a non-object, an index past the end, '#' on a non-array or '#-N'
//     beyond the start end the lookup with "not found" and the rest of the
//     path is never read (json_extract('[1]', '$.a[') is NULL, not an error);
//   - indices are unsigned 32-bit numbers that wrap;
//   - labels are compared with their JSON text, escapes not decoded
//     ('$.ab' does not find "a\u0062"); the first of duplicate labels wins;
//   - removed array elements are not counted; removed object members are
//     still found; a replaced value cannot be stepped into; an index into
//     an array that an earlier path of the same call appended to ends in
//     the last appended part (FindElement);
//   - json_set/json_insert create what is missing only when every missing
//     step is a label or [0] (or [#] / the index just past the end for the
//     first missing step).
#include <cstring>

#include "common/printf.h"
#include "func/json_internal.h"

namespace basalt::func::json {
namespace {

inline bool LabelEquals(const Node& label, const char* key, size_t klen) {
  if (label.flags & kRaw) return label.n == klen && std::memcmp(label.text, key, klen) == 0;
  return label.n == klen + 2 && std::memcmp(label.text + 1, key, klen) == 0;
}

}  // namespace

uint32_t JsonDoc::FindMember(uint32_t* obj, const char* key, size_t klen) const {
  for (uint32_t c = *obj;;) {
    const Node& o = at(c);
    for (uint32_t j = c + 1; j <= c + o.n; j += 1 + Size(j + 1)) {
      if (LabelEquals(at(j), key, klen)) return j + 1;
    }
    *obj = c;
    if (!(o.flags & kAppended)) return kNone;
    c = o.append;
  }
}

// Counts *index live elements down through the whole append chain; the
// element found is taken in the chain's last array (SQLite 3.40 walks on
// to the end of the chain even once the count has reached zero, so after
// json_set(.., '$[#]', ..) a later '$[0]' of the same call names the
// element that was appended).
uint32_t JsonDoc::FindElement(uint32_t* arr, uint32_t* index) const {
  for (uint32_t c = *arr;;) {
    const Node& a = at(c);
    uint32_t j = c + 1;
    while (j <= c + a.n && (*index > 0 || (at(j).flags & kRemoved))) {
      if (!(at(j).flags & kRemoved)) --*index;
      j += Size(j);
    }
    if (!(a.flags & kAppended)) {
      *arr = c;
      return j <= c + a.n ? j : kNone;
    }
    c = a.append;
  }
}

void JsonDoc::Link(uint32_t container, uint32_t start) {
  Node& c = at(container);
  BASALT_DCHECK(!(c.flags & kAppended));
  c.flags |= kAppended;
  c.append = start;
}

uint32_t JsonDoc::Lookup(std::string_view path, bool* appended, const char** err) {
  const char* p = path.data();
  const char* end = p + path.size();
  if (p == end || *p != '$') {
    *err = p;
    return kNone;
  }
  return LookupFrom(0, p + 1, end, appended, err);
}

uint32_t JsonDoc::LookupFrom(uint32_t root, const char* p, const char* end, bool* appended,
                             const char** err) {
  auto at_ = [&](size_t k) -> unsigned char {
    return p + k < end ? static_cast<unsigned char>(p[k]) : 0;
  };
  // What json_set/json_insert add is linked in only once the whole rest of
  // the path could be created (links_: container, added part).
  links_.clear();
  for (;;) {
    if (p == end) {
      for (const auto& [container, start] : links_) Link(container, start);
      return root;
    }
    if (at(root).flags & kReplaced) return kNone;
    if (*p == '.') {
      if (at(root).type != JType::kObject) return kNone;
      ++p;
      const char* key = p;
      const char* next;
      size_t klen;
      if (at_(0) == '"') {
        const char* q = p + 1;
        while (q < end && *q != '"') ++q;
        if (q == end) {
          *err = p;
          return kNone;
        }
        key = p + 1;
        klen = static_cast<size_t>(q - key);
        next = q + 1;
      } else {
        const char* q = p;
        while (q < end && *q != '.' && *q != '[') ++q;
        klen = static_cast<size_t>(q - p);
        if (klen == 0) {
          *err = p;
          return kNone;
        }
        next = q;
      }
      uint32_t obj = root;
      uint32_t found = FindMember(&obj, key, klen);
      p = next;
      if (found != kNone) {
        root = found;
        continue;
      }
      if (appended == nullptr) return kNone;
      uint32_t start = Add(JType::kObject, 2, nullptr);
      uint32_t label = Add(JType::kString, static_cast<uint32_t>(klen), key);
      at(label).flags |= kRaw | kLabel;
      links_.emplace_back(obj, start);
      root = AppendStep(p, end, appended);
      if (root == kNone) return kNone;
      continue;
    }
    if (*p != '[') {
      *err = p;
      return kNone;
    }
    uint32_t index = 0;
    size_t j = 1;
    while (IsAsciiDigit(at_(j))) index = index * 10 + (at_(j++) - '0');
    if (j < 2 || at_(j) != ']') {
      if (at_(1) != '#') {
        *err = p;
        return kNone;
      }
      if (at(root).type != JType::kArray) return kNone;
      uint32_t arr = root;
      index = UINT32_MAX;  // counts down from here past every live element
      (void)FindElement(&arr, &index);
      index = UINT32_MAX - index;
      j = 2;
      if (at_(2) == '-' && IsAsciiDigit(at_(3))) {
        uint32_t back = 0;
        for (j = 3; IsAsciiDigit(at_(j)); ++j) back = back * 10 + (at_(j) - '0');
        if (back > index) return kNone;
        index -= back;
      }
      if (at_(j) != ']') {
        *err = p;
        return kNone;
      }
    }
    if (at(root).type != JType::kArray) return kNone;
    p += j + 1;
    uint32_t arr = root;
    uint32_t found = FindElement(&arr, &index);
    if (found != kNone) {
      root = found;
      continue;
    }
    if (index != 0 || appended == nullptr) return kNone;
    uint32_t start = Add(JType::kArray, 1, nullptr);
    links_.emplace_back(arr, start);
    root = AppendStep(p, end, appended);
    if (root == kNone) return kNone;
  }
}

// The single node json_set/json_insert add after a label or element they
// created, for the rest of the path: the leaf (a null, replaced by the
// caller) when nothing follows, else an empty object or array for the next
// step to add to. kNone when the next step cannot be created (only a
// label or [0] can).
uint32_t JsonDoc::AppendStep(const char* rest, const char* end, bool* appended) {
  *appended = true;
  if (rest == end) return Add(JType::kNull, 0, nullptr);
  if (*rest == '.') return Add(JType::kObject, 0, nullptr);
  if (end - rest >= 3 && std::memcmp(rest, "[0]", 3) == 0) return Add(JType::kArray, 0, nullptr);
  return kNone;
}

void PathError(FuncContext* ctx, const char* at, size_t n) {
  std::string msg = "JSON path error near '";
  for (size_t k = 0; k < n; ++k) {
    if (at[k] == '\'') msg += '\'';
    msg += at[k];
  }
  msg += '\'';
  SetFuncError(ctx, msg);
}

uint32_t LookupArg(JsonDoc* doc, const Value& path, bool* appended, FuncContext* ctx,
                   bool* failed) {
  *failed = false;
  TextOf t(path);
  if (t.is_null()) return kNone;
  std::string_view p(t.data(), t.c_size());
  const char* err = nullptr;
  uint32_t found = doc->Lookup(p, appended, &err);
  if (err != nullptr) {
    PathError(ctx, err, static_cast<size_t>(p.data() + p.size() - err));
    *failed = true;
    return kNone;
  }
  return found;
}

}  // namespace basalt::func::json
