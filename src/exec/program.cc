#include "exec/program.h"

#include <cstdio>

#include "catalog/schema.h"

namespace basalt {

const char* OpcodeName(Opcode op) {
  size_t i = static_cast<size_t>(op);
  return i < static_cast<size_t>(Opcode::kNumOpcodes) ? kOpcodeInfo[i].name : "?";
}

std::string Program::P4Text(const Instr& in) const {
  char buf[64];
  switch (in.p4type()) {
    case P4Type::kNone:
      return "";
    case P4Type::kInt64:
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(in.p4_int64()));
      return buf;
    case P4Type::kInt:
      return std::to_string(in.p4_int());
    case P4Type::kReal:
      std::snprintf(buf, sizeof buf, "%.17g", in.p4_real());
      return buf;
    case P4Type::kString:
      return in.p4_str() ? in.p4_str() : "";
    case P4Type::kKeyInfo:
      return "k(" + std::to_string(in.p4_key_info()->n_fields) + ")";
    case P4Type::kCollation:
      return std::string(in.p4_coll_or_null()->name);
    case P4Type::kFunc:
      return in.p4_func()->def->name + "(" + std::to_string(in.p4_func()->nargs) + ")";
    case P4Type::kCursorInfo:
      return in.p4_cursor()->key_info
                 ? "k(" + std::to_string(in.p4_cursor()->key_info->n_fields) + ")"
                 : std::to_string(in.p4_cursor()->n_columns);
    case P4Type::kValue:
      return "default";
    case P4Type::kTable:
      return in.p4_table()->name;
    case P4Type::kLike:
      return "like";
    case P4Type::kConstList:
      return "list(" + std::to_string(in.p4_const_list()->n) + ")";
    case P4Type::kVFilter:
      return in.p4_vfilter()->idx_str;
    case P4Type::kProgram:
      return "program";
    case P4Type::kWindow:
      return "window";
  }
  return "";
}

}  // namespace basalt
