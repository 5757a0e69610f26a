#include "app.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine.h"
#include "file_list.h"
#include "pool.h"
#include "report.h"
#include "runner.h"
#include "script.h"

namespace basalt::slt {
namespace {

namespace fs = std::filesystem;

constexpr double kTickSeconds = 0.5;

struct Job {
  size_t file;
  size_t engine;
};

// Where --complete writes each file's completed copy ("-": standard output).
std::vector<std::string> CompletionTargets(const Options& o, const std::vector<TestFile>& files,
                                           std::string* error) {
  std::vector<std::string> targets;
  std::error_code ec;
  const bool into_folder = files.size() > 1 || fs::is_directory(o.complete, ec);
  if (o.complete == "-") {
    if (files.size() != 1) {
      *error = "--complete - needs exactly one input file";
      return {};
    }
    return {"-"};
  }
  for (const TestFile& f : files) {
    if (!into_folder) {
      targets.push_back(o.complete);
      continue;
    }
    fs::path target = fs::path(o.complete);
    if (f.folder != ".") target /= f.folder;
    target /= fs::path(f.path).filename();
    targets.push_back(target.string());
  }
  return targets;
}

bool WriteFileAtomically(const std::string& path, const std::string& text, std::string* error) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const std::string temp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || !WriteAll(fd, text) || ::close(fd) != 0 || ::rename(temp.c_str(), path.c_str())) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

class App {
 public:
  explicit App(const Options& options) : o_(options) {}

  int Run() {
    files_ = CollectTestFiles(o_.paths);
    if (files_.empty()) {
      std::fprintf(stderr, "basalt-slt: no .test files found\n");
      return 2;
    }
    if (!LoadEngines()) return 2;
    if (!o_.complete.empty()) {
      std::string error;
      targets_ = CompletionTargets(o_, files_, &error);
      if (targets_.empty()) {
        std::fprintf(stderr, "basalt-slt: %s\n", error.c_str());
        return 2;
      }
    }
    // In completion mode standard output may carry the completed script.
    report_ = o_.complete.empty() ? stdout : stderr;

    for (size_t f = 0; f < files_.size(); ++f) {
      for (size_t e = 0; e < engines_.size(); ++e) jobs_.push_back(Job{f, e});
    }
    reports_.resize(jobs_.size());

    std::vector<std::string> names;
    for (const Engine& e : engines_) names.push_back(e.name);
    Summary summary(names);
    summary_ = &summary;

    const auto start = std::chrono::steady_clock::now();
    ProgressLine progress(o_.progress);
    progress_ = &progress;
    ProcessPool pool(o_.jobs, o_.timeout_seconds);
    pool.Run(
        jobs_.size(), [this](size_t job, FileProgress* p, int fd) { return ChildMain(job, p, fd); },
        [this](size_t job, JobReport report) { OnDone(job, std::move(report)); },
        [this, start](const std::vector<const FileProgress*>& running) { OnTick(running, start); },
        kTickSeconds);
    progress.Clear();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::fprintf(report_, "\n");
    summary.PrintTable(report_);
    std::fprintf(report_, "\n");
    for (const Engine& e : engines_) {
      std::fprintf(report_, "engine %s: %s (version %s)\n", e.name.c_str(), e.library.c_str(),
                   e.version.c_str());
    }
    std::fprintf(report_, "wall time %s, %d job%s\n", FormatSeconds(wall).c_str(), o_.jobs,
                 o_.jobs == 1 ? "" : "s");
    summary.PrintTotals(report_);
    std::fflush(report_);
    for (size_t e = 0; e < engines_.size(); ++e) {
      if (summary.Total(e).failed > 0) return 1;
    }
    return 0;
  }

 private:
  bool LoadEngines() {
    std::vector<std::string> names;
    if (o_.engine == "both") {
      names = {"basalt", "sqlite"};
    } else {
      names = {o_.engine};
    }
    for (const std::string& name : names) {
      Engine e;
      e.name = name;
      e.library = DefaultLibrary(name);
      if (name == "basalt" && !o_.basalt_library.empty()) e.library = o_.basalt_library;
      if (name == "sqlite" && !o_.sqlite_library.empty()) e.library = o_.sqlite_library;
      std::string error;
      if (!LoadEngine(&e, &error)) {
        std::fprintf(stderr, "basalt-slt: %s\n", error.c_str());
        return false;
      }
      engines_.push_back(std::move(e));
    }
    return true;
  }

  // "[name] " before every message when several engines run, else "".
  std::string EnginePrefix(size_t engine) const {
    std::string prefix;
    if (engines_.size() > 1) {
      prefix += '[';
      prefix += engines_[engine].name;
      prefix += "] ";
    }
    return prefix;
  }

