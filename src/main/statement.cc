#include "main/statement.h"

#include "exec/codegen.h"
#include "exec/program.h"
#include "func/builtins.h"
#include "main/authorize.h"
#include "main/connection.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

namespace {
bool IsProgramKind(ast::StmtKind k) {
  return k == ast::StmtKind::kSelect || k == ast::StmtKind::kInsert ||
         k == ast::StmtKind::kUpdate || k == ast::StmtKind::kDelete;
}
const std::string& EmptyString() {
  static const std::string* s = new std::string();
  return *s;
}

// The databases a program opens cursors on, for reading and for writing.
void ProgramAccess(const Program& p, DbMask* read, DbMask* write) {
  *read = 0;
  *write = 0;
  for (const Instr& in : p.ops) {
    if (in.op == Opcode::kOpenRead || in.op == Opcode::kReopenIdx) *read |= DbBit(in.p3);
    if (in.op == Opcode::kOpenWrite) *write |= DbBit(in.p3);
  }
  // Foreign key actions (their triggers may write other databases).
  for (const std::unique_ptr<Program>& sub : p.subprograms) {
    DbMask r = 0, w = 0;
    ProgramAccess(*sub, &r, &w);
    *read |= r;
    *write |= w;
  }
}
}  // namespace

Statement::Statement(Connection* conn, std::string sql) : conn_(conn), sql_(std::move(sql)) {}

Statement::~Statement() {
  // Ending the execution may run out of memory (rolling back, committing);
  // a destructor must not throw, and the C API recovers the connection
  // afterwards (Connection::RecoverAfterException).
  if (active_) {
    try {
      Finish(CompleteWhenStopped(), static_cast<int>(2) /* abort */);
    } catch (...) {
    }
  }
}

Status Statement::Compile() {
  if (ast_ == nullptr) {
    arena_ = std::make_unique<Arena>();
    Parser parser(arena_.get(), sql_);
    parsed_text_ = sql_;
    Result<ast::Stmt*> r = parser.ParseStatement();
    if (!r.ok()) return r.status();
    ast_ = *r;
    if (ast_ == nullptr) return Status(kError, "not a statement");
    param_names_.clear();
    const ParamTable& pt = parser.params();
    for (int i = 0; i < pt.count; ++i) {
      param_names_.emplace_back(i < static_cast<int>(pt.names.size())
                                    ? std::string(pt.names[static_cast<size_t>(i)])
                                    : std::string());
    }
  }
  TRY(AuthorizeStatement(conn_->auth(), conn_->dbs().catalog(), ast_, &auth_noop_,
                         &conn_->vtabs()));
  explain_ = ast_->explain;
  params_.resize(param_names_.size() + 1);
  names_.clear();
  if (!IsProgramKind(ast_->kind)) {
    switch (ast_->kind) {
      case ast::StmtKind::kBegin:
      case ast::StmtKind::kCommit:
      case ast::StmtKind::kRollback:
      case ast::StmtKind::kSavepoint:
      case ast::StmtKind::kRelease:
        break;
      case ast::StmtKind::kPragma:
        TRY(conn_->ValidatePragma(ast_->As<ast::PragmaStmt>(), parsed_text_));
        break;
      case ast::StmtKind::kVacuum:
        TRY(conn_->ValidateVacuum(ast_->As<ast::VacuumStmt>(), parsed_text_));
        break;
      default:
        if (auth_noop_) break;  // an IGNOREd ALTER TABLE: nothing to check or run
        TRY(conn_->ddl().Validate(ast_, parsed_text_, arena_.get(), &conn_->last_error_offset_));
        conn_->ddl().Access(ast_, &read_mask_, &write_mask_);
        break;
    }
    schema_gen_ = conn_->schema_generation();
    uses_db_ = ast_->kind == ast::StmtKind::kPragma ? PragmaUsesDb(ast_->As<ast::PragmaStmt>())
                                                    : !read_only();
    if (explain_ == 1) {
      names_ = {"addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"};
    } else if (explain_ == 2) {
      names_ = {"id", "parent", "notused", "detail"};
    } else if (ast_->kind == ast::StmtKind::kPragma) {
      names_ = PragmaColumnNames(ast_->As<ast::PragmaStmt>());
    }
    return Status();
  }
  CompileContext ctx;
  conn_->InitCompileContext(&ctx, arena_.get(), parsed_text_);
  Result<std::unique_ptr<Program>> prog = CompileStatement(ast_, &ctx);
  if (!prog.ok()) {
    conn_->set_last_error_offset(ctx.error_offset);
    return prog.status();
  }
  prog_ = std::move(prog).value();
  // BINARY follows the UTF-16 byte order of a UTF-16 database (program.h).
  if (const uint8_t enc = conn_->dbs().main()->enc; IsUtf16(enc)) {
    UseUtf16Binary(prog_.get(), enc == kUtf16be);
  }
  prog_->n_params = static_cast<int>(param_names_.size());
  ProgramAccess(*prog_, &read_mask_, &write_mask_);
  uses_db_ = prog_->writes || (read_mask_ | write_mask_) != 0;
  vm_ = std::make_unique<Vm>(prog_.get(), conn_->env());
  schema_gen_ = conn_->schema_generation();
  if (explain_ == 1) {
    names_ = {"addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"};
  } else if (explain_ == 2) {
    names_ = {"id", "parent", "notused", "detail"};
  }
  return Status();
}

