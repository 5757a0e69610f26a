#include "corrupt_mutate.h"

#include <cstdio>
#include <random>
#include <vector>

namespace basalt::testing {
namespace {

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The image being damaged, with just enough of the file format to aim at
// page headers, cell pointers, cells and page-number fields.
class Mutator {
 public:
  Mutator(std::string bytes, uint32_t page_size, uint64_t seed)
      : b_(std::move(bytes)), ps_(page_size), rng_(seed) {}

  Mutation Run() {
    auto kind = MutationKind(Pick(int(MutationKind::kCount)));
    if (kind == MutationKind::kCombined) {
      int n = 2 + Pick(3);
      for (int i = 0; i < n; ++i) {
        auto k = MutationKind(Pick(int(MutationKind::kNotADatabase)));
        if (k == MutationKind::kTruncate && i + 1 < n) k = MutationKind::kRandomBytes;
        Apply(k);
      }
    } else {
      Apply(kind);
    }
    return Mutation{std::move(b_), what_};
  }

 private:
  int Pick(int n) { return n <= 0 ? 0 : int(rng_() % uint64_t(n)); }
  uint32_t Pages() const { return uint32_t(b_.size() / ps_); }
  size_t PageOff(uint32_t p) const { return size_t(p - 1) * ps_; }
  static uint32_t HdrOff(uint32_t p) { return p == 1 ? 100 : 0; }
  uint32_t Get16(size_t at) const { return uint32_t(uint8_t(b_[at])) << 8 | uint8_t(b_[at + 1]); }
  void Put16(size_t at, uint32_t v) {
    b_[at] = char(v >> 8);
    b_[at + 1] = char(v);
  }
  void Put32(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b_[at + i] = char(v >> (24 - 8 * i));
  }
  void Note(const std::string& s) { what_ += (what_.empty() ? "" : "; ") + s; }

  uint8_t TypeOf(uint32_t p) const { return uint8_t(b_[PageOff(p) + HdrOff(p)]); }
  bool IsBtree(uint32_t p) const {
    uint8_t t = TypeOf(p);
    return t == 2 || t == 5 || t == 10 || t == 13;
  }
  bool IsLeaf(uint32_t p) const { return (TypeOf(p) & 8) != 0; }
  uint32_t NCell(uint32_t p) const { return Get16(PageOff(p) + HdrOff(p) + 3); }
  // Offset in the file of page p's cell pointer array.
  size_t Ptrs(uint32_t p) const { return PageOff(p) + HdrOff(p) + (IsLeaf(p) ? 8 : 12); }
  uint32_t RandomPage() { return 1 + Pick(int(Pages())); }
  // A b-tree page (with cells when `cells`), or 0 when a few tries find none.
  uint32_t RandomBtreePage(bool cells) {
    for (int i = 0; i < 50; ++i) {
      uint32_t p = RandomPage();
      if (IsBtree(p) && (!cells || NCell(p) > 0) && Ptrs(p) + 2 * NCell(p) <= PageOff(p) + ps_) {
        return p;
      }
    }
    return 0;
  }
  // File offset of a random cell of page p (whose pointer is sane), or 0.
  size_t RandomCell(uint32_t p, uint32_t* index) {
    *index = uint32_t(Pick(int(NCell(p))));
    uint32_t off = Get16(Ptrs(p) + 2 * *index);
    if (off < 8 || off + 4 > ps_) return 0;
    return PageOff(p) + off;
  }

  void ChangeByte(size_t at, const char* where) {
    uint8_t old = uint8_t(b_[at]);
    uint8_t now = Pick(2) == 0 ? uint8_t(old ^ (1u << Pick(8))) : uint8_t(Pick(256));
    b_[at] = char(now);
    Note(std::string(where) + " byte " + std::to_string(at) + " " + Hex(old) + "->" + Hex(now));
  }
  void ChangeBytesIn(size_t from, size_t len, const char* where) {
    if (len == 0 || from >= b_.size()) return;
    len = std::min(len, b_.size() - from);
    int n = 1 + Pick(3);
    for (int i = 0; i < n; ++i) ChangeByte(from + size_t(Pick(int(len))), where);
  }

