// Comparators for seeks in index B-trees: a search key held as Values
// against the records in the tree (internal to src/exec, used by VmCursor).
#pragma once

#include <cstdint>

#include "btree/btree.h"
#include "common/status.h"
#include "record/record.h"
#include "record/value.h"
#include "record/value_ops.h"

namespace basalt {

// One seek: the key (n values), how its values compare (KeyInfo), and the
// result for a record equal to the key in all n fields (default_rc).
struct SeekCtx {
  SeekCtx(const Value* k, int nk, const KeyInfo* info, int rc, Status* st)
      : key(k),
        n(nk),
        ki(info),
        default_rc(rc),
        status(st),
        cmp(ChooseRecordComparator(k, nk, *info)) {}
  // Leading key values that are integers compared ascending; computed when
  // a comparison first needs it (-1 until then).
  int int_prefix = -1;
  const Value* key;
  int n;
  const KeyInfo* ki;
  int default_rc;
  Status* status;
  RecordKeyComparator cmp;  // chosen once per seek for the key's first value
};

// The general comparator, and the one for a key whose first value is an
// integer (its leading integer fields decoded inline).
int SeekCompareGeneric(void* ctx, const uint8_t* key, uint32_t n);
int SeekCompareIntFirst(void* ctx, const uint8_t* key, uint32_t n);

// The comparator for ctx's key.
inline SearchComparator SeekCompare(const SeekCtx& ctx) {
  return ctx.cmp == CompareRecordIntFirst ? SeekCompareIntFirst : SeekCompareGeneric;
}

// The key's first value for BtCursor::SeekIndex's int_first, or null:
// SeekCompareIntFirst orders a record whose first field is another integer
// by that field alone.
inline const int64_t* SeekIntFirst(const SeekCtx& ctx, int64_t* slot) {
  if (ctx.cmp != CompareRecordIntFirst) return nullptr;
  *slot = ctx.key[0].int_value();
  return slot;
}

}  // namespace basalt
