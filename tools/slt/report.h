// What the user sees besides failure lines: the per-folder summary table,
// the closing totals, and a progress line on the terminal.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace basalt::slt {

struct Tally {
  int64_t files = 0, records = 0, passed = 0, failed = 0, skipped = 0;
  double seconds = 0;

  void Add(const Tally& o) {
    files += o.files;
    records += o.records;
    passed += o.passed;
    failed += o.failed;
    skipped += o.skipped;
    seconds += o.seconds;
  }
};

// Tallies per folder and engine.
class Summary {
 public:
  explicit Summary(std::vector<std::string> engines) : engines_(std::move(engines)) {}

  void Add(const std::string& folder, size_t engine, const Tally& t);
  Tally Total(size_t engine) const;

  // One row per folder and a total row. With two engines the table shows
  // both engines' counts and times and the ratio first/second of the times.
  void PrintTable(std::FILE* out) const;
  // "N passed, N failed, N skipped" — per engine, labelled when there are
  // several; the first engine's line comes last.
  void PrintTotals(std::FILE* out) const;

 private:
  std::vector<std::string> engines_;
  std::map<std::string, std::vector<Tally>> folders_;
};

// A one-line status on standard error, redrawn in place; only when standard
// error is a terminal.
class ProgressLine {
 public:
  explicit ProgressLine(bool wanted);
  ~ProgressLine() { Clear(); }
  bool enabled() const { return enabled_; }
  void Show(const std::string& text);
  // Erases the line (before other output is written).
  void Clear();

 private:
  bool enabled_;
  bool shown_ = false;
};

// "12.3s", or "1:02:03" style for long spans.
std::string FormatSeconds(double seconds);

}  // namespace basalt::slt
