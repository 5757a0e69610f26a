// Statements other than plain SELECT: DML, DDL, transactions and the rest,
// and the Parser API (several statements, offsets, spans).
#include <gtest/gtest.h>

#include "parse_util.h"

namespace basalt::testing {
namespace {

using namespace ast;  // NOLINT: test brevity

TEST(Insert, Forms) {
  Parsed p = Parse("WITH c AS (SELECT 1) INSERT OR IGNORE INTO main.t AS x (a, b) SELECT 1, 2");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<InsertStmt>();
  ASSERT_NE(s->with, nullptr);
  EXPECT_EQ(s->on_conflict, ConflictAction::kIgnore);
  EXPECT_FALSE(s->is_replace);
  EXPECT_EQ(s->schema, "main");
  EXPECT_EQ(s->table, "t");
  EXPECT_EQ(s->alias, "x");
  ASSERT_NE(s->columns, nullptr);
  EXPECT_EQ(s->columns->size(), 2u);
  EXPECT_EQ(PrintSelect(s->select), "SELECT 1, 2");

  p = Parse("REPLACE INTO t DEFAULT VALUES RETURNING *, a + 1 AS b");
  ASSERT_EQ(p.error, "");
  s = p.As<InsertStmt>();
  EXPECT_TRUE(s->is_replace);
  EXPECT_EQ(s->on_conflict, ConflictAction::kReplace);
  EXPECT_TRUE(s->default_values);
  EXPECT_EQ(s->select, nullptr);
  ASSERT_NE(s->returning, nullptr);
  EXPECT_EQ(s->returning->size(), 2u);
  EXPECT_EQ(s->returning->items[1].name, "b");

  p = Parse("INSERT INTO t VALUES (1, 2), (3, 4)");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.As<InsertStmt>()->select->values.size(), 2u);
}

TEST(Insert, Upsert) {
  Parsed p = Parse(
      "INSERT INTO t VALUES (1) ON CONFLICT (a, b COLLATE nocase) WHERE a > 0 "
      "DO UPDATE SET b = excluded.b, (c, d) = (1, 2) WHERE b IS NOT NULL "
      "ON CONFLICT DO NOTHING RETURNING a");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<InsertStmt>();
  const Upsert* u = s->upsert;
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->target->size(), 2u);
  ASSERT_NE(u->target_where, nullptr);
  EXPECT_FALSE(u->do_nothing);
  ASSERT_EQ(u->sets->size(), 3u);
  EXPECT_EQ(u->sets->items[1].name, "c");
  EXPECT_EQ(PrintExpr(u->sets->items[2].expr), "2");
  ASSERT_NE(u->where, nullptr);
  ASSERT_NE(u->next, nullptr);
  EXPECT_TRUE(u->next->do_nothing);
  EXPECT_EQ(u->next->target, nullptr);
  ASSERT_NE(s->returning, nullptr);
  EXPECT_EQ(Err("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING ON CONFLICT DO NOTHING"),
            "near \"ON\": syntax error");
}

TEST(Update, Forms) {
  Parsed p = Parse(
      "UPDATE OR ROLLBACK s.t AS x INDEXED BY i SET a = 1, (b, c) = (SELECT 2, 3) "
      "FROM u WHERE x.a = u.a RETURNING a ORDER BY a LIMIT 5 OFFSET 1");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<UpdateStmt>();
  EXPECT_EQ(s->on_conflict, ConflictAction::kRollback);
  EXPECT_EQ(s->target->schema, "s");
  EXPECT_EQ(s->target->name, "t");
  EXPECT_EQ(s->target->alias, "x");
  EXPECT_EQ(s->target->indexed_by, "i");
  ASSERT_EQ(s->sets->size(), 3u);
  const Expr* b = s->sets->items[1].expr;
  const Expr* c = s->sets->items[2].expr;
  EXPECT_EQ(s->sets->items[2].name, "c");
  EXPECT_EQ(b->kind, ExprKind::kVectorElement);
  EXPECT_EQ(b->ival, 0);
  EXPECT_EQ(c->ival, 1);
  EXPECT_EQ(b->left, c->left);  // the same subquery
  EXPECT_EQ(b->left->kind, ExprKind::kSubquery);
  ASSERT_NE(s->from, nullptr);
  ASSERT_NE(s->where, nullptr);
  ASSERT_NE(s->returning, nullptr);
  ASSERT_NE(s->order_by, nullptr);
  EXPECT_EQ(PrintExpr(s->limit), "5");
  EXPECT_EQ(PrintExpr(s->offset), "1");
  EXPECT_EQ(Err("UPDATE t SET (a, b) = (1, 2, 3)"), "2 columns assigned 3 values");
  EXPECT_EQ(Err("UPDATE t SET (a, b) = 1"), "2 columns assigned 1 values");
  EXPECT_EQ(Err("UPDATE t SET a = 1 WHERE 1 ORDER BY a LIMIT 1 RETURNING a"),
            "near \"RETURNING\": syntax error");
}

