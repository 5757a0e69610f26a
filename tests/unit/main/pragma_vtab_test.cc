// The pragma virtual tables (main/pragma_vtab.cc) driven through the
// engine's module interfaces (catalog/vtab.h): which pragma_NAME tables
// exist, their declared and hidden columns (as SQLite 3.40 declares them:
// SELECT name, hidden FROM pragma_table_xinfo('pragma_NAME')), BestIndex on
// the hidden columns, and Filter running the pragma when it is called.
#include <gtest/gtest.h>

#include "catalog/function.h"
#include "main/pragma.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

class PragmaVtabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = Connection::Open(":memory:", 6);
    ASSERT_TRUE(c.ok());
    conn_ = std::move(c).value();
    ASSERT_EQ(Exec(conn_.get(), "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL)").code, 0);
  }

  Table* Eponymous(std::string_view name) {
    Status st;
    Table* t = conn_->vtabs().Eponymous(name, &st);
    EXPECT_TRUE(st.ok()) << st.message();
    return t;
  }

  // "name" or "name(H)" per column.
  static std::string Columns(const Table* t) {
    std::string out;
    for (const Column& c : t->columns) {
      if (!out.empty()) out += ',';
      out += c.name + (c.hidden ? "(H)" : "");
    }
    return out;
  }

  // Runs a scan: Filter with `args` (null pointers for SQL NULL), then
  // every row as "v|v|...", one per line, with its rowid first.
  static std::string Scan(Vtab* vt, int n_columns, const std::vector<const char*>& args,
                          Status* st) {
    std::unique_ptr<VtabCursor> cur;
    *st = vt->Open(&cur);
    if (!st->ok()) return "";
    std::vector<Value> vals(args.size());
    std::vector<Value*> argv;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i] != nullptr) vals[i].SetText(args[i]);
      argv.push_back(&vals[i]);
    }
    *st = cur->Filter(0, "", static_cast<int>(argv.size()), argv.data());
    if (!st->ok()) return "";
    std::string out;
    for (; !cur->Eof(); (void)cur->Next()) {
      int64_t rowid = 0;
      EXPECT_TRUE(cur->Rowid(&rowid).ok());
      out += std::to_string(rowid);
      for (int i = 0; i < n_columns; ++i) {
        Value v;
        FuncContext ctx;
        ctx.result = &v;
        EXPECT_TRUE(cur->Column(&ctx, i).ok());
        out += '|';
        if (v.is_null()) {
          out += "NULL";
        } else if (v.is_int()) {
          out += std::to_string(v.int_value());
        } else {
          out += std::string(v.text());
        }
      }
      out += '\n';
    }
    return out;
  }

  std::unique_ptr<Connection> conn_;
};

TEST_F(PragmaVtabTest, OnlyPragmasWithAFunctionHaveATable) {
  EXPECT_NE(MakePragmaModule(conn_.get(), "pragma_table_info"), nullptr);
  EXPECT_NE(MakePragmaModule(conn_.get(), "PRAGMA_Page_Size"), nullptr);
  EXPECT_NE(MakePragmaModule(conn_.get(), "pragma_pragma_list"), nullptr);
  for (const char* none :
       {"pragma_mmap_size", "pragma_wal_checkpoint", "pragma_wal_autocheckpoint",
        "pragma_case_sensitive_like", "pragma_incremental_vacuum", "pragma_shrink_memory",
        "pragma_temp_store_directory", "pragma_nosuch", "pragma_", "table_info", "t"}) {
    EXPECT_EQ(MakePragmaModule(conn_.get(), none), nullptr) << none;
  }
  int with_function = 0;
  for (const PragmaDef& d : AllPragmas()) with_function += d.has(kPragmaNoFunction) ? 0 : 1;
  EXPECT_EQ(AllPragmas().size(), 66u);
  EXPECT_EQ(with_function, 59);
}

TEST_F(PragmaVtabTest, DeclaredColumnsAreSQLites) {
  const struct {
    const char* table;
    const char* columns;
  } kCases[] = {
      {"pragma_table_info", "cid,name,type,notnull,dflt_value,pk,arg(H),schema(H)"},
      {"pragma_table_xinfo", "cid,name,type,notnull,dflt_value,pk,hidden,arg(H),schema(H)"},
      {"pragma_index_xinfo", "seqno,cid,name,desc,coll,key,arg(H),schema(H)"},
      {"pragma_foreign_key_list",
       "id,seq,table,from,to,on_update,on_delete,match,arg(H),schema(H)"},
      {"pragma_table_list", "schema,name,type,ncol,wr,strict,arg(H)"},
      {"pragma_page_size", "page_size,schema(H)"},
      {"pragma_default_cache_size", "cache_size,schema(H)"},
      {"pragma_busy_timeout", "timeout"},
      {"pragma_user_version", "user_version"},
      {"pragma_secure_delete", "secure_delete"},
      {"pragma_optimize", "optimize,arg(H)"},
      {"pragma_integrity_check", "integrity_check,arg(H),schema(H)"},
      {"pragma_function_list", "name,builtin,type,enc,narg,flags"},
  };
  for (const auto& c : kCases) {
    Table* t = Eponymous(c.table);
    ASSERT_NE(t, nullptr) << c.table;
    EXPECT_EQ(Columns(t), c.columns) << c.table;
    EXPECT_TRUE(t->is_virtual);
  }
  EXPECT_EQ(Eponymous("pragma_mmap_size"), nullptr);
}

