// Opening a connection: the main database (see Database::Open) and the
// connection-wide settings.
#include <cstdlib>

#include "func/builtins.h"
#include "func/json_each.h"
#include "main/connection.h"
#include "main/dbstat_vtab.h"
#include "os/vfs.h"

namespace basalt {

Result<std::unique_ptr<Connection>> Connection::Open(std::string_view filename, int flags,
                                                     Vfs* vfs) {
  std::unique_ptr<Connection> c(new Connection());
  c->filename_ = std::string(filename);
  c->open_flags_ = flags;
  c->vfs_ = vfs != nullptr ? vfs : DefaultVfs();
  OpenTarget target;
  TRY(ParseOpenTarget(filename, flags, &target));
  if (target.vfs != nullptr) c->vfs_ = target.vfs;  // as SQLite, vfs= is the connection's VFS
  auto main = std::make_unique<Database>("main", /*temp=*/false);
  main->filename = std::string(filename);
  TRY(main->Open(target, c->vfs_));
  c->store_.Init(std::move(main));
  c->ddl_.SetOpenDefaults(flags, c->vfs_);
  c->ddl_.SetLimits(&c->limits_);
  c->ddl_.SetAuth(&c->auth_);
  c->vtabs_.SetAuth(&c->auth_);
  c->funcs_.SetFallback(&SharedBuiltinFunctions(false));
  c->env_.hooks = c.get();
  // Tests switch compiler passes off through the environment (passes.h).
  if (const char* off = std::getenv("BASALT_DISABLE_PASSES")) {
    TRY(ParsePassList(off, &c->options_.disabled_passes));
  }
  c->env_.interrupted = &c->interrupted_;
  // Sorters spill through the connection's VFS (vm.h SorterBudget).
  c->env_.temp_vfs = c->vfs_;
  c->env_.cache_size = &c->store_.main()->cache_size;
  c->env_.temp_store = &c->pragma_settings_.temp_store;
  c->SetBusyTimeout(c->busy_timeout_ms_);
  // pragma_NAME tables are made the first time a statement names them.
  Connection* conn = c.get();
  c->vtabs_.SetBuiltinFactory(
      [conn](std::string_view name) { return MakePragmaModule(conn, name); });
  // Built-in modules registered up front (PRAGMA module_list lists them).
  c->vtabs_.modules().Set("dbstat", MakeDbstatModule(conn));
  c->vtabs_.modules().Set("json_each", MakeJsonEachModule(false));
  c->vtabs_.modules().Set("json_tree", MakeJsonEachModule(true));
  c->txn_.WatchQueryOnly(&c->options_.query_only);
  c->env_.defer_fks = &c->options_.defer_foreign_keys;
  c->txn_.WatchForeignKeys(&c->env_.fk);
  return c;
}

void Connection::SetBusyHandler(BusyHandler handler) {
  busy_timeout_ms_ = 0;
  store_.SetBusyHandler(std::move(handler));
}

void Connection::SetBusyTimeout(int ms) {
  if (ms <= 0) {
    SetBusyHandler(nullptr);
    return;
  }
  SetBusyHandler([limit = ms](int attempts) {
    // Waits grow from 1 ms to 100 ms, until the total passes the timeout.
    static const int kDelays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
    constexpr int kN = static_cast<int>(sizeof(kDelays) / sizeof(kDelays[0]));
    int spent = 0;
    for (int i = 0; i < attempts && i < kN; ++i) spent += kDelays[i];
    if (attempts >= kN) spent += (attempts - kN) * kDelays[kN - 1];
    int next = attempts < kN ? kDelays[attempts] : kDelays[kN - 1];
    if (spent >= limit) return false;
    if (spent + next > limit) next = limit - spent;
    DefaultVfs()->Sleep(next * 1000);
    return true;
  });
  busy_timeout_ms_ = ms;
}

}  // namespace basalt
