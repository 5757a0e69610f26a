// Triggers, compiled inline at each place they fire: the WHEN clause and the
// body statements run with NEW/OLD bound to the registers of the row.
#include <algorithm>

#include "exec/codegen_internal.h"
#include "parser/parser.h"

namespace basalt {

using ast::Expr;

// SQLITE_DBCONFIG_ENABLE_TRIGGER off leaves only TEMP triggers firing.
bool Codegen::TriggerEnabled(const Trigger* trig) const {
  return ctx_->options.enable_trigger || (trig->owner != nullptr && trig->owner->is_temp());
}

bool Codegen::HasTriggers(const Table* tab, int event, int time,
                          const std::vector<bool>* changed_cols) {
  if (no_triggers_) return false;
  std::vector<const Trigger*> triggers;
  ctx_->catalog->TriggersOn(tab, &triggers);
  for (const Trigger* trig : triggers) {
    if (trig->event != event || trig->time != time || !TriggerEnabled(trig)) continue;
    if (event == static_cast<int>(ast::TriggerEvent::kUpdate) && changed_cols &&
        !trig->update_columns.empty()) {
      bool hit = false;
      for (const std::string& c : trig->update_columns) {
        int i = tab->FindColumn(c);
        if (i >= 0 && (*changed_cols)[static_cast<size_t>(i)]) hit = true;
      }
      if (!hit) continue;
    }
    bool active = false;
    for (const Trigger* a : active_triggers_) active |= a == trig;
    if (active && !ctx_->options.recursive_triggers) continue;
    return true;
  }
  return false;
}

void Codegen::CodeTriggers(const Table* tab, int event, int time, int old_base, int new_base,
                           int skip_label, const std::vector<bool>* changed_cols,
                           OnConflict on_conflict) {
  if (no_triggers_) return;
  // The most recently created trigger fires first.
  std::vector<const Trigger*> triggers;
  ctx_->catalog->TriggersOn(tab, &triggers);
  for (auto it = triggers.rbegin(); it != triggers.rend(); ++it) {
    const Trigger* trig = *it;
    if (trig->event != event || trig->time != time || !TriggerEnabled(trig)) continue;
    if (event == static_cast<int>(ast::TriggerEvent::kUpdate) && changed_cols &&
        !trig->update_columns.empty()) {
      bool hit = false;
      for (const std::string& c : trig->update_columns) {
        int i = tab->FindColumn(c);
        if (i >= 0 && (*changed_cols)[static_cast<size_t>(i)]) hit = true;
      }
      if (!hit) continue;
    }
    bool active = false;
    for (const Trigger* a : active_triggers_) active |= a == trig;
    if (active) {
      // Recursion: compiled once as a sub-program that can run itself. Its
      // arguments: OLD then NEW, rowid first (n = columns + 1 each).
      if (!ctx_->options.recursive_triggers) continue;
      const Program* sub = TriggerSubprogram(trig, tab, event, on_conflict);
      if (sub == nullptr) return;
      int n = static_cast<int>(tab->columns.size()) + 1;
      int args = AllocReg(2 * n);
      if (event != static_cast<int>(ast::TriggerEvent::kInsert)) {
        Op(Opcode::kCopy, old_base, args, n - 1);
      }
      if (event != static_cast<int>(ast::TriggerEvent::kDelete)) {
        Op(Opcode::kCopy, new_base, args + n, n - 1);
      }
      int a = Op(Opcode::kProgram, args, 2 * n, skip_label);
      prog_->SetP4(a, sub);
      // The triggers inlined in this program around the call are frames of
      // SQLite's trigger depth too (SQLITE_LIMIT_TRIGGER_DEPTH counts them).
      int inlined = static_cast<int>(active_triggers_.size()) - trigger_base_;
      prog_->at(a).p5 = static_cast<uint8_t>(std::clamp(inlined, 0, 255));
      continue;
    }
    if (active_triggers_.size() > 32) {
      ctx_->Error("too many levels of trigger recursion");
      return;
    }
    if (!CodeTriggerBody(trig, tab, event, old_base, new_base, skip_label, on_conflict)) return;
  }
}

// The WHEN clause and body of `trig` inline, NEW/OLD at new_base/old_base;
// RAISE(IGNORE) jumps to skip_label.
bool Codegen::CodeTriggerBody(const Trigger* trig, const Table* tab, int event, int old_base,
                              int new_base, int skip_label, OnConflict on_conflict) {
  ast::Stmt* parsed = ctx_->ParseStmt(trig->sql);
  if (parsed == nullptr || parsed->kind != ast::StmtKind::kCreateTrigger) return false;
  auto* ct = parsed->As<ast::CreateTriggerStmt>();
  // The body's unqualified names bind to the trigger's own database.
  CompileContext::FixedDbScope fixed(ctx_, trig->owner);
  Scope scope;
  scope.trigger_table = tab;
  scope.new_base = event == static_cast<int>(ast::TriggerEvent::kDelete) ? -1 : new_base;
  scope.old_base = event == static_cast<int>(ast::TriggerEvent::kInsert) ? -1 : old_base;
  std::vector<Source> no_sources;
  scope.sources = &no_sources;
  active_triggers_.push_back(trig);
  ++in_trigger_;
  trigger_frames_.push_back({skip_label});
  int end = MakeLabel();
  // Statement tracing sees "-- TRIGGER name" as the trigger starts and
  // "-- <step text>" (whitespace as spaces) before each step, as SQLite.
  OpP4Str(Opcode::kTrace, 0, 0, 0, "-- TRIGGER " + trig->name);
  if (ct->when != nullptr) {
    if (!resolver_.ResolveExpr(ct->when, &scope)) return false;
    CodeJumpIf(ct->when, end, false, true);
  }
  for (ast::Stmt* st : ct->body) {
    std::string step = "-- " + std::string(st->span);
    for (char& c : step) {
      if (c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') c = ' ';
    }
    OpP4Str(Opcode::kTrace, 0, 0, 0, step);
    switch (st->kind) {
      case ast::StmtKind::kSelect: {
        ast::Select* sel = st->As<ast::SelectStmt>()->select;
        if (!resolver_.ResolveSelect(sel, &scope)) return false;
        SelectDest d;
        d.kind = SelectDest::kDiscard;
        CodeSelect(sel, &d);
        break;
      }
      case ast::StmtKind::kInsert: {
        auto* ins = st->As<ast::InsertStmt>();
        if (ins->on_conflict == ast::ConflictAction::kDefault &&
            on_conflict != OnConflict::kDefault) {
          ins->on_conflict = static_cast<ast::ConflictAction>(static_cast<int>(on_conflict));
        }
        CodeInsert(ins, &scope);
        break;
      }
      case ast::StmtKind::kUpdate: {
        auto* up = st->As<ast::UpdateStmt>();
        if (up->on_conflict == ast::ConflictAction::kDefault &&
            on_conflict != OnConflict::kDefault) {
          up->on_conflict = static_cast<ast::ConflictAction>(static_cast<int>(on_conflict));
        }
        CodeUpdate(up, &scope);
        break;
      }
      case ast::StmtKind::kDelete:
        CodeDelete(st->As<ast::DeleteStmt>(), &scope);
        break;
      default:
        ctx_->Error("unsupported statement in trigger");
        break;
    }
    if (ctx_->failed()) return false;
  }
  ResolveLabel(end);
  trigger_frames_.pop_back();
  --in_trigger_;
  active_triggers_.pop_back();
  return true;
}

// The sub-program of `trig` compiled for `on_conflict` (compiled on first
// use, owned by the top-level program, and registered before its body is
// compiled so that the body's own recursion finds it). Null after an error.
const Program* Codegen::TriggerSubprogram(const Trigger* trig, const Table* tab, int event,
                                          OnConflict on_conflict) {
  Program* root = root_prog_ != nullptr ? root_prog_ : prog_;
  // (The trigger determines the table; a view's stand-in differs per use.)
  for (const SubprogramEntry& e : *subprogram_cache_) {
    if (e.trig == trig && e.on_conflict == static_cast<int>(on_conflict)) return e.prog;
  }
  root->subprograms.push_back(std::make_unique<Program>());
  Program* sub = root->subprograms.back().get();
  subprogram_cache_->push_back({trig, static_cast<int>(on_conflict), sub});
  int ncol = static_cast<int>(tab->columns.size());
  Codegen cg(ctx_, sub);
  cg.root_prog_ = root;
  cg.subprogram_cache_ = subprogram_cache_;
  cg.active_triggers_ = active_triggers_;
  // The sub-program's own trigger is the frame its Vm stands for.
  cg.trigger_base_ = static_cast<int>(active_triggers_.size()) + 1;
  cg.in_trigger_ = in_trigger_;
  int old_base = cg.AllocReg(ncol + 1);
  int new_base = cg.AllocReg(ncol + 1);
  int ignored = cg.MakeLabel();
  if (!cg.CodeTriggerBody(trig, tab, event, old_base, new_base, ignored, on_conflict)) {
    return nullptr;
  }
  cg.Op(Opcode::kHalt, kOk, 0);
  cg.ResolveLabel(ignored);
  cg.Op(Opcode::kHalt, kOk, static_cast<int>(OnConflict::kIgnore));
  cg.FixLabels();
  sub->n_cursors = std::max(sub->n_cursors, ctx_->n_cursors);
  sub->writes = true;
  return sub;
}

void Codegen::CodeRaise(Expr* e) {
  if (trigger_frames_.empty()) {
    ctx_->Error("RAISE() may only be used within a trigger-program");
    return;
  }
  if (e->op == ast::Op::kRaiseIgnore) {
    Op(Opcode::kGoto, 0, trigger_frames_.back().ignore_label);
    return;
  }
  OnConflict act = e->op == ast::Op::kRaiseRollback ? OnConflict::kRollback
                   : e->op == ast::Op::kRaiseFail   ? OnConflict::kFail
                                                    : OnConflict::kAbort;
  OpP4Str(Opcode::kHalt, kConstraintTrigger, static_cast<int>(act), 0, e->text);
}

Status CheckTriggerCompiles(const Trigger* trig, const Table* tab, CompileContext* ctx) {
  Program prog;
  Codegen cg(ctx, &prog);
  const Program* sub = cg.TriggerSubprogram(trig, tab, trig->event, OnConflict::kAbort);
  if (ctx->failed()) return ctx->error;
  if (sub == nullptr) return Status(kError, "malformed trigger " + trig->name);
  return Status();
}

}  // namespace basalt
