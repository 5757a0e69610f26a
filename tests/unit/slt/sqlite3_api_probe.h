// Describes what a sqlite3.h declares: for every name of sqlite3_api_names.inc
// a line of text (a macro's value, a function's type, a struct's layout), so
// two headers can be compared without including both in one translation unit.
#pragma once

#include <map>
#include <string>

namespace basalt::slt_test {

using ApiDescription = std::map<std::string, std::string>;

// Basalt's include/sqlite3.h.
ApiDescription DescribeBasaltHeader();
// The system's /usr/include/sqlite3.h; empty when it is not installed.
ApiDescription DescribeSystemHeader();

}  // namespace basalt::slt_test