TEST(Delete, Forms) {
  Parsed p = Parse("DELETE FROM t NOT INDEXED WHERE a RETURNING * LIMIT 2, 3");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<DeleteStmt>();
  EXPECT_TRUE(s->target->not_indexed);
  ASSERT_NE(s->where, nullptr);
  ASSERT_NE(s->returning, nullptr);
  EXPECT_EQ(PrintExpr(s->limit), "3");
  EXPECT_EQ(PrintExpr(s->offset), "2");
}

TEST(CreateTable, Columns) {
  Parsed p = Parse(
      "CREATE TEMP TABLE IF NOT EXISTS main.x(a INTEGER PRIMARY KEY DESC ON CONFLICT FAIL "
      "AUTOINCREMENT, b VARCHAR (10) NOT NULL DEFAULT 'x' COLLATE nocase, c UNSIGNED  BIG int "
      "UNIQUE CHECK( c > 0 ), d REFERENCES p(id) ON DELETE CASCADE ON UPDATE SET NULL "
      "DEFERRABLE INITIALLY DEFERRED, e AS (a + 1) STORED, f INT GENERATED ALWAYS AS (b) "
      "VIRTUAL, g, h DEFAULT -1, i DEFAULT ( 1 + 2 ), j DEFAULT true, k DEFAULT abc)");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<CreateTableStmt>();
  EXPECT_TRUE(s->temp);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->schema, "main");
  EXPECT_EQ(s->name, "x");
  ASSERT_EQ(s->columns.size(), 11u);
  const ColumnDef* a = s->columns[0];
  EXPECT_EQ(a->type, "INTEGER");
  ASSERT_EQ(a->constraints.size(), 1u);
  EXPECT_EQ(a->constraints[0]->kind, ConstraintKind::kPrimaryKey);
  EXPECT_EQ(a->constraints[0]->order, SortOrder::kDesc);
  EXPECT_EQ(a->constraints[0]->on_conflict, ConflictAction::kFail);
  EXPECT_TRUE(a->constraints[0]->autoincrement);
  const ColumnDef* b = s->columns[1];
  EXPECT_EQ(b->type, "VARCHAR (10)");
  ASSERT_EQ(b->constraints.size(), 3u);
  EXPECT_EQ(b->constraints[0]->kind, ConstraintKind::kNotNull);
  EXPECT_EQ(b->constraints[1]->kind, ConstraintKind::kDefault);
  EXPECT_EQ(b->constraints[1]->expr->span, "'x'");
  EXPECT_EQ(b->constraints[2]->collation, "nocase");
  EXPECT_EQ(s->columns[2]->type, "UNSIGNED  BIG int");
  EXPECT_EQ(s->columns[2]->constraints[1]->expr->span, "c > 0");  // CHECK text
  const ForeignKey* fk = s->columns[3]->constraints[0]->fk;
  ASSERT_NE(fk, nullptr);
  EXPECT_EQ(fk->table, "p");
  EXPECT_EQ(fk->on_delete, 3);
  EXPECT_EQ(fk->on_update, 1);
  EXPECT_EQ(fk->deferrable, 1);
  EXPECT_TRUE(s->columns[4]->constraints[0]->stored);
  EXPECT_EQ(s->columns[5]->type, "INT");  // "GENERATED ALWAYS" cut off the type
  EXPECT_EQ(s->columns[5]->constraints[0]->kind, ConstraintKind::kGenerated);
  EXPECT_FALSE(s->columns[5]->constraints[0]->stored);
  EXPECT_EQ(s->columns[6]->type, "");
  EXPECT_EQ(s->columns[7]->constraints[0]->expr->span, "-1");
  EXPECT_EQ(s->columns[8]->constraints[0]->expr->span, "1 + 2");
  EXPECT_EQ(s->columns[9]->constraints[0]->expr->kind, ExprKind::kBool);
  EXPECT_EQ(s->columns[10]->constraints[0]->expr->kind, ExprKind::kString);
  EXPECT_EQ(s->columns[10]->constraints[0]->expr->text, "abc");
}

