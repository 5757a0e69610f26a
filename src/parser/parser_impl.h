// Parser internals shared by the parse_*.cc files: the token stream, error
// reporting and the recursive-descent routines (one file per area).
//
// The parser is a hand-written recursive-descent parser that accepts exactly
// the language of SQLite 3.40's LALR grammar and fails on the same token:
//
//  1. Each routine looks only at the current token to choose an
//     alternative, and reports a syntax error at the first token that cannot
//     continue any statement, which is where an LR parser fails too.
//  2. Keywords with the "fallback" flag act as identifiers wherever the
//     keyword itself fits no rule (Is*Token helpers below).
//  3. SQLite's LALR stack holds 100 entries; nesting that would need more is
//     "parser stack overflow". Routines take `d`, the number of grammar
//     symbols the LALR parser would have on its stack before the construct
//     starts, and check it where a token is pushed (CheckDepth).
//  4. Expression nodes carry a height computed the way SQLite computes it;
//     more than 1000 is "Expression tree is too large (maximum depth 1000)".
//  5. Errors that SQLite raises while reducing a rule (e.g. "unknown join
//     type") are raised at the same point; errors SQLite raises only when
//     generating code (hex literal too big) are kept aside and reported
//     after the statement parsed cleanly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/arena.h"
#include "common/status.h"
#include "parser/ast.h"
#include "parser/operators.h"
#include "parser/parser.h"
#include "parser/token.h"
#include "parser/tokenizer.h"

namespace basalt {

namespace parser {

constexpr int kMaxStackDepth = 99;  // LALR stack entries above the start state
// The other limits are run-time ones: ParseLimits (parser.h).

// Dequotes an identifier or string token ('..', "..", `..`, [..]); text
// without a leading quote is returned unchanged. Copies into the arena only
// when a doubled quote has to be collapsed.
std::string_view Dequote(Arena* arena, std::string_view text);

// SQLite's sqlite3Dequote on a whole span: if it starts with a quote, the
// result is the quoted part up to the matching close quote (the rest is
// dropped).
std::string_view DequoteSpan(Arena* arena, std::string_view text);

inline bool IsQuoteChar(char c) { return c == '\'' || c == '"' || c == '`' || c == '['; }

// Decodes the hex digits of a blob literal x'...' (token text) into the arena.
std::string_view DecodeBlob(Arena* arena, std::string_view token);

// Value of a decimal or hex integer literal. Returns 0 on success, 1 when a
// decimal literal does not fit in int64 (use the real value), 2 when a hex
// literal has more than 16 significant digits, 3 when the decimal literal is
// exactly 9223372036854775808.
int IntegerLiteral(std::string_view text, int64_t* value);

// Value of a decimal numeric literal as a double.
double RealLiteral(std::string_view text);

}  // namespace parser

struct Parser::Impl {
  using Token = parser::Token;
  using Tk = parser::Tk;

  Impl(Arena* arena, std::string_view sql);

  // ---- token stream (parser.cc) ----
  Tk T() const { return cur_.type; }
  const Token& Cur() const { return cur_; }
  // Consumes the current token.
  void Advance() {
    if (nahead_ != 0 || has_pending_ || failed_) {
      AdvanceSlow();
      return;
    }
    prev_end_ = cur_.z + cur_.n;
    if (cur_.type == Tk::kEof) return;
    Tk prev = cur_.type;
    parser::NextToken(&scan_, end_, &cur_);
    if ((parser::TokenFlags(cur_.type) & parser::kContextual) != 0) {
      cur_.type = Classify(cur_.type, scan_, prev);
    }
  }
  void AdvanceSlow();
  const Token& Peek(int k);  // k-th token after the current one (1-based)
  bool Accept(Tk t) {
    if (cur_.type != t) return false;
    Advance();
    return true;
  }
  // Expect(t) for a token the LALR parser would push at stack depth `depth`.
  bool ExpectAt(Tk t, int depth) {
    if (cur_.type != t) {
      SyntaxError();
      return false;
    }
    if (!CheckDepth(depth)) return false;
    Advance();
    return true;
  }
  bool Expect(Tk t) {
    if (cur_.type == t) {
      Advance();
      return true;
    }
    SyntaxError();
    return false;
  }
  Token ScanRaw(const char** pos, Tk prev);  // next token from *pos, classified
  Tk Classify(Tk raw, const char* after, Tk prev);

