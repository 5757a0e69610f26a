// ATTACH and DETACH (lang_attach, lang_detach): databases added to and
// removed from the connection, each with its own file, pager and schema.
#include "exec/codegen.h"
#include "main/ddl.h"
#include "os/vfs.h"
#include "record/value_ops.h"

namespace basalt {

// The value of ATTACH's file / name expressions and DETACH's name: an
// identifier stands for its own text (as SQLite reads `AS aux`), NULL for
// the empty string; a bound parameter or any constant expression is
// evaluated.
Status DdlExecutor::EvalName(ast::Expr* e, std::string* out, bool* is_null) {
  *is_null = false;
  out->clear();
  if (e == nullptr) return Status();
  Value v;
  if (e->kind == ast::ExprKind::kColumn && e->table.empty()) {
    *out = std::string(e->text);
    return Status();
  }
  if (e->kind == ast::ExprKind::kString) {
    *out = std::string(e->text);
    return Status();
  }
  if (e->kind == ast::ExprKind::kParam) {
    const size_t i = static_cast<size_t>(e->param_index);
    if (params_ != nullptr && i < params_->size()) v.CopyFrom((*params_)[i]);
  } else {
    Arena arena;
    CompileContext ctx;
    InitContext(&ctx, &arena);
    ast::SelectStmt probe;
    ast::Select* sel = ctx.ParseSelect("SELECT " + std::string(e->span));
    if (sel == nullptr) return ctx.error;
    probe.select = sel;
    ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, CompileStatement(&probe, &ctx));
    Vm vm(prog.get(), env_);
    StepResult r = vm.Step();
    if (r == StepResult::kError) return vm.status();
    if (r == StepResult::kRow && vm.row_size() > 0) v.CopyFrom(vm.row()[0]);
  }
  if (v.is_null()) {
    *is_null = true;
    return Status();
  }
  Stringify(&v);
  *out = v.is_text() ? std::string(v.text()) : std::string();
  return Status();
}

Status DdlExecutor::Attach(ast::AttachStmt* st) {
  if (dry_run_) return Status();
  std::string file, name;
  bool null_file = false, null_name = false;
  TRY(EvalName(st->file, &file, &null_file));
  TRY(EvalName(st->name, &name, &null_name));
  int max_attached =
      limits_ != nullptr ? limits_->get(LimitId::kAttached) : SchemaStore::kMaxAttached;
  if (store_->size() >= 2 + max_attached) {
    return Status(kError, "too many attached databases - max " + std::to_string(max_attached));
  }
  if (store_->Find(name) >= 0) return Status(kError, "database " + name + " is already in use");
  OpenTarget target;
  TRY(ParseOpenTarget(file, open_flags_, &target));
  auto db = std::make_unique<Database>(name, /*temp=*/false);
  db->filename = file;
  Status st_open = db->Open(target, vfs_ != nullptr ? vfs_ : DefaultVfs());
  if (!st_open.ok()) return Status(kCantOpen, "unable to open database: " + file);
  // The schema is read now: a file that is not a database fails ATTACH.
  Status ls = db->EnsureSchema();
  if (!ls.ok()) return ls;
  if (db->bt->page_count() > 0 && db->enc != store_->main()->enc) {
    return Status(kError, "attached databases must use the same text encoding as main database");
  }
  db->SetTextEncoding(store_->main()->enc);
  store_->Attach(std::move(db));
  return Status();
}

Status DdlExecutor::Detach(ast::DetachStmt* st) {
  if (dry_run_) return Status();
  std::string name;
  bool is_null = false;
  TRY(EvalName(st->name, &name, &is_null));
  const int i = store_->Find(name);
  if (i < 0) return Status(kError, "no such database: " + name);
  if (i < 2) return Status(kError, "cannot detach database " + name);
  Database* db = store_->at(i);
  if (db->bt != nullptr && db->bt->in_transaction()) {
    return Status(kError, "database " + name + " is locked");
  }
  store_->Detach(i);
  return Status();
}

}  // namespace basalt
