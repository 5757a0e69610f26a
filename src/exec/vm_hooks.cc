// The update and preupdate hooks of Insert, IdxInsert and Delete (see
// exec/change_hooks.h for which writes carry them and why the VM asks
// nothing when no hook is set).
#include "catalog/schema.h"
#include "exec/vm.h"
#include "exec/vm_cursor.h"
#include "record/record.h"

namespace basalt {

// Register layout of a hooked write (set by the code generator):
//   Insert     P3 = the new row (rowid, then every column); P4 the table
//   IdxInsert  P3 = the new row of a WITHOUT ROWID table; P4 the table
//   Delete     P2 = the old row; with kInsHookOnly (an UPDATE) P3 = the new row
// `after` is false before the write (the preupdate hook) and true after it
// (the update hook, which WITHOUT ROWID tables never fire).
// Fields in the record cursor c is on (-1 if it cannot be read).
int Vm::RecordFields(int c) {
  VmCursor* cur = cursors_[static_cast<size_t>(c)].get();
  Value rec;
  if (cur == nullptr || !cur->RecordData(&rec).ok() || !rec.is_blob()) return -1;
  std::vector<uint32_t> types, offsets;
  Result<int> n = ParseRecordHeader(reinterpret_cast<const uint8_t*>(rec.data()),
                                    static_cast<uint32_t>(rec.size()), &types, &offsets);
  return n.ok() ? *n : -1;
}

void Vm::FireHooks(const Instr& in, bool after) {
  ChangeHooks* h = env_->change_hooks;
  if ((in.p5 & (kInsPreHook | kInsUpdHook)) == 0 || in.p4type() != P4Type::kTable) return;
  const Table* t = in.p4_table();
  const Value* r = regs_.data();
  if (after) {
    if (!h->has_update || (in.p5 & kInsUpdHook) == 0 || t->without_rowid) return;
    ChangeOp op = ChangeOp::kDelete;
    int64_t rowid = 0;
    if (in.op == Opcode::kInsert) {
      op = (in.p5 & kInsIsUpdate) ? ChangeOp::kUpdate : ChangeOp::kInsert;
      rowid = r[in.p3].int_value();
    } else {
      rowid = r[in.p2].int_value();
    }
    h->fire_update(h, op, t, rowid);
    return;
  }
  if (!h->has_preupdate || (in.p5 & kInsPreHook) == 0) return;
  PreUpdateFrame f;
  f.table = t;
  for (const auto& [addr, depth] : prog_->hook_depths) {
    if (addr == pc_) f.depth = depth;
  }
  if (in.op == Opcode::kDelete) {
    f.old_row = &r[in.p2];
    if (!t->without_rowid) f.old_fields = RecordFields(in.p1);
    f.key1 = t->without_rowid ? 0 : r[in.p2].int_value();
    f.key2 = f.key1;
    f.op = ChangeOp::kDelete;
    if (in.p5 & kInsHookOnly) {
      f.op = ChangeOp::kUpdate;
      f.new_row = &r[in.p3];
      if (!t->without_rowid) f.key2 = r[in.p3].int_value();
    }
  } else {
    f.op = ChangeOp::kInsert;
    f.new_row = &r[in.p3];
    f.key1 = t->without_rowid ? 0 : r[in.p3].int_value();
    f.key2 = f.key1;
  }
  const PreUpdateFrame* outer = h->current;
  h->current = &f;
  h->fire_preupdate(h, f);
  h->current = outer;
}

}  // namespace basalt
