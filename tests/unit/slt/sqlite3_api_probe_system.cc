// Probe of the system's SQLite header, named by absolute path so that the
// include/ directory cannot shadow it.
#include "sqlite3_api_probe.h"

#if __has_include("/usr/include/sqlite3.h")
#undef NDEBUG  // the header declares the mutex ownership checks only then
#include "/usr/include/sqlite3.h"

#define BASALT_PROBE_NAME DescribeSystemHeader
#include "sqlite3_api_probe_body.inc"
#else
namespace basalt::slt_test {
ApiDescription DescribeSystemHeader() { return {}; }
}  // namespace basalt::slt_test
#endif