  void Apply(MutationKind kind) {
    if (b_.size() < ps_) kind = MutationKind::kRandomBytes;
    switch (kind) {
      case MutationKind::kHeaderBytes:
        return ChangeBytesIn(0, 100, "header");
      case MutationKind::kPageHeader: {
        uint32_t p = RandomPage();
        return ChangeBytesIn(PageOff(p) + HdrOff(p), IsBtree(p) && IsLeaf(p) ? 8 : 12,
                             ("page " + std::to_string(p) + " header").c_str());
      }
      case MutationKind::kCellPointers: {
        uint32_t p = RandomBtreePage(true);
        if (p == 0) return Apply(MutationKind::kRandomBytes);
        return ChangeBytesIn(Ptrs(p), 2 * NCell(p),
                             ("page " + std::to_string(p) + " cell pointers").c_str());
      }
      case MutationKind::kCellContent: {
        uint32_t p = RandomBtreePage(true), i = 0;
        size_t at = p == 0 ? 0 : RandomCell(p, &i);
        if (at == 0) return Apply(MutationKind::kRandomBytes);
        size_t len = Pick(2) == 0 ? 12 : 64;  // the varints and child pointer, or more
        return ChangeBytesIn(at, std::min(len, PageOff(p) + ps_ - at),
                             ("page " + std::to_string(p) + " cell " + std::to_string(i)).c_str());
      }
      case MutationKind::kField16:
        return Field16();
      case MutationKind::kField32:
        return Field32();
      case MutationKind::kTruncate: {
        size_t len;
        int how = Pick(4);
        if (how <= 1 && Pages() > 1) {
          len = size_t(1 + Pick(int(Pages()) - 1)) * ps_;
        } else if (how == 2) {
          len = size_t(Pick(200));
        } else {
          len = size_t(Pick(int(b_.size())));
        }
        b_.resize(len);
        return Note("truncated to " + std::to_string(len) + " bytes");
      }
      case MutationKind::kZeroPage: {
        uint32_t p = Pick(8) == 0 ? 1 : RandomPage();
        std::fill(b_.begin() + PageOff(p), b_.begin() + PageOff(p) + ps_, '\0');
        return Note("page " + std::to_string(p) + " zeroed");
      }
      case MutationKind::kSwapPages: {
        uint32_t p = RandomPage(), q = RandomPage();
        for (uint32_t i = 0; i < ps_; ++i) std::swap(b_[PageOff(p) + i], b_[PageOff(q) + i]);
        return Note("pages " + std::to_string(p) + " and " + std::to_string(q) + " swapped");
      }
      case MutationKind::kNotADatabase:
        return NotADatabase();
      case MutationKind::kRandomBytes:
      case MutationKind::kCombined:
      case MutationKind::kCount:
        return ChangeBytesIn(0, b_.size(), "file");
    }
  }

  void Field16() {
    uint32_t p = RandomBtreePage(false);
    if (p == 0) return Apply(MutationKind::kRandomBytes);
    size_t at;
    std::string what = "page " + std::to_string(p);
    int field = Pick(4);
    if (field == 3 && NCell(p) > 0) {
      uint32_t i = uint32_t(Pick(int(NCell(p))));
      at = Ptrs(p) + 2 * i;
      what += " cell pointer " + std::to_string(i);
    } else {
      static const char* const kNames[] = {"first freeblock", "cell count", "content start"};
      field = std::min(field, 2);
      at = PageOff(p) + HdrOff(p) + 1 + 2 * field;
      what += std::string(" ") + kNames[field];
    }
    const uint32_t values[] = {
        0, 0xffff, 1, ps_, ps_ - 1, ps_ - 4, 0x8000, NCell(p) + 1, uint32_t(Pick(0x10000))};
    uint32_t v = values[Pick(9)];
    Put16(at, v);
    Note(what + " = " + Hex(v));
  }

