// The bounded mode of the sorter (ORDER BY ... LIMIT k): a max-heap of the k
// smallest rows seen so far under (key, arrival number). A new row that is
// not smaller than the heap's largest is dropped before it is copied; a
// smaller one replaces it. Ties on the key are ranked by arrival, so a later
// row never displaces an earlier equal one: the kept rows are exactly the
// first k rows of the unbounded stable sort.
#include <algorithm>
#include <cstring>

#include "common/coding.h"
#include "exec/sorter.h"
#include "record/value_ops.h"

namespace basalt {

bool Sorter::RankLess(const Ranked& a, const Ranked& b) {
  int c = CompareEntries(a.e, b.e, &add_status_);
  return c < 0 || (c == 0 && a.seq < b.seq);
}

void Sorter::AddBounded(const uint8_t* rec, uint32_t n) {
  auto less = [this](const Ranked& x, const Ranked& y) { return RankLess(x, y); };
  uint64_t seq = seq_++;
  if (heap_.size() < bound_) {
    heap_.push_back(Ranked{MakeEntry(Store(rec, n), n), seq});
    std::push_heap(heap_.begin(), heap_.end(), less);
    live_bytes_ += n;
    return;
  }
  // The candidate's entry points into rec itself: it is compared before it
  // is stored. Its arrival is later than every kept row's, so a tie loses.
  Entry cand = MakeEntry(rec, n);
  if (CompareEntries(cand, heap_.front().e, &add_status_) >= 0) return;
  std::pop_heap(heap_.begin(), heap_.end(), less);
  live_bytes_ -= heap_.back().e.size;
  heap_.back() = Ranked{MakeEntry(Store(rec, n), n), seq};
  std::push_heap(heap_.begin(), heap_.end(), less);
  live_bytes_ += n;
  // Evicted rows stay in the chunks until they outweigh the kept ones.
  if (stored_bytes_ > 2 * live_bytes_ + (size_t{1} << 20)) CompactBounded();
}

bool Sorter::WouldDrop(const Value* key, int n) {
  if (bound_ == 0 || heap_.size() < bound_) return false;
  const KeyInfo& ki = *key_info_;
  const Entry& top = heap_.front().e;
  // The usual case: an integer first key against an integer.
  if (n > 0 && key[0].type() == Type::kInteger && static_cast<Type>(top.type) == Type::kInteger) {
    int64_t a = key[0].int_value();
    if (a != top.i) return (a > top.i) != (ki.desc && ki.desc[0]);
    if (n == 1) return true;
  }
  const uint8_t* rec = top.data;
  uint32_t h = 0;
  int hn = GetVarint32(rec, &h);
  uint32_t hdr = static_cast<uint32_t>(hn), body = h;
  for (int i = 0; i < n && i < ki.n_fields; ++i) {
    if (hdr >= h) return false;  // a short record: keep the row (Add decides)
    uint32_t st;
    hdr += static_cast<uint32_t>(GetVarint32(rec + hdr, &st));
    uint32_t sz = SerialTypeLen(st);
    if (body + sz > top.size) return false;
    Value v;
    DecodeSerial(rec + body, st, &v, true);
    body += sz;
    int c = CompareValues(key[i], v, ki.colls ? ki.colls[i] : nullptr);
    if (c != 0) return (c > 0) != (ki.desc && ki.desc[i]);
  }
  return true;  // equal keys: the earlier row wins
}

void Sorter::CompactBounded() {
  std::vector<Chunk> old;
  old.swap(chunks_);  // freed on return, after every kept row is copied
  chunk_idx_ = 0;
  chunk_used_ = 0;
  stored_bytes_ = 0;
  for (Ranked& r : heap_) {
    const uint8_t* from = r.e.data;
    uint8_t* to = Store(from, r.e.size);
    Type t = static_cast<Type>(r.e.type);
    if (t == Type::kText || t == Type::kBlob) {
      r.e.z = reinterpret_cast<const char*>(to) + (r.e.z - reinterpret_cast<const char*>(from));
    }
    r.e.data = to;
  }
}

}  // namespace basalt
