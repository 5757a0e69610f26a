// Pragmas that list what the connection and the build provide:
// collation_list, function_list, module_list, pragma_list and
// compile_options.
#include "func/builtins.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

// The function flags function_list shows, numbered as the C API's.
constexpr int64_t kApiDeterministic = 0x800;
constexpr int64_t kApiDirectOnly = 0x80000;
constexpr int64_t kApiInnocuous = 0x200000;

const char* EncodingName(int text_rep) {
  switch (text_rep) {
    case 2:
      return "utf16le";
    case 3:
      return "utf16be";
    case 4:
      return "utf16";
    default:
      return "utf8";
  }
}

}  // namespace

// The built-in collations, in the order SQLite lists them.
Status RunCollationList(PragmaCall* call) {
  static const char* const kNames[] = {"RTRIM", "NOCASE", "BINARY"};
  int64_t seq = 0;
  for (const char* name : kNames) call->AddRow({Value::Int(seq++), Value::Text(name)});
  return Status();
}

// One row per function and argument count: type 's' scalar, 'a' aggregate,
// 'w' aggregate usable as a window function.
Status RunFunctionList(PragmaCall* call) {
  call->conn->funcs().ForEach([&](const FunctionDef& d) {
    const bool aggregate = (d.flags & kFuncAggregate) != 0;
    const bool window = aggregate && d.value != nullptr && d.inverse != nullptr;
    const bool builtin = d.api_func == nullptr && d.api_step == nullptr;
    int64_t flags = 0;
    if ((d.flags & kFuncDeterministic) != 0) flags |= kApiDeterministic;
    if ((d.flags & kFuncDirectOnly) != 0) flags |= kApiDirectOnly;
    if ((d.flags & kFuncInnocuous) != 0) flags |= kApiInnocuous;
    call->AddRow({Value::Text(d.name), Value::Int(builtin ? 1 : 0),
                  Value::Text(window      ? "w"
                              : aggregate ? "a"
                                          : "s"),
                  Value::Text(EncodingName(d.text_rep)), Value::Int(d.nargs), Value::Int(flags)});
  });
  return Status();
}

Status RunModuleList(PragmaCall* call) {
  for (const std::string& name : call->conn->vtabs().modules().Names()) {
    call->Row(Value::Text(name));
  }
  return Status();
}

Status RunPragmaList(PragmaCall* call) {
  for (const PragmaDef& def : AllPragmas()) call->Row(Value::Text(def.name));
  return Status();
}

// The options of the build Basalt stands in for (func/options.cc).
Status RunCompileOptions(PragmaCall* call) {
  for (const char* opt : CompileOptionList()) call->Row(Value::Text(opt));
  return Status();
}

}  // namespace basalt
