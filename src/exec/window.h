// What the VM needs to compute the window functions of one window stage
// (the WinInit / WinNext opcodes; exec/vm_window.cc runs them, and
// exec/codegen_window.cc builds them).
//
// A stage is a set of window functions sharing PARTITION BY and ORDER BY.
// Its rows go through a sorter as records laid out as
//
//   [partition keys][order keys][per function: arguments, FILTER flag][payload]
//
// sorted by the keys (stably: rows that tie keep their input order). WinNext
// then returns the rows in that order: the payload fields are copied into
// registers and each function's value for the row is written over its own
// register within that range.
#pragma once

#include <cstdint>

#include "catalog/function.h"
#include "parser/ast.h"
#include "record/collation.h"
#include "record/record.h"

namespace basalt {

enum class WinKind : uint8_t {
  kAggregate,  // any aggregate over the frame (built-in or user)
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
};

// The kind of a function's def: the built-in window functions by name
// (they carry kFuncWindowOnly), every other def is an aggregate.
WinKind WinKindOf(const FunctionDef* def);

struct WinFuncSpec {
  WinKind kind = WinKind::kAggregate;
  const FunctionDef* def = nullptr;
  const Collation* coll = nullptr;
  int nargs = 0;
  int arg = 0;      // record field of the first argument
  int filter = -1;  // record field of the FILTER flag (1: row counts), or -1
  int out = 0;      // offset of the result within the payload registers
  ast::FrameUnit unit = ast::FrameUnit::kRange;
  ast::FrameBound start = ast::FrameBound::kUnboundedPreceding;
  ast::FrameBound end = ast::FrameBound::kCurrentRow;
  ast::FrameExclude exclude = ast::FrameExclude::kNoOthers;
  int start_reg = 0;  // register holding the start / end offset (0: none)
  int end_reg = 0;
};

struct WindowSpec {
  int id = 0;               // the VM's state slot for this stage
  int n_part = 0;           // partition key fields
  int n_keys = 0;           // partition + order key fields
  KeyInfo part_key;         // the first n_part fields
  KeyInfo peer_key;         // the first n_keys fields (rows that tie are peers)
  bool order_desc = false;  // the last order key is DESC (RANGE offsets)
  int payload = 0;          // first payload field
  int n_payload = 0;
  int n_funcs = 0;
  const WinFuncSpec* funcs = nullptr;
};

}  // namespace basalt