TEST(CreateTable, TypeNames) {
  auto type = [](std::string_view def) {
    Parsed p = Parse("CREATE TABLE t(" + std::string(def) + ")");
    if (!p.error.empty()) return "ERROR: " + p.error;
    return std::string(p.As<CreateTableStmt>()->columns[0]->type);
  };
  // Expected values are what sqlite3 shows in PRAGMA table_info.
  EXPECT_EQ(type("a int"), "INT");
  EXPECT_EQ(type("a \"INT\""), "INT");
  EXPECT_EQ(type("a 'int' x"), "int");
  EXPECT_EQ(type("a 'abc' def"), "abc");
  EXPECT_EQ(type("a [my type] x"), "my type] ");
  EXPECT_EQ(type("a DECIMAL(-10, +2)"), "DECIMAL(-10, +2)");
  EXPECT_EQ(type("a generated always"), "");
  EXPECT_EQ(type("a abcdefghij always"), "abcdefghij");
  EXPECT_EQ(type("a generated"), "generated");
  EXPECT_EQ(type("a key"), "key");
}

TEST(CreateTable, TableConstraintsAndOptions) {
  Parsed p = Parse(
      "CREATE TABLE t(a, b, CONSTRAINT pk PRIMARY KEY (a DESC, b) ON CONFLICT REPLACE "
      "UNIQUE (b) CHECK (a > b), FOREIGN KEY (a, b) REFERENCES p (x, y) MATCH FULL NOT "
      "DEFERRABLE) WITHOUT ROWID, STRICT");
  ASSERT_EQ(p.error, "");
  auto* s = p.As<CreateTableStmt>();
  ASSERT_EQ(s->constraints.size(), 4u);
  EXPECT_EQ(s->constraints[0]->kind, ConstraintKind::kPrimaryKey);
  EXPECT_EQ(s->constraints[0]->name, "pk");
  EXPECT_EQ(s->constraints[0]->columns->items[0].order, SortOrder::kDesc);
  EXPECT_EQ(s->constraints[0]->on_conflict, ConflictAction::kReplace);
  EXPECT_EQ(s->constraints[1]->kind, ConstraintKind::kUnique);
  // A CONSTRAINT name holds until the next comma between table constraints.
  EXPECT_EQ(s->constraints[2]->name, "pk");
  EXPECT_EQ(s->constraints[2]->check->span, "a > b");
  EXPECT_EQ(s->constraints[3]->name, "");
  EXPECT_EQ(s->constraints[3]->fk_columns->size(), 2u);
  EXPECT_EQ(s->constraints[3]->fk->deferrable, 0);
  EXPECT_TRUE(s->without_rowid);
  EXPECT_TRUE(s->strict);
  EXPECT_EQ(Err("CREATE TABLE t(a) foo"), "unknown table option: foo");
  EXPECT_EQ(Err("CREATE TABLE t(a) WITHOUT rowi"), "unknown table option: rowi");
  EXPECT_EQ(Err("CREATE TABLE t(a), STRICT"), "OK");
  EXPECT_EQ(Err("CREATE TABLE t(a, PRIMARY KEY(a), b)"), "near \"b\": syntax error");
  EXPECT_EQ(Err("CREATE TABLE t(a REFERENCES p(x COLLATE y))"),
            "syntax error after column name \"x\"");
  EXPECT_EQ(Err("CREATE TABLE t(a DEFAULT 1 AS (1))"), "error in generated column \"a\"");
  EXPECT_EQ(Err("CREATE TABLE t(a AS (1) DEFAULT 1)"), "cannot use DEFAULT on a generated column");
  EXPECT_EQ(Err("CREATE TABLE t(a AS (1) foo)"), "error in generated column \"a\"");
  EXPECT_EQ(Err("CREATE TABLE t(a AS (1) PRIMARY KEY)"),
            "generated columns cannot be part of the PRIMARY KEY");
}

