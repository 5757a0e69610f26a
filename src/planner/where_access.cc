// Access paths for one source of a join: the candidates (full scan, rowid
// lookup or range, each usable index) with their estimated rows and cost.
// The join order search in where.cc picks among them.
#include <algorithm>

#include "common/strings.h"
#include "planner/where.h"

namespace basalt {

namespace {

constexpr double kDefaultRows = 1048576.0;  // rows assumed for a table without statistics

// Whether a comparison with affinity `cmp_aff` may use an index whose
// column has affinity `idx_aff` (the stored values compare the same way).
bool AffinityOk(char cmp_aff, char idx_aff) {
  if (cmp_aff < 'B') return true;  // none/blob: no conversion
  if (cmp_aff == 'B') return idx_aff == 'B';
  return idx_aff >= 'C';
}

// The width SQLite estimates for a value of column `col`, in units of an
// integer: numeric affinities 1, text and blob a size given as "(n)" in the
// declared type in bytes / 4 + 1, else 5.
double ColumnWidth(const Column& col) {
  if (col.affinity >= Affinity::kNumeric) return 1;
  size_t open = col.decl_type.find('(');
  if (open != std::string::npos) {
    int n = 0;
    for (size_t i = open + 1; i < col.decl_type.size(); ++i) {
      char ch = col.decl_type[i];
      if (ch == ' ') continue;
      if (ch < '0' || ch > '9') break;
      n = std::min(n * 10 + (ch - '0'), 1 << 20);
    }
    return n / 4 + 1;
  }
  return 5;
}

// An index entry's estimated width: its columns plus the rowid.
double IndexWidth(const Table* tab, const Index* idx) {
  double w = 1;
  for (int c : idx->columns) {
    w += c >= 0 ? ColumnWidth(tab->columns[static_cast<size_t>(c)]) : 1;
  }
  return w;
}

// A table row's estimated width: its columns (plus the rowid when no
// INTEGER PRIMARY KEY holds it).
double TableWidth(const Table* tab) {
  double w = tab->rowid_alias < 0 ? 1 : 0;
  for (const Column& c : tab->columns) w += ColumnWidth(c);
  return w;
}

// The rows an IN term multiplies a lookup by.
double InListSize(const WhereTerm& t) {
  return t.rhs->list ? static_cast<double>(t.rhs->list->size()) : 25.0;
}

// The source being planned and what its paths may use.
struct AccessScope {
  int src;
  SourceMask self;
  SourceMask ready;  // sources bound by outer loops
  const Source* source;
  const Table* table;
  const std::vector<bool>* used;  // columns the query reads; null = unknown
  bool covering_on;               // Pass::kCoveringIndex
  bool rj_pass;                   // for the scan of a RIGHT JOIN's unmatched rows

  // Whether term `t` can drive a lookup into this source.
  bool Usable(const WhereTerm& t) const {
    if (t.src != src || t.op == TermOp::kNone) return false;
    if ((t.rhs_prereq & ~ready) != 0) return false;
    if (t.rhs_prereq & self) return false;
    // WHERE terms may not drive the inner side of a LEFT JOIN (it can be
    // the null row); its own ON terms may.
    // Nor the sources of a RIGHT JOIN (the WHERE clause applies after it).
    if (!OuterJoinUsable(*source, src, t)) return false;
    return true;
  }

  // Whether `idx` holds every column the query reads from the table.
  bool Covers(const Index* idx) const {
    if (idx->is_table_store()) return true;  // a WITHOUT ROWID table's own rows
    if (used == nullptr || used->empty() || !covering_on) return false;
    // A RIGHT JOIN's loop reads the table rows it records as matched; the
    // later pass over the unmatched ones may read an index alone.
    if ((source->join & ast::kJoinRight) != 0 && !rj_pass) return false;
    // The primary-key columns ending an index of a WITHOUT ROWID table count
    // for indexes made by CREATE INDEX. SQLite does not count them for
    // those of UNIQUE constraints (built before the key was known).
    const bool suffix_counts = idx->origin == 'c';
    for (size_t c = 0; c < table->columns.size(); ++c) {
      if (!(*used)[c]) continue;
      if (static_cast<int>(c) == table->rowid_alias) continue;
      if (std::find(idx->columns.begin(), idx->columns.end(), static_cast<int>(c)) ==
              idx->columns.end() &&
          (!suffix_counts || std::find(idx->suffix.begin(), idx->suffix.end(),
                                       static_cast<int>(c)) == idx->suffix.end())) {
        return false;
      }
    }
    return true;
  }

