// Out-of-memory loop over the SQL battery (sql_battery.h): for every step,
// allocation n = 1, 2, ... fails (once, and in a second pass every
// allocation from the n-th on) until the step runs without a failure. A
// failed step must answer SQLITE_NOMEM, leave integrity_check "ok" and the
// rows of before or after the step, and free every block it allocated.
// fail_alloc.cc replaces the program's allocator: in ordinary builds
// malloc itself, in sanitizer builds (-DBASALT_SANITIZE=ON, where
// LeakSanitizer checks for leaks as well) operator new only.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "fail_alloc.h"
#include "sql_battery.h"

namespace basalt::faulttest {
namespace {

void RunOom(bool persistent) {
  FaultHooks hooks;
  hooks.arm = [](long n, bool p) { apitest::ArmAllocFailure(n, p); };
  hooks.disarm = [] { return apitest::DisarmAllocFailure(); };
  hooks.acceptable_error = [](int rc) { return rc == SQLITE_NOMEM; };
  hooks.live_count = [] { return apitest::LiveAllocations(); };
  // (No fsync: the loop opens thousands of connections.)
  hooks.setup = "PRAGMA synchronous=OFF";
  std::string dir = "/tmp/basalt-oom-battery-" + std::to_string(getpid());
  auto start = std::chrono::steady_clock::now();
  LoopResult r = RunFaultLoop(dir, hooks, persistent);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("oom %s: %zu steps, %ld runs, %ld failure points, %ld rows checked, %.1f s\n",
              persistent ? "persistent" : "once", Battery().size(), r.runs, r.fault_points,
              r.rows_checked, seconds);
  for (const std::string& p : r.problems) ADD_FAILURE() << p;
  EXPECT_GT(r.fault_points, 1000);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(OomBattery, FailOnce) { RunOom(false); }
TEST(OomBattery, FailFromNOn) { RunOom(true); }

}  // namespace
}  // namespace basalt::faulttest
