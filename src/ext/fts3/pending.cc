// The pending terms: documents written since the last flush, kept in memory
// per index as term -> doclist, and written out as a level-0 segment when
// the transaction commits, at a savepoint, when a docid would break the
// ascending order, when the language changes, or when they grow past 1 MB.
#include <algorithm>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {

void PendingList::Add(int64_t docid, int col, int pos) {
  if (!has_doc || docid != last_docid) {
    if (has_doc) data.push_back('\0');
    PutVarint(&data, static_cast<uint64_t>(has_doc ? docid - last_docid : docid));
    has_doc = true;
    last_docid = docid;
    last_col = 0;
    last_pos = 0;
  }
  if (col < 0) return;
  if (col != last_col) {
    data.push_back('\x01');
    PutVarint(&data, static_cast<uint64_t>(col));
    last_col = col;
    last_pos = 0;
  }
  PutVarint(&data, static_cast<uint64_t>(pos - last_pos + 2));
  last_pos = pos;
}

int AddDocTerms(FtsTable* t, int64_t docid, int langid, const std::vector<std::string>& vals,
                int col_sign, std::vector<int>* sizes) {
  (void)langid;
  sizes->assign(t->ncol() + 1, 0);
  for (int c = 0; c < t->ncol() && c < static_cast<int>(vals.size()); ++c) {
    if (t->notindexed[c]) continue;
    int words = 0;
    int col = col_sign < 0 ? -1 : c;
    int rc = t->tokenizer.Run(vals[c], langid, [&](std::string_view tok, int, int, int pos) {
      if (pos + 1 > words) words = pos + 1;
      std::string term(tok);
      t->pending_bytes += term.size() + 8;
      t->pending[0][term].Add(docid, col, pos);
      for (int i = 1; i < t->nindex(); ++i) {
        size_t n = static_cast<size_t>(t->prefixes[i - 1]);
        if (term.size() < n) continue;
        t->pending[i][term.substr(0, n)].Add(docid, col, pos);
      }
      return true;
    });
    if (rc != SQLITE_OK) return rc;
    t->any_pending = true;
    (*sizes)[c] = words;
    (*sizes)[t->ncol()] += static_cast<int>(vals[c].size());
  }
  return SQLITE_OK;
}

int FlushPending(FtsTable* t) {
  if (!t->any_pending) return SQLITE_OK;
  for (int i = 0; i < t->nindex(); ++i) {
    auto& p = t->pending[i];
    if (p.empty()) continue;
    int idx = 0;
    int rc = AllocateIdx(t, t->pending_langid, i, 0, &idx);
    if (rc != SQLITE_OK) return rc;
    std::vector<std::pair<std::string, std::string>> terms;
    terms.reserve(p.size());
    for (const auto& [term, list] : p) {
      if (!t->desc) {
        terms.emplace_back(term, list.Finish());
        continue;
      }
      // order=DESC: pending lists are kept ascending, written descending.
      Doclist d;
      DecodeDoclist(list.Finish(), false, &d);
      std::reverse(d.begin(), d.end());
      std::string enc;
      EncodeDoclist(d, true, &enc);
      terms.emplace_back(term, std::move(enc));
    }
    rc = WriteSegment(t, t->AbsLevel(t->pending_langid, i, 0), idx, terms);
    if (rc != SQLITE_OK) return rc;
    p.clear();
  }
  t->any_pending = false;
  t->pending_bytes = 0;
  return SQLITE_OK;
}

void DiscardPending(FtsTable* t) {
  for (auto& p : t->pending) p.clear();
  t->any_pending = false;
  t->pending_bytes = 0;
}

int PrepareDocid(FtsTable* t, int64_t docid, bool is_delete, int langid) {
  bool out_of_order = docid < t->prev_docid;  // pending lists ascend either way
  if (t->any_pending &&
      (out_of_order || (docid == t->prev_docid && !t->prev_delete) || langid != t->pending_langid ||
       t->pending_bytes > static_cast<size_t>(t->max_pending))) {
    int rc = FlushPending(t);
    if (rc != SQLITE_OK) return rc;
  }
  t->prev_docid = docid;
  t->prev_delete = is_delete;
  t->pending_langid = langid;
  return SQLITE_OK;
}

}  // namespace basalt::fts
