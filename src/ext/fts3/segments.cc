// Segment b-trees: reading terms from them, writing them, merging them.
//
// Node layouts (fts3.html, "Segment B-Tree Format"):
//   leaf:     varint(0), then the first term as varint(n) bytes, varint(size)
//             doclist; each later term as varint(shared prefix with the
//             previous term), varint(n) suffix, varint(size) doclist.
//   interior: varint(height), varint(leftmost child blockid), then terms
//             prefix-compressed as in a leaf, without doclists. Child j+1
//             (blockid leftmost + j + 1) holds the terms >= term j.
// A segment whose terms fit one leaf keeps it as the root (start_block 0).
// Leaves take consecutive blockids from max(blockid)+1, then the interior
// nodes below the root, bottom level first.
#include <algorithm>
#include <cstdlib>
#include <map>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {
namespace {

size_t SharedPrefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// Appends a term to a node (leaf or interior) after `prev`.
void AppendTerm(std::string* node, bool first, std::string_view prev, std::string_view term) {
  if (first) {
    PutVarint(node, term.size());
    node->append(term);
    return;
  }
  size_t p = SharedPrefix(prev, term);
  PutVarint(node, p);
  PutVarint(node, term.size() - p);
  node->append(term.substr(p));
}

struct NodeReader {
  const uint8_t* p;
  const uint8_t* end;
  std::string term;
  bool first = true;
  // Reads the next term (and for leaves its doclist); false at the end.
  bool Next(bool leaf, std::string_view* doclist) {
    if (p >= end) return false;
    uint64_t a = 0, b = 0;
    if (first) {
      if (!GetVarint(&p, end, &b)) return false;
    } else if (!GetVarint(&p, end, &a) || !GetVarint(&p, end, &b) || a > term.size()) {
      return false;
    }
    if (b > static_cast<uint64_t>(end - p)) return false;
    term.resize(first ? 0 : a);
    term.append(reinterpret_cast<const char*>(p), b);
    p += b;
    first = false;
    if (leaf) {
      uint64_t n;
      if (!GetVarint(&p, end, &n) || n > static_cast<uint64_t>(end - p)) return false;
      *doclist = std::string_view(reinterpret_cast<const char*>(p), n);
      p += n;
    }
    return true;
  }
};

int ReadBlock(FtsTable* t, int64_t id, std::string* out) {
  Stmt s;
  int rc = Prep(t, &s, "SELECT block FROM " + t->Shadow("_segments") + " WHERE blockid=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, id);
  if (sqlite3_step(s) != SQLITE_ROW) return SQLITE_CORRUPT_VTAB;
  out->assign(static_cast<const char*>(sqlite3_column_blob(s, 0)), sqlite3_column_bytes(s, 0));
  return SQLITE_OK;
}

// Calls fn on the terms of one leaf; sets *stop when past the range.
int ScanLeaf(std::string_view leaf, const std::string& lo, bool prefix, bool* stop,
             const std::function<int(const std::string&, std::string_view)>& fn) {
  auto* p = reinterpret_cast<const uint8_t*>(leaf.data());
  const uint8_t* end = p + leaf.size();
  uint64_t height;
  if (!GetVarint(&p, end, &height) || height != 0) return SQLITE_CORRUPT_VTAB;
  NodeReader r{p, end, std::string(), true};
  std::string_view dl;
  while (r.Next(true, &dl)) {
    if (r.term < lo) continue;
    bool in = prefix ? r.term.compare(0, lo.size(), lo) == 0 : r.term == lo;
    if (!in) {
      *stop = true;
      return SQLITE_OK;
    }
    int rc = fn(r.term, dl);
    if (rc == SQLITE_DONE) {
      *stop = true;
      return SQLITE_OK;
    }
    if (rc != SQLITE_OK) return rc;
  }
  return r.p == r.end ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
}

}  // namespace

// The first leaf that may hold `key`, found by descending from the root.
int FindLeaf(FtsTable* t, const SegInfo& seg, const std::string& key, int64_t* leaf) {
  std::string node = seg.root;
  for (int guard = 0; guard < 64; ++guard) {
    auto* p = reinterpret_cast<const uint8_t*>(node.data());
    const uint8_t* end = p + node.size();
    uint64_t height, child;
    if (!GetVarint(&p, end, &height) || !GetVarint(&p, end, &child)) return SQLITE_CORRUPT_VTAB;
    NodeReader r{p, end, std::string(), true};
    std::string_view dl;
    int64_t pick = static_cast<int64_t>(child);
    int64_t j = static_cast<int64_t>(child);
    while (r.Next(false, &dl)) {
      ++j;
      if (r.term > key) break;
      pick = j;
    }
    if (height <= 1) {
      *leaf = pick;
      return SQLITE_OK;
    }
    int rc = ReadBlock(t, pick, &node);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_CORRUPT_VTAB;
}

int Prep(FtsTable* t, Stmt* s, const std::string& sql) {
  auto it = t->stmt_cache.find(sql);
  if (it != t->stmt_cache.end() && !sqlite3_stmt_busy(it->second)) {
    s->Borrow(it->second);
    return SQLITE_OK;
  }
  if (it != t->stmt_cache.end()) return s->Prepare(t->db, sql);
  sqlite3_stmt* p = nullptr;
  int rc = sqlite3_prepare_v2(t->db, sql.c_str(), -1, &p, nullptr);
  if (rc != SQLITE_OK) return rc;
  t->stmt_cache[sql] = p;
  s->Borrow(p);
  return SQLITE_OK;
}

int Exec(FtsTable* t, const std::string& sql) {
  return sqlite3_exec(t->db, sql.c_str(), nullptr, nullptr, nullptr);
}

int LoadSegments(FtsTable* t, int64_t lo, int64_t hi, std::vector<SegInfo>* out) {
  Stmt s;
  int rc =
      Prep(t, &s,
           "SELECT level, idx, start_block, leaves_end_block, end_block, root FROM " +
               t->Shadow("_segdir") + " WHERE level BETWEEN ? AND ? ORDER BY level ASC, idx DESC");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, lo);
  sqlite3_bind_int64(s, 2, hi);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    SegInfo g;
    g.level = sqlite3_column_int64(s, 0);
    g.idx = sqlite3_column_int(s, 1);
    g.start = sqlite3_column_int64(s, 2);
    g.leaves_end = sqlite3_column_int64(s, 3);
    const char* e = reinterpret_cast<const char*>(sqlite3_column_text(s, 4));
    char* rest = nullptr;
    g.end = e ? std::strtoll(e, &rest, 10) : 0;
    if (rest != nullptr && *rest == ' ') g.leaf_bytes = std::strtoll(rest + 1, nullptr, 10);
    g.root.assign(static_cast<const char*>(sqlite3_column_blob(s, 5)), sqlite3_column_bytes(s, 5));
    out->push_back(std::move(g));
  }
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int ScanSegment(FtsTable* t, const SegInfo& seg, const std::string& lo, bool prefix,
                const std::function<int(const std::string&, std::string_view)>& fn,
                int64_t* first_leaf) {
  bool stop = false;
  if (seg.start == 0) return ScanLeaf(seg.root, lo, prefix, &stop, fn);
  int64_t first = seg.start;
  if (!lo.empty()) {
    int rc = FindLeaf(t, seg, lo, &first);
    if (rc != SQLITE_OK) return rc;
    if (first < seg.start || first > seg.leaves_end) return SQLITE_CORRUPT_VTAB;
  }
  Stmt s;
  int rc = Prep(t, &s,
                "SELECT block FROM " + t->Shadow("_segments") +
                    " WHERE blockid BETWEEN ? AND ? ORDER BY blockid");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, first);
  sqlite3_bind_int64(s, 2, seg.leaves_end);
  while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    std::string_view leaf(static_cast<const char*>(sqlite3_column_blob(s, 0)),
                          sqlite3_column_bytes(s, 0));
    if (first_leaf != nullptr) {
      *first_leaf = static_cast<int64_t>(leaf.size());
      first_leaf = nullptr;
    }
    rc = ScanLeaf(leaf, lo, prefix, &stop, fn);
    if (rc != SQLITE_OK) return rc;
  }
  return rc == SQLITE_DONE || rc == SQLITE_ROW || rc == SQLITE_OK ? SQLITE_OK : rc;
}