  // ---- errors (parser.cc) ----
  std::nullptr_t SyntaxError();               // at the current token
  std::nullptr_t Error(std::string message);  // a rule's own error, raised now
  // The LALR stack overflows while shifting the current (valid) token: final.
  std::nullptr_t Overflow() {
    Fail(Status(kError, "parser stack overflow"));
    return nullptr;
  }
  bool CheckDepth(int depth) {
    if (depth > parser::kMaxStackDepth) {
      Overflow();
      return false;
    }
    return true;
  }
  void Defer(std::string message);  // reported after the statement parses
  void Fail(Status status);         // final error: stops the parse
  bool failed() const { return failed_; }

  // ---- token classes ----
  static bool IsFallback(Tk t) { return (parser::TokenFlags(t) & parser::kFallbackId) != 0; }
  static bool IsJoinKw(Tk t) { return (parser::TokenFlags(t) & parser::kJoinKw) != 0; }
  // ID after fallback.
  static bool IsIdToken(Tk t) { return t == Tk::kId || IsFallback(t); }
  // The grammar's `id`: ID | INDEXED.
  static bool IsIdOrIndexed(Tk t) { return IsIdToken(t) || t == Tk::kIndexed; }
  // `nm`: id | STRING | JOIN_KW.
  static bool IsNmToken(Tk t) { return IsIdOrIndexed(t) || t == Tk::kString || IsJoinKw(t); }
  // Fallback keywords that still act as keywords where an expression starts.
  static bool StartsExprAsKeyword(Tk t) {
    return t == Tk::kCast || t == Tk::kRaise || (parser::TokenFlags(t) & parser::kCtimeKw) != 0;
  }
  // `ids`: ID | STRING.
  static bool IsIdsToken(Tk t) { return IsIdToken(t) || t == Tk::kString; }

  // ---- names ----
  std::string_view NameOf(const Token& t) { return parser::Dequote(arena_, t.text()); }
  // Parses `nm`; false (with a syntax error) if the current token is not one.
  bool ParseNm(std::string_view* out, Token* raw = nullptr);
  // nm [DOT nm]: first part is the schema when the dot is present.
  bool ParseFullName(std::string_view* schema, std::string_view* name, Token* raw = nullptr);
  bool ParseIdList(ast::IdList** out);         // idlist: nm, nm, ...
  bool ParseEidList(ast::IdList** out);        // eidlist (after '('), to ')'
  bool ParseIfNotExists(bool* present);        // [IF NOT EXISTS]
  bool ParseIfExists();                        // [IF EXISTS]
  ast::ConflictAction ParseResolveType();      // after OR / ON CONFLICT
  bool ParseOnConf(ast::ConflictAction* out);  // [ON CONFLICT resolvetype]

  static ast::ExprItem Item(ast::Expr* e, std::string_view name = {}) {
    ast::ExprItem it;
    it.expr = e;
    it.name = name;
    return it;
  }

  // ---- spans ----
  std::string_view SpanFrom(const char* start) const {
    return std::string_view(start, static_cast<size_t>(prev_end_ - start));
  }
  // From `start` to the start of the current token, whitespace trimmed
  // (SQLite's span for result columns: trailing comments are included).
  std::string_view SpanToCurrent(const char* start) const;
  // From `start` (just after a '(') to the start of the current token (the
  // ')'), whitespace trimmed at both ends (CHECK and DEFAULT texts).
  std::string_view InnerSpan(const char* start) const;

