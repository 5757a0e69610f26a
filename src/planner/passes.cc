#include "planner/passes.h"

#include <string>

#include "common/strings.h"

namespace basalt {

namespace {
constexpr PassInfo kPasses[] = {
#define BASALT_PASS_INFO(name, text, doc) {text, doc},
    BASALT_PASSES(BASALT_PASS_INFO)
#undef BASALT_PASS_INFO
};
static_assert(sizeof(kPasses) / sizeof(kPasses[0]) == static_cast<size_t>(Pass::kCount));
}  // namespace

const PassInfo& InfoOf(Pass p) { return kPasses[static_cast<size_t>(p)]; }

Status ParsePassList(std::string_view list, uint32_t* mask) {
  *mask = 0;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) continue;
    if (EqualsIgnoreCase(name, "all")) {
      *mask = PassBit(Pass::kCount) - 1;
      continue;
    }
    bool found = false;
    for (size_t i = 0; i < static_cast<size_t>(Pass::kCount); ++i) {
      if (EqualsIgnoreCase(name, kPasses[i].name)) {
        *mask |= PassBit(static_cast<Pass>(i));
        found = true;
      }
    }
    if (!found) return Status(kError, "no such pass: " + std::string(name));
  }
  return Status();
}

}  // namespace basalt
