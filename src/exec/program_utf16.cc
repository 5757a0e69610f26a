// UseUtf16Binary: BINARY comparisons of a compiled program made to follow
// the byte order of a UTF-16 database (see program.h).
#include "exec/program.h"
#include "exec/window.h"
#include "record/collation.h"

namespace basalt {

namespace {

bool IsBinary(const Collation* c) { return c == nullptr || c == BinaryCollation(); }

// A copy of `ki` in `prog`'s arena whose BINARY fields use `bin`.
const KeyInfo* PatchKeyInfo(Program* prog, const KeyInfo& ki, const Collation* bin) {
  auto* out = prog->arena.New<KeyInfo>(ki);
  auto** colls = prog->arena.NewArray<const Collation*>(static_cast<size_t>(ki.n_fields) + 1);
  for (int i = 0; i <= ki.n_fields; ++i) {
    const Collation* c = ki.colls != nullptr && i < ki.n_fields ? ki.colls[i] : nullptr;
    colls[i] = i < ki.n_fields && IsBinary(c) ? bin : c;
  }
  out->colls = colls;
  return out;
}

const WindowSpec* PatchWindow(Program* prog, const WindowSpec& w, const Collation* bin) {
  auto* out = prog->arena.New<WindowSpec>(w);
  out->part_key = *PatchKeyInfo(prog, w.part_key, bin);
  out->peer_key = *PatchKeyInfo(prog, w.peer_key, bin);
  auto* funcs = prog->arena.NewArray<WinFuncSpec>(static_cast<size_t>(w.n_funcs) + 1);
  for (int i = 0; i < w.n_funcs; ++i) {
    funcs[i] = w.funcs[i];
    if (IsBinary(funcs[i].coll)) funcs[i].coll = bin;
  }
  out->funcs = funcs;
  return out;
}

}  // namespace

void UseUtf16Binary(Program* prog, bool big_endian) {
  const Collation* bin = Utf16BinaryCollation(big_endian);
  for (int addr = 0; addr < prog->pc(); ++addr) {
    Instr& in = prog->at(addr);
    switch (in.op) {
      case Opcode::kEq:
      case Opcode::kNe:
      case Opcode::kLt:
      case Opcode::kLe:
      case Opcode::kGt:
      case Opcode::kGe:
        if (IsBinary(in.p4_coll_or_null())) prog->SetP4(addr, bin);
        break;
      case Opcode::kFunction:
      case Opcode::kAggStep:
      case Opcode::kAggFinal:
        if (IsBinary(in.p4_func()->coll)) {
          auto* fc = prog->arena.New<FuncCall>(*in.p4_func());
          fc->coll = bin;
          prog->SetP4(addr, fc);
        }
        break;
      case Opcode::kOpenEphemeral:
      case Opcode::kSorterOpen:
        if (in.p4type() == P4Type::kKeyInfo) {
          prog->SetP4(addr, PatchKeyInfo(prog, *in.p4_key_info(), bin));
        }
        break;
      case Opcode::kWinNext:
        prog->SetP4(addr, PatchWindow(prog, *in.p4_window(), bin));
        break;
      default:
        break;
    }
  }
  for (auto& sub : prog->subprograms) UseUtf16Binary(sub.get(), big_endian);
}

}  // namespace basalt
