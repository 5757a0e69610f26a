#include "plan.h"

namespace basalt::slt {

Plan MakePlan(const Script& script, std::string_view engine) {
  Plan plan;
  plan.runs.assign(script.records.size(), false);
  bool halted = false;
  for (size_t i = 0; i < script.records.size(); ++i) {
    const Record& r = script.records[i];
    const bool counted = IsCounted(r);
    if (counted) ++plan.records;
    if (halted || !Applies(script, r, engine)) {
      if (counted) ++plan.skipped;
      continue;
    }
    if (r.kind == RecordKind::kHalt) halted = true;
    plan.runs[i] = true;
    if (counted) ++plan.to_run;
  }
  return plan;
}

std::string Where(const Script& script, int line) {
  return script.path + ":" + std::to_string(line) + ": ";
}

void AppendLines(const Script& script, int first_line, int count, int indent, std::string* out) {
  for (int i = 0; i < count; ++i) {
    const size_t index = static_cast<size_t>(first_line - 1 + i);
    if (index >= script.lines.size()) break;
    out->append(indent, ' ');
    out->append(script.lines[index]);
    out->push_back('\n');
  }
}

}  // namespace basalt::slt
