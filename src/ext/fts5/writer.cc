// The segment writer (writer.h). Leaves fill up to pgsz bytes (data plus
// page index); the checks below decide page breaks exactly where SQLite's
// writer does, so both engines produce the same pages.
#include "ext/fts5/writer.h"

#include "ext/fts5/format.h"

namespace basalt::fts5 {
namespace {

int CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return static_cast<int>(i);
}

int VarintAt(const uint8_t* p, const uint8_t* end) {
  uint64_t v;
  int n = GetVarint(p, end, &v);
  return n == 0 ? 1 : n;
}

// Bytes of whole varints at a that fit in max (at least the first one).
int PoslistPrefix(const uint8_t* a, const uint8_t* end, int max) {
  int ret = VarintAt(a, end);
  if (ret < max) {
    while (a + ret < end) {
      int i = VarintAt(a + ret, end);
      if (ret + i > max) break;
      ret += i;
    }
  }
  return ret;
}

}  // namespace

SegWriter::SegWriter(DataStore* store, int pgsz, int segid)
    : store_(store), pgsz_(pgsz), segid_(segid), buf_(4, '\0'), dlidx_(1) {}

void SegWriter::ResumeAt(int pgno) {
  pgno_ = pgno;
  bt_page_ = 0;
}

int SegWriter::FlushLeaf() {
  auto* p = reinterpret_cast<uint8_t*>(buf_.data());
  PutU16(p + 2, static_cast<int>(buf_.size()));
  if (first_term_in_page_) {
    BtreeNoTerm();
  } else {
    buf_ += pgidx_;
  }
  int rc = store_->Write(SegmentRowid(segid_, pgno_), buf_);
  buf_.assign(4, '\0');
  pgidx_.clear();
  prev_pgidx_ = 0;
  ++pgno_;
  ++leaves_written_;
  first_term_in_page_ = true;
  first_rowid_in_page_ = true;
  return rc;
}

void SegWriter::BtreeNoTerm() {
  if (first_rowid_in_page_ && !dlidx_[0].buf.empty()) PutVarint(&dlidx_[0].buf, 0);
  ++empty_;
}

int SegWriter::DlidxClear(bool flush) {
  int rc = SQLITE_OK;
  for (size_t i = 0; i < dlidx_.size(); ++i) {
    DlidxLevel& d = dlidx_[i];
    if (d.buf.empty()) break;
    if (flush && rc == SQLITE_OK) {
      rc = store_->Write(DlidxRowid(segid_, static_cast<int>(i), d.pgno), d.buf);
    }
    d.buf.clear();
    d.prev_valid = false;
  }
  return rc;
}

int SegWriter::FlushDlidx(bool* flag) {
  *flag = !dlidx_[0].buf.empty() && empty_ >= kMinDlidxSize;
  int rc = DlidxClear(*flag);
  empty_ = 0;
  return rc;
}

int SegWriter::FlushBtree() {
  if (bt_page_ == 0) return SQLITE_OK;
  bool flag;
  int rc = FlushDlidx(&flag);
  if (rc == SQLITE_OK) {
    rc = store_->WriteIdx(segid_, bt_term_, (int64_t{bt_page_} << 1) + (flag ? 1 : 0));
  }
  bt_page_ = 0;
  return rc;
}

int SegWriter::BtreeTerm(std::string_view term) {
  int rc = FlushBtree();
  bt_term_.assign(term);
  bt_page_ = pgno_;
  return rc;
}

int SegWriter::DlidxAppend(int64_t rowid) {
  bool done = false;
  for (size_t i = 0; !done; ++i) {
    if (dlidx_.size() <= i) dlidx_.resize(i + 1);
    if (static_cast<int>(dlidx_[i].buf.size()) >= pgsz_) {
      // This doclist-index page is full: write it and push its first rowid
      // up to a new parent when it was the root.
      dlidx_[i].buf[0] = 0x01;
      int rc =
          store_->Write(DlidxRowid(segid_, static_cast<int>(i), dlidx_[i].pgno), dlidx_[i].buf);
      if (rc != SQLITE_OK) return rc;
      if (dlidx_.size() < i + 2) dlidx_.resize(i + 2);
      DlidxLevel& d = dlidx_[i];
      DlidxLevel& up = dlidx_[i + 1];
      if (up.buf.empty()) {
        const auto* b = reinterpret_cast<const uint8_t*>(d.buf.data());
        const uint8_t* end = b + d.buf.size();
        uint64_t v;
        int off = 1 + GetVarint(b + 1, end, &v);
        uint64_t first = 0;
        GetVarint(b + off, end, &first);
        up.pgno = d.pgno;
        PutVarint(&up.buf, 0);
        PutVarint(&up.buf, static_cast<uint64_t>(d.pgno));
        PutVarint(&up.buf, first);
        up.prev_valid = true;
        up.prev = static_cast<int64_t>(first);
      }
      d.buf.clear();
      d.prev_valid = false;
      ++d.pgno;
    } else {
      done = true;
    }
    DlidxLevel& d = dlidx_[i];
    uint64_t val;
    if (d.prev_valid) {
      val = static_cast<uint64_t>(rowid) - static_cast<uint64_t>(d.prev);
    } else {
      int pg = i == 0 ? pgno_ : dlidx_[i - 1].pgno;
      PutVarint(&d.buf, done ? 0 : 1);
      PutVarint(&d.buf, static_cast<uint64_t>(pg));
      val = static_cast<uint64_t>(rowid);
    }
    PutVarint(&d.buf, val);
    d.prev_valid = true;
    d.prev = rowid;
  }
  return SQLITE_OK;
}

