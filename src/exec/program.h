// A compiled statement: the instruction array plus everything instructions
// point at (strings, key descriptions, function calls), owned by the Program.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/function.h"
#include "common/arena.h"
#include "common/assert.h"
#include "exec/opcodes.h"
#include "record/record.h"
#include "record/value.h"

namespace basalt {

struct Table;
class Program;
struct WindowSpec;

// A function call site: the definition, its collation and argument count.
struct FuncCall {
  const FunctionDef* def = nullptr;
  const Collation* coll = nullptr;
  int nargs = 0;
  // Where a call must not read the clock ("a generated column"), or null:
  // FuncContext::pure_context.
  const char* pure_context = nullptr;
};

// P4 of cursor-opening instructions.
struct CursorInfo {
  const KeyInfo* key_info = nullptr;  // index B-trees; null for table B-trees
  int n_columns = 0;                  // columns in the table's records
  const Table* table = nullptr;       // for default values of short records
  bool append_hint = false;
};

// A sorted, duplicate-free list of constants (an IN list known while
// compiling), iterated by a kConstList cursor.
struct ConstList {
  const Value* values = nullptr;
  int n = 0;
};

// P4 of VFilter: what the virtual table's BestIndex chose, handed to its
// cursor's Filter with argc arguments.
struct VFilterInfo {
  int idx_num = 0;
  const char* idx_str = "";  // in the Program's arena
  int argc = 0;
};

// LIKE/GLOB call site.
struct LikeSpec {
  bool glob = false;
  bool case_sensitive = false;  // PRAGMA case_sensitive_like
  bool has_escape = false;      // escape character in r[P3+?]: see VM
  bool negate = false;
};

// One instruction. P4 is a tagged union: it is written only through
// Program's typed setters (which set the tag and the value together) and read
// through the accessors below, which check the tag in debug builds.
// Invariant: with no P4 (kNone) the union holds zero, so the "...OrNull"
// accessors need no branch.
struct Instr {
  Opcode op = Opcode::kNoop;
  uint8_t p5 = 0;

 private:
  P4Type p4type_ = P4Type::kNone;  // here, so that Instr packs into 24 bytes

 public:
  int32_t p1 = 0, p2 = 0, p3 = 0;

  P4Type p4type() const { return p4type_; }
  int64_t p4_int64() const { return Get(P4Type::kInt64).i64; }
  int p4_int() const { return static_cast<int>(Get(P4Type::kInt).i64); }
  double p4_real() const { return Get(P4Type::kReal).real; }
  const char* p4_str() const { return Get(P4Type::kString).str; }
  const KeyInfo* p4_key_info() const { return Get(P4Type::kKeyInfo).key_info; }
  const FuncCall* p4_func() const { return Get(P4Type::kFunc).func; }
  const CursorInfo* p4_cursor() const { return Get(P4Type::kCursorInfo).cursor; }
  const Table* p4_table() const { return Get(P4Type::kTable).table; }
  const LikeSpec* p4_like() const { return Get(P4Type::kLike).like; }
  const ConstList* p4_const_list() const { return Get(P4Type::kConstList).const_list; }
  const VFilterInfo* p4_vfilter() const { return Get(P4Type::kVFilter).vfilter; }
  const Program* p4_program() const { return Get(P4Type::kProgram).program; }
  const WindowSpec* p4_window() const { return Get(P4Type::kWindow).window; }
  // Optional P4s: null (0) when absent.
  const char* p4_str_or_null() const { return GetOpt(P4Type::kString).str; }
  const KeyInfo* p4_key_info_or_null() const { return GetOpt(P4Type::kKeyInfo).key_info; }
  const Collation* p4_coll_or_null() const { return GetOpt(P4Type::kCollation).coll; }
  const Value* p4_value_or_null() const { return GetOpt(P4Type::kValue).value; }
  int64_t p4_int_or_zero() const { return GetOpt(P4Type::kInt).i64; }