int Statement::column_count() const {
  if (explain_ || !prog_) return static_cast<int>(names_.size());
  return static_cast<int>(prog_->column_names.size());
}

const std::string& Statement::column_name(int i) const {
  if (explain_ || !prog_) return names_[static_cast<size_t>(i)];
  return prog_->column_names[static_cast<size_t>(i)];
}

const std::string& Statement::column_decltype(int i) const {
  if (explain_ || !prog_ || static_cast<size_t>(i) >= prog_->column_decltypes.size()) {
    return EmptyString();
  }
  return prog_->column_decltypes[static_cast<size_t>(i)];
}

const std::string& Statement::column_table(int i) const {
  if (explain_ || !prog_ || static_cast<size_t>(i) >= prog_->column_tables.size()) {
    return EmptyString();
  }
  return prog_->column_tables[static_cast<size_t>(i)];
}

const std::string& Statement::column_origin(int i) const {
  if (explain_ || !prog_ || static_cast<size_t>(i) >= prog_->column_origins.size()) {
    return EmptyString();
  }
  return prog_->column_origins[static_cast<size_t>(i)];
}

Value* Statement::column(int i) {
  if (!has_row_) return nullptr;
  if (explain_ || !prog_) return &rows_[row_pos_ - 1][static_cast<size_t>(i)];
  return &vm_->mutable_row()[i];
}

int Statement::ParamIndex(std::string_view name) const {
  for (size_t i = 0; i < param_names_.size(); ++i) {
    if (param_names_[i] == name) return static_cast<int>(i) + 1;
  }
  return 0;
}

int Statement::Bind(int i, const Value& v) {
  if (active_) return kMisuse;
  if (i < 1 || i > param_count()) return kRange;
  params_[static_cast<size_t>(i)].CopyFrom(v);
  return kOk;
}

Value* Statement::MutableParam(int i) {
  if (active_ || i < 1 || i > param_count()) return nullptr;
  return &params_[static_cast<size_t>(i)];
}

void Statement::ClearBindings() {
  for (Value& v : params_) v.SetNull();
}

bool Statement::read_only() const {
  if (ast_ == nullptr) return true;
  if (prog_) return !prog_->writes;
  switch (ast_->kind) {
    case ast::StmtKind::kBegin:
    case ast::StmtKind::kCommit:
    case ast::StmtKind::kRollback:
    case ast::StmtKind::kSavepoint:
    case ast::StmtKind::kRelease:
      return true;
    case ast::StmtKind::kPragma:
      return ast_->As<ast::PragmaStmt>()->value == nullptr;
    default:
      return false;
  }
}

// Whether a statement stopped before its last row (reset or finalized) has
// done all its work: an INSERT, UPDATE or DELETE with RETURNING computes every
// row before it hands out the first, so its changes stand (as SQLite's
// vdbeHalt with SQLITE_OK); any other statement ends as aborted.
bool Statement::CompleteWhenStopped() const {
  if (ast_ == nullptr || prog_ == nullptr || prog_->column_names.empty()) return false;
  ast::StmtKind k = ast_->kind;
  return k == ast::StmtKind::kInsert || k == ast::StmtKind::kUpdate || k == ast::StmtKind::kDelete;
}

