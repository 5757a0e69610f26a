#include "catalog/vtab.h"

#include <algorithm>

#include "common/strings.h"

namespace basalt {

void ModuleRegistry::Set(std::string_view name, std::shared_ptr<VtabModule> module) {
  std::string key = LowerAscii(name);
  if (module == nullptr) {
    modules_.erase(key);
  } else {
    modules_[key] = std::move(module);
  }
  ++generation_;
}

VtabModule* ModuleRegistry::Find(std::string_view name) const {
  auto it = modules_.find(LowerAscii(name));
  return it == modules_.end() ? nullptr : it->second.get();
}

std::vector<std::string> ModuleRegistry::Names() const {
  std::vector<std::string> out;
  out.reserve(modules_.size());
  for (const auto& [name, m] : modules_) out.push_back(name);
  return out;
}

void ModuleRegistry::RemoveAllBut(const std::vector<std::string>& keep) {
  for (auto it = modules_.begin(); it != modules_.end();) {
    bool kept = std::any_of(keep.begin(), keep.end(),
                            [&](const std::string& k) { return EqualsIgnoreCase(k, it->first); });
    it = kept ? std::next(it) : modules_.erase(it);
  }
  ++generation_;
}

}  // namespace basalt
