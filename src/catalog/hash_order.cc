#include "catalog/hash_order.h"

#include "common/assert.h"
#include "common/strings.h"

namespace basalt {

uint32_t HashOrder::Hash(std::string_view name) {
  uint32_t h = 0;
  for (unsigned char c : name) {
    h += (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
    h *= 0x9e3779b1u;
  }
  return h;
}

int HashOrder::Find(std::string_view name) const {
  for (int e = first_; e != kNone; e = entries_[static_cast<size_t>(e)].next) {
    if (EqualsIgnoreCase(entries_[static_cast<size_t>(e)].key, name)) return e;
  }
  return kNone;
}

void HashOrder::Link(int e, Bucket* b) {
  Entry& n = entries_[static_cast<size_t>(e)];
  int head = kNone;
  if (b != nullptr) {
    head = b->count > 0 ? b->chain : kNone;
    ++b->count;
    b->chain = e;
  }
  if (head != kNone) {
    // Just before the bucket's first entry.
    Entry& h = entries_[static_cast<size_t>(head)];
    n.next = head;
    n.prev = h.prev;
    if (h.prev != kNone) {
      entries_[static_cast<size_t>(h.prev)].next = e;
    } else {
      first_ = e;
    }
    h.prev = e;
  } else {
    n.next = first_;
    n.prev = kNone;
    if (first_ != kNone) entries_[static_cast<size_t>(first_)].prev = e;
    first_ = e;
  }
}

void HashOrder::Rehash(uint32_t buckets) {
  if (buckets > kMaxBuckets) buckets = kMaxBuckets;
  if (buckets == buckets_.size()) return;
  buckets_.assign(buckets, Bucket{});
  int e = first_;
  first_ = kNone;
  while (e != kNone) {
    int next = entries_[static_cast<size_t>(e)].next;
    Link(e, &buckets_[Hash(entries_[static_cast<size_t>(e)].key) % buckets]);
    e = next;
  }
}

void HashOrder::Insert(std::string_view name, const void* value) {
  if (int e = Find(name); e != kNone) {
    entries_[static_cast<size_t>(e)].value = value;
    return;
  }
  int e;
  if (!free_.empty()) {
    e = free_.back();
    free_.pop_back();
  } else {
    e = static_cast<int>(entries_.size());
    entries_.emplace_back();
  }
  Entry& n = entries_[static_cast<size_t>(e)];
  n.key.assign(name);
  n.value = value;
  ++count_;
  if (count_ >= 10 && count_ > 2 * buckets_.size()) Rehash(static_cast<uint32_t>(count_ * 2));
  Bucket* b = buckets_.empty() ? nullptr : &buckets_[Hash(name) % buckets_.size()];
  Link(e, b);
}

void HashOrder::Remove(std::string_view name) {
  const int e = Find(name);
  if (e == kNone) return;
  Entry& n = entries_[static_cast<size_t>(e)];
  if (n.prev != kNone) {
    entries_[static_cast<size_t>(n.prev)].next = n.next;
  } else {
    first_ = n.next;
  }
  if (n.next != kNone) entries_[static_cast<size_t>(n.next)].prev = n.prev;
  if (!buckets_.empty()) {
    Bucket& b = buckets_[Hash(name) % buckets_.size()];
    BASALT_DCHECK(b.count > 0);
    if (b.chain == e) b.chain = n.next;
    --b.count;
  }
  n = Entry{};
  free_.push_back(e);
  if (--count_ == 0) Clear();
}

void HashOrder::Clear() {
  entries_.clear();
  free_.clear();
  buckets_.clear();
  first_ = kNone;
  count_ = 0;
}

std::vector<const void*> HashOrder::Values() const {
  std::vector<const void*> out;
  out.reserve(count_);
  for (int e = first_; e != kNone; e = entries_[static_cast<size_t>(e)].next) {
    out.push_back(entries_[static_cast<size_t>(e)].value);
  }
  return out;
}

}  // namespace basalt
