// The Parser API, the token stream and error reporting.
#include "parser/parser.h"

#include <cstring>

#include "parser/parser_impl.h"

namespace basalt {

using parser::Tk;
using parser::Token;

// ---- token stream -----------------------------------------------------------

Parser::Impl::Impl(Arena* arena, std::string_view sql)
    : arena_(arena), begin_(sql.data()), end_(sql.data() + sql.size()), scan_(sql.data()) {
  prev_end_ = begin_;
  cur_ = ScanRaw(&scan_, Tk::kSemi);
}

// WINDOW, OVER and FILTER are keywords only in context, decided from the
// tokens around them exactly as SQLite's tokenizer does:
//   WINDOW  when followed by an identifier and AS;
//   OVER    when the previous token is ')' and an identifier or '(' follows;
//   FILTER  when the previous token is ')' and '(' follows.
// Anywhere else they are plain identifiers.
Tk Parser::Impl::Classify(Tk raw, const char* after, Tk prev) {
  auto next = [&](const char** pos) {
    Tk t;
    for (;;) {
      uint32_t n = parser::ScanToken(*pos, end_, &t);
      *pos += n;
      if (t != Tk::kSpace) break;
    }
    // The lookahead treats these as identifiers (FILTER is not among them).
    if (t == Tk::kId || t == Tk::kString || IsJoinKw(t) || t == Tk::kWindow || t == Tk::kOver ||
        IsFallback(t)) {
      return Tk::kId;
    }
    return t;
  };
  const char* p = after;
  switch (raw) {
    case Tk::kWindow:
      if (next(&p) != Tk::kId) return Tk::kId;
      return next(&p) == Tk::kAs ? Tk::kWindow : Tk::kId;
    case Tk::kOver:
      if (prev == Tk::kRp) {
        Tk t = next(&p);
        if (t == Tk::kLp || t == Tk::kId) return Tk::kOver;
      }
      return Tk::kId;
    case Tk::kFilter:
      return (prev == Tk::kRp && next(&p) == Tk::kLp) ? Tk::kFilter : Tk::kId;
    default:
      return raw;
  }
}

Token Parser::Impl::ScanRaw(const char** pos, Tk prev) {
  Token t;
  parser::NextToken(pos, end_, &t);
  if ((parser::TokenFlags(t.type) & parser::kContextual) != 0) {
    t.type = Classify(t.type, *pos, prev);
  }
  return t;
}

void Parser::Impl::AdvanceSlow() {
  if (failed_) return;
  if (has_pending_) {
    // The token at which a rule raised its error is valid: the error stands.
    Fail(Status(kError, pending_));
    return;
  }
  prev_end_ = cur_.end();
  if (nahead_ > 0) {
    cur_ = ahead_[0];
    for (int i = 1; i < nahead_; ++i) ahead_[i - 1] = ahead_[i];
    --nahead_;
    return;
  }
  if (cur_.type == Tk::kEof) return;
  cur_ = ScanRaw(&scan_, cur_.type);
}

const Token& Parser::Impl::Peek(int k) {
  while (nahead_ < k) {
    Token t;
    const Token& last = nahead_ > 0 ? ahead_[nahead_ - 1] : cur_;
    t = last.type == Tk::kEof ? last : ScanRaw(&scan_, last.type);
    ahead_[nahead_++] = t;
  }
  return ahead_[k - 1];
}

// ---- errors -----------------------------------------------------------------

void Parser::Impl::Fail(Status status) {
  if (failed_) return;
  failed_ = true;
  has_pending_ = false;
  error_ = std::move(status);
  // Wind the parse down: every routine sees the end of input from now on.
  nahead_ = 0;
  cur_.type = Tk::kEof;
  cur_.n = 0;
}

std::nullptr_t Parser::Impl::SyntaxError() {
  if (failed_) return nullptr;
  has_pending_ = false;  // a syntax error at this token replaces a rule's error
  switch (cur_.type) {
    case Tk::kEof:
      Fail(Status(kError, "incomplete input"));
      break;
    case Tk::kIllegal:
      Fail(Status(kError, "unrecognized token: \"" + std::string(cur_.text()) + "\""));
      break;
    default:
      error_offset_ = static_cast<int>(cur_.z - begin_);
      Fail(Status(kError, "near \"" + std::string(cur_.text()) + "\": syntax error"));
      break;
  }
  return nullptr;
}

std::nullptr_t Parser::Impl::Error(std::string message) {
  if (failed_) return nullptr;
  if (cur_.type == Tk::kIllegal) return SyntaxError();  // the tokenizer complains first
  has_pending_ = true;
  pending_ = std::move(message);
  return nullptr;
}

void Parser::Impl::Defer(std::string message) {
  if (deferred_.empty()) deferred_ = std::move(message);
}

std::string_view Parser::Impl::SpanToCurrent(const char* start) const {
  const char* e = cur_.z;
  if (e < start) e = start;
  while (e > start && parser::IsSpaceChar(static_cast<unsigned char>(e[-1]))) --e;
  return std::string_view(start, static_cast<size_t>(e - start));
}

std::string_view Parser::Impl::InnerSpan(const char* start) const {
  while (start < cur_.z && parser::IsSpaceChar(static_cast<unsigned char>(*start))) ++start;
  return SpanToCurrent(start);
}

// ---- shared small rules ---------------------------------------------------------

bool Parser::Impl::ParseNm(std::string_view* out, Token* raw) {
  if (!IsNmToken(T())) {
    SyntaxError();
    return false;
  }
  if (raw) *raw = cur_;
  *out = NameOf(cur_);
  Advance();
  return true;
}

bool Parser::Impl::ParseFullName(std::string_view* schema, std::string_view* name, Token* raw) {
  std::string_view first;
  if (!ParseNm(&first, raw)) return false;
  if (Accept(Tk::kDot)) {
    *schema = first;
    return ParseNm(name, raw);
  }
  *name = first;
  return true;
}

bool Parser::Impl::ParseIdList(ast::IdList** out) {
  ast::IdList* list = arena_->New<ast::IdList>();
  do {
    std::string_view n;
    if (!ParseNm(&n)) return false;
    list->names.push_back(*arena_, n);
  } while (Accept(Tk::kComma));
  *out = list;
  return true;
}

// eidlist: nm [COLLATE ids] [ASC|DESC], ... — the COLLATE and sort order are
// accepted by the grammar and then rejected by SQLite with a message.
bool Parser::Impl::ParseEidList(ast::IdList** out) {
  ast::IdList* list = arena_->New<ast::IdList>();
  do {
    std::string_view n;
    Token raw;
    if (!ParseNm(&n, &raw)) return false;
    bool extra = false;
    if (Accept(Tk::kCollate)) {
      if (!IsIdsToken(T())) {
        SyntaxError();
        return false;
      }
      Advance();
      extra = true;
    }
    if (T() == Tk::kAsc || T() == Tk::kDesc) {
      Advance();
      extra = true;
    }
    if (extra) {
      Error("syntax error after column name \"" + std::string(raw.text()) + "\"");
    }
    list->names.push_back(*arena_, n);
  } while (Accept(Tk::kComma));
  *out = list;
  return true;
}

bool Parser::Impl::ParseIfNotExists(bool* present) {
  if (T() != Tk::kIf) return true;
  Advance();
  *present = true;
  return Expect(Tk::kNot) && Expect(Tk::kExists);
}

bool Parser::Impl::ParseIfExists() {
  if (T() != Tk::kIf) return true;
  Advance();
  return Expect(Tk::kExists);
}

ast::ConflictAction Parser::Impl::ParseResolveType() {
  ast::ConflictAction a;
  switch (T()) {
    case Tk::kRollback:
      a = ast::ConflictAction::kRollback;
      break;
    case Tk::kAbort:
      a = ast::ConflictAction::kAbort;
      break;
    case Tk::kFail:
      a = ast::ConflictAction::kFail;
      break;
    case Tk::kIgnore:
      a = ast::ConflictAction::kIgnore;
      break;
    case Tk::kReplace:
      a = ast::ConflictAction::kReplace;
      break;
    default:
      SyntaxError();
      return ast::ConflictAction::kDefault;
  }
  Advance();
  return a;
}

bool Parser::Impl::ParseOnConf(ast::ConflictAction* out) {
  if (T() != Tk::kOn) return true;
  Advance();
  if (!Expect(Tk::kConflict)) return false;
  *out = ParseResolveType();
  return !failed_;
}

// ---- parameters ---------------------------------------------------------------

bool Parser::Impl::AssignParam(ast::Expr* e) {
  std::string_view z = e->text;
  int x;
  if (z.size() == 1) {
    x = ++params_.count;
    params_.names.resize(static_cast<size_t>(params_.count));
  } else if (z[0] == '?') {
    int64_t n = 0;
    bool ok = z.size() <= 20;
    for (size_t i = 1; ok && i < z.size(); ++i) n = n * 10 + (z[i] - '0');
    if (!ok || n < 1 || n > limits_.variable_number) {
      Error("variable number must be between ?1 and ?" + std::to_string(limits_.variable_number));
      return false;
    }
    x = static_cast<int>(n);
    if (x > params_.count) {
      params_.count = x;
      params_.names.resize(static_cast<size_t>(x));
    }
    if (params_.names[static_cast<size_t>(x - 1)].empty()) {
      params_.names[static_cast<size_t>(x - 1)] = z;
    }
  } else {
    x = 0;
    for (size_t i = 0; i < params_.names.size(); ++i) {
      if (params_.names[i] == z) {
        x = static_cast<int>(i) + 1;
        break;
      }
    }
    if (x == 0) {
      x = ++params_.count;
      params_.names.resize(static_cast<size_t>(params_.count));
      params_.names.back() = z;
    }
  }
  e->param_index = x;
  if (x > limits_.variable_number) {
    Error("too many SQL variables");
    return false;
  }
  return true;
}

// ---- statements -------------------------------------------------------------------

ast::Stmt* Parser::Impl::ParseCommand(const char* start) {
  switch (T()) {
    case Tk::kSelect:
    case Tk::kValues: {
      ast::Select* s = ParseSelect(base_);
      if (!s) return nullptr;
      auto* st = arena_->New<ast::SelectStmt>();
      st->select = s;
      return st;
    }
    case Tk::kWith:
      return ParseWithStatement(start);
    case Tk::kInsert:
    case Tk::kReplace:
      return ParseInsert(nullptr, base_ + 1, false);
    case Tk::kUpdate:
      return ParseUpdate(nullptr, base_ + 1, false);
    case Tk::kDelete:
      return ParseDelete(nullptr, base_ + 1, false);
    case Tk::kCreate:
      return ParseCreate();
    case Tk::kDrop:
      return ParseDrop();
    case Tk::kAlter:
      return ParseAlter();
    case Tk::kBegin:
      return ParseBegin();
    case Tk::kCommit:
    case Tk::kEnd:
      return ParseCommit();
    case Tk::kRollback:
      return ParseRollback();
    case Tk::kSavepoint:
      return ParseSavepoint();
    case Tk::kRelease:
      return ParseRelease();
    case Tk::kPragma:
      return ParsePragma();
    case Tk::kVacuum:
      return ParseVacuum();
    case Tk::kReindex:
      return ParseReindex();
    case Tk::kAnalyze:
      return ParseAnalyze();
    case Tk::kAttach:
      return ParseAttach();
    case Tk::kDetach:
      return ParseDetach();
    default:
      return SyntaxError();
  }
}

}  // namespace basalt

