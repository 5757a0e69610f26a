// The structural checks of 'integrity-check' (integrity.cc).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ext/fts5/format.h"
#include "ext/fts5/index.h"
#include "ext/fts5/store.h"

namespace basalt::fts5 {

// Checks segment seg's %_idx keys, leaves and doclist indexes as SQLite's
// integrity check does; SQLITE_CORRUPT_VTAB on a failure.
int CheckSegmentTree(DataStore* store, const Segment& seg);
// Reads the first page of each level of the doclist index of `leaf`, from
// level 0 up to the root (*top: its level), as SQLite does before using
// one: a missing page is corruption.
int ReadDlidxLevels(DataStore* store, int segid, int leaf, int* top);
// Every segment of the index's structure through CheckSegmentTree.
int CheckIndexTrees(Index* index);
// Each prefix index holds exactly what the main index's terms imply (its
// key for each term long enough, with the term's rowids and positions);
// `main` is the main index's terms (prefix byte included) and doclists.
int CheckPrefixIndexes(Index* index, const std::vector<std::pair<std::string, RawDoclist>>& main);

}  // namespace basalt::fts5
