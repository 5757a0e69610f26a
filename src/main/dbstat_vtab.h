// The DBSTAT virtual table module (dbstat_vtab.cc), registered on every
// connection as "dbstat".
#pragma once

#include <memory>

#include "catalog/vtab.h"

namespace basalt {

class Connection;

std::shared_ptr<VtabModule> MakeDbstatModule(Connection* conn);

}  // namespace basalt
