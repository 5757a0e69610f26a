#include "exec/program.h"

#include <cstdio>

#include "catalog/schema.h"

namespace basalt {

const char* OpcodeName(Opcode op) {
  static const char* const kNames[] = {
#define BASALT_OPCODE_NAME(name, doc) #name,
      BASALT_OPCODES(BASALT_OPCODE_NAME)
#undef BASALT_OPCODE_NAME
  };
  size_t i = static_cast<size_t>(op);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

std::string Program::P4Text(const Instr& in) const {
  char buf[64];
  switch (in.p4type) {
    case P4Type::kNone:
      return "";
    case P4Type::kInt64:
    case P4Type::kInt:
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(in.p4.i64));
      return buf;
    case P4Type::kReal:
      std::snprintf(buf, sizeof buf, "%.17g", in.p4.real);
      return buf;
    case P4Type::kString:
      return in.p4.str ? in.p4.str : "";
    case P4Type::kKeyInfo:
      return "k(" + std::to_string(in.p4.key_info->n_fields) + ")";
    case P4Type::kCollation:
      return std::string(in.p4.coll->name);
    case P4Type::kFunc:
      return in.p4.func->def->name + "(" + std::to_string(in.p4.func->nargs) + ")";
    case P4Type::kCursorInfo:
      return in.p4.cursor->key_info ? "k(" + std::to_string(in.p4.cursor->key_info->n_fields) + ")"
                                    : std::to_string(in.p4.cursor->n_columns);
    case P4Type::kValue:
      return "default";
    case P4Type::kTable:
      return in.p4.table->name;
    case P4Type::kLike:
      return "like";
    case P4Type::kConstList:
      return "list(" + std::to_string(in.p4.const_list->n) + ")";
  }
  return "";
}

}  // namespace basalt
