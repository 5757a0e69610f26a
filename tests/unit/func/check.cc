#include "check.h"

#include <cstdlib>
#include <memory>

namespace basalt::functest {

Oracle* SharedOracle() {
  static std::unique_ptr<Oracle> oracle = Oracle::Open();
  return oracle.get();
}

int DiffScale() {
  const char* s = std::getenv("BASALT_FUNC_DIFF_SCALE");
  int n = s ? std::atoi(s) : 1;
  return n > 0 ? n : 1;
}

uint64_t DiffSeed() {
  const char* s = std::getenv("BASALT_FUNC_DIFF_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 0;
}

std::string CallSql(const std::string& name, size_t nargs) {
  std::string sql = "SELECT " + name + "(";
  for (size_t k = 0; k < nargs; ++k) {
    if (k) sql += ",";
    sql += "?";
    sql += std::to_string(k + 1);
  }
  return sql + ")";
}

namespace {

std::string ArgsText(const std::vector<Value>& args) {
  std::string s;
  for (size_t k = 0; k < args.size(); ++k) {
    if (k) s += ", ";
    s += Describe(args[k]);
  }
  return s;
}

std::string Compare(const std::string& what, bool ref_ok, const Value& ref, const std::string& err,
                    const CallResult& mine) {
  if (!ref_ok || mine.error) {
    if (!ref_ok && mine.error && err == mine.message) return "";
    return what + ": referee " + (ref_ok ? Describe(ref) : "error '" + err + "'") + ", basalt " +
           (mine.error ? "error '" + mine.message + "'" : Describe(mine.value));
  }
  if (SameValue(ref, mine.value)) return "";
  return what + ": referee " + Describe(ref) + ", basalt " + Describe(mine.value);
}

}  // namespace

std::string CompareCall(FuncHarness* h, const std::string& name, const std::vector<Value>& args) {
  Oracle* o = SharedOracle();
  if (o == nullptr) return "";
  Value ref;
  std::string err;
  bool ok = o->Eval(CallSql(name, args.size()), args, &ref, &err);
  CallResult mine = h->Call(name, args);
  return Compare(name + "(" + ArgsText(args) + ")", ok, ref, err, mine);
}

std::string CompareAggregate(FuncHarness* h, const std::string& name,
                             const std::vector<std::vector<Value>>& rows) {
  Oracle* o = SharedOracle();
  if (o == nullptr) return "";
  size_t nargs = rows.empty() ? 1 : rows[0].size();
  std::string sql = "SELECT " + name + "(";
  for (size_t k = 0; k < nargs; ++k) {
    if (k) sql += ",";
    sql += "column";
    sql += std::to_string(k + 1);
  }
  sql += ") FROM (";
  std::vector<Value> flat;
  if (rows.empty()) {
    sql += "SELECT 1 AS column1, 1 AS column2 WHERE 0";
  } else {
    sql += "VALUES ";
    for (size_t r = 0; r < rows.size(); ++r) {
      sql += r ? ",(" : "(";
      for (size_t k = 0; k < nargs; ++k) {
        flat.push_back(rows[r][k]);
        sql += k ? ",?" : "?";
        sql += std::to_string(flat.size());
      }
      sql += ")";
    }
  }
  sql += ")";
  Value ref;
  std::string err;
  bool ok = o->Eval(sql, flat, &ref, &err);
  CallResult mine = h->Aggregate(name, rows);
  std::string what = name + " over";
  for (const auto& row : rows) what += " (" + ArgsText(row) + ")";
  return Compare(what, ok, ref, err, mine);
}

}  // namespace basalt::functest