TEST_F(PragmaVtabTest, BestIndexTakesEqualityOnTheHiddenColumnsInOrder) {
  Table* t = Eponymous("pragma_table_info");
  ASSERT_NE(t, nullptr);
  Vtab* vt = t->vtab.get();
  auto constraint = [](int column, uint8_t op, bool usable) {
    IndexInfo::Constraint c;
    c.column = column;
    c.op = op;
    c.usable = usable;
    return c;
  };
  // No constraint on arg (column 6): as expensive as can be.
  IndexInfo none;
  none.constraints = {constraint(1, kVtabEq, true), constraint(7, kVtabEq, true),
                      constraint(6, kVtabGt, true), constraint(6, kVtabEq, false)};
  ASSERT_TRUE(vt->BestIndex(&none).ok());
  EXPECT_EQ(none.estimated_cost, 2147483647.0);
  EXPECT_EQ(none.estimated_rows, 2147483647);
  for (const auto& c : none.constraints) EXPECT_EQ(c.argv_index, 0);
  // arg only.
  IndexInfo arg;
  arg.constraints = {constraint(0, kVtabEq, true), constraint(6, kVtabEq, true)};
  ASSERT_TRUE(vt->BestIndex(&arg).ok());
  EXPECT_EQ(arg.estimated_cost, 1.0);
  EXPECT_EQ(arg.constraints[0].argv_index, 0);
  EXPECT_EQ(arg.constraints[1].argv_index, 1);
  EXPECT_TRUE(arg.constraints[1].omit);
  // arg and schema, in any order of constraints.
  IndexInfo both;
  both.constraints = {constraint(7, kVtabEq, true), constraint(6, kVtabEq, true)};
  ASSERT_TRUE(vt->BestIndex(&both).ok());
  EXPECT_EQ(both.estimated_cost, 20.0);
  EXPECT_EQ(both.estimated_rows, 20);
  EXPECT_EQ(both.constraints[0].argv_index, 2);
  EXPECT_EQ(both.constraints[1].argv_index, 1);
  EXPECT_TRUE(both.constraints[0].omit && both.constraints[1].omit);

  // A table without hidden columns takes no constraint.
  Table* uv = Eponymous("pragma_user_version");
  ASSERT_NE(uv, nullptr);
  IndexInfo plain;
  plain.constraints = {constraint(0, kVtabEq, true)};
  ASSERT_TRUE(uv->vtab->BestIndex(&plain).ok());
  EXPECT_EQ(plain.estimated_cost, 1.0);
  EXPECT_EQ(plain.constraints[0].argv_index, 0);
}

TEST_F(PragmaVtabTest, FilterRunsThePragmaWhenCalled) {
  Table* t = Eponymous("pragma_table_info");
  ASSERT_NE(t, nullptr);
  Status st;
  EXPECT_EQ(Scan(t->vtab.get(), 8, {"t"}, &st),
            "1|0|a|INTEGER|0|NULL|1|t|NULL\n"
            "2|1|b|TEXT|1|NULL|0|t|NULL\n");
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(Scan(t->vtab.get(), 8, {"t", "main"}, &st),
            "1|0|a|INTEGER|0|NULL|1|t|main\n"
            "2|1|b|TEXT|1|NULL|0|t|main\n");
  EXPECT_EQ(Scan(t->vtab.get(), 8, {"t", "temp"}, &st), "");
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(Scan(t->vtab.get(), 8, {}, &st), "");
  EXPECT_EQ(Scan(t->vtab.get(), 8, {nullptr, "main"}, &st), "");
  Scan(t->vtab.get(), 8, {"t", "nosuch"}, &st);
  EXPECT_EQ(st.code(), kError);
  EXPECT_EQ(st.message(), "unknown database 'nosuch'");

  // The same table, filtered again after the schema changed.
  ASSERT_EQ(Exec(conn_.get(), "DROP TABLE t; CREATE TABLE t(x DEFAULT 7)").code, 0);
  EXPECT_EQ(Scan(t->vtab.get(), 8, {"t"}, &st), "1|0|x||0|7|0|t|NULL\n");
}

TEST_F(PragmaVtabTest, SchemaOnlyTablesReadNullInTheirSchemaColumn) {
  Table* t = Eponymous("pragma_page_size");
  ASSERT_NE(t, nullptr);
  Status st;
  // As in SQLite: the argument goes to the schema, but the hidden column
  // reads the (absent) arg slot.
  EXPECT_EQ(Scan(t->vtab.get(), 2, {"main"}, &st), "1|4096|NULL\n");
  EXPECT_TRUE(st.ok()) << st.message();
  Scan(t->vtab.get(), 2, {"aux"}, &st);
  EXPECT_EQ(st.message(), "unknown database 'aux'");
}

TEST_F(PragmaVtabTest, ValuesChangeBetweenScans) {
  Table* t = Eponymous("pragma_user_version");
  ASSERT_NE(t, nullptr);
  Status st;
  EXPECT_EQ(Scan(t->vtab.get(), 1, {}, &st), "1|0\n");
  ASSERT_EQ(Exec(conn_.get(), "PRAGMA user_version = 42").code, 0);
  EXPECT_EQ(Scan(t->vtab.get(), 1, {}, &st), "1|42\n");
}

}  // namespace
}  // namespace basalt::testing
