// The authorizer questions of ALTER TABLE, in SQLite's order. SQLite
// carries out an ALTER by running statements of its own on the schema table
// (S: sqlite_master of the table's database D, or sqlite_temp_master when
// D is temp; T: sqlite_temp_master), each compiled with the authorizer on,
// so besides SQLITE_ALTER_TABLE it asks about their SELECT, function calls
// (like, substr, printf, sqlite_rename_*), column reads and updates:
//   RENAME TO     the rewrite of S's sql, then of its name / tbl_name
//                 columns, of sqlite_sequence when D has one, of T's views
//                 and triggers (D not temp); then the schema test.
//   RENAME COLUMN the schema test, the quote fix of S (and T), the rewrite
//                 of S's sql, then of T's; the schema test again.
//   DROP COLUMN   the schema test, the quote fix, the rewrite of S's sql,
//                 the schema test again.
//   ADD COLUMN    the rewrite of S's sql; then, when the table has CHECK
//                 constraints, the quick_check query over the table.
// The schema test reads S (and T unless D is temp) with sqlite_rename_test.
// Every question is asked while compiling, so a denial leaves the schema
// as it was. Errors SQLite finds before asking (no such table, a name
// already taken, a PRIMARY KEY column dropped, ...) come from compiling.
#include <string>

#include "common/strings.h"
#include "main/authorize_asker.h"

namespace basalt {

namespace {

// SQLite compiles each of its statements with the authorizer on; a denial
// does not stop the question at once: name resolution walks on. The walk
// is written as a small script, one token per node in SQLite's visiting
// order (an operator before its operands, a function before its
// arguments), tokens separated by spaces:
//   s          SELECT
//   c:X  C:X   READ of column X of S / of sqlite_temp_master
//   q:X  P:X   READ of sqlite_sequence.X (of D) / pragma_quick_check.X (main)
//   u:X  U:X   UPDATE of column X of S / sqlite_temp_master (v:X
//              sqlite_sequence); asked after the SET expression is resolved
//   f:NAME(    a function call, its arguments up to the matching ")"
//   k          any other node (operator, literal)
//   E          the eponymous pragma_quick_check connected (the questions of
//              sqlite3_declare_vtab, the first time only)
//   ;          end of an expression: after a denial nothing more is asked
// After a denial a column read is still asked (it never ends the walk), a
// refused function's arguments are skipped, and the next other node ends
// the walk of the innermost function's arguments (SQLite walks those on
// their own) or else of the whole expression. SELECT and UPDATE refusals
// end the statement at once.
class AlterWalk {
 public:
  AlterWalk(Asker* a, std::string_view st, std::string_view db) : a_(a), st_(st), db_(db) {}

