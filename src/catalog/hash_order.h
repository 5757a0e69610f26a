// The iteration order of SQLite's hash table of names, reproduced.
//
// SQLite lists a schema's tables (PRAGMA table_list, foreign_key_check and
// integrity_check without an argument) by walking its hash of table names.
// That walk follows one linked list of entries, whose order depends on the
// names, on the order they were added and removed, and on when the table
// was resized. To list tables as SQLite does, HashOrder replays the same
// list operations on the names alone; lookups stay in Schema's own maps.
//
// The rules, as SQLite 3.40 documents and behaves:
// - names hash case-insensitively: h = (h + lower(byte)) * 0x9e3779b1 over
//   the bytes, in 32 bits;
// - below 10 entries there are no buckets and a new entry goes first;
// - once there are 10 entries or more and more than twice as many entries as
//   buckets, the buckets are rebuilt with twice the entry count (at most 64
//   buckets) by re-adding every entry in list order;
// - with buckets, a new entry goes just before the first entry of its
//   bucket, or first in the list if the bucket is empty;
// - removing the last entry drops the buckets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace basalt {

class HashOrder {
 public:
  // Adds `name`; if it is present, its place is kept and its value replaced.
  void Insert(std::string_view name, const void* value);
  void Remove(std::string_view name);
  void Clear();
  // The values in SQLite's iteration order.
  std::vector<const void*> Values() const;
  size_t size() const { return count_; }

 private:
  static constexpr int kNone = -1;
  static constexpr uint32_t kMaxBuckets = 64;  // SQLite's 1 KiB bucket array limit
  struct Entry {
    std::string key;  // as added (compared and hashed ignoring ASCII case)
    const void* value = nullptr;
    int prev = kNone, next = kNone;
  };
  struct Bucket {
    uint32_t count = 0;
    int chain = kNone;  // first entry of the bucket in the list
  };

  static uint32_t Hash(std::string_view name);
  int Find(std::string_view name) const;
  // Links entry e into the list (and bucket b unless it is null).
  void Link(int e, Bucket* b);
  void Rehash(uint32_t buckets);

  std::vector<Entry> entries_;  // slots; removed ones are reused
  std::vector<int> free_;
  std::vector<Bucket> buckets_;
  int first_ = kNone;
  size_t count_ = 0;
};

}  // namespace basalt