 private:
  friend class Program;
  union P4 {
    int64_t i64;
    double real;
    const char* str;
    const KeyInfo* key_info;
    const Collation* coll;
    const FuncCall* func;
    const CursorInfo* cursor;
    const Value* value;
    const Table* table;
    const LikeSpec* like;
    const ConstList* const_list;
    const VFilterInfo* vfilter;
    const Program* program;
    const WindowSpec* window;
  };
  const P4& Get(P4Type t) const {
    BASALT_DCHECK(p4type_ == t);
    return p4_;
  }
  const P4& GetOpt(P4Type t) const {
    BASALT_DCHECK(p4type_ == t || (p4type_ == P4Type::kNone && p4_.i64 == 0));
    return p4_;
  }

  P4 p4_{0};
};
static_assert(sizeof(Instr) == 24);

// Flags in P5 of comparison instructions (the affinity letter sits in the low
// bits: 0 or 'A'..'E').
constexpr uint8_t kCmpAffinityMask = 0x47;  // covers 'A'..'E' (0x41..0x45)
constexpr uint8_t kCmpJumpIfNull = 0x08;    // jump when an operand is NULL
constexpr uint8_t kCmpNullEq = 0x10;        // IS / IS NOT: NULL equals NULL
constexpr uint8_t kCmpStoreResult = 0x20;   // store 0/1/NULL in r[P2] instead of jumping

// P5 of Next/Prev: the loop scans a whole table (sqlite3_stmt_status's
// SQLITE_STMTSTATUS_FULLSCAN_STEP counts its steps; SQLite's value, 1).
constexpr uint8_t kP5FullScanStep = 0x01;
// SorterOpen: the rows are read by position (window frames); a sorter that
// spilled is read back through a positional file (exec/window_rows.h).
constexpr uint8_t kP5SorterRandomAccess = 0x02;

// MakeRecord P5: P4 is not an affinity string but the REAL-column mask of
// EncodeRecord (a stored row or index key).
constexpr uint8_t kRecRealMask = 0x01;

// P5 of Insert/Delete.
constexpr uint8_t kInsNChange = 0x01;    // count the change
constexpr uint8_t kInsLastRowid = 0x02;  // set last_insert_rowid
constexpr uint8_t kInsAppend = 0x04;     // rowid is known to be the largest
constexpr uint8_t kInsIsUpdate = 0x08;   // part of an UPDATE
constexpr uint8_t kInsTotal = 0x10;      // counts for total_changes() (triggers too)
// Hooks (exec/change_hooks.h); the instruction's P4 is the table.
constexpr uint8_t kInsPreHook = 0x20;   // fires the preupdate hook
constexpr uint8_t kInsUpdHook = 0x40;   // fires the update hook
constexpr uint8_t kInsHookOnly = 0x80;  // Delete: only the UPDATE preupdate, no write

// P5 of Halt with kConstraint: which constraint failed (extended code comes in P1).

// One line of EXPLAIN QUERY PLAN output.
struct EqpRow {
  int id = 0;
  int parent = 0;
  std::string detail;
};

class Program {
 public:
  std::vector<EqpRow> eqp;  // EXPLAIN QUERY PLAN tree, in output order
  std::vector<Instr> ops;
  int n_regs = 1;  // registers 1..n_regs-1 are usable; 0 is scratch
  int n_cursors = 0;
  int n_aggs = 0;  // aggregate accumulators
  int n_params = 0;
  bool writes = false;       // modifies the database
  bool writes_vtab = false;  // changes a virtual table (VUpdate)
  // A failure part-way may leave changes to undo: run inside a statement
  // savepoint (false for a single-row INSERT without triggers).
  bool stmt_journal = true;
  // (address, trigger depth) of each hooked write compiled inside a trigger
  // body (sqlite3_preupdate_depth); the others are at depth 0.
  std::vector<std::pair<int, int>> hook_depths;
  bool read_only_ok = true;
  bool is_explain = false;
  int explain_mode = 0;  // 1 EXPLAIN, 2 EXPLAIN QUERY PLAN
  std::vector<std::string> column_names;
  std::vector<std::string> column_decltypes;  // "" when not a direct column
  std::vector<std::string> column_tables;     // origin table ("" if none)
  std::vector<std::string> column_origins;    // origin column ("" if none)
  std::vector<char> column_affinities;        // 'A'..'E' per result column
  std::vector<std::string> param_names;       // index i → name of parameter i+1
  // Sub-programs (foreign key actions, recursive triggers), run by Program
  // instructions, owned by the statement's top-level program; a
  // sub-program's arguments are in r[1..]. A trigger sub-program ends with a
  // Halt whose P2 is OnConflict::kIgnore when RAISE(IGNORE) ended it.
  std::vector<std::unique_ptr<Program>> subprograms;
  Arena arena;  // strings, key infos, function calls and values pointed to by P4

