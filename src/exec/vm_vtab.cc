// The VM's virtual table opcodes: VOpen, VFilter, VNext, VColumn, VRowid,
// VUpdate and VBegin, over the interfaces of catalog/vtab.h.
#include "catalog/schema.h"
#include "catalog/vtab.h"
#include "exec/vm.h"
#include "exec/vm_cursor.h"

namespace basalt {

namespace {
// The connected virtual table of a VOpen / VUpdate / VBegin P4.
Vtab* VtabOf(const Instr& in) {
  const Table* t = in.p4_table();
  BASALT_DCHECK(t->is_virtual);
  return t->vtab.get();
}
}  // namespace

bool Vm::VtabOpen(const Instr& in) {
  Vtab* vt = VtabOf(in);
  if (vt == nullptr) return SetError(Status(kError, "no such module: " + in.p4_table()->module));
  std::unique_ptr<VtabCursor> c;
  Status st = vt->Open(&c);
  if (!st.ok()) return SetError(std::move(st));
  cursors_[static_cast<size_t>(in.p1)] = VmCursor::OpenVtab(std::move(c));
  return true;
}

bool Vm::VtabFilter(const Instr& in, bool* empty) {
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  BASALT_DCHECK(c != nullptr && c->kind() == VmCursor::Kind::kVtab);
  const VFilterInfo* plan = in.p4_vfilter();
  vtab_args_.resize(static_cast<size_t>(plan->argc));
  for (int i = 0; i < plan->argc; ++i) vtab_args_[static_cast<size_t>(i)] = &regs_[in.p3 + i];
  c->ClearNullRow();
  Status st = c->vtab()->Filter(plan->idx_num, plan->idx_str, plan->argc, vtab_args_.data());
  if (!st.ok()) return SetError(std::move(st));
  *empty = c->vtab()->Eof();
  return true;
}

bool Vm::VtabNext(const Instr& in, bool* more) {
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  Status st = c->vtab()->Next();
  if (!st.ok()) return SetError(std::move(st));
  *more = !c->vtab()->Eof();
  return true;
}

bool Vm::VtabColumn(const Instr& in) {
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  Value* out = &regs_[in.p3];
  out->SetNull();
  if (c->null_row()) return true;
  // p5: an UPDATE's unchanged column; left unset by the table, it stays
  // the unchanged NULL that sqlite3_value_nochange reports.
  if (in.p5 != 0) out->SetNoChange();
  FuncContext ctx;
  ctx.conn = env_->hooks;
  ctx.api_db = env_->api_db;
  ctx.result = out;
  ctx.vtab_nochange = in.p5 != 0;
  Status st = c->vtab()->Column(&ctx, in.p2);
  if (!st.ok()) return SetError(std::move(st));
  if (ctx.is_error) {
    return SetError(Status(ctx.error_code != 0 ? ctx.error_code : kError, ctx.error_msg));
  }
  return true;
}

bool Vm::VtabRowid(const Instr& in) {
  VmCursor* c = cursors_[static_cast<size_t>(in.p1)].get();
  Value* out = &regs_[in.p2];
  if (c->null_row()) {
    out->SetNull();
    return true;
  }
  int64_t rowid = 0;
  Status st = c->vtab()->Rowid(&rowid);
  if (!st.ok()) return SetError(std::move(st));
  out->SetInt(rowid);
  return true;
}

bool Vm::VtabUpdate(const Instr& in) {
  Vtab* vt = VtabOf(in);
  if (vt == nullptr) return SetError(Status(kError, "no such module: " + in.p4_table()->module));
  vtab_args_.resize(static_cast<size_t>(in.p2));
  for (int i = 0; i < in.p2; ++i) vtab_args_[static_cast<size_t>(i)] = &regs_[in.p3 + i];
  // The statement's conflict mode as sqlite3_vtab_on_conflict numbers it
  // (ROLLBACK 1, IGNORE 2, FAIL 3, ABORT 4, REPLACE 5), from OnConflict order.
  static const int kModes[] = {4, 1, 4, 3, 2, 5};
  const int mode = in.p5 < 6 ? kModes[in.p5] : 4;
  int64_t rowid = 0;
  Status st = vt->Update(in.p2, vtab_args_.data(), &rowid, mode);
  if (!st.ok()) {
    // OR IGNORE: a constraint failure skips the row — only for tables that
    // declared SQLITE_VTAB_CONSTRAINT_SUPPORT, as in SQLite (others, fts5
    // among them, report the failure).
    if (st.primary() == kConstraint && vt->constraint_support && mode == 2) return true;
    if (st.primary() == kConstraint && vt->constraint_support && mode == 1) halt_action_ = 1;
    return SetError(std::move(st));
  }
  if (in.p1 & 1) env_->last_insert_rowid = rowid;
  if (in.p1 & 2) {
    ++n_change_;
    ++n_total_change_;
  }
  return true;
}

bool Vm::VtabBegin(const Instr& in) {
  Vtab* vt = VtabOf(in);
  if (vt == nullptr || env_->hooks == nullptr) return true;
  Status st = env_->hooks->VtabBegin(vt);
  if (!st.ok()) return SetError(std::move(st));
  return true;
}

}  // namespace basalt
