#include "file_list.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace basalt::slt {
namespace fs = std::filesystem;

namespace {

// The longest common leading run of path components.
fs::path CommonBase(const std::vector<fs::path>& dirs) {
  if (dirs.empty()) return fs::path();
  fs::path base;
  auto first = dirs[0].begin();
  for (size_t depth = 0;; ++depth) {
    auto it = first;
    std::advance(it, depth);
    if (it == dirs[0].end()) return base;
    for (const fs::path& d : dirs) {
      auto jt = d.begin();
      size_t k = 0;
      for (; k < depth && jt != d.end(); ++k) ++jt;
      if (jt == d.end() || *jt != *it) return base;
    }
    base /= *it;
  }
}

std::string FolderName(const fs::path& dir, const fs::path& base) {
  const std::string rel = dir.lexically_relative(base).generic_string();
  return rel.empty() ? std::string(".") : rel;
}

}  // namespace

std::vector<TestFile> CollectTestFiles(const std::vector<std::string>& paths) {
  struct Found {
    std::string path;
    fs::path dir;
  };
  std::vector<Found> found;
  std::vector<fs::path> bases;
  for (const std::string& arg : paths) {
    std::error_code ec;
    const fs::path p = fs::path(arg).lexically_normal();
    if (fs::is_directory(p, ec)) {
      std::vector<Found> here;
      for (auto it = fs::recursive_directory_iterator(
               p, fs::directory_options::follow_directory_symlink, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path().extension() == ".test" && it->is_regular_file(ec)) {
          here.push_back(Found{it->path().string(), it->path().parent_path()});
        }
      }
      std::sort(here.begin(), here.end(),
                [](const Found& a, const Found& b) { return a.path < b.path; });
      found.insert(found.end(), here.begin(), here.end());
      bases.push_back(p);
    } else {
      found.push_back(Found{arg, p.parent_path()});
      bases.push_back(p.parent_path());
    }
  }
  // Absolute and relative arguments share no base; compare them absolutely.
  bool mixed = false;
  for (const fs::path& b : bases) mixed |= b.is_absolute() != bases[0].is_absolute();
  if (mixed) {
    for (fs::path& b : bases) b = fs::absolute(b).lexically_normal();
    for (Found& f : found) f.dir = fs::absolute(f.dir).lexically_normal();
  }
  const fs::path base = CommonBase(bases);
  std::vector<TestFile> files;
  files.reserve(found.size());
  for (const Found& f : found) files.push_back(TestFile{f.path, FolderName(f.dir, base)});
  return files;
}

}  // namespace basalt::slt
