#include "catalog/vtab.h"

#include <algorithm>
#include <iterator>

#include "catalog/hash_order.h"
#include "common/strings.h"

namespace basalt {

namespace {

// The modules SQLite 3.40 (Debian's build) registers on every connection,
// in the order it registers them.
constexpr std::string_view kSqliteStartupModules[] = {
    "fts4aux", "fts3",      "fts4",   "fts3tokenize", "fts5",      "fts5vocab",
    "rtree",   "rtree_i32", "dbstat", "json_each",    "json_tree", "sqlite_stmt"};

int StartupRank(std::string_view name) {
  for (size_t i = 0; i < std::size(kSqliteStartupModules); ++i) {
    if (EqualsIgnoreCase(kSqliteStartupModules[i], name)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

void ModuleRegistry::Set(std::string_view name, std::shared_ptr<VtabModule> module) {
  std::string key = LowerAscii(name);
  auto listed = std::find_if(added_.begin(), added_.end(),
                             [&](const std::string& n) { return EqualsIgnoreCase(n, name); });
  if (module == nullptr) {
    modules_.erase(key);
    if (listed != added_.end()) added_.erase(listed);
  } else {
    // Replacing a module keeps its place, as SQLite's hash does.
    if (listed == added_.end()) added_.emplace_back(name);
    modules_[key] = std::move(module);
  }
  ++generation_;
}

VtabModule* ModuleRegistry::Find(std::string_view name) const {
  auto it = modules_.find(LowerAscii(name));
  return it == modules_.end() ? nullptr : it->second.get();
}

std::vector<std::string> ModuleRegistry::Names() const {
  // Replays the registrations: SQLite's own start-up modules in its order
  // (Basalt registers them in another), then the rest as they came.
  std::vector<const std::string*> seq;
  for (const std::string& n : added_) seq.push_back(&n);
  std::stable_sort(seq.begin(), seq.end(), [](const std::string* a, const std::string* b) {
    int ra = StartupRank(*a), rb = StartupRank(*b);
    if (ra < 0 || rb < 0) return ra >= 0 && rb < 0;
    return ra < rb;
  });
  HashOrder order;
  for (const std::string* n : seq) order.Insert(*n, n);
  std::vector<std::string> out;
  out.reserve(seq.size());
  for (const void* v : order.Values()) out.push_back(*static_cast<const std::string*>(v));
  return out;
}

void ModuleRegistry::RemoveAllBut(const std::vector<std::string>& keep) {
  auto kept = [&](std::string_view name) {
    return std::any_of(keep.begin(), keep.end(),
                       [&](const std::string& k) { return EqualsIgnoreCase(k, name); });
  };
  for (auto it = modules_.begin(); it != modules_.end();) {
    it = kept(it->first) ? std::next(it) : modules_.erase(it);
  }
  added_.erase(
      std::remove_if(added_.begin(), added_.end(), [&](const std::string& n) { return !kept(n); }),
      added_.end());
  ++generation_;
}

}  // namespace basalt