  // Runs in the worker process: one file on one engine.
  int ChildMain(size_t job_index, FileProgress* progress, int fd) {
    const Job& job = jobs_[job_index];
    const TestFile& file = files_[job.file];
    const Engine& engine = engines_[job.engine];
    const std::string prefix = EnginePrefix(job.engine);
    int shown = 0;
    int64_t hidden = 0;
    MessageSink sink = [&](std::string_view text) {
      if (o_.quiet) return;
      if (o_.max_failures >= 0 && shown >= o_.max_failures) {
        ++hidden;
        return;
      }
      ++shown;
      WriteAll(fd, prefix + std::string(text));
    };

    Script script;
    std::string error;
    if (!LoadScript(file.path, &script, &error)) {
      progress->records = 1;
      progress->to_run = 1;
      progress->failed = 1;
      sink(file.path + ":1: " + error + "\n");
      progress->finished = 1;
      return 0;
    }
    RunOptions options;
    options.verbose = o_.verbose;
    options.db_path = o_.db;
    if (o_.db != ":memory:" && o_.jobs > 1) {
      // Workers running side by side need a database file each.
      options.db_path += "." + std::to_string(::getpid());
    }
    if (o_.complete.empty()) {
      RunScript(script, engine, options, progress, sink);
    } else {
      std::string out;
      CompleteScript(script, engine, options, progress, sink, &out);
      const std::string& target = targets_[job.file];
      if (target == "-") {
        WriteAll(STDOUT_FILENO, out);
      } else if (!WriteFileAtomically(target, out, &error)) {
        progress->failed.fetch_add(1);
        sink(file.path + ":1: " + error + "\n");
      }
    }
    if (hidden > 0) {
      WriteAll(fd, prefix + file.path + ": " + std::to_string(hidden) +
                       " more failure lines not shown\n");
    }
    return 0;
  }

  // Accounts for a worker that did not finish its file normally: the
  // records it did not get to count as failed, with one line saying why.
  void AccountForAbnormalEnd(const Job& job, JobReport* r) {
    const bool clean = r->counts.finished && r->signal == 0 && !r->timed_out && r->exit_code == 0;
    if (clean) return;
    Counts& c = r->counts;
    const int64_t remaining = std::max<int64_t>(c.to_run - c.passed - c.failed, 1);
    c.failed += remaining;
    if (c.records == 0) c.records = remaining;
    std::string why;
    if (r->timed_out) {
      why = "timed out after " + FormatSeconds(o_.timeout_seconds);
    } else if (r->signal != 0) {
      why = "engine crashed (signal " + std::to_string(r->signal) + ", " + ::strsignal(r->signal) +
            ")";
    } else {
      why = "worker exited with status " + std::to_string(r->exit_code);
    }
    const std::string prefix = EnginePrefix(job.engine);
    r->messages += prefix + files_[job.file].path + ":" +
                   std::to_string(c.current_line > 0 ? c.current_line : 1) + ": " + why +
                   " running this record; " + std::to_string(remaining) +
                   " record(s) not completed counted as failed\n";
  }

  void OnDone(size_t job_index, JobReport report) {
    const Job& job = jobs_[job_index];
    AccountForAbnormalEnd(job, &report);
    const Counts& c = report.counts;
    Tally t;
    t.files = 1;
    t.records = c.records;
    t.passed = c.passed;
    t.failed = c.failed;
    t.skipped = c.skipped;
    t.seconds = c.finished ? c.elapsed_ns / 1e9 : report.wall_seconds;
    summary_->Add(files_[job.file].folder, job.engine, t);
    done_.Add(t);
    reports_[job_index] = std::move(report.messages);
    // Print messages in job order, so output does not depend on timing.
    while (next_to_print_ < reports_.size() && reports_[next_to_print_].has_value()) {
      const std::string& text = *reports_[next_to_print_];
      if (!text.empty()) {
        progress_->Clear();
        std::fwrite(text.data(), 1, text.size(), report_);
        if (text.back() != '\n') std::fputc('\n', report_);
        std::fflush(report_);
      }
      reports_[next_to_print_] = std::string();  // release the memory
      ++next_to_print_;
    }
  }

  void OnTick(const std::vector<const FileProgress*>& running,
              std::chrono::steady_clock::time_point start) {
    if (!progress_->enabled()) return;
    int64_t passed = done_.passed, failed = done_.failed, skipped = done_.skipped;
    for (const FileProgress* p : running) {
      passed += p->passed;
      failed += p->failed;
      skipped += p->skipped;
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[160];
    std::snprintf(line, sizeof(line), "[%lld/%zu files] %lld passed, %lld failed, %lld skipped  %s",
                  static_cast<long long>(done_.files), jobs_.size(), static_cast<long long>(passed),
                  static_cast<long long>(failed), static_cast<long long>(skipped),
                  FormatSeconds(elapsed).c_str());
    progress_->Show(line);
  }

  const Options& o_;
  std::vector<TestFile> files_;
  std::vector<Engine> engines_;
  std::vector<std::string> targets_;
  std::vector<Job> jobs_;
  std::vector<std::optional<std::string>> reports_;  // messages until printed
  size_t next_to_print_ = 0;
  Summary* summary_ = nullptr;
  ProgressLine* progress_ = nullptr;
  Tally done_;
  std::FILE* report_ = stdout;
};

}  // namespace

int RunApp(const Options& options) { return App(options).Run(); }

}  // namespace basalt::slt