TEST(CreateTable, BodyText) {
  auto body = [](std::string_view sql) {
    Parsed p = Parse(sql);
    if (!p.error.empty()) return "ERROR: " + p.error;
    switch (p.stmt->kind) {
      case StmtKind::kCreateTable:
        return std::string(p.As<CreateTableStmt>()->body_text);
      case StmtKind::kCreateIndex:
        return std::string(p.As<CreateIndexStmt>()->body_text);
      case StmtKind::kCreateView:
        return std::string(p.As<CreateViewStmt>()->body_text);
      case StmtKind::kCreateTrigger:
        return std::string(p.As<CreateTriggerStmt>()->body_text);
      default:
        return std::string(p.As<CreateVirtualTableStmt>()->body_text);
    }
  };
  // Expected values are what sqlite3 stores in sqlite_schema.sql after the
  // "CREATE <kind> " prefix.
  EXPECT_EQ(body("create   table  main.\"t\"  ( a int ) strict  /* x */ ;"),
            "\"t\"  ( a int ) strict  /* x */ ");
  EXPECT_EQ(body("create table u(a) /*y*/ ;"), "u(a)");
  EXPECT_EQ(body("create   index  i on  t(a) /*z*/ ; "), "i on  t(a) /*z*/ ");
  EXPECT_EQ(body("create view  v as  select 1 /*w*/  ;"), "v as  select 1 /*w*/");
  EXPECT_EQ(body("create trigger  tr after insert on t begin select 1; end /*q*/ ;"),
            "tr after insert on t begin select 1; end");
  EXPECT_EQ(body("create virtual table vt using fts5( a , b ) /*r*/;"), "vt using fts5( a , b )");
  EXPECT_EQ(body("create virtual table vt using m"), "vt using m");
}

TEST(Ddl, IndexViewTriggerVtab) {
  Parsed p = Parse(
      "CREATE UNIQUE INDEX IF NOT EXISTS s.i ON t(a COLLATE nocase DESC, b + 1) "
      "WHERE a > 0");
  ASSERT_EQ(p.error, "");
  auto* ix = p.As<CreateIndexStmt>();
  EXPECT_TRUE(ix->unique);
  EXPECT_EQ(ix->schema, "s");
  EXPECT_EQ(ix->name, "i");
  EXPECT_EQ(ix->table, "t");
  EXPECT_EQ(PrintExpr((*ix->columns)[0]), "(a COLLATE nocase)");
  EXPECT_EQ(ix->columns->items[0].order, SortOrder::kDesc);
  ASSERT_NE(ix->where, nullptr);

  p = Parse("CREATE TEMP VIEW IF NOT EXISTS v(x, y) AS SELECT 1, 2");
  ASSERT_EQ(p.error, "");
  auto* v = p.As<CreateViewStmt>();
  EXPECT_TRUE(v->temp);
  EXPECT_EQ(v->columns->size(), 2u);

  p = Parse(
      "CREATE TRIGGER s.tr INSTEAD OF UPDATE OF a, b ON m.t FOR EACH ROW WHEN new.a "
      "BEGIN UPDATE u SET a = 1; INSERT INTO u VALUES (1); DELETE FROM u; "
      "SELECT RAISE(ABORT, 'no'); END");
  ASSERT_EQ(p.error, "");
  auto* tr = p.As<CreateTriggerStmt>();
  EXPECT_EQ(tr->schema, "s");
  EXPECT_EQ(tr->name, "tr");
  EXPECT_EQ(tr->time, TriggerTime::kInsteadOf);
  EXPECT_EQ(tr->event, TriggerEvent::kUpdate);
  EXPECT_EQ(tr->update_columns->size(), 2u);
  EXPECT_EQ(tr->table_schema, "m");
  EXPECT_EQ(tr->table, "t");
  EXPECT_TRUE(tr->for_each_row);
  ASSERT_NE(tr->when, nullptr);
  ASSERT_EQ(tr->body.size(), 4u);
  EXPECT_EQ(tr->body[0]->kind, StmtKind::kUpdate);
  EXPECT_EQ(tr->body[0]->span, "UPDATE u SET a = 1");
  EXPECT_EQ(tr->body[3]->kind, StmtKind::kSelect);
  EXPECT_EQ(Err("CREATE TRIGGER tr AFTER INSERT ON t BEGIN END"), "near \"END\": syntax error");
  EXPECT_EQ(Err("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM m.u; END"),
            "qualified table names are not allowed on INSERT, UPDATE, and DELETE statements "
            "within triggers");
  EXPECT_EQ(Err("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u INDEXED BY i; END"),
            "the INDEXED BY clause is not allowed on UPDATE or DELETE statements within "
            "triggers");
  EXPECT_EQ(Err("CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES(1) "
                "RETURNING *; END"),
            "cannot use RETURNING in a trigger");

  p = Parse("CREATE VIRTUAL TABLE IF NOT EXISTS v USING fts5(a, b (c, d), , e = 'x y', )");
  ASSERT_EQ(p.error, "");
  auto* vt = p.As<CreateVirtualTableStmt>();
  EXPECT_EQ(vt->module, "fts5");
  ASSERT_EQ(vt->args.size(), 3u);
  EXPECT_EQ(vt->args[1], "b (c, d)");
  EXPECT_EQ(vt->args[2], "e = 'x y'");
}

