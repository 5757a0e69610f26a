// basalt-slt: the sqllogictest runner. See options.cc for the usage.
#include <cstdio>
#include <string>

#include "app.h"
#include "options.h"

int main(int argc, char** argv) {
  basalt::slt::Options options;
  bool help = false;
  std::string error;
  if (!basalt::slt::ParseOptions(argc, argv, &options, &help, &error)) {
    std::fprintf(stderr, "basalt-slt: %s\n\n%s", error.c_str(), basalt::slt::UsageText());
    return 2;
  }
  if (help) {
    std::fputs(basalt::slt::UsageText(), stdout);
    return 0;
  }
  return basalt::slt::RunApp(options);
}
