// The MATCH row iterator (see engine.h).
#include "ext/fts3/engine.h"

#include <algorithm>

namespace basalt::fts {
namespace {

// A phrase is read incrementally when SQLite would: the cursor walks the
// index's order, 1 to 4 tokens, no ^, each token a single term (a prefix
// only when a prefix= index has exactly its length).
bool Incremental(const FtsTable* t, const Expr* e, bool cursor_desc) {
  if (cursor_desc != t->desc || e->tokens.empty() || e->tokens.size() > 4) return false;
  for (const PhraseToken& tok : e->tokens) {
    if (tok.first) return false;
    if (!tok.prefix) continue;
    bool exact = false;
    for (int len : t->prefixes) exact = exact || static_cast<size_t>(len) == tok.text.size();
    if (!exact) return false;
  }
  return true;
}

// Keeps, in place, the positions of `mine` (a phrase of nmine tokens) near
// one of `other` (nother tokens): q < p <= q + near + nmine, or p < q <= p
// + near + nother. Returns false, leaving `mine` as it was, when none is.
// Both lists are sorted by column then offset.
bool NearTrim(int near, const Position* other, uint32_t n_other, int nother, Position* mine,
              uint32_t* n_mine, int nmine) {
  const int before = near + nmine, after = near + nother;
  uint32_t j = 0, w = 0;
  for (uint32_t i = 0; i < *n_mine; ++i) {
    const Position p = mine[i];
    while (j < n_other &&
           (other[j].col < p.col || (other[j].col == p.col && other[j].pos < p.pos - before))) {
      ++j;
    }
    bool hit = false;
    for (uint32_t k = j;
         !hit && k < n_other && other[k].col == p.col && other[k].pos <= p.pos + after; ++k) {
      hit = other[k].pos != p.pos;
    }
    if (hit) mine[w++] = p;
  }
  if (w == 0) return false;
  *n_mine = w;
  return true;
}

}  // namespace

Engine::Node* Engine::Build(const Expr* e, Node* parent, bool under_not) {
  nodes_.push_back(std::make_unique<Node>());
  Node* n = nodes_.back().get();
  n->kind = e->kind;
  n->near = e->near;
  n->parent = parent;
  if (e->kind == Expr::kPhrase) {
    n->ph = phrases_[static_cast<size_t>(e->phrase_index)].get();
    n->deferred = n->ph->deferred;
    if (!under_not) {
      n->iphrase = e->phrase_index;
      if (aux_.size() <= static_cast<size_t>(e->phrase_index)) aux_.resize(e->phrase_index + 1);
      aux_[static_cast<size_t>(e->phrase_index)] = n;
    }
    return n;
  }
  n->left = Build(e->left.get(), n, under_not);
  n->right = Build(e->right.get(), n, under_not || e->kind == Expr::kNot);
  n->deferred = n->left->deferred && n->right->deferred;
  return n;
}

void Engine::NearChains(Node* n) {
  if (n == nullptr || n->ph != nullptr) return;
  if (n->kind == Expr::kNear && (n->parent == nullptr || n->parent->kind != Expr::kNear)) {
    Node* p = n;
    for (; p->kind == Expr::kNear; p = p->left) {
      n->chain.push_back(p->right);
      n->dist.push_back(p->near);
    }
    n->chain.push_back(p);
    std::reverse(n->chain.begin(), n->chain.end());
    std::reverse(n->dist.begin(), n->dist.end());
    return;
  }
  NearChains(n->left);
  NearChains(n->right);
}

void Engine::Start(const FtsTable* t, const Expr* root, QueryResult* r, bool cursor_desc) {
  ncol_ = t->ncol();
  cursor_desc_ = cursor_desc;
  index_desc_ = t->desc;
  nodes_.clear();
  phrases_.clear();
  aux_.clear();
  any_deferred_ = false;
  corrupt_ = false;
  ndoc_ = r->ndoc;
  for (size_t i = 0; i < r->phrases.size(); ++i) {
    auto p = std::make_unique<Phrase>();
    const Expr* e = r->phrases[i];
    p->ntok = static_cast<int>(e->tokens.size());
    p->col = e->col;
    p->h = std::move(r->hits[i]);
    if (p->ntok > 1) {
      for (Position& q : p->h.pos) q.pos += p->ntok - 1;
    }
    if (index_desc_) std::reverse(p->h.docs.begin(), p->h.docs.end());
    p->deferred = i < r->deferred.size() && r->deferred[i];
    if (i < r->partial.size()) p->partial_mi = std::move(r->partial[i]);
    any_deferred_ = any_deferred_ || !p->partial_mi.empty();
    any_deferred_ = any_deferred_ || p->deferred;
    p->incr = !p->deferred && Incremental(t, e, cursor_desc);
    p->private_list = p->incr && (p->ntok > 1 || t->any_pending);
    p->mi.assign(static_cast<size_t>(ncol_) * 2, 0);
    phrases_.push_back(std::move(p));
  }
  root_ = Build(root, nullptr, false);
  NearChains(root_);
  eof_ = false;
  prev_ = 0;
}

int Engine::Cmp(int64_t a, int64_t b) const {
  if (a == b) return 0;
  return (a < b) != cursor_desc_ ? -1 : 1;
}

int Engine::IdxCmp(int64_t a, int64_t b) const {
  if (a == b) return 0;
  return (a < b) != index_desc_ ? -1 : 1;
}

Engine::ListRef Engine::List(Phrase* p) {
  if (!p->has_list) return ListRef();
  if (p->private_list) return ListRef{p->own.data(), &p->own_n};
  PhraseDoc& d = p->h.docs[static_cast<size_t>(p->at)];
  return ListRef{p->h.pos.data() + d.begin, &d.count};
}

void Engine::Invalidate(Phrase* p) { p->has_list = false; }

// Steps a phrase's doclist: forward in the index's order, or backward when
// the cursor walks the other way.
void Engine::PhraseNext(Phrase* p, bool* eof) {
  p->has_list = false;
  int n = static_cast<int>(Size(p));
  if (!p->incr && cursor_desc_ != index_desc_ && n > 0) {
    if (!p->started) {
      p->started = true;
      p->at = n - 1;
    } else if (p->at <= 0) {
      p->at = -1;
      *eof = true;
      return;
    } else {
      --p->at;
    }
  } else {
    if (p->at + 1 >= n) {
      *eof = true;
      return;
    }
    ++p->at;
    p->started = true;
  }
  const PhraseDoc& d = p->h.docs[static_cast<size_t>(p->at)];
  p->docid = d.docid;
  p->has_list = true;
  if (p->private_list) {
    p->own.assign(p->h.pos.begin() + d.begin, p->h.pos.begin() + d.begin + d.count);
    p->own_n = d.count;
  }
}

// A NEAR group at its end empties the rest of its loaded phrase doclists.
void Engine::NearEof(Node* child) {
  Phrase* p = child->ph;
  if (p == nullptr || p->incr || Size(p) == 0) return;
  while (!child->eof) {
    if (ListRef l = List(p)) *l.n = 0;
    NextRow(child);
  }
}

void Engine::NextRow(Node* n) {
  n->start = true;
  Node* l = n->left;
  Node* r = n->right;
  switch (n->kind) {
    case Expr::kNear:
    case Expr::kAnd:
      if (l->deferred || r->deferred) {  // the other side alone drives
        Node* d = l->deferred ? r : l;
        NextRow(d);
        n->docid = d->docid;
        n->eof = d->eof;
        break;
      }
      NextRow(l);
      NextRow(r);
      while (!l->eof && !r->eof) {
        int d = Cmp(l->docid, r->docid);
        if (d == 0) break;
        NextRow(d < 0 ? l : r);
      }
      n->docid = l->docid;
      n->eof = l->eof || r->eof;
      if (n->kind == Expr::kNear && n->eof) {
        NearEof(r);
        NearEof(l);
        l->eof = r->eof = true;
      }
      break;
    case Expr::kOr: {
      int d = Cmp(l->docid, r->docid);
      if (r->eof || (!l->eof && d < 0)) {
        NextRow(l);
      } else if (l->eof || d > 0) {
        NextRow(r);
      } else {
        NextRow(l);
        NextRow(r);
      }
      n->eof = l->eof && r->eof;
      d = Cmp(l->docid, r->docid);
      n->docid = (r->eof || (!l->eof && d < 0)) ? l->docid : r->docid;
      break;
    }
    case Expr::kNot:
      if (!r->start) NextRow(r);
      NextRow(l);
      if (!l->eof) {
        while (!r->eof && Cmp(l->docid, r->docid) > 0) NextRow(r);
      }
      n->docid = l->docid;
      n->eof = l->eof;
      break;
    case Expr::kPhrase: {
      bool eof = false;
      PhraseNext(n->ph, &eof);
      n->eof = eof;
      n->docid = n->ph->docid;
      break;
    }
  }
}

// The NEAR test of a group's root: trims each phrase against the one before
// it (stopping at the first that fails), then each against the one after.
bool Engine::NearTest(Node* n) {
  if (n->chain.empty()) return true;  // not a group's root
  const std::vector<Node*>& chain = n->chain;
  ListRef prev = List(chain[0]->ph);
  int prev_ntok = chain[0]->ph->ntok;
  bool ok = static_cast<bool>(prev);
  for (size_t i = 1; ok && i < chain.size(); ++i) {
    ListRef mine = List(chain[i]->ph);
    ok = mine &&
         NearTrim(n->dist[i - 1], prev.p, *prev.n, prev_ntok, mine.p, mine.n, chain[i]->ph->ntok);
    if (ok) {
      prev = mine;
      prev_ntok = chain[i]->ph->ntok;
    }
  }
  for (size_t i = chain.size() - 1; ok && i > 0; --i) {
    ListRef mine = List(chain[i - 1]->ph);
    ok = mine && NearTrim(n->dist[i - 1], prev.p, *prev.n, prev_ntok, mine.p, mine.n,
                          chain[i - 1]->ph->ntok);
    if (ok) {
      prev = mine;
      prev_ntok = chain[i - 1]->ph->ntok;
    }
  }
  return ok;
}

bool Engine::Test(Node* n) {
  switch (n->kind) {
    case Expr::kNear:
    case Expr::kAnd: {
      bool hit = Test(n->left) && Test(n->right) && NearTest(n);
      if (!hit && n->kind == Expr::kNear &&
          (n->parent == nullptr || n->parent->kind != Expr::kNear)) {
        Node* p = n;
        for (; p->ph == nullptr; p = p->left) {
          if (p->right->docid == prev_) Invalidate(p->right->ph);
        }
        if (p->docid == prev_) Invalidate(p->ph);
      }
      return hit;
    }
    case Expr::kOr: {
      bool a = Test(n->left);
      bool b = Test(n->right);
      return a || b;
    }
    case Expr::kNot:
      return Test(n->left) && !Test(n->right);
    case Expr::kPhrase:
      if (any_deferred_ && n->deferred) return TestDeferred(n);
      return !n->eof && n->docid == prev_ && n->ph->has_list;
  }
  return false;
}

// A deferred phrase is tested on the row's text: its list (a private one)
// is its hits in the row, and its node stands on the row.
bool Engine::TestDeferred(Node* n) {
  Phrase* p = n->ph;
  Invalidate(p);
  n->docid = prev_;
  const auto& docs = p->h.docs;
  auto it =
      std::lower_bound(docs.begin(), docs.end(), prev_,
                       [this](const PhraseDoc& d, int64_t v) { return IdxCmp(d.docid, v) < 0; });
  if (it == docs.end() || it->docid != prev_) return false;
  p->private_list = true;
  p->own.assign(p->h.pos.begin() + it->begin, p->h.pos.begin() + it->begin + it->count);
  p->own_n = it->count;
  p->has_list = true;
  return true;
}

void Engine::Next() {
  if (root_ == nullptr) {
    eof_ = true;
    return;
  }
  do {
    NextRow(root_);
    eof_ = root_->eof;
    prev_ = root_->docid;
  } while (!eof_ && !Test(root_));
}

void Engine::Retest() {
  if (root_ != nullptr && !eof_) Test(root_);
}

void Engine::Restart(Node* n) {
  if (n == nullptr) return;
  if (Phrase* p = n->ph) {
    Invalidate(p);
    p->incr = false;  // a restarted phrase loads its whole doclist
    p->private_list = false;
    p->at = -1;
    p->started = false;
    p->docid = 0;
    p->or_at = kNone;
  }
  n->docid = 0;
  n->eof = false;
  n->start = false;
  Restart(n->left);
  Restart(n->right);
}

void Engine::UpdateCounts(Node* n) {
  if (n == nullptr) return;
  if (n->ph != nullptr) {
    if (ListRef l = List(n->ph)) {
      for (uint32_t i = 0; i < *l.n;) {
        uint32_t j = i;
        while (j < *l.n && l.p[j].col == l.p[i].col) ++j;
        int col = l.p[i].col;
        if (col >= 0 && col < ncol_) {
          n->ph->mi[static_cast<size_t>(col) * 2] += j - i;
          n->ph->mi[static_cast<size_t>(col) * 2 + 1] += 1;
        }
        i = j;
      }
    }
  }
  UpdateCounts(n->left);
  UpdateCounts(n->right);
}

// One pass over the phrase's NEAR group (or the phrase), counting the
// lists of the rows where the whole expression tests true (any row for a
// lone phrase); then the group goes back where it stood.
void Engine::Gather(Node* n) {
  if (n->ph->stats) return;
  Node* root = n;
  while (root->parent != nullptr && (root->parent->kind == Expr::kNear || root->deferred)) {
    root = root->parent;
  }
  int64_t docid = root->docid;
  bool was_eof = root->eof;
  for (Node* p = root; p != nullptr; p = p->left) {
    Node* e = p->ph != nullptr ? p : p->right;
    if (e->ph != nullptr) {  // (SQLite also marks non-phrase right sides)
      e->ph->stats = true;
      std::fill(e->ph->mi.begin(), e->ph->mi.end(), 0);
    }
    if (p->ph != nullptr) break;
  }
  Restart(root);
  int64_t saved = prev_;
  bool end = false;
  while (!end) {
    do {
      NextRow(root);
      end = root->eof;
      prev_ = root->docid;
    } while (!end && root->kind == Expr::kNear && !Test(root_));
    if (!end) UpdateCounts(root);
  }
  prev_ = saved;
  if (was_eof) {
    root->eof = true;
    return;
  }
  Restart(root);
  do {
    NextRow(root);
  } while (!root->eof && root->docid != docid);
  // SQLite reports corruption when the group cannot get back to its row.
  if (root->eof) corrupt_ = true;
}

const std::vector<uint32_t>& Engine::Totals(int i) {
  Node* n = aux_[static_cast<size_t>(i)];
  if (n->deferred && n->parent != nullptr && n->parent->kind != Expr::kNear) {
    // SQLite reports the table's row count as both totals.
    for (size_t k = 0; k < n->ph->mi.size(); ++k) n->ph->mi[k] = static_cast<uint32_t>(ndoc_);
    return n->ph->mi;
  }
  if (!n->ph->partial_mi.empty() && (n->parent == nullptr || n->parent->kind != Expr::kNear)) {
    return n->ph->partial_mi;  // counted on the phrase's tokens that are not deferred
  }
  Gather(n);
  return n->ph->mi;
}

// Finds the doclist entry for the current row, moving on from where the
// previous lookup stopped (pOrPoslist).
void Engine::OrLookup(Phrase* p) {
  // An incrementally read or deferred phrase has no doclist in memory.
  int n = p->incr || p->deferred ? 0 : static_cast<int>(Size(p));
  int at = p->or_at;
  int64_t docid = p->or_docid;
  if (cursor_desc_ == index_desc_) {
    // Forward; past the end is n.
    bool eof = n == 0 || (at != kNone && at >= n);
    while ((at == kNone || IdxCmp(docid, prev_) < 0) && !eof) {
      at = at == kNone ? 0 : at + 1;
      eof = at >= n;
      if (!eof) docid = p->h.docs[static_cast<size_t>(at)].docid;
    }
    p->or_at = eof ? n : at;
  } else {
    // Backward from the last entry; before the first is -1.
    bool eof = n == 0 || (at != kNone && at < 0);
    while ((at == kNone || IdxCmp(docid, prev_) > 0) && !eof) {
      at = at == kNone ? n - 1 : at - 1;
      eof = at < 0;
      if (!eof) docid = p->h.docs[static_cast<size_t>(at)].docid;
    }
    p->or_at = eof ? -1 : at;
  }
  p->or_docid = docid;
}

void Engine::Poslist(int i, int col, std::vector<int>* out) {
  out->clear();
  uint32_t count = 0;
  const Position* list = ListFor(i, col, &count);
  for (uint32_t k = 0; k < count; ++k) {
    if (list[k].col == col) out->push_back(list[k].pos);
  }
}

uint32_t Engine::PoslistSize(int i, int col) {
  uint32_t count = 0, n = 0;
  const Position* list = ListFor(i, col, &count);
  for (uint32_t k = 0; k < count; ++k) n += list[k].col == col;
  return n;
}

const Position* Engine::ListFor(int i, int col, uint32_t* count) {
  *count = 0;
  Node* n = aux_[static_cast<size_t>(i)];
  Phrase* ph = n->ph;
  if (ph->col >= 0 && ph->col != col) return nullptr;
  const Position* list = nullptr;
  if (!n->eof && n->docid == prev_) {
    if (ListRef l = List(ph)) {
      list = l.p;
      *count = *l.n;
    }
  } else {
    bool under_or = false, tree_eof = false;
    Node* near = n;
    for (Node* p = n->parent; p != nullptr; p = p->parent) {
      if (p->kind == Expr::kOr) under_or = true;
      if (p->kind == Expr::kNear) near = p;
      if (p->eof) tree_eof = true;
    }
    if (!under_or) return nullptr;
    if (ph->incr) {
      int64_t docid = n->docid;
      bool was_eof = near->eof;
      Restart(near);
      while (!near->eof) {
        NextRow(near);
        if (!was_eof && near->docid == docid) break;
      }
    }
    if (tree_eof) {
      while (!near->eof) NextRow(near);
    }
    bool match = true;
    for (Node* p = near; p != nullptr; p = p->left) {
      Phrase* q = (p->kind == Expr::kNear ? p->right : p)->ph;
      OrLookup(q);
      int at = q->or_at;
      if (q->incr || q->deferred || at < 0 || at >= static_cast<int>(Size(q)) ||
          q->or_docid != prev_) {
        match = false;
      }
      if (p->kind != Expr::kNear) break;
    }
    if (match) {
      const PhraseDoc& d = ph->h.docs[static_cast<size_t>(ph->or_at)];
      list = ph->h.pos.data() + d.begin;
      *count = d.count;
    }
  }
  return list;
}

void Engine::NodeHits(Node* n, bool bitmap, std::vector<uint32_t>* out) {
  if (n->eof || n->docid != prev_) return;
  if (n->ph == nullptr) {
    NodeHits(n->left, bitmap, out);
    NodeHits(n->right, bitmap, out);
    return;
  }
  ListRef l = List(n->ph);
  if (!l) return;
  const uint32_t len = *l.n;
  size_t words = static_cast<size_t>((ncol_ + 31) / 32);
  auto put = [&](int col, uint32_t hits) {
    if (n->ph->col >= 0 && n->ph->col != col) return;
    if (!bitmap) {
      (*out)[static_cast<size_t>(n->iphrase * ncol_ + col)] = hits;
    } else if (hits != 0) {
      // SQLite's word index is (col + 1) / 32.
      size_t w = static_cast<size_t>(n->iphrase) * words + static_cast<size_t>((col + 1) / 32);
      if (w < out->size()) (*out)[w] |= uint32_t{1} << (col & 31);
    }
  };
  // Column 0 is always reported (0 hits when the list starts elsewhere).
  uint32_t i = 0;
  while (i < len && l.p[i].col == 0) ++i;
  put(0, i);
  while (i < len) {
    uint32_t j = i;
    while (j < len && l.p[j].col == l.p[i].col) ++j;
    if (l.p[i].col < ncol_) put(l.p[i].col, j - i);
    i = j;
  }
}

void Engine::LocalHits(bool bitmap, std::vector<uint32_t>* out) {
  if (root_ != nullptr && !eof_) NodeHits(root_, bitmap, out);
}

}  // namespace basalt::fts
