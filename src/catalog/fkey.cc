#include "catalog/fkey.h"

#include <algorithm>

namespace basalt {

const Table* FkParentTable(const Table* child, const ForeignKeyDef& fk) {
  if (child->owner == nullptr) return nullptr;
  return child->owner->FindTable(fk.parent_table);
}

namespace {

bool SameCollation(const Collation* idx_coll, const Column& c) {
  const std::string_view want = c.collation.empty() ? std::string_view("BINARY") : c.collation;
  const std::string_view have = idx_coll != nullptr ? std::string_view(idx_coll->name) : "BINARY";
  return EqualsIgnoreCase(want, have);
}

// Whether `idx` covers exactly the key's parent columns (in any order),
// filling `out` in index order.
bool MatchIndex(const Table* parent, const Index* idx, const ForeignKeyDef& fk, FkParentKey* out) {
  const size_t n = fk.from_columns.size();
  if (!idx->unique || !idx->where_sql.empty() || idx->columns.size() != n) return false;
  std::vector<int> pcols, ccols;
  for (size_t i = 0; i < n; ++i) {
    const int col = idx->columns[i];
    if (col < 0) return false;
    const Column& c = parent->columns[static_cast<size_t>(col)];
    const Collation* coll = i < idx->collations.size() ? idx->collations[i] : nullptr;
    // A key naming its columns needs their default collations (SQLite
    // does not look at the collations of the PRIMARY KEY it defaults to).
    if (!fk.parent_columns.empty() && !SameCollation(coll, c)) return false;
    size_t j = 0;
    if (fk.parent_columns.empty()) {
      j = i;  // the PRIMARY KEY, in its own order
    } else {
      while (j < n && !EqualsIgnoreCase(fk.parent_columns[j], c.name)) ++j;
      if (j == n) return false;
    }
    pcols.push_back(col);
    ccols.push_back(fk.from_columns[j]);
  }
  out->index = idx;
  out->parent_cols = std::move(pcols);
  out->child_cols = std::move(ccols);
  return true;
}

}  // namespace

bool LocateFkParentKey(const Table* child, const Table* parent, const ForeignKeyDef& fk,
                       FkParentKey* out) {
  (void)child;
  out->parent = parent;
  out->index = nullptr;
  out->parent_cols.clear();
  out->child_cols.clear();
  const size_t n = fk.from_columns.size();
  if (n == 1 && parent->rowid_alias >= 0) {
    const bool names_ipk =
        fk.parent_columns.empty() ||
        EqualsIgnoreCase(fk.parent_columns[0],
                         parent->columns[static_cast<size_t>(parent->rowid_alias)].name);
    if (names_ipk) {
      out->parent_cols.push_back(-1);
      out->child_cols.push_back(fk.from_columns[0]);
      return true;
    }
  }
  // A WITHOUT ROWID table's PRIMARY KEY is the table's own B-tree, which
  // is probed like any unique index on the key columns.
  if (parent->pk_index != nullptr && MatchIndex(parent, parent->pk_index.get(), fk, out)) {
    return true;
  }
  for (const Index* idx : parent->indexes) {
    if (fk.parent_columns.empty() && idx->origin != 'p') continue;
    if (MatchIndex(parent, idx, fk, out)) return true;
  }
  return false;
}

std::vector<FkRef> FkReferences(const Table* parent) {
  std::vector<FkRef> refs;
  if (parent->owner == nullptr) return refs;
  std::vector<const Table*> tables;
  for (const auto& [name, t] : parent->owner->tables()) {
    if (!t->foreign_keys.empty() && !t->is_view && !t->is_virtual) tables.push_back(t.get());
  }
  std::sort(tables.begin(), tables.end(),
            [](const Table* a, const Table* b) { return a->root > b->root; });
  for (const Table* t : tables) {
    for (size_t i = t->foreign_keys.size(); i-- > 0;) {
      const ForeignKeyDef& fk = t->foreign_keys[i];
      if (EqualsIgnoreCase(fk.parent_table, parent->name)) refs.push_back({t, &fk});
    }
  }
  return refs;
}

}  // namespace basalt
