// ALTER TABLE ... ADD COLUMN (lang_altertable "ALTER TABLE ADD COLUMN"):
// the column definition is appended to the CREATE TABLE text as written;
// existing rows are not touched (a record shorter than the table reads the
// new column as its default), hence the restrictions on the new column.
#include "exec/codegen.h"
#include "main/alter_rows.h"
#include "main/alter_sql.h"
#include "main/ddl.h"
#include "main/schema_build.h"
#include "parser/parser.h"
#include "parser/tokenizer.h"

namespace basalt {

namespace {

// SQLite's sqlite3ValueFromExpr: literals, signed numbers, NULL, TRUE and
// FALSE, through CAST and COLLATE.
bool IsConstantDefault(const ast::Expr* e) {
  if (e == nullptr) return true;
  switch (e->kind) {
    case ast::ExprKind::kNull:
    case ast::ExprKind::kInteger:
    case ast::ExprKind::kReal:
    case ast::ExprKind::kString:
    case ast::ExprKind::kBlob:
    case ast::ExprKind::kBool:
      return true;
    case ast::ExprKind::kUnary:
    case ast::ExprKind::kCollate:
    case ast::ExprKind::kCast:
      return IsConstantDefault(e->left);
    default:
      return false;
  }
}

struct NewColumn {
  bool primary_key = false, unique = false, not_null = false, references = false;
  bool generated = false, stored = false;
  const ast::Expr* default_value = nullptr;
};

NewColumn Describe(const ast::ColumnDef* def) {
  NewColumn n;
  for (const ast::ColumnConstraint* c : def->constraints) {
    switch (c->kind) {
      case ast::ConstraintKind::kPrimaryKey:
        n.primary_key = true;
        break;
      case ast::ConstraintKind::kUnique:
        n.unique = true;
        break;
      case ast::ConstraintKind::kNotNull:
        n.not_null = true;
        break;
      case ast::ConstraintKind::kReferences:
        n.references = true;
        break;
      case ast::ConstraintKind::kDefault:
        n.default_value = c->expr;
        break;
      case ast::ConstraintKind::kGenerated:
        n.generated = true;
        n.stored = c->stored;
        break;
      default:
        break;
    }
  }
  // DEFAULT NULL is no default.
  if (n.default_value != nullptr && n.default_value->kind == ast::ExprKind::kNull) {
    n.default_value = nullptr;
  }
  return n;
}

}  // namespace

// After ADD COLUMN on a table with CHECK constraints, every row (the new
// column reading its default) must still pass them, as SQLite verifies
// with quick_check.
Status DdlExecutor::CheckRowsAfterAdd(int dbi, std::string_view table) {
  Database* db = store_->at(dbi);
  const Table* t = db->schema.FindTable(table);
  if (t == nullptr) return Status();
  for (const CheckConstraint& check : t->checks) {
    Arena arena;
    std::string sql = "SELECT 1 FROM " + IdentQuote(db->name) + "." + IdentQuote(t->name) +
                      " WHERE NOT (" + check.sql + ")";
    Parser parser(&arena, arena.CopyString(sql));
    Result<ast::Stmt*> r = parser.ParseStatement();
    if (!r.ok()) return r.status();
    CompileContext ctx;
    InitContext(&ctx, &arena);
    ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, CompileStatement(*r, &ctx));
    Vm vm(prog.get(), env_);
    StepResult step = vm.Step();
    if (step == StepResult::kError) return vm.status();
    if (step == StepResult::kRow) return Status(kError, "CHECK constraint failed");
  }
  return Status();
}

// The table as the new CREATE TABLE text describes it must pass what
// CREATE TABLE checks (a generated column's expression, STRICT types), or
// the column is refused: "error in table T after add column: ...".
Status DdlExecutor::CheckAddedTable(const std::string& table_sql, const std::string& name,
                                    Arena* arena) {
  std::string_view text = arena->CopyString(table_sql);
  Parser parser(arena, text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  Status st = r.status();
  if (st.ok()) {
    auto* create = (*r)->As<ast::CreateTableStmt>();
    BuiltTable built;
    st = BuildTable(create, table_sql, &built);
    if (st.ok()) st = CheckTableExprs(create, built.table.get(), arena);
  }
  if (st.ok()) return st;
  return Status(kError, "error in table " + name + " after add column: " + st.message());
}

Status DdlExecutor::AddColumn(ast::AlterTableStmt* st, Table* t, Arena* arena) {
  if (t->is_virtual) return Status(kError, "virtual tables may not be altered");
  if (t->is_view) return Status(kError, "Cannot add a column to a view");
  TRY(CheckAlterable(t));
  const ast::ColumnDef* def = st->column;
  // SQLite parses the new column into a copy named sqlite_altertab_<table>.
  int max_columns = limits_ != nullptr ? limits_->get(LimitId::kColumn) : 2000;
  if (t->columns.size() + 1 > static_cast<size_t>(max_columns)) {
    return Status(kError, "too many columns on sqlite_altertab_" + t->name);
  }
  if (t->FindColumn(def->name) >= 0) {
    return Status(kError, "duplicate column name: " + std::string(def->name));
  }
  const NewColumn n = Describe(def);
  if (n.primary_key) return Status(kError, "Cannot add a PRIMARY KEY column");
  if (n.unique) return Status(kError, "Cannot add a UNIQUE column");
  if (dry_run_) return Status();
  const int dbi = t->db();
  Database* db = store_->at(dbi);
  // The checks SQLite makes only when the table has rows.
  const char* refused = nullptr;
  if (!n.generated) {
    if (options_->foreign_keys && n.references && n.default_value != nullptr) {
      refused = "Cannot add a REFERENCES column with non-NULL default value";
    } else if (n.not_null && n.default_value == nullptr) {
      refused = "Cannot add a NOT NULL column with default value NULL";
    } else if (!IsConstantDefault(n.default_value)) {
      refused = "Cannot add a column with non-constant default";
    }
  } else if (n.stored) {
    refused = "cannot add a STORED column";
  }
  if (refused != nullptr) {
    BtCursor cur;
    TRY(db->bt->OpenCursor(t->root, false, &cur));
    TRY(cur.First());
    if (!cur.eof()) return Status(kError, refused);
  }
  std::string_view text = st->column_text;
  while (!text.empty() && (text.back() == ';' || parser::IsSpaceChar(text.back()))) {
    text.remove_suffix(1);
  }
  std::string table_sql;
  if (!alter::AddColumn(t->sql, text, &table_sql)) {
    return Status(kInternal, "cannot find the end of the column list of " + t->name);
  }
  const std::string name = t->name;
  TRY(CheckAddedTable(table_sql, name, arena));
  TRY(EditSchemaRows(db, [&](SchemaRowText* row, bool* changed) {
    if (row->type == "table" && EqualsIgnoreCase(row->name, name)) {
      row->sql = table_sql;
      *changed = true;
    }
    return Status();
  }));
  TRY(FinishAlter(dbi, false));
  return CheckRowsAfterAdd(dbi, name);
}

}  // namespace basalt
