// The fts5 cursor, and the Fts5ExtensionApi functions that work on it
// (api.cc).
//
// Modes: a scan of the content (no MATCH), a rowid lookup, a MATCH in
// rowid order, a MATCH ordered by rank (rows come from an inner statement
// "SELECT rowid, rank ... ORDER BY <rank function>" whose cursor adopts
// this cursor's expression: the "source" mode).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ext/fts5/table.h"

namespace basalt::fts5 {

struct Cursor {
  sqlite3_vtab_cursor base{};  // first: sqlite3_vtab_cursor* is a Cursor*
  Table* tab = nullptr;
  int64_t id = 0;  // the value of the table-named column
  enum Mode { kScan, kLookup, kMatch, kSorted, kSource, kSpecial } mode = kScan;
  int64_t special = 0;  // kSpecial: the one row's value
  bool eof = true;
  int64_t rowid = 0;

  Stmt scan;  // kScan / kLookup: the content rows
  Expr own_expr;
  Expr* expr = nullptr;  // own_expr, or the sorting cursor's (kSource)
  // xQueryPhrase: a cursor over one phrase of another cursor's query (its
  // only phrase, index 0), whose rowids are that phrase's hits.
  const Phrase* query_phrase = nullptr;
  std::vector<int64_t> rowids;
  size_t at = 0;
  Stmt sorter;  // kSorted: SELECT rowid, rank ... ORDER BY rank function

  // The rank function and its argument values.
  std::string rank_fn, rank_args;
  const AuxFunctionEntry* rank = nullptr;
  Stmt rank_arg_stmt;
  std::vector<sqlite3_value*> rank_vals;

  // Row caches, reset on each move.
  Stmt row;
  bool row_loaded = false, row_found = false;
  std::string rowid_text;  // xColumnText(-1): the rowid as text
  std::vector<int> docsize;
  bool docsize_loaded = false;
  struct Inst {
    int phrase, col, off;
  };
  std::vector<Inst> insts;
  bool insts_loaded = false;
  // detail=column/none: the phrases' positions, found by tokenizing the row.
  std::vector<std::vector<uint64_t>> row_pos;
  bool row_pos_loaded = false;
  int LoadRowPositions();

  // Auxiliary-function data, one slot per function.
  struct AuxData {
    const AuxFunctionEntry* fn;
    void* p;
    void (*destroy)(void*);
  };
  std::vector<AuxData> aux;
  const AuxFunctionEntry* current_aux = nullptr;

  ~Cursor();
  void ResetRow();
  void ClearAux();
  int LoadRow();                        // content of the current row into `row` (kMatch/kSorted)
  sqlite3_value* ColumnValue(int col);  // null when unavailable
  std::span<const uint64_t> PhrasePositions(int phrase);
  int PhraseCount() const;
  const Phrase* PhraseAt(int i) const;
  int LoadInsts();
  int LoadDocsize();
  int FindRank(std::string* err);
};

extern const Fts5ExtensionApi kExtensionApi;

// Calls an auxiliary function for the cursor (the rank column, or an SQL
// call through xFindFunction).
void InvokeAux(const AuxFunctionEntry* fn, Cursor* c, sqlite3_context* ctx, int argc,
               sqlite3_value** argv);

// Cursor registry of a connection (cursor ids for auxiliary functions).
void RegisterCursor(Global* g, Cursor* c);
void UnregisterCursor(Global* g, Cursor* c);
Cursor* FindCursor(Global* g, int64_t id);

}  // namespace basalt::fts5
