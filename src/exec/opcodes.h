// The virtual machine's instruction set, one X-macro list. Each entry is
//   X(Name, P1, P2, P3, P4, "one-line meaning")
// where P1..P3 name the kind of each integer operand (OperandKind, below) and
// P4 the kind of the pointer/constant operand (P4Kind). Registers are r[N];
// cursors c[N]; jumps go to instruction addresses; comparisons follow
// value_ops.h. The kinds are what the debug-build program verifier
// (program_verify.h) checks and what Program's typed P4 setters accept.
//
// Operand kinds (OperandKind::k<name>):
//   No    unused: always 0
//   Reg   a register number (0 is the scratch register; also "none" where the doc says so)
//   Regs  the first register of a range whose length is the Cnt / CntM1 operand, else P4 (Int)
//   Last  0, or the last register of a range that starts at P2
//   Cnt   the length of the range given by the Regs (or Aggs) operand
//   CntM1 the length of that range minus one
//   Cur   a cursor number
//   Jmp   an instruction address (0 where the doc says "if nonzero")
//   Dest  comparisons: a jump address, or the result register when P5 has kCmpStoreResult
//   Int   an integer constant
//   Db    a database index (0 main, 1 temp, 2.. attached)
//   Root  a B-tree root page number
//   Agg   an accumulator number
//   Aggs  the first accumulator of a range whose length is the Cnt operand
//   Aff   an affinity letter ('A'..'E')
//   Rc    a result code
//   Oe    a conflict action (OnConflict order)
//   Par   a bound parameter number (1-based)
// P4 kinds: the P4Type of that name; <name>Opt also allows no P4.
#pragma once

#include <cstdint>