int WriteSegment(FtsTable* t, int64_t level, int idx,
                 const std::vector<std::pair<std::string, std::string>>& terms,
                 int64_t first_block) {
  if (terms.empty()) return SQLITE_OK;
  std::vector<std::string> leaves;
  std::vector<std::string> keys;  // separator before leaves[i], i >= 1
  std::string leaf(1, '\0');
  std::string prev;
  bool first = true;
  for (const auto& [term, dl] : terms) {
    size_t p = SharedPrefix(prev, term);
    size_t req = VarintLen(p) + VarintLen(term.size() - p) + (term.size() - p) +
                 VarintLen(dl.size()) + dl.size();
    if (!first && leaf.size() + req > static_cast<size_t>(t->node_size)) {
      leaves.push_back(std::move(leaf));
      keys.push_back(term.substr(0, std::min(term.size(), p + 1)));
      leaf.assign(1, '\0');
      first = true;
    }
    AppendTerm(&leaf, first, prev, term);
    PutVarint(&leaf, dl.size());
    leaf.append(dl);
    prev = term;
    first = false;
  }
  leaves.push_back(std::move(leaf));
  int64_t leaf_bytes = 0;
  for (const auto& l : leaves) leaf_bytes += static_cast<int64_t>(l.size());
  Stmt ins, dir;
  int rc = Prep(t, &ins, "INSERT INTO " + t->Shadow("_segments") + " VALUES(?, ?)");
  if (rc == SQLITE_OK) {
    rc = Prep(t, &dir, "INSERT INTO " + t->Shadow("_segdir") + " VALUES(?,?,?,?,?,?)");
  }
  if (rc != SQLITE_OK) return rc;
  auto write = [&](int64_t id, const std::string& b) {
    sqlite3_bind_int64(ins, 1, id);
    sqlite3_bind_blob(ins, 2, b.data(), static_cast<int>(b.size()), SQLITE_TRANSIENT);
    int r = sqlite3_step(ins);
    sqlite3_reset(ins);
    return r == SQLITE_DONE ? SQLITE_OK : r;
  };
  int64_t start = 0, leaves_end = 0, end = 0;
  std::string root;
  if (leaves.size() == 1) {
    root = std::move(leaves[0]);
  } else {
    if (first_block <= 0) {
      Stmt mx;
      rc = Prep(t, &mx, "SELECT coalesce(max(blockid), 0) + 1 FROM " + t->Shadow("_segments"));
      if (rc != SQLITE_OK) return rc;
      sqlite3_step(mx);
      first_block = sqlite3_column_int64(mx, 0);
    }
    int64_t next = first_block;
    std::vector<int64_t> children;
    for (const auto& l : leaves) {
      children.push_back(next);
      if ((rc = write(next++, l)) != SQLITE_OK) return rc;
    }
    start = first_block;
    leaves_end = next - 1;
    end = leaves_end;
    // Builds interior levels until one node is left: that node is the root.
    for (int height = 1;; ++height) {
      std::vector<std::string> nodes;
      std::vector<std::string> up_keys;
      std::string node;
      std::string last;
      bool nfirst = true;
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) {
          const std::string& k = keys[i - 1];
          size_t p = SharedPrefix(last, k);
          size_t req = VarintLen(p) + VarintLen(k.size() - p) + k.size() - p;
          if (!nfirst && node.size() + req > static_cast<size_t>(t->node_size)) {
            nodes.push_back(std::move(node));
            up_keys.push_back(k);
            node.clear();
            nfirst = true;
          } else {
            AppendTerm(&node, nfirst, last, k);
            last = k;
            nfirst = false;
            continue;
          }
        }
        PutVarint(&node, static_cast<uint64_t>(height));
        PutVarint(&node, static_cast<uint64_t>(children[i]));
      }
      nodes.push_back(std::move(node));
      if (nodes.size() == 1) {
        root = std::move(nodes[0]);
        break;
      }
      children.clear();
      for (const auto& n : nodes) {
        children.push_back(next);
        end = next;
        if ((rc = write(next++, n)) != SQLITE_OK) return rc;
      }
      keys = std::move(up_keys);
    }
  }
  std::string endtxt = std::to_string(end) + " " + std::to_string(leaf_bytes);
  sqlite3_bind_int64(dir, 1, level);
  sqlite3_bind_int(dir, 2, idx);
  sqlite3_bind_int64(dir, 3, start);
  sqlite3_bind_int64(dir, 4, leaves_end);
  sqlite3_bind_text(dir, 5, endtxt.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_blob(dir, 6, root.data(), static_cast<int>(root.size()), SQLITE_TRANSIENT);
  rc = sqlite3_step(dir);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

}  // namespace basalt::fts