  void Field32() {
    size_t at = 0;
    std::string what;
    uint32_t p = RandomBtreePage(false);
    switch (Pick(7)) {
      case 0: {
        static const int kOffsets[] = {28, 32, 36, 52, 64};
        int off = kOffsets[Pick(5)];
        at = size_t(off);
        what = "header offset " + std::to_string(off);
        break;
      }
      case 1:  // right-most child
        if (p != 0 && !IsLeaf(p)) {
          at = PageOff(p) + HdrOff(p) + 8;
          what = "page " + std::to_string(p) + " right child";
        }
        break;
      case 2: {  // left child of an interior cell, or a leaf cell's overflow pointer
        uint32_t i = 0;
        size_t cell = (p != 0 && NCell(p) > 0) ? RandomCell(p, &i) : 0;
        if (cell == 0) break;
        what = "page " + std::to_string(p) + " cell " + std::to_string(i);
        if (!IsLeaf(p)) {
          at = cell;
          what += " left child";
        } else {
          at = OverflowPointer(p, cell);
          what += " overflow pointer";
        }
        break;
      }
      case 3: {  // an entry of the first pointer map (auto-vacuum databases)
        if (Get16(52) == 0 && Get16(54) == 0) break;
        uint32_t e = uint32_t(Pick(int(ps_ / 5)));
        if (Pick(2) == 0) {
          b_[PageOff(2) + 5 * e] = char(Pick(7));
          return Note("pointer map entry " + std::to_string(e) +
                      " type = " + std::to_string(uint8_t(b_[PageOff(2) + 5 * e])));
        }
        at = PageOff(2) + 5 * e + 1;
        what = "pointer map entry " + std::to_string(e) + " parent";
        break;
      }
      default: {  // first word of a page that is not a b-tree page (overflow, freelist, map)
        for (int tries = 0; tries < 20 && at == 0; ++tries) {
          uint32_t q = RandomPage();
          if (q > 1 && !IsBtree(q)) {
            at = PageOff(q) + (Pick(3) == 0 ? 4 : 0);
            what = "page " + std::to_string(q) + " word at " + std::to_string(at - PageOff(q));
          }
        }
        break;
      }
    }
    if (at == 0 || at + 4 > b_.size()) return Apply(MutationKind::kField16);
    const uint32_t values[] = {
        0,           1,           2,           Pages(), Pages() + 1,
        0xffffffffu, 0x7fffffffu, 0x80000000u, p,       uint32_t(RandomPage())};
    uint32_t v = values[Pick(10)];
    Put32(at, v);
    Note(what + " = " + Hex(v));
  }

  // File offset of the overflow page number of the leaf cell at `cell` on
  // page p, or 0 when the payload is all local (the payload rules of
  // fileformat2 1.6; reserved bytes are zero in the images used).
  size_t OverflowPointer(uint32_t p, size_t cell) {
    const uint8_t* c = reinterpret_cast<const uint8_t*>(b_.data()) + cell;
    const uint8_t* end = reinterpret_cast<const uint8_t*>(b_.data()) + PageOff(p) + ps_;
    auto varint = [&](uint64_t* v) {
      *v = 0;
      for (int i = 0; i < 9 && c < end; ++i) {
        uint8_t x = *c++;
        if (i == 8) {
          *v = (*v << 8) | x;
          break;
        }
        *v = (*v << 7) | (x & 0x7f);
        if (x < 0x80) break;
      }
    };
    uint64_t payload, rowid;
    varint(&payload);
    bool table = TypeOf(p) == 13;
    if (table) varint(&rowid);
    uint64_t u = ps_;
    uint64_t max_local = table ? u - 35 : (u - 12) * 64 / 255 - 23;
    uint64_t min_local = (u - 12) * 32 / 255 - 23;
    if (payload <= max_local) return 0;
    uint64_t k = min_local + (payload - min_local) % (u - 4);
    uint64_t local = k <= max_local ? k : min_local;
    size_t at = size_t(c - reinterpret_cast<const uint8_t*>(b_.data())) + local;
    return at + 4 <= PageOff(p) + ps_ ? at : 0;
  }

  void NotADatabase() {
    std::string out;
    switch (Pick(4)) {
      case 0:
        out.resize(1 + Pick(int(3 * ps_)));
        for (char& ch : out) ch = char(Pick(256));
        Note("replaced by " + std::to_string(out.size()) + " random bytes");
        break;
      case 1:
        for (int i = 0, n = 1 + Pick(200); i < n; ++i) out += "line " + std::to_string(i) + "\n";
        Note("replaced by text");
        break;
      default:
        out = b_.substr(0, 16);  // the magic, then garbage
        out.resize(16 + Pick(int(2 * ps_)));
        for (size_t i = 16; i < out.size(); ++i) out[i] = Pick(2) == 0 ? '\0' : char(Pick(256));
        Note("magic then " + std::to_string(out.size() - 16) + " random bytes");
        break;
    }
    b_ = std::move(out);
  }

  std::string b_;
  uint32_t ps_;
  std::mt19937_64 rng_;
  std::string what_;
};

}  // namespace

uint64_t CaseSeed(uint64_t run_seed, uint64_t i) {
  std::seed_seq seq{uint32_t(run_seed), uint32_t(run_seed >> 32), uint32_t(i), uint32_t(i >> 32)};
  std::mt19937_64 g(seq);
  return g();
}

Mutation Mutate(const std::string& image, uint32_t page_size, uint64_t case_seed) {
  return Mutator(image, page_size, case_seed).Run();
}

}  // namespace basalt::testing