// clang-format off
#define BASALT_OPCODES(X)                                                                          \
  /* ---- control flow ---- */                                                                     \
  X(Init,          No,   Jmp,  No,   None,         "start; jump to P2 if nonzero")                 \
  X(Goto,          No,   Jmp,  No,   None,         "jump to P2")                                   \
  X(Gosub,         Reg,  Jmp,  No,   None,         "r[P1] = return address; jump to P2")           \
  X(Return,        Reg,  No,   No,   None,         "jump to the address in r[P1]")                 \
  X(InitCoroutine, Reg,  Jmp,  Jmp,  None,                                                         \
    "r[P1] = P3 (coroutine entry); jump to P2 if nonzero")                                         \
  X(Yield,         Reg,  Jmp,  No,   None,                                                         \
    "swap the address in r[P1] with the current address")                                          \
  X(EndCoroutine,  Reg,  No,   No,   None,         "return to the caller's Yield, jump to its P2") \
  X(Halt,          Rc,   Oe,   No,   StringOpt,                                                    \
    "end the program: P1 result code, P2 conflict action, P4 message")                             \
  X(HaltIfNull,    Rc,   Oe,   Reg,  StringOpt,                                                    \
    "if r[P3] is NULL halt with error P1 (P2, P4 as Halt)")                                        \
  X(Trace,         No,   No,   No,   StringOpt,                                                    \
    "pass P4 (a trigger or trigger-step comment) to the statement tracer")                         \
  X(If,            Reg,  Jmp,  Int,  None,                                                         \
    "jump to P2 if r[P1] is true (or NULL and P3 != 0)")                                           \
  X(IfNot,         Reg,  Jmp,  Int,  None,                                                         \
    "jump to P2 if r[P1] is false (or NULL and P3 != 0)")                                          \
  X(IsNull,        Reg,  Jmp,  No,   None,         "jump to P2 if r[P1] is NULL")                  \
  X(NotNull,       Reg,  Jmp,  No,   None,         "jump to P2 if r[P1] is not NULL")              \
  X(IfPos,         Reg,  Jmp,  Int,  None,         "if r[P1] > 0: r[P1] -= P3, jump to P2")        \
  X(IfNotZero,     Reg,  Jmp,  No,   None,                                                         \
    "if r[P1] != 0: decrement if positive, jump to P2")                                            \
  X(DecrJumpZero,  Reg,  Jmp,  No,   None,         "r[P1] -= 1; jump to P2 if it became zero")     \
  X(Once,          No,   Jmp,  No,   None,                                                         \
    "fall through the first time, then jump to P2 (per run)")                                      \
  X(MustBeInt,     Reg,  Jmp,  No,   None,                                                         \
    "make r[P1] an integer or jump to P2 (P2 == 0: error)")                                        \
  X(Noop,          No,   No,   No,   None,         "do nothing")                                   \
  X(Explain,       Int,  Int,  No,   StringOpt,                                                    \
    "EXPLAIN QUERY PLAN comment: P1 id, P2 parent, P4 text")                                       \
  /* ---- constants and moves ---- */                                                              \
  X(Integer,       Int,  Reg,  No,   None,         "r[P2] = P1")                                   \
  X(Int64,         No,   Reg,  No,   Int64,        "r[P2] = P4 (64-bit)")                          \
  X(Real,          No,   Reg,  No,   Real,         "r[P2] = P4 (double)")                          \
  X(String,        Int,  Reg,  No,   String,       "r[P2] = P4 text of P1 bytes (static)")         \
  X(Blob,          Int,  Reg,  No,   String,       "r[P2] = P4 blob of P1 bytes (static)")         \
  X(Null,          No,   Reg,  Last, None,         "r[P2..P3] = NULL (P3 == 0: only r[P2])")       \
  X(Variable,      Par,  Reg,  No,   None,         "r[P2] = bound parameter P1")                   \
  X(Copy,          Regs, Regs, CntM1,None,         "r[P2..P2+P3] = deep copy of r[P1..P1+P3]")     \
  X(SCopy,         Reg,  Reg,  No,   None,         "r[P2] = shallow copy of r[P1]")                \
  X(ClrSubtype,    Regs, Cnt,  No,   None,         "clear the subtype of r[P1..P1+P2-1]")          \
  X(Move,          Regs, Regs, Cnt,  None,                                                         \
    "move r[P1..P1+P3-1] to r[P2..], leaving NULLs")                                               \
  X(IntCopy,       Reg,  Reg,  No,   None,         "r[P2] = integer r[P1]")                        \
  X(AddImm,        Reg,  Int,  No,   None,         "r[P1] += P2 (integer)")                        \
  /* ---- operators (binary ones: parser/operators.h) ---- */                                      \
  X(Add,           Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] + r[P2]")                        \
  X(Subtract,      Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] - r[P2]")                        \
  X(Multiply,      Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] * r[P2]")                        \
  X(Divide,        Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] / r[P2]")                        \
  X(Remainder,     Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] % r[P2]")                        \
  X(Concat,        Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] || r[P2]")                       \
  X(BitAnd,        Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] & r[P2]")                        \
  X(BitOr,         Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] | r[P2]")                        \
  X(ShiftLeft,     Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] << r[P2]")                       \
  X(ShiftRight,    Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] >> r[P2]")                       \
  X(BitNot,        Reg,  Reg,  No,   None,         "r[P2] = ~r[P1]")                               \
  X(Negative,      Reg,  Reg,  No,   None,         "r[P2] = -r[P1]")                               \
  X(Not,           Reg,  Reg,  No,   None,         "r[P2] = NOT r[P1] (NULL stays NULL)")          \
  X(And,           Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] AND r[P2] (three-valued)")       \
  X(Or,            Reg,  Reg,  Reg,  None,         "r[P3] = r[P1] OR r[P2] (three-valued)")        \
  X(IsTrue,        Reg,  Reg,  Int,  IntOpt,                                                       \
    "r[P2] = r[P1] IS TRUE (P3: result for NULL; P4 1 negates)")                                   \
  X(Cast,          Reg,  Aff,  No,   None,         "r[P1] = CAST(r[P1] AS affinity P2)")           \
  X(Affinity,      Regs, Cnt,  No,   String,       "apply affinity string P4 to r[P1..P1+P2-1]")   \
  X(RealAffinity,  Reg,  No,   No,   None,         "if r[P1] is an integer make it a real")        \
  X(TypeCheck,     Regs, Cnt,  No,   Table,                                                        \
    "STRICT table P4: convert r[P1..P1+P2-1] to the column types or fail")                        \
  X(Eq,            Reg,  Dest, Reg,  CollationOpt,                                                 \
    "r[P1] = r[P3]: jump to P2 (P5: affinity, flags)")                                             \
  X(Ne,            Reg,  Dest, Reg,  CollationOpt, "r[P1] != r[P3]: jump to P2")                   \
  X(Lt,            Reg,  Dest, Reg,  CollationOpt, "r[P1] < r[P3]: jump to P2")                    \
  X(Le,            Reg,  Dest, Reg,  CollationOpt, "r[P1] <= r[P3]: jump to P2")                   \
  X(Gt,            Reg,  Dest, Reg,  CollationOpt, "r[P1] > r[P3]: jump to P2")                    \
  X(Ge,            Reg,  Dest, Reg,  CollationOpt, "r[P1] >= r[P3]: jump to P2")                   \
  X(Function,      Regs, Cnt,  Reg,  Func,         "r[P3] = P4 function of r[P1..P1+P2-1]")        \
  X(AggStep,       Regs, Cnt,  Agg,  Func,                                                         \
    "accumulator P3 steps with r[P1..P1+P2-1] (P4 function)")                                      \
  X(AggFinal,      Agg,  Reg,  No,   Func,                                                         \
    "r[P2] = final value of accumulator P1; reset it")                                             \
  X(AggReset,      Aggs, Cnt,  No,   None,                                                         \
    "discard accumulators P1..P1+P2-1 without results")                                            \
  X(IfAggHit,      Agg,  Jmp,  No,   None,                                                         \
    "jump to P2 if the last step of accumulator P1 set it")                                        \
  X(Like,          Reg,  Reg,  Reg,  Like,                                                         \
    "reserved (LIKE/GLOB are compiled as function calls)")                                         \
  /* ---- cursors ---- */                                                                          \
  X(OpenRead,      Cur,  Root, Db,   CursorInfo,                                                   \
    "open cursor P1 on B-tree root P2 of database P3 to read")                                     \
  X(OpenWrite,     Cur,  Root, Db,   CursorInfo,                                                   \
    "open cursor P1 on B-tree root P2 of database P3 to write")                                    \
  X(ReopenIdx,     Cur,  Root, Db,   CursorInfo,                                                   \
    "OpenRead, a no-op if cursor P1 is open on root P2")                                           \
  X(OpenEphemeral, Cur,  Int,  No,   KeyInfoOpt,                                                   \
    "cursor P1 on a new temporary B-tree of P2 columns (P4: index)")                               \
  X(OpenDup,       Cur,  Cur,  No,   None,                                                         \
    "open cursor P1 on the same temporary B-tree as cursor P2")                                    \
  X(OpenPseudo,    Cur,  Reg,  Int,  None,                                                         \
    "cursor P1 reads the record in r[P2] with P3 columns")                                         \
  X(OpenConstList, Cur,  No,   No,   ConstList,                                                    \
    "cursor P1 iterates the constants of P4 (one column)")                                         \
  X(SorterOpen,    Cur,  Int,  No,   KeyInfo,                                                      \
    "open sorter cursor P1 of P2 fields (P4 over the key fields)")                                 \
  X(Close,         Cur,  No,   No,   None,         "close cursor P1")                              \
  X(ClearEphemeral,Cur,  No,   No,   None,         "delete every row of temporary cursor P1")      \
  X(Rewind,        Cur,  Jmp,  No,   None,                                                         \
    "move cursor P1 to its first entry; jump to P2 if empty")                                      \
  X(Last,          Cur,  Jmp,  No,   None,                                                         \
    "move cursor P1 to its last entry; jump to P2 if empty")                                       \
  X(Next,          Cur,  Jmp,  No,   None,                                                         \
    "advance cursor P1; jump to P2 if there is an entry")                                          \
  X(Prev,          Cur,  Jmp,  No,   None,                                                         \
    "step cursor P1 back; jump to P2 if there is an entry")                                        \
  X(SorterSort,    Cur,  Jmp,  No,   None,                                                         \
    "sort sorter P1, move to its first row; jump to P2 if empty")                                  \
  X(SorterNext,    Cur,  Jmp,  No,   None,                                                         \
    "advance sorter P1; jump to P2 if there is a row")                                             \
  X(SorterData,    Cur,  Reg,  No,   None,         "r[P2] = current record of sorter P1")          \
  X(SorterInsert,  Cur,  Reg,  No,   None,         "add the record r[P2] to sorter P1")            \
  X(SorterLimit,   Cur,  Reg,  Reg,  None,                                                         \
    "sorter P1 keeps its first r[P2] + max(r[P3], 0) rows (no P3 if 0); none if r[P2] < 0")       \
  X(SorterCheck,   Cur,  Jmp,  Regs, Int,                                                          \
    "jump to P2 if bounded sorter P1 would drop a row of key r[P3..P3+P4-1]")                    \
  X(WinInit,       Cur,  No,   No,   Window,                                                       \
    "start window stage P4 over the sorted rows of sorter P1 (checks frame offsets)")              \
  X(WinNext,       Cur,  Jmp,  Reg,  Window,                                                       \
    "next row of window stage P4 into r[P3..] (payload, function values); at the end jump to P2")  \
  X(NullRow,       Cur,  No,   No,   None,                                                         \
    "cursor P1 yields NULL for every column until it moves")                                       \
  X(Column,        Cur,  Int,  Reg,  ValueOpt,                                                     \
    "r[P3] = column P2 of cursor P1 (P4: default of short records)")                               \
  X(Rowid,         Cur,  Reg,  No,   None,         "r[P2] = rowid of cursor P1")                   \
  X(IdxRowid,      Cur,  Reg,  No,   None,                                                         \
    "r[P2] = rowid (last field) of index cursor P1")                                               \
  X(SeekRowid,     Cur,  Jmp,  Reg,  None,                                                         \
    "table cursor P1 to rowid r[P3]; jump to P2 if absent or not an integer")                      \
  X(NotExists,     Cur,  Jmp,  Reg,  None,                                                         \
    "table cursor P1 to integer rowid r[P3]; jump to P2 if absent")                                \
  X(SeekGE,        Cur,  Jmp,  Regs, Int,                                                          \
    "cursor P1 to the first entry >= key r[P3..P3+P4-1]; else jump to P2")                         \
  X(SeekGT,        Cur,  Jmp,  Regs, Int,                                                          \
    "cursor P1 to the first entry > key; else jump to P2")                                         \
  X(SeekLE,        Cur,  Jmp,  Regs, Int,                                                          \
    "cursor P1 to the last entry <= key; else jump to P2")                                         \
  X(SeekLT,        Cur,  Jmp,  Regs, Int,                                                          \
    "cursor P1 to the last entry < key; else jump to P2")                                          \
  X(IdxGE,         Cur,  Jmp,  Regs, Int,                                                          \
    "jump to P2 if index entry of P1 >= key r[P3..P3+P4-1] (prefix)")                              \
  X(IdxGT,         Cur,  Jmp,  Regs, Int,          "jump to P2 if index entry > key")              \
  X(IdxLE,         Cur,  Jmp,  Regs, Int,          "jump to P2 if index entry <= key")             \
  X(IdxLT,         Cur,  Jmp,  Regs, Int,          "jump to P2 if index entry < key")              \
  X(OpenRowSet,    Cur,  No,   No,   None,         "c[P1] = an empty set of integers")             \
  X(RowSetAdd,     Cur,  Reg,  No,   None,         "add integer r[P2] to the set c[P1]")           \
  X(RowSetTest,    Cur,  Jmp,  Reg,  None,         "jump to P2 if integer r[P3] is in set c[P1]")  \
  X(Found,         Cur,  Jmp,  Regs, Int,                                                          \
    "jump to P2 if index P1 has an entry matching key r[P3..+P4] (P4 0: record)")                  \
  X(NotFound,      Cur,  Jmp,  Regs, Int,                                                          \
    "jump to P2 if index P1 has no entry matching the key")                                        \
  X(NoConflict,    Cur,  Jmp,  Regs, Int,                                                          \
    "jump to P2 if key r[P3..+P4] has a NULL or no match in index P1")                             \
  X(MakeRecord,    Regs, Cnt,  Reg,  StringOpt,                                                    \
    "r[P3] = record of r[P1..P1+P2-1] (P4: affinity string)")                                      \
  X(NewRowid,      Cur,  Reg,  Reg,  None,                                                         \
    "r[P2] = a new rowid for table cursor P1 (P3: AUTOINCREMENT max, 0 none)")                     \
  X(Insert,        Cur,  Reg,  Reg,  TableOpt,                                                     \
    "write record r[P2] with rowid r[P3] via cursor P1 (P5 flags)")                                \
  X(IdxInsert,     Cur,  Reg,  Reg,  TableOpt,                                                     \
    "insert index record r[P2] via cursor P1 (P5 flags; hooks: row at r[P3], table P4)")         \
  X(ClearTree,     Root, Db,   Int,  None,                                                         \
    "delete every entry of B-tree P1 of database P2 (P3 1: entries count as changes, 2: total)")  \
  X(IdxAppend,     Cur,  Reg,  No,   None,                                                         \
    "add index record r[P2], after every key of index P1 (sorted builds)")                        \
  X(Delete,        Cur,  Reg,  Reg,  TableOpt,                                                     \
    "delete the current entry of cursor P1 (P5 flags; hooks: old row r[P2], new r[P3])")         \
  X(IdxDelete,     Cur,  Regs, Cnt,  None,                                                         \
    "delete the index entry matching key r[P2..P2+P3-1] from cursor P1")                           \
  X(ResultRow,     Regs, Cnt,  No,   None,         "output r[P1..P1+P2-1] as a result row")        \
  X(Count,         Cur,  Reg,  No,   None,         "r[P2] = number of entries in cursor P1")       \
  X(Sequence,      Cur,  Reg,  No,   None,         "r[P2] = next sequence number of cursor P1")    \
  X(IfNullRow,     Cur,  Jmp,  Reg,  None,                                                         \
    "if cursor P1 is on its null row: r[P3] = NULL, jump to P2")                                   \
  X(FkCounter,     Int,  No,   Int,  None,                                                         \
    "add P3 to the foreign key violation counter (P1 1: deferred, 0: statement)")                  \
  X(FkIfZero,      Int,  Jmp,  No,   None,                                                         \
    "jump to P2 if the counter P1 names (as FkCounter) is zero")                                   \
  X(Program,       Regs, Cnt,  Jmp,  Program,                                                      \
    "run sub-program P4 with r[P1..P1+P2-1] as its r[1..P2]; if it ended by RAISE(IGNORE), "     \
    "jump to P3 (if nonzero); P5 = trigger levels inlined around it (they count as frames)")                                                                     \
  X(MemMax,        Reg,  Reg,  No,   None,         "r[P1] = max(r[P1], r[P2]) as integers")        \
  X(SetChanges,    Reg,  No,   No,   None,                                                         \
    "add r[P1] (or 1 if P1 == 0) to the change counter")                                           \
  X(Abortable,     No,   No,   No,   None,         "no-op marker")                                 \
  /* ---- virtual tables (catalog/vtab.h) ---- */                                                  \
  X(VOpen,         Cur,  No,   No,   Table,        "open cursor P1 on virtual table P4 (xOpen)")   \
  X(VFilter,       Cur,  Jmp,  Reg,  VFilter,                                                      \
    "start cursor P1's scan (xFilter) with the P4 plan, arguments from r[P3]; empty: jump to P2")  \
  X(VNext,         Cur,  Jmp,  No,   None,                                                         \
    "advance virtual table cursor P1; jump to P2 if there is a row")                               \
  X(VColumn,       Cur,  Int,  Reg,  None,                                                         \
    "r[P3] = column P2 of virtual table cursor P1 (P5 1: an UPDATE leaves it unchanged)")          \
  X(VRowid,        Cur,  Reg,  No,   None,         "r[P2] = rowid of virtual table cursor P1")     \
  X(VUpdate,       Int,  Cnt,  Regs, Table,                                                        \
    "xUpdate of table P4 with r[P3..P3+P2-1]; P1 1: set last_insert_rowid; P5 conflict mode")      \
  X(VBegin,        No,   No,   No,   Table,        "virtual table P4 joins the transaction")
