// The checker: runs each record that applies and compares what the engine
// did with what the script expects.
//
// Query results: the rendered values are sorted as the record asks, then
//  - if the expected block is one "N values hashing to H" line, the md5 of
//    the values must give that line (the form used above the threshold);
//  - otherwise the values must equal the expected lines one for one.
// A label additionally requires the same hash as every earlier query of the
// file with that label.
#include "runner.h"

#include <chrono>
#include <unordered_map>

#include "plan.h"
#include "result_set.h"
#include "session.h"

namespace basalt::slt {
namespace {

constexpr size_t kBriefValueLength = 60;   // longer values are cut in messages
constexpr size_t kMaxDetailValues = 1000;  // values listed per verbose message

std::string Quote(std::string_view v) {
  std::string q = "\"";
  if (v.size() > kBriefValueLength) {
    q.append(v.substr(0, kBriefValueLength));
    q += "...";
  } else {
    q.append(v);
  }
  q += '"';
  return q;
}

class Checker {
 public:
  Checker(const Script& script, const Engine& engine, const RunOptions& options,
          FileProgress* progress, const MessageSink& sink)
      : script_(script),
        options_(options),
        progress_(progress),
        sink_(sink),
        session_(engine.api) {}

  void Run() {
    const Plan plan = MakePlan(script_, options_.condition_engine);
    plan.Publish(progress_);
    std::string error;
    if (!session_.OpenFresh(options_.db_path, &error)) {
      progress_->failed += plan.to_run;
      sink_(Where(script_, 1) + error + " (" + std::to_string(plan.to_run) +
            " records counted as failed)\n");
      return;
    }
    for (size_t i = 0; i < script_.records.size(); ++i) {
      if (!plan.runs[i]) continue;
      const Record& r = script_.records[i];
      progress_->current_line.store(r.line, std::memory_order_relaxed);
      switch (r.kind) {
        case RecordKind::kStatement:
          CheckStatement(r);
          break;
        case RecordKind::kQuery:
          CheckQuery(r);
          break;
        case RecordKind::kHashThreshold:  // both result forms are accepted anyway
        case RecordKind::kHalt:           // the plan already skips what follows
          break;
        case RecordKind::kMalformed:
          Fail(r, r.error, "");
          break;
      }
    }
    session_.Close();
    RemoveDatabaseFiles(options_.db_path);
  }

 private:
  void Pass() { progress_->passed.fetch_add(1, std::memory_order_relaxed); }

  void Fail(const Record& r, const std::string& message, const std::string& details) {
    progress_->failed.fetch_add(1, std::memory_order_relaxed);
    std::string text = Where(script_, r.line) + message + "\n";
    if (options_.verbose) {
      if (r.sql_lines > 0) {
        text += "  sql:\n";
        AppendLines(script_, r.sql_line, r.sql_lines, 4, &text);
      }
      text += details;
    }
    sink_(text);
  }

  void CheckStatement(const Record& r) {
    std::string error;
    const bool ok = session_.Execute(r.sql.data(), &error);
    if (ok != r.expect_error) {
      Pass();
    } else if (ok) {
      Fail(r, "statement succeeded but an error was expected", "");
    } else {
      Fail(r, "statement failed: " + error, "");
    }
  }

  std::string ExpectedDetails(const Record& r) const {
    std::string d = "  expected (" + std::to_string(r.expected_count) + " lines):\n";
    for (uint32_t i = 0; i < r.expected_count && i < kMaxDetailValues; ++i) {
      d += "    ";
      d.append(script_.expected(r, i));
      d += '\n';
    }
    return d;
  }

  std::string ActualDetails() const {
    std::string d = "  got (" + std::to_string(results_.size()) + " values";
    if (!hash_.empty()) d += ", " + hash_;
    d += "):\n";
    if (!step_error_.empty()) d += "    (rows ended by an error: " + step_error_ + ")\n";
    for (size_t i = 0; i < results_.size() && i < kMaxDetailValues; ++i) {
      d += "    ";
      d.append(results_.value(i));
      d += '\n';
    }
    if (results_.size() > kMaxDetailValues) {
      d += "    ... " + std::to_string(results_.size() - kMaxDetailValues) + " more\n";
    }
    return d;
  }

  void CheckQuery(const Record& r) {
    std::string error;
    hash_.clear();
    if (!session_.Query(r.sql.data(), r.types, &results_, &error, &step_error_)) {
      Fail(r, "query failed: " + error, options_.verbose ? ExpectedDetails(r) : "");
      return;
    }
    results_.Sort(r.sort);
    std::string message;
    if (r.expected_count == 1 && IsHashLine(script_.expected(r, 0))) {
      hash_ = results_.HashLine();
      if (hash_ != script_.expected(r, 0)) {
        message = "wrong result: expected \"" + std::string(script_.expected(r, 0)) + "\" got \"" +
                  hash_ + "\"";
      }
    } else {
      message = CompareValues(r);
    }
    if (message.empty() && !r.label.empty()) {
      if (hash_.empty()) hash_ = results_.HashLine();
      auto [it, inserted] = labels_.try_emplace(r.label, LabelResult{hash_, r.line});
      if (!inserted && it->second.hash != hash_) {
        message = "result differs from the earlier query with label '" + std::string(r.label) +
                  "' at line " + std::to_string(it->second.line) + ": expected \"" +
                  it->second.hash + "\" got \"" + hash_ + "\"";
      }
    }
    if (message.empty()) {
      Pass();
    } else {
      Fail(r, message, options_.verbose ? ExpectedDetails(r) + ActualDetails() : "");
    }
  }

  // Empty if the values equal the expected lines, else a brief description.
  std::string CompareValues(const Record& r) const {
    const size_t n = results_.size();
    const size_t expected = r.expected_count;
    size_t i = 0;
    while (i < n && i < expected && results_.value(i) == script_.expected(r, i)) ++i;
    if (i == n && i == expected) return "";
    std::string m = "wrong result";
    if (n != expected) {
      m += ": expected " + std::to_string(expected) + " values got " + std::to_string(n);
      if (i < n && i < expected) m += ", first difference at value " + std::to_string(i + 1);
      if (i >= n || i >= expected) return m;
      m += ":";
    } else {
      m += " at value " + std::to_string(i + 1) + ":";
    }
    m += " expected " + Quote(script_.expected(r, i)) + " got " + Quote(results_.value(i));
    return m;
  }

  struct LabelResult {
    std::string hash;
    int line;
  };

  const Script& script_;
  const RunOptions& options_;
  FileProgress* progress_;
  const MessageSink& sink_;
  Session session_;
  ResultSet results_;
  std::string hash_;        // hash line of results_, when computed
  std::string step_error_;  // the error that ended results_, if any
  std::unordered_map<std::string_view, LabelResult> labels_;
};

}  // namespace

void RunScript(const Script& script, const Engine& engine, const RunOptions& options,
               FileProgress* progress, const MessageSink& sink) {
  const auto start = std::chrono::steady_clock::now();
  Checker(script, engine, options, progress, sink).Run();
  progress->elapsed_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  progress->finished = 1;
}

}  // namespace basalt::slt
