#include "exec/program_verify.h"

#include <string>

namespace basalt {

namespace {

// Checks one program; stops at the first inconsistency.
class Verifier {
 public:
  explicit Verifier(const Program& prog) : prog_(prog) {}

  Status Run() {
    for (size_t i = 0; i < prog_.ops.size(); ++i) {
      addr_ = static_cast<int>(i);
      const Instr& in = prog_.ops[i];
      if (static_cast<size_t>(in.op) >= static_cast<size_t>(Opcode::kNumOpcodes)) {
        return Bad(in, "opcode out of range");
      }
      const OpcodeInfo& info = InfoOf(in.op);
      if (!info.p4.Allows(in.p4type())) return Bad(in, "P4 of the wrong kind");
      const int operands[3] = {in.p1, in.p2, in.p3};
      const OperandKind kinds[3] = {info.p1, info.p2, info.p3};
      for (int k = 0; k < 3; ++k) {
        if (!CheckOperand(in, kinds, operands, k)) return Bad(in, what_);
      }
    }
    return Status();
  }

 private:
  Status Bad(const Instr& in, const std::string& what) const {
    return Status(kInternal,
                  "addr " + std::to_string(addr_) + " (" + OpcodeName(in.op) + "): " + what);
  }
  bool Fail(int k, const char* what) {
    // (Built piecewise: GCC 12 warns falsely on "P" + to_string(..) + ...)
    what_.assign(1, 'P');
    what_ += std::to_string(k + 1);
    what_ += ' ';
    what_ += what;
    return false;
  }
  bool IsReg(int r) const { return r >= 0 && r < prog_.n_regs; }

  // The length of the range that operand k starts (Regs / Aggs): the Cnt or
  // CntM1 operand, else P4 (an Int, where 0 stands for one record register).
  int64_t RangeLength(const Instr& in, const OperandKind* kinds, const int* v) const {
    for (int j = 0; j < 3; ++j) {
      if (kinds[j] == OperandKind::kCnt) return v[j];
      if (kinds[j] == OperandKind::kCntM1) return int64_t{v[j]} + 1;
    }
    if (in.p4type() == P4Type::kInt) return in.p4_int() > 0 ? in.p4_int() : 1;
    return 1;
  }

  bool CheckOperand(const Instr& in, const OperandKind* kinds, const int* v, int k) {
    int x = v[k];
    switch (kinds[k]) {
      case OperandKind::kNo:
        return x == 0 || Fail(k, "is unused but not 0");
      case OperandKind::kReg:
        return IsReg(x) || Fail(k, "register out of range");
      case OperandKind::kRegs: {
        int64_t n = RangeLength(in, kinds, v);
        if (n == 0) return x >= 0 || Fail(k, "negative register");
        return (IsReg(x) && x + n - 1 < prog_.n_regs) || Fail(k, "register range out of range");
      }
      case OperandKind::kLast:
        return x == 0 || (IsReg(x) && x >= in.p2) || Fail(k, "bad last register");
      case OperandKind::kCnt:
      case OperandKind::kCntM1:
        return x >= 0 || Fail(k, "negative count");
      case OperandKind::kCur:
        return (x >= 0 && x < prog_.n_cursors) || Fail(k, "cursor out of range");
      case OperandKind::kJmp:
        return IsAddr(x) || Fail(k, "jump target out of range");
      case OperandKind::kDest:
        if (in.p5 & kCmpStoreResult) return IsReg(x) || Fail(k, "result register out of range");
        return IsAddr(x) || Fail(k, "jump target out of range");
      case OperandKind::kAgg:
        return (x >= 0 && x < prog_.n_aggs) || Fail(k, "accumulator out of range");
      case OperandKind::kAggs: {
        int64_t n = RangeLength(in, kinds, v);
        return (x >= 0 && x + n <= prog_.n_aggs) || Fail(k, "accumulator range out of range");
      }
      case OperandKind::kPar:
        return (x >= 1 && x <= prog_.n_params) || Fail(k, "parameter out of range");
      case OperandKind::kRoot:
        // 0 comes from a corrupt schema (an automatic index whose row is
        // missing from sqlite_schema); opening it is SQLITE_CORRUPT at run
        // time, as in SQLite.
        return x >= 0 || Fail(k, "root page negative");
      case OperandKind::kDb:
      case OperandKind::kRc:
      case OperandKind::kOe:
        return x >= 0 || Fail(k, "negative");
      case OperandKind::kAff:
      case OperandKind::kInt:
        return true;
    }
    return Fail(k, "unknown operand kind");
  }
  bool IsAddr(int a) const { return a >= 0 && a < static_cast<int>(prog_.ops.size()); }

  const Program& prog_;
  int addr_ = 0;
  std::string what_;
};

}  // namespace

Status VerifyProgram(const Program& prog) { return Verifier(prog).Run(); }

}  // namespace basalt