namespace basalt {

Parser::Parser(Arena* arena, std::string_view sql) : impl_(arena->New<Impl>(arena, sql)) {}

void Parser::SetLimits(const ParseLimits& limits) { impl_->limits_ = limits; }
void Parser::SetRenameMode(bool on) { impl_->rename_mode_ = on; }

Result<ast::Stmt*> Parser::ParseStatement() {
  Impl& p = *impl_;
  if (p.failed_) return p.error_;
  while (p.T() == Tk::kSemi) p.Advance();
  if (p.T() == Tk::kEof) {
    p.offset_ = static_cast<size_t>(p.cur_.z - p.begin_);
    return static_cast<ast::Stmt*>(nullptr);
  }
  p.deferred_.clear();
  p.last_fk_ = nullptr;
  p.in_schema_ddl_ = false;
  p.in_trigger_ = false;
  p.bad_hex_ = nullptr;
  p.bad_hex_negated_ = false;
  p.base_ = 0;
  const char* start = p.cur_.z;
  uint8_t explain = 0;
  if (p.T() == Tk::kExplain) {
    p.Advance();
    explain = 1;
    if (p.T() == Tk::kQuery) {
      p.Advance();
      if (!p.Expect(Tk::kPlan)) return p.error_;
      explain = 2;
    }
    p.base_ = 1;
  }
  ast::Stmt* stmt = p.ParseCommand(start);
  if (!p.failed_) {
    if (p.T() != Tk::kSemi && p.T() != Tk::kEof) p.SyntaxError();
  }
  if (!p.failed_ && p.has_pending_) p.Fail(Status(kError, p.pending_));
  if (!p.failed_ && p.bad_hex_) {
    if (p.deferred_.empty()) p.error_offset_ = static_cast<int>(p.bad_hex_->span.data() - p.begin_);
    p.Defer("hex literal too big: " + std::string(p.bad_hex_negated_ ? "-" : "") +
            std::string(p.bad_hex_->text));
  }
  if (!p.failed_ && !p.deferred_.empty()) p.Fail(Status(kError, p.deferred_));
  if (p.failed_ || stmt == nullptr) {
    if (!p.failed_) p.Fail(Status(kError, "incomplete input"));
    return p.error_;
  }
  stmt->explain = explain;
  stmt->span = p.SpanFrom(start);
  if (p.T() == Tk::kSemi) {
    p.offset_ = static_cast<size_t>(p.cur_.end() - p.begin_);
    p.Advance();
  } else {
    p.offset_ = static_cast<size_t>(p.cur_.z - p.begin_);
  }
  return stmt;
}

size_t Parser::offset() const { return impl_->offset_; }

const ParamTable& Parser::params() const { return impl_->params_; }

int Parser::error_offset() const { return impl_->error_offset_; }

}  // namespace basalt
