// Foreign keys seen from the schema: the parent table a key refers to, the
// parent key (the rowid, the PRIMARY KEY or a UNIQUE index) its columns
// match, and the keys of other tables that refer to a table.
#pragma once

#include <vector>

#include "catalog/schema.h"

namespace basalt {

// The parent key of one foreign key. Invariant: parent_cols and child_cols
// have one entry per key column, in the order of `index` (in declaration
// order when index is null); with a null index the parent key is the rowid
// and parent_cols holds {-1}.
struct FkParentKey {
  const Table* parent = nullptr;
  const Index* index = nullptr;  // null: the parent's rowid
  std::vector<int> parent_cols;  // parent column numbers (-1: the rowid)
  std::vector<int> child_cols;   // the child column compared with each
};

// The table `fk` (a key of `child`) refers to, in the child's database;
// null when there is none.
const Table* FkParentTable(const Table* child, const ForeignKeyDef& fk);

// The parent key of `fk` in `parent`, chosen as SQLite does: the rowid when
// the key names the INTEGER PRIMARY KEY (or names nothing and the parent has
// one), else a UNIQUE index (not partial) over exactly the key's columns
// with their default collations. False when there is none (the "foreign key
// mismatch" error).
bool LocateFkParentKey(const Table* child, const Table* parent, const ForeignKeyDef& fk,
                       FkParentKey* out);

// One foreign key that refers to a table.
struct FkRef {
  const Table* child = nullptr;
  const ForeignKeyDef* fk = nullptr;
};

// The foreign keys of tables of `parent`'s database that name `parent`
// (most recently created table first, its last declared key first).
std::vector<FkRef> FkReferences(const Table* parent);

}  // namespace basalt
