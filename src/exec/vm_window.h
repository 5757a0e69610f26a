// The state of one window stage while its rows are returned (WinInit,
// WinNext; the stage's layout is described in exec/window.h).
//
// Invariants, for the row WinNext returns next (cur_):
//  1. [ps_, pe_) is cur_'s partition: all rows of the sorter from ps_ equal
//     to it on the partition keys (the sorter holds them sorted).
//  2. When the stage needs peer groups, gstart_ lists the first row of each
//     group of peers of the partition followed by pe_, and gi_ is the group
//     of cur_: gstart_[gi_] <= cur_ < gstart_[gi_ + 1].
//  3. An aggregate's accumulator holds exactly the rows [fs, fe) of its
//     FnState (those whose FILTER passed), stepped in order, with the ones
//     before fs removed by inverse(); frames only move forward within a
//     partition, so each row is stepped and removed at most once.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "catalog/function.h"
#include "common/status.h"
#include "exec/sorter.h"
#include "exec/window.h"
#include "exec/window_rows.h"
#include "record/value.h"

namespace basalt {

namespace window_internal {
// The integer v exactly is (numeric text converted), as OP_MustBeInt.
bool ExactInteger(const Value& v, int64_t* out);
// The error a function call raised.
Status FuncError(const FuncContext& ctx);
}  // namespace window_internal

class WindowRun {
 public:
  WindowRun() = default;
  ~WindowRun();
  WindowRun(const WindowRun&) = delete;
  WindowRun& operator=(const WindowRun&) = delete;

  // Starts over the sorted rows of `sorter`; checks the frame offsets
  // (registers `regs`), failing as SQLite does. A sorter that spilled is
  // read through a temporary file of `vfs`, cache_bytes of it in memory
  // (window_rows.h).
  Status Start(const WindowSpec* spec, Sorter* sorter, const Value* regs, ConnectionHooks* hooks,
               void* api_db, Vfs* vfs, size_t cache_bytes);
  // The next row: payload and function values into out[0..n_payload);
  // *more is false (nothing written) after the last row.
  Status Next(Value* out, bool* more);

 private:
  struct FnState {
    FuncContext acc;
    size_t fs = 0, fe = 0;  // rows in acc (invariant 3)
    bool live = false;
    int64_t ntile = 0;
    // min() / max() over a moving frame: the rows of [fs, fe) that may still
    // become the result, from dq[head] on, their values in order (the front
    // is the result).
    std::vector<size_t> dq;
    size_t head = 0;
    int64_t start_off = 0, end_off = 0;  // ROWS / GROUPS offsets
    Value start_val, end_val;            // RANGE offsets
  };

  // Record access.
  const uint8_t* rec(size_t i) const { return rows_->data(i); }
  uint32_t len(size_t i) const { return rows_->size(i); }
  // Field f of row i; text and blobs point into the sorter unless !borrow
  // or the rows were spilled (their bytes do not stay put then).
  void Field(size_t i, int f, Value* out, bool borrow = true) const;
  bool FilterPasses(const WinFuncSpec& f, size_t j) const;

  Status CheckOffset(const Value& v, bool range, bool start, int64_t* n, Value* out) const;
  void StartPartition();
  size_t GroupEnd() const { return gstart_[gi_ + 1]; }
  void Frame(const WinFuncSpec& f, const FnState& s, size_t* fs, size_t* fe);
  size_t RangeBound(const WinFuncSpec& f, const FnState& s, bool is_start);
  bool Excluded(const WinFuncSpec& f, size_t j) const;
  Status Compute(const WinFuncSpec& f, FnState* s, Value* out);
  Status ComputeAggregate(const WinFuncSpec& f, FnState* s, Value* out);
  void ComputeMinMax(const WinFuncSpec& f, FnState* s, Value* out);
  Status ComputeValueAt(const WinFuncSpec& f, FnState* s, Value* out);
  Status ComputeNtile(FnState* s, Value* out);
  void ComputeOffsetRow(const WinFuncSpec& f, Value* out);
  Status Step(const WinFuncSpec& f, FuncContext* acc, size_t j, bool inverse);
  void InitAcc(const WinFuncSpec& f, FuncContext* acc);
  void ResetAcc(FuncContext* acc);

  const WindowSpec* spec_ = nullptr;
  std::unique_ptr<WindowRows> rows_;
  ConnectionHooks* hooks_ = nullptr;
  void* api_db_ = nullptr;
  size_t n_ = 0;
  size_t cur_ = 0;
  size_t ps_ = 0, pe_ = 0;
  bool need_groups_ = false;
  std::vector<size_t> gstart_;
  size_t gi_ = 0;
  size_t ns_ = 0, ne_ = 0;  // the rows whose RANGE key is not NULL
  std::vector<FnState> fns_;
  std::vector<Value> args_;
  std::vector<Value*> argv_;
  Value key_, bound_, scratch_;
};

}  // namespace basalt
