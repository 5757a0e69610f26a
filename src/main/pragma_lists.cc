// Pragmas that list what the connection and the build provide:
// collation_list, function_list, module_list, pragma_list and
// compile_options.
#include <strings.h>

#include <algorithm>

#include "catalog/hash_order.h"
#include "func/builtins.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

// The function flags function_list shows, numbered as the C API's.
constexpr int64_t kApiDeterministic = 0x800;
constexpr int64_t kApiDirectOnly = 0x80000;
constexpr int64_t kApiInnocuous = 0x200000;
constexpr int64_t kApiSubtype = 0x100000;

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

// The collations in the order SQLite's hash of them lists: the built-in
// ones as SQLite registers them at open, then those the application
// defined (sqlite3_create_collation), each name once.
Status RunCollationList(PragmaCall* call) {
  HashOrder order;
  std::vector<std::string> names = {"BINARY", "NOCASE", "RTRIM"};
  call->conn->collations().ForEachName([&](std::string_view name) { names.emplace_back(name); });
  for (const std::string& name : names) {
    // A name defined again in another case keeps its first spelling.
    auto first = std::find_if(names.begin(), names.end(), [&](const std::string& o) {
      return o.size() == name.size() && strncasecmp(o.data(), name.data(), o.size()) == 0;
    });
    order.Insert(name, &*first);
  }
  int64_t seq = 0;
  for (const void* p : order.Values()) {
    call->AddRow({Value::Int(seq++), Value::Text(*static_cast<const std::string*>(p))});
  }
  return Status();
}

// One row per function and argument count: type 's' scalar, 'a' aggregate,
// 'w' aggregate usable as a window function. A function Basalt registers
// once per argument count from some minimum up to the most a call can have
// (coalesce, min, max) is one row with narg -1, as SQLite registers it.
Status RunFunctionList(PragmaCall* call) {
  constexpr int kMaxFunctionArgs = 127;  // the reference build's MAX_FUNCTION_ARG
  std::vector<const FunctionDef*> defs;
  call->conn->funcs().ForEach([&](const FunctionDef& d) { defs.push_back(&d); });
  // The same implementation under one name with several counts.
  auto same = [](const FunctionDef* a, const FunctionDef* b) {
    return a->name == b->name && a->scalar == b->scalar && a->step == b->step &&
           a->flags == b->flags && a->api_func == nullptr && b->api_func == nullptr;
  };
  for (const FunctionDef* d : defs) {
    int nargs = d->nargs;
    if (nargs >= 0) {
      // Part of a run up to kMaxFunctionArgs: only its first count is shown.
      int lowest = nargs, highest = nargs;
      for (const FunctionDef* o : defs) {
        if (same(o, d) && o->nargs >= 0) {
          lowest = std::min(lowest, o->nargs);
          highest = std::max(highest, o->nargs);
        }
      }
      if (highest == kMaxFunctionArgs && highest - lowest > 1) {
        if (nargs != lowest) continue;
        nargs = -1;
      }
    }
    const bool aggregate = (d->flags & kFuncAggregate) != 0;
    const bool window = (aggregate && d->value != nullptr) || (d->flags & kFuncWindowOnly) != 0;
    const bool builtin = d->api_func == nullptr && d->api_step == nullptr;
    int64_t flags = 0;
    if ((d->flags & kFuncDeterministic) != 0) flags |= kApiDeterministic;
    if ((d->flags & kFuncDirectOnly) != 0) flags |= kApiDirectOnly;
    if ((d->flags & kFuncInnocuous) != 0) flags |= kApiInnocuous;
    if ((d->flags & kFuncSubtype) != 0) flags |= kApiSubtype;
    call->AddRow({Value::Text(d->name), Value::Int(builtin ? 1 : 0),
                  Value::Text(window      ? "w"
                              : aggregate ? "a"
                                          : "s"),
                  Value::Text(EncodingName(d->text_rep)), Value::Int(nargs), Value::Int(flags)});
  }
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
