// Checks include/sqlite3.h against the system's SQLite 3.40 header: every
// name the system header declares must exist in Basalt's header with the
// same value (macros), type (functions, variables, typedefs) or layout
// (structs). Skipped when the system header is not installed.
#include <gtest/gtest.h>

#include <string>

#include "sqlite3_api_probe.h"

extern "C" int basalt_header_c_check(void);

namespace basalt::slt_test {
namespace {

TEST(Sqlite3Header, CompilesAsC) { EXPECT_EQ(basalt_header_c_check(), 3040001); }

TEST(Sqlite3Header, MatchesSystemHeader) {
  ApiDescription system = DescribeSystemHeader();
  if (system.empty()) GTEST_SKIP() << "no /usr/include/sqlite3.h";
  ApiDescription basalt = DescribeBasaltHeader();
  ASSERT_EQ(system.size(), basalt.size());
  int mismatches = 0;
  for (const auto& [name, description] : system) {
    auto it = basalt.find(name);
    ASSERT_NE(it, basalt.end()) << name;
    if (it->second != description) {
      ADD_FAILURE() << name << ": system '" << description << "', basalt '" << it->second << "'";
      ++mismatches;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Sqlite3Header, VersionMacros) {
  ApiDescription basalt = DescribeBasaltHeader();
  EXPECT_EQ(basalt["macro SQLITE_VERSION"], "3.40.1");
  EXPECT_EQ(basalt["macro SQLITE_VERSION_NUMBER"], "3040001");
}

}  // namespace
}  // namespace basalt::slt_test
