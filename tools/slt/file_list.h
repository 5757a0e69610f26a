// The test files of a run: the files named on the command line and the
// *.test files found under the folders named, each with the folder it is
// reported under.
#pragma once

#include <string>
#include <vector>

namespace basalt::slt {

struct TestFile {
  std::string path;    // as found (usable with open())
  std::string folder;  // relative to the common base of the arguments; "." at the top
};

// Folders are searched recursively and their files sorted by path; a path
// that does not exist is kept (it fails later, as an unreadable file).
std::vector<TestFile> CollectTestFiles(const std::vector<std::string>& paths);

}  // namespace basalt::slt