void Statement::Reset() {
  if (active_) Finish(CompleteWhenStopped(), 2);
  if (vm_) vm_->Reset();
  has_row_ = false;
  done_ = false;
  direct_done_ = false;
  rows_.clear();
  row_pos_ = 0;
  status_ = Status();
  after_rows_ = Status();
}

void Statement::Finish(bool ok, int action) {
  bool counts = prog_ && ast_ && ast_->kind != ast::StmtKind::kSelect;
  int64_t changes = vm_ ? vm_->changes() : 0;
  int64_t total = vm_ ? vm_->total_changes() : 0;
  int code = ok ? kOk : (status_.ok() ? kAbort : status_.code());
  const int savepoint = stmt_savepoint_;
  if (!ok && action != static_cast<int>(OnConflict::kFail)) conn_->env()->fk = fk_at_start_;
  // Over before the connection hears of it: should ending it there run out
  // of memory (std::bad_alloc), the statement is not ended a second time.
  stmt_savepoint_ = -1;
  active_ = false;
  has_row_ = false;
  done_ = true;
  Status st = conn_->EndStatement(write_mask_, savepoint, ok, action, code, changes, counts, total);
  if (ok && !st.ok()) status_ = st;
}

int Statement::Step() {
  StepClock clock;  // one 'now' per step (lang_datefunc)
  CollationScope collations(&conn_->collations());
  if (done_) Reset();
  if (!active_) {
    status_ = Status();
    bool program = ast_ != nullptr && IsProgramKind(ast_->kind);
    if (conn_->schema_generation() != schema_gen_ && program && !Recompile()) {
      return status_.code();
    }
    if (!program && ast_ != nullptr && direct_done_ == false && reparse_) {
      ast_ = nullptr;
      Status st = Compile();
      if (!st.ok()) {
        status_ = st;
        done_ = true;
        return st.code();
      }
    }
    if (explain_) return StepExplain();
    if (!program) {
      reparse_ = true;
      // The progress handler sees direct statements too (SQLite runs them
      // as programs): once before they run.
      ProgressHook& ph = conn_->env()->progress;
      if (ph.fn != nullptr && ph.fn(ph.arg) != 0) {
        status_ = Status(kInterrupt);
        done_ = true;
        return kInterrupt;
      }
      return StepDirect();
    }
    Status st = conn_->BeginStatement(read_mask_, write_mask_, prog_->stmt_journal,
                                      &stmt_savepoint_, prog_->writes_vtab);
    if (st.code() == kSchema) {
      // Another connection changed the schema: compile against the new one
      // (the transaction stays open) and start again.
      if (!Recompile()) {
        conn_->EndFailedBegin();
        return status_.code();
      }
      st = conn_->BeginStatement(read_mask_, write_mask_, prog_->stmt_journal, &stmt_savepoint_,
                                 prog_->writes_vtab);
    }
    if (!st.ok()) {
      status_ = st;
      done_ = true;
      return st.code();
    }
    active_ = true;
    fk_at_start_ = conn_->env()->fk;
    vm_->Reset();
    std::vector<Value>& p = vm_->params();
    for (size_t i = 1; i < params_.size() && i < p.size(); ++i) p[i].ShallowCopyFrom(params_[i]);
  }
  return StepProgram();
}

int64_t Statement::MemoryUsed() const {
  int64_t n = static_cast<int64_t>(sizeof(Statement) + sql_.size());
  if (arena_ != nullptr) n += static_cast<int64_t>(arena_->bytes_allocated());
  if (prog_ != nullptr) n += static_cast<int64_t>(prog_->ops.size() * sizeof(Instr));
  return n;
}

bool Statement::Recompile() {
  ++reprepares_;
  prog_.reset();
  vm_.reset();
  ast_ = nullptr;
  Status st = Compile();
  if (st.ok()) return true;
  status_ = st;
  done_ = true;
  return false;
}

int Statement::StepProgram() {
  StepResult r = vm_->Step();
  if (r == StepResult::kRow) {
    has_row_ = true;
    return kRow;
  }
  has_row_ = false;
  if (r == StepResult::kDone) {
    Finish(true, 0);
    if (!status_.ok()) return status_.code();
    return kDone;
  }
  status_ = vm_->status();
  Finish(false, vm_->halt_action());
  return status_.code();
}

