// Smoke test over a sqllogictest corpus: every `statement ok` / `query`
// record meant for SQLite must parse. Slow (about 5 million records), so it
// runs only when BASALT_SLT_DIR names the corpus directory, e.g.
//   BASALT_SLT_DIR=/tmp/slt parser_test --gtest_filter='SltSmoke.*'
// (parser_tool slt FILE... does the same from the command line.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "parser/parser.h"

namespace basalt {
namespace {

TEST(SltSmoke, AllRecordsParse) {
  const char* dir = std::getenv("BASALT_SLT_DIR");
  if (dir == nullptr) GTEST_SKIP() << "BASALT_SLT_DIR not set";
  long records = 0, failed = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".test") continue;
    std::ifstream in(entry.path());
    std::string line;
    bool skip = false;
    auto next = [&](std::string* l) {
      if (!std::getline(in, *l)) return false;
      if (!l->empty() && l->back() == '\r') l->pop_back();
      return true;
    };
    while (next(&line)) {
      if (line.rfind("onlyif", 0) == 0 && line.find("sqlite") == std::string::npos) skip = true;
      if (line.rfind("skipif", 0) == 0 && line.find("sqlite") != std::string::npos) skip = true;
      bool stmt = line.rfind("statement", 0) == 0;
      if (!stmt && line.rfind("query", 0) != 0) continue;
      bool expect_error = stmt && line.find("error") != std::string::npos;
      std::string sql, l;
      while (next(&l) && !l.empty() && l != "----") sql += l + "\n";
      if (skip || expect_error) {
        skip = false;
        continue;
      }
      ++records;
      Arena arena;
      Parser p(&arena, sql);
      auto r = p.ParseStatement();
      if (!r.ok()) {
        ++failed;
        ADD_FAILURE() << entry.path() << ": " << r.status().message() << "\n" << sql;
        if (failed > 20) return;
      }
    }
  }
  EXPECT_GT(records, 0);
  std::printf("parsed %ld records\n", records);
}

}  // namespace
}  // namespace basalt