  // ---- expressions (parse_expr.cc) ----
  ast::Expr* NewExpr(ast::ExprKind kind, const char* start);
  void Finish(ast::Expr* e, const char* start) { e->span = SpanFrom(start); }
  bool SetHeight(ast::Expr* e);  // computes e->height; false (error) if too high
  int SelectHeight(const ast::Select* s) const;
  ast::Expr* ParseExpr(int d) { return ParseBinary(parser::kPrecOr, d, false); }
  ast::Expr* ParseBinary(int min_prec, int d, bool stop_at_and);
  ast::Expr* ParseUnary(int d);
  ast::Expr* ParsePrimary(int d);
  ast::Expr* ParseNumber(const char* start);
  ast::Expr* ParseParam();
  ast::Expr* ParseParenthesized(int d);
  ast::Expr* ParseIdentifierExpr(int d);
  ast::Expr* ParseFunctionTail(ast::Expr* f, std::string_view raw_name, int d);
  ast::Expr* ParseCase(int d);
  ast::Expr* ParseCast(int d);
  ast::Expr* ParseRaise(int d);
  ast::Expr* ParseIn(ast::Expr* left, bool negated, const char* start, int d);
  ast::Expr* ParseBetween(ast::Expr* left, bool negated, const char* start, int d);
  ast::Expr* ParseLike(ast::Expr* left, bool negated, const char* start, int d);
  ast::Expr* ParseIs(ast::Expr* left, const char* start, int d);
  ast::Expr* MakeBinary(ast::Op op, ast::Expr* l, ast::Expr* r, const char* start);
  bool IsZeroLiteral(const ast::Expr* e) const;
  ast::Expr* ZeroLiteral(const char* start);
  ast::Expr* MakeUnary(ast::Op op, ast::Expr* operand, const char* start);
  // nexprlist: expr, expr, ... (d = depth before the first expr; later ones
  // are at d + 2).
  ast::ExprList* ParseNExprList(int d);
  bool ParseTypeToken(std::string_view* out, int d);  // optional type name (CAST, columns)
  ast::Expr* ParseSignedNumber();                     // [+|-] INTEGER|FLOAT
  ast::Expr* ParseTerm(const char* start);            // literal term (DEFAULT)

  // ---- windows (parse_window.cc) ----
  ast::Window* ParseWindowBody(int d);            // inside '(' ... ')'
  bool ParseFilterOver(ast::Expr* f, int d);      // [FILTER (WHERE e)] [OVER ...]
  bool ParseWindowClause(ast::Select* s, int d);  // WINDOW name AS (...), ...
  bool ParseFrame(ast::Window* w, int d);

  // ---- SELECT (parse_select.cc) ----
  ast::Select* ParseSelect(int d);                       // [WITH ...] compound select
  ast::With* ParseWith(int d);                           // after WITH
  ast::Select* ParseSelectBody(int d, ast::With* with);  // selectnowith
  ast::Select* ParseOneSelect(int d);
  ast::Select* ParseValues(int d);
  ast::ExprList* ParseResultColumns(int d);
  ast::FromList* ParseFromList(int d);  // seltablist
  ast::ExprList* ParseSortList(int d);
  bool ParseLimit(ast::Expr** limit, ast::Expr** offset, int d);
  bool CheckCompound(ast::Select* last, int terms, int first_rows);
  static bool StartsSelect(Tk t) { return t == Tk::kSelect || t == Tk::kValues || t == Tk::kWith; }

  // ---- DML (parse_dml.cc) ----
  // `d`: LALR depth before the INSERT/UPDATE/DELETE keyword.
  ast::Stmt* ParseInsert(ast::With* with, int d, bool in_trigger);
  ast::Stmt* ParseUpdate(ast::With* with, int d, bool in_trigger);
  ast::Stmt* ParseDelete(ast::With* with, int d, bool in_trigger);
  ast::Stmt* ParseWithStatement(const char* start);  // WITH ... SELECT/INSERT/...
  bool ParseXFullName(ast::FromItem* item, bool in_trigger, bool allow_alias);
  bool ParseIndexedOpt(ast::FromItem* item, bool in_trigger);
  bool ParseSetList(ast::ExprList** out, int d);
  bool ParseUpsert(ast::InsertStmt* ins, int d);
  bool ParseReturning(ast::ExprList** out, int d);
  ast::ConflictAction ParseOrConf();  // [OR resolvetype]