TEST(Ddl, DropAlter) {
  Parsed p = Parse("DROP VIEW IF EXISTS s.v");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.As<DropStmt>()->object, ObjectKind::kView);
  EXPECT_TRUE(p.As<DropStmt>()->if_exists);
  EXPECT_EQ(p.As<DropStmt>()->schema, "s");

  auto alter = [](std::string_view sql) { return Parse(sql); };
  Parsed a = alter("ALTER TABLE t RENAME TO u");
  EXPECT_EQ(a.As<AlterTableStmt>()->action, AlterTableStmt::kRenameTable);
  EXPECT_EQ(a.As<AlterTableStmt>()->new_name, "u");
  a = alter("ALTER TABLE s.t RENAME COLUMN a TO b");
  EXPECT_EQ(a.As<AlterTableStmt>()->action, AlterTableStmt::kRenameColumn);
  EXPECT_EQ(a.As<AlterTableStmt>()->old_name, "a");
  EXPECT_EQ(a.As<AlterTableStmt>()->new_name, "b");
  a = alter("ALTER TABLE t RENAME a TO b");
  EXPECT_EQ(a.As<AlterTableStmt>()->action, AlterTableStmt::kRenameColumn);
  a = alter("ALTER TABLE t ADD COLUMN c INT DEFAULT 0");
  EXPECT_EQ(a.As<AlterTableStmt>()->column->name, "c");
  a = alter("ALTER TABLE t DROP c");
  EXPECT_EQ(a.As<AlterTableStmt>()->action, AlterTableStmt::kDropColumn);
  EXPECT_EQ(a.As<AlterTableStmt>()->old_name, "c");
  EXPECT_EQ(Err("ALTER TABLE t ADD column"), "incomplete input");
  EXPECT_EQ(Err("ALTER TABLE t RENAME column TO x"), "near \"TO\": syntax error");
}

TEST(Misc, TransactionsAndOthers) {
  EXPECT_EQ(Parse("BEGIN EXCLUSIVE TRANSACTION t").As<BeginStmt>()->mode,
            TransactionMode::kExclusive);
  EXPECT_EQ(Parse("END TRANSACTION").stmt->kind, StmtKind::kCommit);
  EXPECT_EQ(Parse("ROLLBACK TRANSACTION TO SAVEPOINT s").As<RollbackStmt>()->savepoint, "s");
  EXPECT_EQ(Parse("ROLLBACK").As<RollbackStmt>()->savepoint, "");
  EXPECT_EQ(Parse("SAVEPOINT 'x'").As<SavepointStmt>()->name, "x");
  EXPECT_EQ(Parse("RELEASE SAVEPOINT y").As<ReleaseStmt>()->name, "y");
  EXPECT_EQ(Err("RELEASE savepoint"), "incomplete input");

  Parsed p = Parse("PRAGMA main.cache_size = -2000");
  auto* pr = p.As<PragmaStmt>();
  EXPECT_EQ(pr->schema, "main");
  EXPECT_EQ(pr->name, "cache_size");
  EXPECT_EQ(pr->value->kind, ExprKind::kInteger);
  EXPECT_EQ(pr->value->ival, -2000);
  EXPECT_EQ(pr->value->text, "-2000");
  p = Parse("PRAGMA table_info('t')");
  EXPECT_TRUE(p.As<PragmaStmt>()->call_form);
  EXPECT_EQ(p.As<PragmaStmt>()->value->kind, ExprKind::kString);
  EXPECT_EQ(p.As<PragmaStmt>()->value->text, "t");
  EXPECT_EQ(Parse("PRAGMA journal_mode = delete").As<PragmaStmt>()->value->text, "delete");
  EXPECT_EQ(Parse("PRAGMA x = on").As<PragmaStmt>()->value->text, "on");
  EXPECT_EQ(Err("PRAGMA x = null"), "near \"null\": syntax error");
  EXPECT_EQ(Err("PRAGMA x = -abc"), "near \"abc\": syntax error");

  p = Parse("VACUUM s INTO 'f.db'");
  EXPECT_EQ(p.As<VacuumStmt>()->schema, "s");
  ASSERT_NE(p.As<VacuumStmt>()->into, nullptr);
  EXPECT_EQ(Parse("REINDEX s.i").As<ReindexStmt>()->name, "i");
  EXPECT_EQ(Parse("ANALYZE").As<AnalyzeStmt>()->name, "");
  p = Parse("ATTACH DATABASE 'f' AS x KEY 'k'");
  ASSERT_NE(p.As<AttachStmt>()->key, nullptr);
  EXPECT_EQ(PrintExpr(p.As<AttachStmt>()->name), "x");
  EXPECT_EQ(PrintExpr(Parse("DETACH x").As<DetachStmt>()->name), "x");
  EXPECT_EQ(Parse("EXPLAIN SELECT 1").stmt->explain, 1);
  EXPECT_EQ(Parse("EXPLAIN QUERY PLAN SELECT 1").stmt->explain, 2);
  EXPECT_EQ(Err("EXPLAIN QUERY SELECT 1"), "near \"SELECT\": syntax error");
}

