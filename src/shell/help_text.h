// sqlite3's help texts (see help_text.cc).
#ifndef BASALT_SHELL_HELP_TEXT_H_
#define BASALT_SHELL_HELP_TEXT_H_

namespace shell {

extern const char* const kHelpLines[];
extern const int kHelpLineCount;
extern const char* const kOptionsText;  // the lines after "OPTIONS include:"

}  // namespace shell

#endif  // BASALT_SHELL_HELP_TEXT_H_