int Statement::StepExplain() {
  if (!direct_done_) {
    direct_done_ = true;
    rows_.clear();
    row_pos_ = 0;
    if (explain_ == 2 && prog_) {
      for (const EqpRow& r : prog_->eqp) {
        std::vector<Value> row(4);
        row[0].SetInt(r.id);
        row[1].SetInt(r.parent);
        row[2].SetInt(0);
        row[3].SetText(r.detail);
        rows_.push_back(std::move(row));
      }
    }
    if (explain_ == 1 && prog_) {
      for (size_t i = 0; i < prog_->ops.size(); ++i) {
        const Instr& in = prog_->ops[i];
        std::vector<Value> row(8);
        row[0].SetInt(static_cast<int64_t>(i));
        row[1].SetText(OpcodeName(in.op));
        row[2].SetInt(in.p1);
        row[3].SetInt(in.p2);
        row[4].SetInt(in.p3);
        row[5].SetText(prog_->P4Text(in));
        row[6].SetInt(in.p5);
        rows_.push_back(std::move(row));
      }
    }
  }
  if (row_pos_ < rows_.size()) {
    ++row_pos_;
    has_row_ = true;
    return kRow;
  }
  has_row_ = false;
  done_ = true;
  return kDone;
}

namespace {
bool IsCheckPragma(std::string_view name) {
  auto is = [name](std::string_view want) {
    if (name.size() != want.size()) return false;
    for (size_t i = 0; i < name.size(); ++i) {
      const char c = name[i] >= 'A' && name[i] <= 'Z' ? static_cast<char>(name[i] + 32) : name[i];
      if (c != want[i]) return false;
    }
    return true;
  };
  return is("integrity_check") || is("quick_check");
}
}  // namespace

int Statement::StepDirect() {
  if (!direct_done_) {
    direct_done_ = true;
    rows_.clear();
    row_pos_ = 0;
    Status st;
    switch (ast_->kind) {
      case ast::StmtKind::kBegin:
      case ast::StmtKind::kCommit:
      case ast::StmtKind::kRollback:
      case ast::StmtKind::kSavepoint:
      case ast::StmtKind::kRelease:
        st = conn_->ExecTransaction(ast_);
        break;
      case ast::StmtKind::kVacuum:
        st = conn_->ExecVacuum(ast_->As<ast::VacuumStmt>(), params_);
        break;
      case ast::StmtKind::kPragma: {
        std::vector<std::string> names;
        st = conn_->ExecPragma(ast_->As<ast::PragmaStmt>(), &names, &rows_);
        if (!names.empty()) names_ = names;
        if (!st.ok() && !rows_.empty() && IsCheckPragma(ast_->As<ast::PragmaStmt>()->name)) {
          after_rows_ = st;
          st = Status();
        }
        break;
      }
      default: {
        if (auth_noop_) break;
        st = conn_->BeginStatement(read_mask_, write_mask_, true, &stmt_savepoint_);
        if (st.code() == kSchema) {
          st = conn_->BeginStatement(read_mask_, write_mask_, true, &stmt_savepoint_);
        }
        if (st.ok()) {
          active_ = true;
          fk_at_start_ = conn_->env()->fk;
          conn_->ddl().SetParams(&params_);
          st = conn_->ddl().Exec(ast_, arena_.get());
          conn_->ddl().SetParams(nullptr);
          bool ok = st.ok();
          Status keep = st;
          Finish(ok, 2);
          if (!ok)
            st = keep;
          else if (!status_.ok())
            st = status_;
        }
        // Re-parse on the next execution: DDL consumed the AST.
        break;
      }
    }
    if (!st.ok()) {
      status_ = st;
      done_ = true;
      return st.code();
    }
  }
  if (row_pos_ < rows_.size()) {
    ++row_pos_;
    has_row_ = true;
    return kRow;
  }
  has_row_ = false;
  done_ = true;
  if (!after_rows_.ok()) {
    status_ = after_rows_;
    after_rows_ = Status();
    return status_.code();
  }
  return kDone;
}

}  // namespace basalt
