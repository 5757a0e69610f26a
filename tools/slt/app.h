// The whole run: collect files, load engines, run every (file, engine) job
// in worker processes, print failures in file order, then the summary.
#pragma once

#include "options.h"

namespace basalt::slt {

// Returns the process exit status: 0 all passed, 1 failures, 2 set-up error.
int RunApp(const Options& options);

}  // namespace basalt::slt