  // Runs `script`; false once a question was refused.
  bool Run(std::string_view script) {
    failed_ = false;
    size_t pos = 0;
    int depth = 0;       // function argument lists open
    int skip_to = -1;    // skipping until the list at this depth closes
    bool abort = false;  // the walk of the current expression ended
    while (pos < script.size()) {
      size_t end = script.find(' ', pos);
      if (end == std::string_view::npos) end = script.size();
      std::string_view tok = script.substr(pos, end - pos);
      pos = end + 1;
      if (tok == ";") {
        if (failed_) return false;
        depth = 0;
        skip_to = -1;
        abort = false;
        continue;
      }
      if (tok == ")") {
        --depth;
        if (skip_to >= 0 && depth < skip_to) skip_to = -1;
        continue;
      }
      const bool opens = tok.back() == '(';
      if (abort || skip_to >= 0) {
        if (opens) ++depth;
        continue;
      }
      if (tok == "k") {
        // An error ends the walk of the innermost argument list, or of the
        // expression at the top level.
        if (failed_) {
          if (depth > 0) {
            skip_to = depth;
          } else {
            abort = true;
          }
        }
        continue;
      }
      if (tok == "E") tok = "E:";
      if (tok == "s") {
        if (!Ask(kAuthSelect, "", "", "", true, true)) return false;
        continue;
      }
      std::string_view arg = tok.substr(2);
      switch (tok[0]) {
        case 'f': {
          arg.remove_suffix(1);
          // Asked even after a refusal, but then, like any other node, it
          // ends the walk (its own arguments unvisited).
          const bool was_failed = failed_;
          const bool ok = Function(arg);
          if (was_failed) {
            if (depth > 0) {
              skip_to = depth;
            } else {
              abort = true;
            }
          }
          ++depth;
          if (!ok && skip_to < 0) skip_to = depth;
          break;
        }
        case 'c':
          Ask(kAuthRead, st_, arg, db_);
          break;
        case 'C':
          Ask(kAuthRead, "sqlite_temp_master", arg, "temp");
          break;
        case 'q':
          Ask(kAuthRead, "sqlite_sequence", arg, db_);
          break;
        case 'P':
          Ask(kAuthRead, "pragma_quick_check", arg, "main");
          break;
        case 'u':
          if (!Ask(kAuthUpdate, st_, arg, db_)) return false;
          break;
        case 'U':
          if (!Ask(kAuthUpdate, "sqlite_temp_master", arg, "temp")) return false;
          break;
        case 'E':
          // A module's first table on this connection: sqlite3_declare_vtab
          // compiles the UPDATE of a schema row (asked about in main).
          // Connecting it asks (VtabManager::AskDeclare) the first time on
          // this connection; a refusal fails the query: SQLITE_ERROR.
          if (a_->vtabs != nullptr) {
            Status st;
            a_->vtabs->Eponymous("pragma_quick_check", &st);
            if (!st.ok()) return a_->Fail(st);
          }
          break;
        case 'v':
          if (!Ask(kAuthUpdate, "sqlite_sequence", arg, db_)) return false;
          break;
        default:
          BASALT_DCHECK(false);
          break;
      }
    }
    return !failed_;
  }

 private:
  bool Ask(int action, std::string_view a1, std::string_view a2, std::string_view db,
           bool a1_null = false, bool a2_null = false) {
    bool ok = a_->AskAnyway(action, a1, a2, db, a1_null, a2_null);
    failed_ = failed_ || !ok;
    return ok;
  }
  // FUNCTION: a refusal is "not authorized to use function: NAME" (LIKE and
  // GLOB as SQLite's statements write them); IGNORE skips the arguments too.
  bool Function(std::string_view name) {
    std::string shown(name);
    if (name == "like" || name == "glob") {
      for (char& ch : shown) ch = static_cast<char>(ch - 'a' + 'A');
    }
    AuthResult r = a_->AskFunction(name, shown);
    failed_ = failed_ || r == AuthResult::kDenied;
    return r == AuthResult::kOk;
  }