// clang-format on

namespace basalt {

enum class Opcode : uint8_t {
#define BASALT_OPCODE_ENUM(name, p1, p2, p3, p4, doc) k##name,
  BASALT_OPCODES(BASALT_OPCODE_ENUM)
#undef BASALT_OPCODE_ENUM
      kNumOpcodes
};

// What an integer operand P1/P2/P3 holds (see the list at the top).
enum class OperandKind : uint8_t {
  kNo,
  kReg,
  kRegs,
  kLast,
  kCnt,
  kCntM1,
  kCur,
  kJmp,
  kDest,
  kInt,
  kDb,
  kRoot,
  kAgg,
  kAggs,
  kAff,
  kRc,
  kOe,
  kPar,
};

// The tag of an instruction's P4 (Instr::p4type()).
enum class P4Type : uint8_t {
  kNone,
  kInt64,
  kReal,
  kString,
  kKeyInfo,
  kCollation,
  kFunc,
  kCursorInfo,
  kValue,
  kTable,
  kLike,
  kInt,
  kConstList,
  kVFilter,
  kProgram,
  kWindow,
};

// What an opcode accepts in P4: one P4Type, or (kOpt) that type or none.
struct P4Kind {
  P4Type type = P4Type::kNone;
  bool optional = false;
  constexpr bool Allows(P4Type t) const { return t == type || (optional && t == P4Type::kNone); }
};

namespace opcode_internal {
#define BASALT_P4_KIND(name) \
  constexpr P4Kind k##name{P4Type::k##name, false}, k##name##Opt{P4Type::k##name, true};
BASALT_P4_KIND(None)
BASALT_P4_KIND(Int64)
BASALT_P4_KIND(Real)
BASALT_P4_KIND(String)
BASALT_P4_KIND(KeyInfo)
BASALT_P4_KIND(Collation)
BASALT_P4_KIND(Func)
BASALT_P4_KIND(CursorInfo)
BASALT_P4_KIND(Value)
BASALT_P4_KIND(Table)
BASALT_P4_KIND(Like)
BASALT_P4_KIND(Int)
BASALT_P4_KIND(ConstList)
BASALT_P4_KIND(VFilter)
BASALT_P4_KIND(Program)
BASALT_P4_KIND(Window)
#undef BASALT_P4_KIND
}  // namespace opcode_internal

// The declaration of one opcode: its name and the kinds of its operands.
struct OpcodeInfo {
  const char* name;
  OperandKind p1, p2, p3;
  P4Kind p4;
};

inline constexpr OpcodeInfo kOpcodeInfo[] = {
#define BASALT_OPCODE_INFO(name, p1, p2, p3, p4, doc) \
  {#name, OperandKind::k##p1, OperandKind::k##p2, OperandKind::k##p3, opcode_internal::k##p4},
    BASALT_OPCODES(BASALT_OPCODE_INFO)
#undef BASALT_OPCODE_INFO
};
static_assert(sizeof(kOpcodeInfo) / sizeof(kOpcodeInfo[0]) ==
              static_cast<size_t>(Opcode::kNumOpcodes));

constexpr const OpcodeInfo& InfoOf(Opcode op) { return kOpcodeInfo[static_cast<size_t>(op)]; }

const char* OpcodeName(Opcode op);

}  // namespace basalt
