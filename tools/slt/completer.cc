// The completer: runs a script and writes it back with the engine's
// outcomes — the way new tests get expectations from the real sqlite3.
//
// The output is the input, line for line, except that
//  - a statement record's command line says what the engine did
//    ("statement ok" or "statement error");
//  - a query record keeps its command line and SQL, and gets a "----" line
//    followed by the engine's values, or by one "N values hashing to H" line
//    when there are more values than the hash threshold;
//  - a query the engine rejects becomes "statement error" (with a note);
//  - records that do not run on this engine are copied unchanged.
#include <chrono>

#include "plan.h"
#include "result_set.h"
#include "runner.h"
#include "session.h"

namespace basalt::slt {
namespace {

class Completer {
 public:
  Completer(const Script& script, const Engine& engine, const RunOptions& options,
            FileProgress* progress, const MessageSink& sink, std::string* out)
      : script_(script),
        options_(options),
        progress_(progress),
        sink_(sink),
        out_(out),
        session_(engine.api) {}

  void Run() {
    const Plan plan = MakePlan(script_, options_.condition_engine);
    plan.Publish(progress_);
    std::string error;
    if (!session_.OpenFresh(options_.db_path, &error)) {
      progress_->failed += plan.to_run;
      sink_(Where(script_, 1) + error + "\n");
      CopyUpTo(static_cast<int>(script_.lines.size()) + 1);  // output = input
      return;
    }
    for (size_t i = 0; i < script_.records.size(); ++i) {
      if (!plan.runs[i]) continue;
      const Record& r = script_.records[i];
      progress_->current_line.store(r.line, std::memory_order_relaxed);
      switch (r.kind) {
        case RecordKind::kStatement:
          CompleteStatement(r);
          break;
        case RecordKind::kQuery:
          CompleteQuery(r);
          break;
        case RecordKind::kHashThreshold:
          hash_threshold_ = r.hash_threshold;
          break;
        case RecordKind::kHalt:
          break;
        case RecordKind::kMalformed:
          progress_->failed.fetch_add(1, std::memory_order_relaxed);
          sink_(Where(script_, r.line) + r.error + " (copied unchanged)\n");
          break;
      }
    }
    CopyUpTo(static_cast<int>(script_.lines.size()) + 1);
    session_.Close();
    RemoveDatabaseFiles(options_.db_path);
  }

 private:
  // Copies the input lines from the cursor up to (not including) `line`.
  void CopyUpTo(int line) {
    if (line > next_line_) AppendLines(script_, next_line_, line - next_line_, 0, out_);
    if (line > next_line_) next_line_ = line;
  }

  void Pass() { progress_->passed.fetch_add(1, std::memory_order_relaxed); }

  void CompleteStatement(const Record& r) {
    std::string error;
    const bool ok = session_.Execute(r.sql.data(), &error);
    CopyUpTo(r.line);
    out_->append(ok ? "statement ok\n" : "statement error\n");
    next_line_ = r.line + 1;
    Pass();
  }

  void CompleteQuery(const Record& r) {
    std::string error, step_error;
    const bool ok = session_.Query(r.sql.data(), r.types, &results_, &error, &step_error);
    CopyUpTo(r.line);
    if (!ok) {
      sink_(Where(script_, r.line) + "note: query failed, written as statement error: " + error +
            "\n");
      out_->append("statement error\n");
      AppendLines(script_, r.sql_line, r.sql_lines, 0, out_);
    } else {
      AppendLines(script_, r.line, 1 + r.sql_lines, 0, out_);
      out_->append("----\n");
      results_.Sort(r.sort);
      if (hash_threshold_ > 0 && results_.size() > static_cast<size_t>(hash_threshold_)) {
        out_->append(results_.HashLine());
        out_->push_back('\n');
      } else {
        for (size_t i = 0; i < results_.size(); ++i) {
          out_->append(results_.value(i));
          out_->push_back('\n');
        }
      }
    }
    next_line_ = r.end_line;
    Pass();
  }

  const Script& script_;
  const RunOptions& options_;
  FileProgress* progress_;
  const MessageSink& sink_;
  std::string* out_;
  Session session_;
  ResultSet results_;
  int hash_threshold_ = 8;
  int next_line_ = 1;  // first input line not yet copied or replaced
};

}  // namespace

void CompleteScript(const Script& script, const Engine& engine, const RunOptions& options,
                    FileProgress* progress, const MessageSink& sink, std::string* out) {
  const auto start = std::chrono::steady_clock::now();
  Completer(script, engine, options, progress, sink, out).Run();
  progress->elapsed_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  progress->finished = 1;
}

}  // namespace basalt::slt
