#include "record/collation_set.h"

#include <cstring>

#include "common/strings.h"

namespace basalt {

namespace {

thread_local CollationSet* tls_current = nullptr;

// What a deleted entry compares with (C1: it may still be referenced).
int CompareBinary(void*, int n1, const void* a, int n2, const void* b) {
  int n = n1 < n2 ? n1 : n2;
  int c = n > 0 ? std::memcmp(a, b, static_cast<size_t>(n)) : 0;
  return c != 0 ? c : n1 - n2;
}

void Release(Collation* c) {
  if (c->destroy != nullptr) c->destroy(c->arg);
  c->destroy = nullptr;
  c->arg = nullptr;
}

}  // namespace

CollationSet::~CollationSet() {
  for (auto& e : entries_) Release(&e->coll);  // C2
}

CollationSet::Entry* CollationSet::Lookup(std::string_view name, int enc) const {
  for (const auto& e : entries_) {
    if (e->enc == enc && EqualsIgnoreCase(e->name, name)) return e.get();
  }
  return nullptr;
}

bool CollationSet::Define(std::string_view name, int enc,
                          int (*compare)(void*, int, const void*, int, const void*), void* arg,
                          void (*destroy)(void*)) {
  Entry* e = Lookup(name, enc);
  bool changed = e != nullptr && e->live;
  if (e == nullptr) {
    if (compare == nullptr) return false;
    auto fresh = std::make_unique<Entry>();
    fresh->name = std::string(name);
    fresh->enc = enc;
    e = fresh.get();
    entries_.push_back(std::move(fresh));
  } else {
    Release(&e->coll);  // C2: the replaced one
  }
  e->coll.name = e->name.c_str();
  e->coll.compare = compare != nullptr ? compare : CompareBinary;
  e->coll.arg = arg;
  e->coll.destroy = destroy;
  e->live = compare != nullptr;
  return changed;
}

const Collation* CollationSet::Find(std::string_view name) const {
  for (int enc = 1; enc <= 3; ++enc) {  // C3
    Entry* e = Lookup(name, enc);
    if (e != nullptr && e->live) return &e->coll;
  }
  return nullptr;
}

CollationScope::CollationScope(CollationSet* set) : prev_(tls_current) { tls_current = set; }
CollationScope::~CollationScope() { tls_current = prev_; }

const Collation* FindCollation(std::string_view name) {
  if (const Collation* c = FindBuiltinCollation(name)) return c;
  CollationSet* set = tls_current;
  if (set == nullptr) return nullptr;
  if (const Collation* c = set->Find(name)) return c;
  if (!set->needed) return nullptr;
  set->needed(name);
  return set->Find(name);
}

}  // namespace basalt