  // Whether term `t` compares index column `k` of `idx` the way the index
  // orders it (same affinity class and collation).
  bool MatchesIndexColumn(const WhereTerm& t, const Index* idx, size_t k) const {
    int col = idx->columns[k];
    char idx_aff = static_cast<char>(table->columns[static_cast<size_t>(col)].affinity);
    if (!AffinityOk(t.cmp_affinity, idx_aff)) return false;
    const Collation* tc = t.coll ? t.coll : BinaryCollation();
    const Collation* ic = idx->collations[k] ? idx->collations[k] : BinaryCollation();
    return tc == ic;
  }
};

LoopPlan FullScan(int src) {
  LoopPlan best;
  best.src = src;
  best.access = AccessKind::kFullScan;
  best.rows = kDefaultRows;
  best.cost = kDefaultRows * 3.0;
  return best;
}

// A rowid equality (or IN) lookup, else a rowid range, when terms allow.
void AddRowidAccess(const AccessScope& as, WherePlan* plan, std::vector<LoopPlan>* cands) {
  WhereTerm* eq = nullptr;
  WhereTerm* lo = nullptr;
  WhereTerm* hi = nullptr;
  for (WhereTerm& t : plan->terms) {
    if (!as.Usable(t) || t.column != -1) continue;
    if ((t.op == TermOp::kEq || t.op == TermOp::kIn) && eq == nullptr) eq = &t;
    if ((t.op == TermOp::kGt || t.op == TermOp::kGe) && lo == nullptr) lo = &t;
    if ((t.op == TermOp::kLt || t.op == TermOp::kLe) && hi == nullptr) hi = &t;
  }
  LoopPlan p;
  p.src = as.src;
  if (eq != nullptr) {
    p.access = AccessKind::kRowidEq;
    p.eq.push_back(eq);
    double n = eq->op == TermOp::kIn ? InListSize(*eq) : 1.0;
    p.rows = n;
    p.cost = n * 20.0;
    cands->push_back(p);
  } else if (lo != nullptr || hi != nullptr) {
    p.access = AccessKind::kRowidRange;
    p.lower = lo;
    p.upper = hi;
    p.rows = kDefaultRows / ((lo && hi) ? 64.0 : 4.0);
    p.cost = p.rows * 3.0 + 20.0;
    cands->push_back(p);
  }
}

// Fills p->eq with the longest prefix of index columns constrained by
// equality (=, IS, IN, IS NULL; a plain equality preferred over IN).
// Returns the prefix length; *in_mult is the product of the IN list sizes.
size_t MatchEqPrefix(const AccessScope& as, const Index* idx, WherePlan* plan, LoopPlan* p,
                     double* in_mult) {
  size_t k = 0;
  for (; k < idx->columns.size(); ++k) {
    int col = idx->columns[k];
    if (col < 0) break;
    WhereTerm* found = nullptr;
    for (WhereTerm& t : plan->terms) {
      if (!as.Usable(t) || t.column != col) continue;
      if (t.op != TermOp::kEq && t.op != TermOp::kIs && t.op != TermOp::kIn &&
          t.op != TermOp::kIsNull) {
        continue;
      }
      if (t.op != TermOp::kIsNull && !as.MatchesIndexColumn(t, idx, k)) continue;
      if (found == nullptr || (found->op == TermOp::kIn && t.op != TermOp::kIn)) found = &t;
    }
    if (found == nullptr) break;
    p->eq.push_back(found);
    if (found->op == TermOp::kIn) *in_mult *= InListSize(*found);
  }
  return k;
}

// Rows an equality prefix is estimated to leave (one for a whole unique key).
double EqPrefixRows(const Index* idx, const LoopPlan& p) {
  if (p.eq.empty()) return kDefaultRows;
  static const double kEqRows[] = {10, 9, 8, 7, 6, 5};
  double rows = kEqRows[std::min<size_t>(p.eq.size() - 1, 5)];
  if (idx->unique && p.eq.size() == idx->columns.size()) {
    bool all_eq = true;
    for (const WhereTerm* t : p.eq) all_eq &= (t->op == TermOp::kEq);
    if (all_eq) rows = 1;
  }
  return rows;
}

// Range bounds on index column k (the one after the equality prefix).
void MatchRange(const AccessScope& as, const Index* idx, size_t k, WherePlan* plan, LoopPlan* p) {
  int col = idx->columns[k];
  for (WhereTerm& t : plan->terms) {
    if (!as.Usable(t) || t.column != col) continue;
    if (!as.MatchesIndexColumn(t, idx, k)) continue;
    if ((t.op == TermOp::kGt || t.op == TermOp::kGe) && p->lower == nullptr) p->lower = &t;
    if ((t.op == TermOp::kLt || t.op == TermOp::kLe) && p->upper == nullptr) p->upper = &t;
  }
}

// The plan for reading through `idx`: a lookup when terms constrain its
// leading columns, else a scan of the whole index.
LoopPlan IndexAccess(const AccessScope& as, const Index* idx, bool forced, WherePlan* plan) {
  LoopPlan p;
  p.src = as.src;
  p.access = AccessKind::kIndex;
  p.index = idx;
  double in_mult = 1;
  size_t k = MatchEqPrefix(as, idx, plan, &p, &in_mult);
  double rows = EqPrefixRows(idx, p);
  if (k < idx->columns.size() && idx->columns[k] >= 0) {
    MatchRange(as, idx, k, plan, &p);
    if (p.lower || p.upper) {
      rows = rows / ((p.lower && p.upper) ? 64.0 : 4.0);
      if (rows < 1) rows = 1;
    }
  }
  p.covering = as.Covers(idx);
  if (p.eq.empty() && p.lower == nullptr && p.upper == nullptr) {
    p.rows = kDefaultRows;
    if (forced) {
      p.cost = kDefaultRows * 3.5;
      return p;
    }
    // A full index scan: a covering one reads less than the table; any may
    // deliver rows in ORDER BY order. Among covering indexes narrower than
    // the table the narrowest wins and, as in SQLite (which considers the
    // newest index first), the newest of equally wide ones.
    double idx_width = IndexWidth(as.table, idx);
    double tab_width = TableWidth(as.table);
    if (p.covering && idx_width < tab_width) {
      const auto& all = as.table->indexes;
      double newer = static_cast<double>(std::find(all.begin(), all.end(), idx) - all.begin());
      p.cost = kDefaultRows * (2.9 + std::min(idx_width, 900.0) * 1e-4) - newer * 1e-3;
    } else {
      p.cost = p.covering ? kDefaultRows * 3.1 : kDefaultRows * 7.0;
    }
    p.full_index_scan = true;
    return p;
  }
  rows *= in_mult;
  p.rows = rows;
  constexpr double kLogN = 20.0;
  p.cost = kLogN * in_mult + rows * (p.covering ? 1.0 : 5.0);
  return p;
}

// The share of rows a filter term of kind `op` is assumed to keep.
double TermSelectivity(TermOp op) {
  switch (op) {
    case TermOp::kEq:
    case TermOp::kIs:
    case TermOp::kIsNull:
      return 0.1;
    case TermOp::kIn:
      return 0.3;
    case TermOp::kLt:
    case TermOp::kLe:
    case TermOp::kGt:
    case TermOp::kGe:
      return 0.25;
    default:
      return 0.5;
  }
}

// Terms checked at this level but not used by the access path filter its
// rows: that matters for the cost of the loops nested inside.
void ApplyResidualFilters(const AccessScope& as, const WherePlan& plan,
                          std::vector<LoopPlan>* cands) {
  for (LoopPlan& c : *cands) {
    for (const WhereTerm& t : plan.terms) {
      if (t.disabled) continue;
      if (!(t.prereq & as.self) || (t.prereq & ~(as.ready | as.self)) != 0) continue;
      bool used_term = &t == c.lower || &t == c.upper;
      for (const WhereTerm* e : c.eq) used_term |= e == &t;
      if (used_term) continue;
      c.rows *= TermSelectivity(t.op);
    }
    if (c.rows < 1) c.rows = 1;
  }
}

}  // namespace

void WherePlanner::BestAccess(int src, SourceMask ready, WherePlan* plan, LoopPlan* out) {
  std::vector<LoopPlan> cands;
  AllAccess(src, ready, plan, &cands);
  *out = cands[0];
  for (const LoopPlan& c : cands) {
    if (c.cost < out->cost) *out = c;
  }
}

void WherePlanner::AllAccess(int src, SourceMask ready, WherePlan* plan,
                             std::vector<LoopPlan>* cands) {
  const Source& s = (*req_->sources)[static_cast<size_t>(src)];
  LoopPlan scan = FullScan(src);
  if (s.table == nullptr) {
    scan.rows = 1000.0;
    scan.cost = 1000.0;
    cands->push_back(scan);
    return;
  }
  if (s.table->is_virtual) {
    if (!VirtualAccess(src, ready, plan, cands) || cands->empty()) cands->push_back(scan);
    return;
  }
  const ast::FromItem* item = s.item;
  bool forced = item != nullptr && !item->indexed_by.empty();  // INDEXED BY
  // With index lookups switched off only a full scan remains (unless
  // INDEXED BY names an index).
  if (!ctx_->options.PassOn(Pass::kIndexLookup) && !forced) {
    cands->push_back(scan);
    return;
  }
  AccessScope as{src,
                 SourceMask(1) << src,
                 ready,
                 &s,
                 s.table,
                 req_->used_columns && static_cast<size_t>(src) < req_->used_columns->size()
                     ? &(*req_->used_columns)[static_cast<size_t>(src)]
                     : nullptr,
                 ctx_->options.PassOn(Pass::kCoveringIndex),
                 rj_unmatched_pass_};
  AddRowidAccess(as, plan, cands);
  const Index* pk = s.table->pk_index.get();
  if (pk != nullptr) {
    // A WITHOUT ROWID table: the scan reads its primary-key index in key
    // order, and key terms seek in it like the rowid terms of other tables.
    scan.index = pk;
    scan.covering = true;
    if (!forced) {
      LoopPlan p = IndexAccess(as, pk, false, plan);
      if (!p.full_index_scan) cands->push_back(p);
    }
  }
  // Indexes: none with NOT INDEXED; only the named one with INDEXED BY.
  if (!forced) cands->push_back(scan);
  if (item == nullptr || !item->not_indexed) {
    // Newest index first: of equally good paths the first one found stays
    // (strictly lower cost replaces it), and SQLite considers its indexes
    // newest first, so ties go to the index created last, as there.
    for (auto it = s.table->indexes.rbegin(); it != s.table->indexes.rend(); ++it) {
      const Index* idx = *it;
      if (forced && !EqualsIgnoreCase(idx->name, item->indexed_by)) continue;
      if (!idx->where_sql.empty()) continue;  // partial indexes: not used yet
      LoopPlan p = IndexAccess(as, idx, forced, plan);
      if (req_->dml_rows && p.full_index_scan && !forced && s.table->HasRowid()) continue;
      cands->push_back(p);
    }
  }
  if (cands->empty()) cands->push_back(scan);
  ApplyResidualFilters(as, *plan, cands);
}

}  // namespace basalt
