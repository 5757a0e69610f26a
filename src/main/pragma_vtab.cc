// The pragma virtual tables: pragma_NAME for every entry of the PRAGMA
// table that has a table-valued function. Each is an eponymous-only module
// whose table has the pragma's result columns, then the hidden columns
// `arg` (kPragmaArgColumn) and `schema` (kPragmaSchemaColumn).
//
// Protocol:
//   1. BestIndex uses `=` constraints on the hidden columns, in column
//      order: the first hidden column's constraint becomes Filter's argv[0]
//      and, only then, the second's argv[1]. Without a usable constraint on
//      the first hidden column the plan is made very expensive, so that a
//      join feeds it a value when it can.
//   2. Filter runs the pragma at that moment (PRAGMA [schema.]NAME[=arg]),
//      keeping its rows; NULL arguments count as absent.
//   3. The cursor walks the rows; rowid = row number from 1. A hidden
//      column reads the value of argument slot (column - first hidden):
//      slot 0 is arg, slot 1 schema (so `schema` of a table with no `arg`
//      column reads NULL, as in SQLite).
#include "catalog/function.h"
#include "catalog/vtab.h"
#include "common/strings.h"
#include "main/connection.h"
#include "main/pragma.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

constexpr double kNoArgumentCost = 2147483647.0;
constexpr int64_t kNoArgumentRows = 2147483647;

std::string QuoteColumn(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string QuoteLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

class PragmaCursor : public VtabCursor {
 public:
  PragmaCursor(Connection* conn, const PragmaDef* def, int n_columns)
      : conn_(conn), def_(def), n_columns_(n_columns) {}

  Status Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) override {
    (void)idx_num;
    (void)idx_str;
    rows_.clear();
    pos_ = 0;
    for (Value& v : slots_) v.SetNull();
    // argv follows the hidden columns; a table without `arg` starts at the
    // schema slot.
    int slot = def_->has(kPragmaArgColumn) ? 0 : 1;
    for (int i = 0; i < argc && slot < 2; ++i, ++slot) {
      if (argv[i]->is_null()) continue;
      // The pragma reads its arguments as text.
      slots_[slot].CopyFrom(*argv[i]);
      Stringify(&slots_[slot]);
      if (slots_[slot].is_blob()) {
        slots_[slot].SetText(std::string(slots_[slot].data(), slots_[slot].size()));
      }
    }
    PragmaCall call;
    call.conn = conn_;
    call.def = def_;
    call.from_function = true;
    if (!slots_[1].is_null()) {
      call.db = conn_->dbs().Find(slots_[1].text());
      if (call.db < 0) {
        return Status(kError, "unknown database " + QuoteLiteral(slots_[1].text()));
      }
    }
    if (!slots_[0].is_null()) {
      call.set = true;
      call.arg = std::string(slots_[0].text());
    }
    std::vector<std::string> names;
    call.names = &names;
    call.rows = &rows_;
    return RunPragmaCall(&call);
  }

  Status Next() override {
    ++pos_;
    return Status();
  }
  bool Eof() override { return pos_ >= rows_.size(); }

  Status Column(FuncContext* ctx, int i) override {
    if (i < n_columns_) {
      const std::vector<Value>& row = rows_[pos_];
      if (static_cast<size_t>(i) < row.size()) {
        ctx->result->CopyFrom(row[static_cast<size_t>(i)]);
      } else {
        ctx->result->SetNull();
      }
      return Status();
    }
    const int slot = i - n_columns_;
    if (slot < 2) {
      ctx->result->CopyFrom(slots_[slot]);
    } else {
      ctx->result->SetNull();
    }
    return Status();
  }

  Status Rowid(int64_t* rowid) override {
    *rowid = static_cast<int64_t>(pos_) + 1;
    return Status();
  }

 private:
  Connection* conn_;
  const PragmaDef* def_;
  int n_columns_;
  Value slots_[2];  // arg, schema
  std::vector<std::vector<Value>> rows_;
  size_t pos_ = 0;
};

class PragmaVtab : public Vtab {
 public:
  PragmaVtab(Connection* conn, const PragmaDef* def)
      : conn_(conn), def_(def), n_columns_(static_cast<int>(PragmaColumns(*def).size())) {
    n_hidden_ = (def->has(kPragmaArgColumn) ? 1 : 0) + (def->has(kPragmaSchemaColumn) ? 1 : 0);
  }

  Status BestIndex(IndexInfo* info) override {
    info->estimated_cost = 1;
    if (n_hidden_ == 0) return Status();
    int seen[2] = {-1, -1};
    for (size_t i = 0; i < info->constraints.size(); ++i) {
      const IndexInfo::Constraint& c = info->constraints[i];
      if (!c.usable || c.op != kVtabEq || c.column < n_columns_) continue;
      const int hidden = c.column - n_columns_;
      if (hidden < 2) seen[hidden] = static_cast<int>(i);
    }
    if (seen[0] < 0) {
      info->estimated_cost = kNoArgumentCost;
      info->estimated_rows = kNoArgumentRows;
      return Status();
    }
    info->constraints[static_cast<size_t>(seen[0])].argv_index = 1;
    info->constraints[static_cast<size_t>(seen[0])].omit = true;
    if (seen[1] < 0) return Status();
    info->estimated_cost = 20;
    info->estimated_rows = 20;
    info->constraints[static_cast<size_t>(seen[1])].argv_index = 2;
    info->constraints[static_cast<size_t>(seen[1])].omit = true;
    return Status();
  }

  Status Open(std::unique_ptr<VtabCursor>* out) override {
    *out = std::make_unique<PragmaCursor>(conn_, def_, n_columns_);
    return Status();
  }

 private:
  Connection* conn_;
  const PragmaDef* def_;
  int n_columns_;
  int n_hidden_ = 0;
};

class PragmaModule : public VtabModule {
 public:
  PragmaModule(Connection* conn, const PragmaDef* def) : conn_(conn), def_(def) {}

  Status Create(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    return Connect(args, out, declared);
  }
  Status Connect(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    (void)args;
    std::string sql = "CREATE TABLE x(";
    std::vector<std::string> cols = PragmaColumns(*def_);
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i > 0) sql += ',';
      sql += QuoteColumn(cols[i]);
    }
    const char* sep = cols.empty() ? "" : ",";
    if (def_->has(kPragmaArgColumn)) {
      sql += sep;
      sql += "arg HIDDEN";
      sep = ",";
    }
    if (def_->has(kPragmaSchemaColumn)) {
      sql += sep;
      sql += "schema HIDDEN";
    }
    *declared = sql + ")";
    *out = std::make_unique<PragmaVtab>(conn_, def_);
    return Status();
  }
  bool eponymous() const override { return true; }
  bool eponymous_only() const override { return true; }

 private:
  Connection* conn_;
  const PragmaDef* def_;
};

}  // namespace

std::shared_ptr<VtabModule> MakePragmaModule(Connection* conn, std::string_view table_name) {
  constexpr std::string_view kPrefix = "pragma_";
  if (table_name.size() <= kPrefix.size() ||
      !EqualsIgnoreCase(table_name.substr(0, kPrefix.size()), kPrefix)) {
    return nullptr;
  }
  const PragmaDef* def = FindPragma(table_name.substr(kPrefix.size()));
  if (def == nullptr || def->has(kPragmaNoFunction)) return nullptr;
  return std::make_shared<PragmaModule>(conn, def);
}

}  // namespace basalt