int SegWriter::AppendTerm(std::string_view term) {
  int rc = SQLITE_OK;
  int n = static_cast<int>(term.size());
  if (PageUsed() + n + 2 >= pgsz_ && buf_.size() > 4) {
    if ((rc = FlushLeaf()) != SQLITE_OK) return rc;
  }
  PutVarint(&pgidx_, buf_.size() - prev_pgidx_);
  prev_pgidx_ = static_cast<int>(buf_.size());
  int prefix = 0;
  if (first_term_in_page_) {
    if (pgno_ != 1) {
      int nb = n;
      if (!term_.empty()) nb = 1 + CommonPrefix(term_, term);
      if ((rc = BtreeTerm(term.substr(0, nb))) != SQLITE_OK) return rc;
    }
  } else {
    prefix = CommonPrefix(term_, term);
    PutVarint(&buf_, static_cast<uint64_t>(prefix));
  }
  PutVarint(&buf_, static_cast<uint64_t>(n - prefix));
  buf_.append(term.substr(prefix));
  term_.assign(term);
  first_term_in_page_ = false;
  first_rowid_in_page_ = false;
  first_rowid_in_doclist_ = true;
  dlidx_[0].pgno = pgno_;
  return rc;
}

int SegWriter::AppendRowid(int64_t rowid) {
  int rc = SQLITE_OK;
  if (PageUsed() >= pgsz_ && (rc = FlushLeaf()) != SQLITE_OK) return rc;
  if (first_rowid_in_page_) {
    PutU16(reinterpret_cast<uint8_t*>(buf_.data()), static_cast<int>(buf_.size()));
    if ((rc = DlidxAppend(rowid)) != SQLITE_OK) return rc;
  }
  if (first_rowid_in_doclist_ || first_rowid_in_page_) {
    PutVarint(&buf_, static_cast<uint64_t>(rowid));
  } else {
    PutVarint(&buf_, static_cast<uint64_t>(rowid) - static_cast<uint64_t>(prev_rowid_));
  }
  prev_rowid_ = rowid;
  first_rowid_in_doclist_ = false;
  first_rowid_in_page_ = false;
  return rc;
}

int SegWriter::AppendPoslistData(const uint8_t* a, int n) {
  const uint8_t* end = a + n;
  while (PageUsed() + n >= pgsz_) {
    int req = pgsz_ - PageUsed();
    int copy = 0;
    while (copy < req) copy += VarintAt(a + copy, end);
    buf_.append(reinterpret_cast<const char*>(a), copy);
    a += copy;
    n -= copy;
    int rc = FlushLeaf();
    if (rc != SQLITE_OK) return rc;
  }
  if (n > 0) buf_.append(reinterpret_cast<const char*>(a), n);
  return SQLITE_OK;
}

int SegWriter::AppendDoclist(std::string_view doclist, bool detail_none) {
  const auto* d = reinterpret_cast<const uint8_t*>(doclist.data());
  const int nd = static_cast<int>(doclist.size());
  const uint8_t* end = d + nd;
  if (pgsz_ >= PageUsed() + nd + 1) {
    buf_.append(doclist);
    return SQLITE_OK;
  }
  int rc = SQLITE_OK;
  int64_t rowid = 0;
  int off = 0;
  while (rc == SQLITE_OK && off < nd) {
    uint64_t delta;
    off += GetVarint(d + off, end, &delta);
    rowid += static_cast<int64_t>(delta);
    if (first_rowid_in_page_) {
      PutU16(reinterpret_cast<uint8_t*>(buf_.data()), static_cast<int>(buf_.size()));
      PutVarint(&buf_, static_cast<uint64_t>(rowid));
      first_rowid_in_page_ = false;
      if ((rc = DlidxAppend(rowid)) != SQLITE_OK) break;
    } else {
      PutVarint(&buf_, delta);
    }
    if (detail_none) {
      for (int k = 0; k < 2 && off < nd && d[off] == 0; ++k) {
        buf_.push_back(0);
        ++off;
      }
      if (PageUsed() >= pgsz_) rc = FlushLeaf();
      continue;
    }
    uint64_t sz;
    int nsz = GetVarint(d + off, end, &sz);
    int copy = nsz + static_cast<int>(sz >> 1);
    if (PageUsed() + copy <= pgsz_) {
      buf_.append(reinterpret_cast<const char*>(d + off), copy);
    } else {
      const uint8_t* pl = d + off;
      int ip = 0;
      while (rc == SQLITE_OK) {
        int space = pgsz_ - PageUsed();
        int k = copy - ip <= space ? copy - ip : PoslistPrefix(pl + ip, pl + copy, space);
        buf_.append(reinterpret_cast<const char*>(pl + ip), k);
        ip += k;
        if (PageUsed() >= pgsz_) rc = FlushLeaf();
        if (ip >= copy) break;
      }
    }
    off += copy;
  }
  return rc;
}

int SegWriter::Finish(int* last_leaf) {
  int rc = SQLITE_OK;
  if (buf_.size() > 4) rc = FlushLeaf();
  *last_leaf = pgno_ - 1;
  if (rc == SQLITE_OK && pgno_ > 1) rc = FlushBtree();
  return rc;
}

}  // namespace basalt::fts5