TEST(Keywords, AsIdentifiers) {
  // The fallback keywords name things wherever the keyword does not fit.
  EXPECT_EQ(Err("CREATE TABLE t(key, action, end, replace, abort, begin, if, temp, view, "
                "row, rows, first, last, filter, over, range, do, no, cascade, window)"),
            "OK");
  EXPECT_EQ(S("SELECT key, action FROM replace AS end"), "SELECT key, action FROM replace AS end");
  EXPECT_EQ(S("SELECT like(a, b), glob FROM t"), "SELECT like(a, b), glob FROM t");
  EXPECT_EQ(S("SELECT a asc FROM t"), "SELECT a AS asc FROM t");
  EXPECT_EQ(S("SELECT left.a FROM t AS left"), "SELECT left.a FROM t AS left");
  EXPECT_EQ(Err("SELECT left(1)"), "near \"(\": syntax error");
  EXPECT_EQ(Err("SELECT a left FROM t"), "near \"left\": syntax error");
  EXPECT_EQ(Err("SELECT cast FROM t"), "near \"FROM\": syntax error");
  EXPECT_EQ(Err("CREATE TABLE nothing(a)"), "near \"nothing\": syntax error");
  EXPECT_EQ(Err("CREATE TABLE if(a)"), "near \"(\": syntax error");
  EXPECT_EQ(S("SELECT indexed FROM t"), "SELECT indexed FROM t");
}

TEST(ParserApi, SeveralStatements) {
  Arena arena;
  std::string sql = " ; SELECT ?; ;; SELECT :a -- tail\n ; ";
  Parser p(&arena, sql);
  auto r = p.ParseStatement();
  ASSERT_TRUE(r.ok());
  ASSERT_NE(*r, nullptr);
  EXPECT_EQ((*r)->span, "SELECT ?");
  EXPECT_EQ(sql.substr(p.offset()), " ;; SELECT :a -- tail\n ; ");
  r = p.ParseStatement();
  ASSERT_TRUE(r.ok());
  ASSERT_NE(*r, nullptr);
  EXPECT_EQ((*r)->span, "SELECT :a");
  EXPECT_EQ(p.params().count, 2);  // shared by the statements of one Parser
  r = p.ParseStatement();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, nullptr);
  EXPECT_EQ(p.offset(), sql.size());
}

TEST(ParserApi, NulEndsInputAndNoSemicolon) {
  Arena arena;
  std::string sql("SELECT 1\0garbage", 16);
  Parser p(&arena, sql);
  auto r = p.ParseStatement();
  ASSERT_TRUE(r.ok());
  ASSERT_NE(*r, nullptr);
  EXPECT_EQ((*r)->span, "SELECT 1");
  EXPECT_EQ(p.offset(), 8u);
}

}  // namespace
}  // namespace basalt::testing