  Asker* a_;
  std::string_view st_, db_;
  bool failed_ = false;
};

// The statements, as scripts (see AlterWalk).
// renameTestSchema: SELECT 1 FROM S WHERE name NOT LIKE 'sqliteX_%' ESCAPE
// 'X' AND sql NOT LIKE 'create virtual%' AND sqlite_rename_test(...)=NULL.
constexpr std::string_view kTestS =
    "s k k k f:like( k c:name k ) k f:like( k c:sql ) k "
    "f:sqlite_rename_test( k c:sql c:type c:name k k k ) k ;";
constexpr std::string_view kTestT =
    "s k k k f:like( k C:name k ) k f:like( k C:sql ) k "
    "f:sqlite_rename_test( k C:sql C:type C:name k k k ) k ;";
// renameFixQuotes: UPDATE S SET sql = sqlite_rename_quotefix(D, sql) WHERE
// name NOT LIKE ... AND sql NOT LIKE 'create virtual%'.
constexpr std::string_view kQuoteFixS =
    "f:sqlite_rename_quotefix( k c:sql ) ; u:sql k k f:like( k c:name k ) k f:like( k c:sql ) ;";
constexpr std::string_view kQuoteFixT =
    "f:sqlite_rename_quotefix( k C:sql ) ; U:sql k k f:like( k C:name k ) k f:like( k C:sql ) ;";
// RENAME TO: UPDATE S SET sql = sqlite_rename_table(D, type, name, sql, ..)
// WHERE (type!='index' OR tbl_name=.. COLLATE nocase) AND name NOT LIKE ..
constexpr std::string_view kRenameTableSql =
    "f:sqlite_rename_table( k c:type c:name c:sql k k k ) ; u:sql "
    "k k k c:type k k c:tbl_name k k k f:like( k c:name k ) ;";
// UPDATE S SET tbl_name = .., name = CASE WHEN type='table' THEN .. WHEN
// name LIKE 'sqliteX_autoindex%' ESCAPE 'X' AND type='index' THEN
// 'sqlite_autoindex_' || .. || substr(name, ..) ELSE name END WHERE
// tbl_name=.. COLLATE nocase AND (type='table' OR type='index' OR
// type='trigger').
constexpr std::string_view kRenameTableNames =
    "k ; u:tbl_name k k c:type k k k f:like( k c:name k ) k c:type k k k k k "
    "f:substr( c:name k k k ) c:name ; u:name "
    "k k c:tbl_name k k k k k c:type k k c:type k k c:type k ;";
// UPDATE sqlite_sequence SET name = .. WHERE name = ..
constexpr std::string_view kRenameSequence = "k ; v:name k q:name k ;";
// UPDATE sqlite_temp_master SET sql = sqlite_rename_table(..), tbl_name =
// CASE WHEN tbl_name=.. COLLATE nocase AND sqlite_rename_test(..) THEN ..
// ELSE tbl_name END WHERE type IN ('view', 'trigger').
constexpr std::string_view kRenameTableTemp =
    "f:sqlite_rename_table( k C:type C:name C:sql k k k ) ; U:sql "
    "k k k C:tbl_name k k f:sqlite_rename_test( k C:sql C:type C:name k k k ) k C:tbl_name ; "
    "U:tbl_name k C:type k ;";
// RENAME COLUMN: UPDATE S SET sql = sqlite_rename_column(sql, type, name,
// ..) WHERE name NOT LIKE .. AND (type != 'index' OR tbl_name = ..); then
// UPDATE sqlite_temp_master SET sql = sqlite_rename_column(..) WHERE type
// IN ('trigger', 'view').
constexpr std::string_view kRenameColumnS =
    "f:sqlite_rename_column( c:sql c:type c:name k k k k k k ) ; u:sql "
    "k k f:like( k c:name k ) k k c:type k k c:tbl_name k ;";
constexpr std::string_view kRenameColumnT =
    "f:sqlite_rename_column( C:sql C:type C:name k k k k k k ) ; U:sql k C:type k ;";
// DROP COLUMN: UPDATE S SET sql = sqlite_drop_column(.., sql, ..) WHERE
// (type=='table' AND tbl_name=.. COLLATE nocase).
constexpr std::string_view kDropColumn =
    "f:sqlite_drop_column( k c:sql k ) ; u:sql k k c:type k k c:tbl_name k ;";
// ADD COLUMN: UPDATE S SET sql = printf('%.Ns, ',sql) || .. ||
// substr(sql,1+length(printf('%.Ns',sql))) WHERE type = 'table' AND name = ..
constexpr std::string_view kAddColumn =
    "k k f:printf( k c:sql ) k f:substr( c:sql k k f:length( f:printf( k c:sql ) ) ) ; u:sql "
    "k k c:type k k c:name k ;";
// SELECT CASE WHEN quick_check GLOB 'CHECK*' THEN raise(..) ELSE raise(..)
// END FROM pragma_quick_check(..) WHERE quick_check GLOB 'CHECK*' OR
// quick_check GLOB 'NULL*'.
constexpr std::string_view kQuickCheck =
    "s E k k f:glob( k P:quick_check ) k k ; k f:glob( k P:quick_check ) f:glob( k P:quick_check ) "
    ";";

const ast::Expr* ConstraintExpr(const ast::ColumnDef* col, ast::ConstraintKind kind) {
  for (const ast::ColumnConstraint* k : col->constraints) {
    if (k->kind == kind) return k->expr;
  }
  return nullptr;
}

// A DEFAULT SQLite can turn into a value (sqlite3ValueFromExpr): a literal,
// NULL, possibly signed, cast or collated.
bool IsValueExpr(const ast::Expr* e) {
  while (e != nullptr && (e->kind == ast::ExprKind::kUnary || e->kind == ast::ExprKind::kCast ||
                          e->kind == ast::ExprKind::kCollate)) {
    e = e->left;
  }
  if (e == nullptr) return false;
  switch (e->kind) {
    case ast::ExprKind::kNull:
    case ast::ExprKind::kInteger:
    case ast::ExprKind::kReal:
    case ast::ExprKind::kString:
    case ast::ExprKind::kBlob:
    case ast::ExprKind::kBool:
      return true;
    default:
      return false;
  }
}

bool HasConstraint(const ast::ColumnDef* col, ast::ConstraintKind kind);

// ADD COLUMN checks SQLite makes by querying the table (an error only when
// it has rows): NOT NULL without a default, a default that is not a value,
// a STORED generated column.
bool NeedsEmptyTable(const ast::ColumnDef* col) {
  for (const ast::ColumnConstraint* k : col->constraints) {
    if (k->kind == ast::ConstraintKind::kGenerated) return k->stored;
  }
  const ast::Expr* dflt = ConstraintExpr(col, ast::ConstraintKind::kDefault);
  if (dflt != nullptr && dflt->kind == ast::ExprKind::kNull) dflt = nullptr;
  if (HasConstraint(col, ast::ConstraintKind::kNotNull) && dflt == nullptr) return true;
  return dflt != nullptr && !IsValueExpr(dflt);
}

// The automatic index of a PRIMARY KEY / UNIQUE column added: SQLite makes
// it on "sqlite_altertab_T" while parsing the column (INTEGER PRIMARY KEY
// makes none).
bool AskCopyIndex(Asker* a, const Table* t, const ast::ColumnDef* col, const std::string& db,
                  bool temp) {
  bool integer_pk = col->type.size() == 7 && HasConstraint(col, ast::ConstraintKind::kPrimaryKey);
  for (size_t i = 0; integer_pk && i < 7; ++i) {
    integer_pk = (col->type[i] | 0x20) == "integer"[i];
  }
  if (integer_pk) return true;
  const std::string copy = "sqlite_altertab_" + t->name;
  std::string_view st = AuthSchemaTable(temp);
  if (!a->Ask(kAuthInsert, st, "", db, false, true)) return false;
  // IGNORE there: no index (SQLite then goes on to the ALTER question).
  if (a->last() == AuthResult::kIgnore) return true;
  return a->Ask(temp ? kAuthCreateTempIndex : kAuthCreateIndex, "sqlite_autoindex_" + copy + "_1",
                copy, db) &&
         a->Ask(kAuthRead, copy, col->name, db) && a->Ask(kAuthInsert, st, "", db, false, true);
}

bool HasConstraint(const ast::ColumnDef* col, ast::ConstraintKind kind) {
  for (const ast::ColumnConstraint* k : col->constraints) {
    if (k->kind == kind) return true;
  }
  return false;
}

}  // namespace

// SQLITE_ALTER_TABLE; IGNORE makes the statement a no-op (Asker::noop).
bool AskAlter(Asker* a, std::string_view db, std::string_view table, std::string_view column) {
  if (!a->Ask(kAuthAlterTable, db, table, column)) return false;
  a->noop = a->last() == AuthResult::kIgnore;
  return !a->noop;
}

void AuthorizeAlter(Asker* a, const Catalog& cat, const ast::AlterTableStmt* s) {
  const Table* t = cat.FindTable(s->schema, s->table);
  if (t == nullptr || t->is_view) return;  // errors found before any question
  const std::string db = cat.name(t->db());
  const bool temp = t->db() == Catalog::kTemp;
  AlterWalk w(a, AuthSchemaTable(temp), db);
  auto test = [&] { return w.Run(kTestS) && (temp || w.Run(kTestT)); };
  auto quote_fix = [&] { return w.Run(kQuoteFixS) && (temp || w.Run(kQuoteFixT)); };
  switch (s->action) {
    case ast::AlterTableStmt::kRenameTable: {
      if (cat.FindTable(db, s->new_name) != nullptr || cat.FindIndex(db, s->new_name) != nullptr) {
        return;  // "there is already another table or index with this name"
      }
      if (!AskAlter(a, db, t->name, "")) return;
      const Table* seq = cat.FindTable(db, "sqlite_sequence");
      const bool sequence = seq != nullptr && seq->db() == t->db();
      if (w.Run(kRenameTableSql) && w.Run(kRenameTableNames) &&
          (!sequence || w.Run(kRenameSequence)) && (temp || w.Run(kRenameTableTemp))) {
        test();
      }
      return;
    }
    case ast::AlterTableStmt::kRenameColumn:
      if (!AskAlter(a, db, t->name, "") || t->is_virtual || t->FindColumn(s->old_name) < 0) {
        return;
      }
      if (test() && quote_fix() && w.Run(kRenameColumnS) && w.Run(kRenameColumnT)) test();
      return;
    case ast::AlterTableStmt::kDropColumn: {
      int col = t->FindColumn(s->old_name);
      if (t->is_virtual || col < 0 || t->columns.size() <= 1) return;
      bool unique = t->columns[static_cast<size_t>(col)].primary_key;
      for (const Index* idx : t->indexes) {
        if (idx->unique && idx->sql.empty()) {
          for (int ic : idx->columns) unique = unique || ic == col;
        }
      }
      if (unique) return;  // "cannot drop PRIMARY KEY / UNIQUE column"
      if (!AskAlter(a, db, t->name, s->old_name)) return;
      if (test() && quote_fix() && w.Run(kDropColumn)) test();
      return;
    }
    case ast::AlterTableStmt::kAddColumn: {
      const ast::ColumnDef* col = s->column;
      if (t->is_virtual || col == nullptr) return;
      // A PRIMARY KEY or UNIQUE column makes its automatic index on the
      // copy SQLite parses the column into, then fails after the ALTER
      // question ("Cannot add a PRIMARY KEY column").
      const bool keyed = HasConstraint(col, ast::ConstraintKind::kPrimaryKey) ||
                         HasConstraint(col, ast::ConstraintKind::kUnique);
      if (keyed && !AskCopyIndex(a, t, col, db, temp)) return;
      if (!AskAlter(a, db, t->name, "") || keyed) return;
      // SQLite's "Cannot add ..." checks that apply only to a table with
      // rows: SELECT raise(ABORT, ..) FROM the table.
      if (NeedsEmptyTable(col) &&
          !(a->Ask(kAuthSelect, "", "", "", true, true) && a->Ask(kAuthRead, t->name, "", db))) {
        return;
      }
      if (!w.Run(kAddColumn)) return;
      // The rows are checked when the new column brings a CHECK (or is a
      // generated NOT NULL column).
      bool check = HasConstraint(col, ast::ConstraintKind::kCheck) ||
                   (HasConstraint(col, ast::ConstraintKind::kNotNull) &&
                    HasConstraint(col, ast::ConstraintKind::kGenerated));
      if (check && w.Run(kQuickCheck)) a->Ask(kAuthPragma, "quick_check", t->name, db);
      return;
    }
  }
}

}  // namespace basalt
