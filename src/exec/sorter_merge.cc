// The spilling half of the sorter (sorter.h): writing runs and merging them.
//
// The merge is a winner tree over the sources: sources 0..n-1 are file runs
// in arrival order and, when the sorter still holds rows in memory, source
// n is entries_ (the newest rows). Each internal node holds the better of
// its two children: the smaller row, or on a tie the lower source (the
// earlier arrival), which keeps the merge stable. Advancing the winner
// replays only its path to the root: log2(sources) comparisons a row.
#include <algorithm>
#include <cstring>

#include "exec/sorter.h"

namespace basalt {

namespace {
// At most this many runs are merged at once; more are first merged in
// groups into longer runs. The read buffers of one merge share kMergeBuffers
// bytes (4 to 16 KiB each).
constexpr size_t kMaxFanIn = 512;
constexpr size_t kMergeBuffers = size_t{1} << 20;
size_t ReadBuffer(size_t runs) {
  return std::clamp<size_t>(kMergeBuffers / std::max<size_t>(runs, 1), 4096, 16384);
}
}  // namespace

struct Sorter::Merge {
  Sorter* s;
  std::vector<RunReader> readers;
  bool mem = false;    // source readers.size() is entries_[mem_pos..]
  size_t mem_pos = 0;  // next entry of the memory source
  std::vector<Entry> cur;
  std::vector<uint8_t> live;  // cur[i] holds a row
  std::vector<int> tree;      // 1-based; the leaf of source i is tree[leaf0 + i]
  size_t leaf0 = 1;
  Status status;  // a comparison's error

  explicit Merge(Sorter* sorter) : s(sorter) {}
  size_t sources() const { return readers.size() + (mem ? 1 : 0); }

  // Loads source i's next row into cur[i] (or marks it exhausted).
  Status Advance(size_t i) {
    if (i < readers.size()) {
      bool more = false;
      TRY(readers[i].Next(&more));
      live[i] = more;
      if (more) cur[i] = s->MakeEntry(readers[i].rec(), readers[i].size());
      return Status();
    }
    live[i] = mem_pos < s->entries_.size();
    if (live[i]) cur[i] = s->entries_[mem_pos++];
    return Status();
  }
  int Better(int a, int b) {
    if (a < 0) return b;
    if (b < 0) return a;
    // a < b: on a tie the earlier source wins.
    return s->CompareEntries(cur[static_cast<size_t>(a)], cur[static_cast<size_t>(b)], &status) <= 0
               ? a
               : b;
  }
  // Loads every source's first row and builds the tree.
  Status Start() {
    size_t n = sources();
    cur.resize(n);
    live.assign(n, 0);
    for (size_t i = 0; i < n; ++i) TRY(Advance(i));
    leaf0 = 1;
    while (leaf0 < n) leaf0 *= 2;
    tree.assign(2 * leaf0, -1);
    for (size_t i = 0; i < n; ++i) tree[leaf0 + i] = live[i] ? static_cast<int>(i) : -1;
    for (size_t k = leaf0 - 1; k >= 1; --k) tree[k] = Better(tree[2 * k], tree[2 * k + 1]);
    return status;
  }
  int winner() const { return tree[1]; }
  // Moves the winning source on and replays its path.
  Status Step() {
    size_t w = static_cast<size_t>(tree[1]);
    TRY(Advance(w));
    size_t k = leaf0 + w;
    tree[k] = live[w] ? static_cast<int>(w) : -1;
    for (k /= 2; k >= 1; k /= 2) tree[k] = Better(tree[2 * k], tree[2 * k + 1]);
    return status;
  }
};

// Here, where Merge is complete.
Sorter::Sorter(const KeyInfo* key_info) : key_info_(key_info) {}
Sorter::~Sorter() = default;

void Sorter::ReleaseAll() {
  merge_.reset();
  merge_row_ = nullptr;
  merge_size_ = 0;
  runs_.clear();
  file_.reset();
  file_end_ = 0;
  decltype(entries_)().swap(entries_);
  std::vector<Chunk>().swap(chunks_);
  chunk_idx_ = 0;
  chunk_used_ = 0;
  pos_ = 0;
  mem_ = 0;
}

Status Sorter::Spill() {
  if (file_ == nullptr) {
    if (vfs_ == nullptr || !OpenSorterTempFile(vfs_, &file_).ok()) {
      // No temporary file to be had: keep every row in memory instead.
      file_.reset();
      budget_ = 0;
      return Status();
    }
  }
  TRY(SortEntries());
  RunWriter w(file_.get(), file_end_);
  for (const Entry& e : entries_) TRY(w.Put(e.data, e.size));
  TRY(w.Flush());
  runs_.push_back(SortRun{file_end_, w.offset()});
  file_end_ = w.offset();
  entries_.clear();  // keeps its capacity for the next batch
  chunk_idx_ = 0;
  chunk_used_ = 0;
  mem_ = 0;
  return Status();
}

Status Sorter::MergeRuns(size_t first, size_t n) {
  Merge m(this);
  for (size_t i = 0; i < n; ++i) {
    m.readers.emplace_back(file_.get(), runs_[first + i], ReadBuffer(n));
  }
  TRY(m.Start());
  RunWriter w(file_.get(), file_end_);
  while (m.winner() >= 0) {
    const Entry& e = m.cur[static_cast<size_t>(m.winner())];
    TRY(w.Put(e.data, e.size));
    TRY(m.Step());
  }
  TRY(w.Flush());
  runs_[first] = SortRun{file_end_, w.offset()};
  file_end_ = w.offset();
  runs_.erase(runs_.begin() + static_cast<ptrdiff_t>(first + 1),
              runs_.begin() + static_cast<ptrdiff_t>(first + n));
  return Status();
}

Status Sorter::StartMerge() {
  // Passes over all runs, each merging groups of kMaxFanIn neighbours, until
  // one merge can take them all (with the memory source).
  while (runs_.size() + 1 > kMaxFanIn) {
    for (size_t first = 0; first < runs_.size(); ++first) {
      size_t n = std::min(kMaxFanIn, runs_.size() - first);
      if (n > 1) TRY(MergeRuns(first, n));
    }
  }
  merge_ = std::make_unique<Merge>(this);
  for (const SortRun& r : runs_) {
    merge_->readers.emplace_back(file_.get(), r, ReadBuffer(runs_.size()));
  }
  merge_->mem = !entries_.empty();
  TRY(merge_->Start());
  int w = merge_->winner();
  merge_row_ = w < 0 ? nullptr : merge_->cur[static_cast<size_t>(w)].data;
  merge_size_ = w < 0 ? 0 : merge_->cur[static_cast<size_t>(w)].size;
  return Status();
}

Status Sorter::MergeNext() {
  if (merge_row_ == nullptr) return Status();
  TRY(merge_->Step());
  int w = merge_->winner();
  merge_row_ = w < 0 ? nullptr : merge_->cur[static_cast<size_t>(w)].data;
  merge_size_ = w < 0 ? 0 : merge_->cur[static_cast<size_t>(w)].size;
  return Status();
}

}  // namespace basalt
