// The virtual machine's instruction set, one X-macro list. Each entry is
// X(Name, "one-line meaning"). Registers are r[N]; cursors c[N]; jumps go to
// instruction addresses. Unless stated, P1/P2/P3 are register or cursor
// numbers and comparisons follow value_ops.h.
#pragma once

#include <cstdint>

#define BASALT_OPCODES(X)                                                                      \
  /* ---- control flow ---- */                                                                 \
  X(Init, "start; jump to P2")                                                                 \
  X(Goto, "jump to P2")                                                                        \
  X(Gosub, "r[P1] = return address; jump to P2")                                               \
  X(Return, "jump to the address in r[P1]")                                                    \
  X(InitCoroutine, "r[P1] = P3 (coroutine entry); jump to P2 if nonzero")                      \
  X(Yield, "swap the address in r[P1] with the current address")                               \
  X(EndCoroutine, "return to the caller's Yield and jump to that Yield's P2")                  \
  X(Halt, "end the program: P1 result code, P2 conflict action, P4 message")                   \
  X(HaltIfNull, "if r[P3] is NULL halt with NOT NULL constraint error (P1,P2,P4 as Halt)")     \
  X(If, "jump to P2 if r[P1] is true (or NULL and P3 != 0)")                                   \
  X(IfNot, "jump to P2 if r[P1] is false (or NULL and P3 != 0)")                               \
  X(IsNull, "jump to P2 if r[P1] is NULL")                                                     \
  X(NotNull, "jump to P2 if r[P1] is not NULL")                                                \
  X(IfPos, "if r[P1] > 0: r[P1] -= P3, jump to P2")                                            \
  X(IfNotZero, "if r[P1] != 0: decrement if positive, jump to P2")                             \
  X(DecrJumpZero, "r[P1] -= 1; jump to P2 if it became zero")                                  \
  X(Once, "fall through the first time, jump to P2 afterwards (per execution)")                \
  X(MustBeInt, "make r[P1] an integer or jump to P2 (error 'datatype mismatch' if P2 == 0)")   \
  X(Noop, "do nothing")                                                                        \
  X(Explain, "a comment for EXPLAIN QUERY PLAN: P1 id, P2 parent, P4 text")                    \
  /* ---- constants and moves ---- */                                                          \
  X(Integer, "r[P2] = P1")                                                                     \
  X(Int64, "r[P2] = P4 (64-bit)")                                                              \
  X(Real, "r[P2] = P4 (double)")                                                               \
  X(String, "r[P2] = P4 text of P1 bytes (static)")                                            \
  X(Blob, "r[P2] = P4 blob of P1 bytes (static)")                                              \
  X(Null, "r[P2..P3] = NULL (P3 == 0: only r[P2])")                                            \
  X(Variable, "r[P2] = bound parameter P1")                                                    \
  X(Copy, "r[P2..P2+P3] = deep copy of r[P1..P1+P3]")                                          \
  X(SCopy, "r[P2] = shallow copy of r[P1]")                                                    \
  X(Move, "move r[P1..P1+P3-1] to r[P2..], leaving NULLs")                                     \
  X(IntCopy, "r[P2] = integer r[P1]")                                                          \
  X(AddImm, "r[P1] += P2 (integer)")                                                           \
  /* ---- operators ---- */                                                                    \
  X(Add, "r[P3] = r[P1] + r[P2]")                                                              \
  X(Subtract, "r[P3] = r[P1] - r[P2]")                                                         \
  X(Multiply, "r[P3] = r[P1] * r[P2]")                                                         \
  X(Divide, "r[P3] = r[P1] / r[P2]")                                                           \
  X(Remainder, "r[P3] = r[P1] % r[P2]")                                                        \
  X(Concat, "r[P3] = r[P1] || r[P2]")                                                          \
  X(BitAnd, "r[P3] = r[P1] & r[P2]")                                                           \
  X(BitOr, "r[P3] = r[P1] | r[P2]")                                                            \
  X(ShiftLeft, "r[P3] = r[P1] << r[P2]")                                                       \
  X(ShiftRight, "r[P3] = r[P1] >> r[P2]")                                                      \
  X(BitNot, "r[P2] = ~r[P1]")                                                                  \
  X(Negative, "r[P2] = -r[P1]")                                                                \
  X(Not, "r[P2] = NOT r[P1] (NULL stays NULL)")                                                \
  X(And, "r[P3] = r[P1] AND r[P2] (three-valued)")                                             \
  X(Or, "r[P3] = r[P1] OR r[P2] (three-valued)")                                               \
  X(IsTrue, "r[P2] = r[P1] IS TRUE (P3: result for NULL; P4.i 1 negates: IS NOT TRUE)")        \
  X(Cast, "r[P1] = CAST(r[P1] AS affinity P2)")                                                \
  X(Affinity, "apply affinity string P4 to r[P1..P1+P2-1]")                                    \
  X(RealAffinity, "if r[P1] is an integer make it a real")                                     \
  X(Eq, "compare r[P1] = r[P3]; jump to P2 if true. P5: affinity/flags, P4 collation")         \
  X(Ne, "compare r[P1] != r[P3]; jump")                                                        \
  X(Lt, "compare r[P1] < r[P3]; jump")                                                         \
  X(Le, "compare r[P1] <= r[P3]; jump")                                                        \
  X(Gt, "compare r[P1] > r[P3]; jump")                                                         \
  X(Ge, "compare r[P1] >= r[P3]; jump")                                                        \
  X(Function, "r[P3] = P4 function of r[P1..P1+P2-1]")                                         \
  X(AggStep, "accumulator P3 steps with r[P1..P1+P2-1] (P4 function)")                         \
  X(AggFinal, "r[P2] = final value of accumulator P1; reset it")                               \
  X(AggReset, "discard accumulators P1..P1+P2-1 without results")                              \
  X(IfAggHit, "jump to P2 if the last step of accumulator P1 gave it a new value")             \
  X(Like, "r[P3] = r[P1] LIKE/GLOB r[P2] (P4 pattern spec, P5 escape reg flag)")               \
  /* ---- cursors ---- */                                                                      \
  X(OpenRead, "open cursor P1 on B-tree root P2 of database P3 for reading; P4 cursor info")   \
  X(OpenWrite, "open cursor P1 on B-tree root P2 of database P3 for writing; P4 info")         \
  X(ReopenIdx, "like OpenRead but a no-op if cursor P1 is already open on root P2")            \
  X(OpenEphemeral, "open cursor P1 on a new temporary B-tree (P4 KeyInfo: index, else table)") \
  X(OpenDup, "open cursor P1 on the same temporary B-tree as cursor P2")                       \
  X(OpenPseudo, "cursor P1 reads the record in r[P2] with P3 columns")                         \
  X(OpenConstList, "cursor P1 iterates the constants of P4 (one column)")                      \
  X(SorterOpen, "open sorter cursor P1 (P4 KeyInfo over the key fields)")                      \
  X(Close, "close cursor P1")                                                                  \
  X(ClearEphemeral, "delete every row of temporary cursor P1")                                 \
  X(Rewind, "move cursor P1 to its first entry; jump to P2 if empty")                          \
  X(Last, "move cursor P1 to its last entry; jump to P2 if empty")                             \
  X(Next, "advance cursor P1; jump to P2 if there is an entry")                                \
  X(Prev, "step cursor P1 back; jump to P2 if there is an entry")                              \
  X(SorterSort, "sort sorter P1 and move to its first row; jump to P2 if empty")               \
  X(SorterNext, "advance sorter P1; jump to P2 if there is a row")                             \
  X(SorterData, "r[P2] = current record of sorter P1")                                         \
  X(SorterInsert, "add the record r[P2] to sorter P1")                                         \
  X(NullRow, "cursor P1 yields NULL for every column until it moves")                          \
  X(Column, "r[P3] = column P2 of cursor P1 (P4 default value for short records)")             \
  X(Rowid, "r[P2] = rowid of cursor P1")                                                       \
  X(IdxRowid, "r[P2] = rowid (last field) of index cursor P1")                                 \
  X(SeekRowid, "move table cursor P1 to rowid r[P3]; jump to P2 if absent or not an integer")  \
  X(NotExists, "move table cursor P1 to integer rowid r[P3]; jump to P2 if absent")            \
  X(SeekGE, "index/table cursor P1 to first entry >= key r[P3..P3+P4-1]; jump P2 if none")     \
  X(SeekGT, "cursor P1 to first entry > key; jump P2 if none")                                 \
  X(SeekLE, "cursor P1 to last entry <= key; jump P2 if none")                                 \
  X(SeekLT, "cursor P1 to last entry < key; jump P2 if none")                                  \
  X(IdxGE, "jump to P2 if index entry of P1 >= key r[P3..P3+P4-1] (key prefix)")               \
  X(IdxGT, "jump to P2 if index entry > key")                                                  \
  X(IdxLE, "jump to P2 if index entry <= key")                                                 \
  X(IdxLT, "jump to P2 if index entry < key")                                                  \
  X(Found, "jump to P2 if index P1 has an entry matching key r[P3..+P4] (P4 0: record)")       \
  X(NotFound, "jump to P2 if index P1 has no entry matching the key")                          \
  X(NoConflict, "jump to P2 if key r[P3..+P4] has a NULL or no match in index P1")             \
  X(MakeRecord, "r[P3] = record of r[P1..P1+P2-1] (P4 optional affinity string)")              \
  X(NewRowid, "r[P2] = a new rowid for table cursor P1 (P3: AUTOINCREMENT max register)")      \
  X(Insert, "write record r[P2] with rowid r[P3] via cursor P1 (P5 flags, P4 table)")          \
  X(IdxInsert, "insert index record r[P2] via cursor P1")                                      \
  X(Delete, "delete the current entry of cursor P1 (P5 flags, P4 table)")                      \
  X(IdxDelete, "delete the index entry matching key r[P2..P2+P3-1] from cursor P1")            \
  X(ResultRow, "output r[P1..P1+P2-1] as a result row")                                        \
  X(Count, "r[P2] = number of entries in cursor P1")                                           \
  X(Sequence, "r[P2] = next sequence number of cursor P1")                                     \
  X(IfNullRow, "if cursor P1 is on its null row: r[P3] = NULL, jump to P2")                    \
  X(FkCheck, "reserved")                                                                       \
  X(MemMax, "r[P1] = max(r[P1], r[P2]) as integers")                                           \
  X(SetChanges, "add r[P1] (or 1 if P1 == 0) to the change counter")                           \
  X(Abortable, "no-op marker")

namespace basalt {

enum class Opcode : uint8_t {
#define BASALT_OPCODE_ENUM(name, doc) k##name,
  BASALT_OPCODES(BASALT_OPCODE_ENUM)
#undef BASALT_OPCODE_ENUM
      kNumOpcodes
};

const char* OpcodeName(Opcode op);

}  // namespace basalt