  // ---- CREATE TABLE (parse_create_table.cc) ----
  ast::Stmt* ParseCreateTable(bool temp);
  ast::ColumnDef* ParseColumnDef(int d);  // d: depth before the column name
  bool ParseColumnConstraints(ast::ColumnDef* col, int d);
  bool ParseTableConstraint(ast::CreateTableStmt* t, int d);
  bool ParseTypeName(std::string_view* out, int d);
  ast::ForeignKey* ParseReferences();  // after REFERENCES
  bool ParseDeferrable(int8_t* out);   // [NOT] DEFERRABLE [INITIALLY ...]
  ast::Expr* ParseDefaultValue(int d);
  bool ParseTableOptions(ast::CreateTableStmt* t);

  // ---- other DDL (parse_ddl.cc) ----
  ast::Stmt* ParseCreate();
  ast::Stmt* ParseCreateIndex(bool unique);
  ast::Stmt* ParseCreateView(bool temp);
  ast::Stmt* ParseCreateTrigger(bool temp);
  ast::Stmt* ParseCreateVirtualTable();
  ast::Stmt* ParseTriggerCommand(int d);
  ast::Stmt* ParseDrop();
  ast::Stmt* ParseAlter();

  // ---- everything else (parse_misc.cc) ----
  void ParseTransOpt();
  ast::Stmt* ParseBegin();
  ast::Stmt* ParseCommit();
  ast::Stmt* ParseRollback();
  ast::Stmt* ParseSavepoint();
  ast::Stmt* ParseRelease();
  ast::Stmt* ParsePragma();
  ast::Stmt* ParseVacuum();
  ast::Stmt* ParseReindex();
  ast::Stmt* ParseAnalyze();
  ast::Stmt* ParseAttach();
  ast::Stmt* ParseDetach();

  // ---- statements (parser.cc) ----
  ast::Stmt* ParseCommand(const char* start);  // one statement, no EXPLAIN prefix
  bool AssignParam(ast::Expr* e);

  Arena* arena_;
  const char* begin_;
  const char* end_;
  const char* scan_;  // where the tokenizer resumes
  Token cur_;
  Token ahead_[4];
  int nahead_ = 0;
  const char* prev_end_;  // end of the last consumed token
  size_t offset_ = 0;
  int error_offset_ = -1;  // byte offset of the token a syntax error names
  ParamTable params_;
  bool failed_ = false;
  Status error_;
  ParseLimits limits_;
  bool rename_mode_ = false;  // see Parser::SetRenameMode
  // A rule's error waits for the token that triggered it: if that token is
  // itself a syntax error, the syntax error is reported instead (as SQLite).
  bool has_pending_ = false;
  std::string pending_;
  ast::Expr* bad_hex_ = nullptr;  // first hex literal too big for 64 bits
  bool bad_hex_negated_ = false;
  bool in_schema_ddl_ = false;  // CREATE TABLE/VIEW/TRIGGER: no code is generated
  bool in_trigger_ = false;     // parsing a trigger body
  int base_ = 0;
  const char* star_start_ = nullptr;    // where a result column starts (`t.*` allowed) // LALR
                                        // symbols below the command (1 after EXPLAIN)
  std::string deferred_;                // first deferred error of the statement
  ast::ForeignKey* last_fk_ = nullptr;  // most recent FK of the CREATE TABLE being parsed
  std::string_view constraint_name_;    // pending CONSTRAINT name (SQLite keeps it for CHECK)
};

}  // namespace basalt