  int AddOp(Opcode op, int p1 = 0, int p2 = 0, int p3 = 0) {
    Instr in;
    in.op = op;
    in.p1 = p1;
    in.p2 = p2;
    in.p3 = p3;
    ops.push_back(in);
    return static_cast<int>(ops.size()) - 1;
  }
  int pc() const { return static_cast<int>(ops.size()); }

  // ---- typed P4 setters: the only writers of Instr's P4 ----
  // Each sets the tag with the value; debug builds check that the opcode at
  // `addr` declares that kind of P4 (opcodes.h).
  void SetP4Int(int addr, int64_t v) { SetP4(addr, P4Type::kInt).i64 = v; }
  void SetP4Int64(int addr, int64_t v) { SetP4(addr, P4Type::kInt64).i64 = v; }
  void SetP4Real(int addr, double v) { SetP4(addr, P4Type::kReal).real = v; }
  // A string the program already owns (arena) or a static one.
  void SetP4Str(int addr, const char* s) { SetP4(addr, P4Type::kString).str = s; }
  // A copy of `s` in the program's arena (NUL-terminated).
  void SetP4Text(int addr, std::string_view s) { SetP4Str(addr, arena.CopyString(s).data()); }
  void SetP4(int addr, const KeyInfo* v) { SetP4(addr, P4Type::kKeyInfo).key_info = v; }
  void SetP4(int addr, const Collation* v) { SetP4(addr, P4Type::kCollation).coll = v; }
  void SetP4(int addr, const FuncCall* v) { SetP4(addr, P4Type::kFunc).func = v; }
  void SetP4(int addr, const CursorInfo* v) { SetP4(addr, P4Type::kCursorInfo).cursor = v; }
  void SetP4(int addr, const Value* v) { SetP4(addr, P4Type::kValue).value = v; }
  void SetP4(int addr, const Table* v) { SetP4(addr, P4Type::kTable).table = v; }
  void SetP4(int addr, const LikeSpec* v) { SetP4(addr, P4Type::kLike).like = v; }
  void SetP4(int addr, const ConstList* v) { SetP4(addr, P4Type::kConstList).const_list = v; }
  void SetP4(int addr, const VFilterInfo* v) { SetP4(addr, P4Type::kVFilter).vfilter = v; }
  void SetP4(int addr, const Program* v) { SetP4(addr, P4Type::kProgram).program = v; }
  void SetP4(int addr, const WindowSpec* v) { SetP4(addr, P4Type::kWindow).window = v; }
  Instr& at(int addr) { return ops[static_cast<size_t>(addr)]; }
  void JumpHere(int addr) { ops[static_cast<size_t>(addr)].p2 = pc(); }

  // EXPLAIN listing: addr opcode p1 p2 p3 p4 p5 comment, one row per op.
  std::string P4Text(const Instr& in) const;

 private:
  Instr::P4& SetP4(int addr, P4Type t) {
    Instr& in = at(addr);
    BASALT_DCHECK(InfoOf(in.op).p4.type == t);
    in.p4type_ = t;
    in.p4_.i64 = 0;
    return in.p4_;
  }
};

// In a UTF-16 database SQLite's BINARY collation compares the stored
// UTF-16 bytes. Values in the VM are UTF-8, so a program compiled for such a
// database has its BINARY comparisons (comparison ops, function calls such
// as min/max, sorter and ephemeral-index keys, window keys) switched to
// Utf16BinaryCollation. Programs of UTF-8 databases are never touched.
void UseUtf16Binary(Program* prog, bool big_endian);

}  // namespace basalt
