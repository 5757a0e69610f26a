#include "report.h"

#include <unistd.h>

#include <algorithm>

namespace basalt::slt {

void Summary::Add(const std::string& folder, size_t engine, const Tally& t) {
  std::vector<Tally>& row = folders_[folder];
  row.resize(engines_.size());
  row[engine].Add(t);
}

Tally Summary::Total(size_t engine) const {
  Tally total;
  for (const auto& [folder, row] : folders_) total.Add(row[engine]);
  return total;
}

std::string FormatSeconds(double seconds) {
  char buf[32];
  if (seconds < 600) {
    std::snprintf(buf, sizeof(buf), "%.1fs", seconds);
  } else {
    const long s = static_cast<long>(seconds + 0.5);
    std::snprintf(buf, sizeof(buf), "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  }
  return buf;
}

namespace {

std::string Ratio(double a, double b) {
  if (b <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", a / b);
  return buf;
}

// Prints rows as a table: the first column left-aligned, the rest right.
void PrintRows(std::FILE* out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      if (c == 0) {
        line += row[c] + pad;
      } else {
        line += "  " + pad + row[c];
      }
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
}

}  // namespace

void Summary::PrintTable(std::FILE* out) const {
  std::vector<std::vector<std::string>> rows;
  const bool pair = engines_.size() == 2;
  if (pair) {
    const std::string& a = engines_[0];
    const std::string& b = engines_[1];
    rows.push_back({"folder", "files", "records", "skipped", a + " passed", a + " failed",
                    b + " passed", b + " failed", a + " time", b + " time", "ratio"});
  } else {
    rows.push_back({"folder", "files", "records", "passed", "failed", "skipped", "time"});
  }
  auto add = [&](const std::string& name, const std::vector<Tally>& t) {
    if (pair) {
      rows.push_back({name, std::to_string(t[0].files), std::to_string(t[0].records),
                      std::to_string(t[0].skipped), std::to_string(t[0].passed),
                      std::to_string(t[0].failed), std::to_string(t[1].passed),
                      std::to_string(t[1].failed), FormatSeconds(t[0].seconds),
                      FormatSeconds(t[1].seconds), Ratio(t[0].seconds, t[1].seconds)});
    } else {
      rows.push_back({name, std::to_string(t[0].files), std::to_string(t[0].records),
                      std::to_string(t[0].passed), std::to_string(t[0].failed),
                      std::to_string(t[0].skipped), FormatSeconds(t[0].seconds)});
    }
  };
  for (const auto& [folder, row] : folders_) add(folder, row);
  std::vector<Tally> total;
  for (size_t e = 0; e < engines_.size(); ++e) total.push_back(Total(e));
  add("total", total);
  PrintRows(out, rows);
}

void Summary::PrintTotals(std::FILE* out) const {
  for (size_t i = engines_.size(); i-- > 0;) {
    const Tally t = Total(i);
    const std::string label = engines_.size() > 1 ? engines_[i] + ": " : "";
    std::fprintf(out, "%s%lld passed, %lld failed, %lld skipped\n", label.c_str(),
                 static_cast<long long>(t.passed), static_cast<long long>(t.failed),
                 static_cast<long long>(t.skipped));
  }
}

ProgressLine::ProgressLine(bool wanted) : enabled_(wanted && ::isatty(STDERR_FILENO)) {}

void ProgressLine::Show(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace basalt::slt
