// Finding a VFS by name (see FindVfs in vfs.h).
#include <atomic>
#include <cstring>

#include "os/vfs.h"

namespace basalt {
namespace {

std::atomic<VfsResolver> g_resolver{nullptr};

}  // namespace

// The names SQLite gives its unix VFS variants; all are Basalt's unix VFS.
bool IsUnixVfsName(std::string_view name) {
  for (std::string_view known : {"unix", "unix-none", "unix-dotfile", "unix-excl"}) {
    if (name == known) return true;
  }
  return false;
}

void SetVfsResolver(VfsResolver resolver) { g_resolver.store(resolver); }

Vfs* FindVfs(std::string_view name) {
  VfsResolver r = g_resolver.load();
  if (r != nullptr) return r(name);
  return IsUnixVfsName(name) ? DefaultVfs() : nullptr;
}

}  // namespace basalt
