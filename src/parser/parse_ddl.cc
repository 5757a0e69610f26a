// CREATE INDEX / VIEW / TRIGGER / VIRTUAL TABLE, DROP and ALTER TABLE.
#include "parser/parser_impl.h"

namespace basalt {

using parser::Tk;

ast::Stmt* Parser::Impl::ParseCreate() {
  Advance();  // CREATE
  bool temp = false;
  if (T() == Tk::kTemp) {
    Advance();
    temp = true;
  }
  switch (T()) {
    case Tk::kTable:
      Advance();
      return ParseCreateTable(temp);
    case Tk::kView:
      Advance();
      return ParseCreateView(temp);
    case Tk::kTrigger:
      Advance();
      return ParseCreateTrigger(temp);
    default:
      break;
  }
  if (temp) return SyntaxError();
  switch (T()) {
    case Tk::kUnique:
      Advance();
      if (T() != Tk::kIndex) return SyntaxError();
      Advance();
      return ParseCreateIndex(true);
    case Tk::kIndex:
      Advance();
      return ParseCreateIndex(false);
    case Tk::kVirtual:
      Advance();
      if (!Expect(Tk::kTable)) return nullptr;
      return ParseCreateVirtualTable();
    default:
      return SyntaxError();
  }
}

// CREATE [UNIQUE] INDEX [IF NOT EXISTS] [schema.]name ON table (sortlist) [WHERE expr]
ast::Stmt* Parser::Impl::ParseCreateIndex(bool unique) {
  auto* s = arena_->New<ast::CreateIndexStmt>();
  s->unique = unique;
  if (!ParseIfNotExists(&s->if_not_exists)) return nullptr;
  Token name_tok;
  if (!ParseFullName(&s->schema, &s->name, &name_tok)) return nullptr;
  if (!Expect(Tk::kOn) || !ParseNm(&s->table) || !Expect(Tk::kLp)) return nullptr;
  s->columns = ParseSortList(base_ + 9);
  if (!s->columns || !ExpectAt(Tk::kRp, base_ + 11)) return nullptr;
  if (T() == Tk::kWhere) {
    Advance();
    s->where = ParseExpr(base_ + 12);
    if (!s->where) return nullptr;
  }
  // SQLite stores the text up to the ';' (or the end), comments included.
  s->body_text = std::string_view(name_tok.z, static_cast<size_t>(cur_.z - name_tok.z));
  return s;
}

// CREATE [TEMP] VIEW [IF NOT EXISTS] [schema.]name [(columns)] AS select
ast::Stmt* Parser::Impl::ParseCreateView(bool temp) {
  auto* s = arena_->New<ast::CreateViewStmt>();
  s->temp = temp;
  in_schema_ddl_ = true;
  if (!ParseIfNotExists(&s->if_not_exists)) return nullptr;
  Token name_tok;
  if (!ParseFullName(&s->schema, &s->name, &name_tok)) return nullptr;
  s->name_text = name_tok.text();
  if (T() == Tk::kLp) {
    Advance();
    if (!ParseEidList(&s->columns) || !Expect(Tk::kRp)) return nullptr;
  }
  if (!Expect(Tk::kAs)) return nullptr;
  s->select = ParseSelect(base_ + 8);
  if (!s->select) return nullptr;
  // Up to the ';' or the end, trailing whitespace trimmed.
  s->body_text = SpanToCurrent(name_tok.z);
  // As SQLite, once the statement parses (no position given).
  if (params_.count > 0) Defer("parameters are not allowed in views");
  return s;
}

// CREATE [TEMP] TRIGGER [IF NOT EXISTS] [schema.]name [BEFORE|AFTER|INSTEAD OF]
//   DELETE|INSERT|UPDATE [OF cols] ON table [FOR EACH ROW] [WHEN expr]
//   BEGIN stmt; ... END
ast::Stmt* Parser::Impl::ParseCreateTrigger(bool temp) {
  auto* s = arena_->New<ast::CreateTriggerStmt>();
  s->temp = temp;
  in_schema_ddl_ = true;
  if (!ParseIfNotExists(&s->if_not_exists)) return nullptr;
  Token name_tok;
  if (!ParseFullName(&s->schema, &s->name, &name_tok)) return nullptr;
  s->name_text = name_tok.text();
  switch (T()) {
    case Tk::kBefore:
      Advance();
      s->time = ast::TriggerTime::kBefore;
      break;
    case Tk::kAfter:
      Advance();
      s->time = ast::TriggerTime::kAfter;
      break;
    case Tk::kInstead:
      Advance();
      if (!Expect(Tk::kOf)) return nullptr;
      s->time = ast::TriggerTime::kInsteadOf;
      break;
    default:
      break;
  }
  switch (T()) {
    case Tk::kDelete:
      Advance();
      s->event = ast::TriggerEvent::kDelete;
      break;
    case Tk::kInsert:
      Advance();
      s->event = ast::TriggerEvent::kInsert;
      break;
    case Tk::kUpdate:
      Advance();
      s->event = ast::TriggerEvent::kUpdate;
      if (T() == Tk::kOf) {
        Advance();
        if (!ParseIdList(&s->update_columns)) return nullptr;
      }
      break;
    default:
      return SyntaxError();
  }
  if (!Expect(Tk::kOn)) return nullptr;
  if (!ParseFullName(&s->table_schema, &s->table)) return nullptr;
  if (T() == Tk::kFor) {
    Advance();
    if (!Expect(Tk::kEach) || !Expect(Tk::kRow)) return nullptr;
    s->for_each_row = true;
  }
  if (T() == Tk::kWhen) {
    Advance();
    s->when = ParseExpr(base_ + 12);
    if (!s->when) return nullptr;
  }
  if (!Expect(Tk::kBegin)) return nullptr;
  in_trigger_ = true;
  int d = base_ + 3;  // createkw trigger_decl BEGIN [trigger_cmd_list]
  do {
    ast::Stmt* cmd = ParseTriggerCommand(d);
    if (!cmd || !Expect(Tk::kSemi)) return nullptr;
    s->body.push_back(*arena_, cmd);
    d = base_ + 4;
  } while (T() != Tk::kEnd);
  in_trigger_ = false;
  Advance();  // END
  s->body_text = std::string_view(name_tok.z, static_cast<size_t>(prev_end_ - name_tok.z));
  s->uses_params = params_.count > 0;
  return s;
}

ast::Stmt* Parser::Impl::ParseTriggerCommand(int d) {
  const char* start = cur_.z;
  ast::Stmt* st;
  switch (T()) {
    case Tk::kUpdate:
      st = ParseUpdate(nullptr, d, true);
      break;
    case Tk::kInsert:
    case Tk::kReplace:
      st = ParseInsert(nullptr, d + 1, true);
      break;
    case Tk::kDelete:
      st = ParseDelete(nullptr, d, true);
      break;
    case Tk::kSelect:
    case Tk::kValues:
    case Tk::kWith: {
      ast::Select* sel = ParseSelect(d + 1);
      if (!sel) return nullptr;
      auto* ss = arena_->New<ast::SelectStmt>();
      ss->select = sel;
      st = ss;
      break;
    }
    default:
      return SyntaxError();
  }
  if (st) st->span = SpanFrom(start);
  return st;
}

// CREATE VIRTUAL TABLE [IF NOT EXISTS] [schema.]name USING module [(args)]
// Each argument is any run of tokens with balanced parentheses, kept as text.
ast::Stmt* Parser::Impl::ParseCreateVirtualTable() {
  auto* s = arena_->New<ast::CreateVirtualTableStmt>();
  if (!ParseIfNotExists(&s->if_not_exists)) return nullptr;
  Token name_tok;
  if (!ParseFullName(&s->schema, &s->name, &name_tok)) return nullptr;
  s->name_text = name_tok.text();
  if (!Expect(Tk::kUsing) || !ParseNm(&s->module)) return nullptr;
  if (T() == Tk::kLp) {
    Advance();
    const char* arg_start = nullptr;
    const char* arg_end = nullptr;
    int depth = 0;
    for (;;) {
      Tk t = T();
      if (t == Tk::kEof || t == Tk::kIllegal) return SyntaxError();
      if (depth == 0 && (t == Tk::kComma || t == Tk::kRp)) {
        if (arg_start) {
          s->args.push_back(*arena_,
                            std::string_view(arg_start, static_cast<size_t>(arg_end - arg_start)));
        }
        arg_start = nullptr;
        Advance();
        if (t == Tk::kRp) break;
        continue;
      }
      if (t == Tk::kLp) ++depth;
      if (t == Tk::kRp) --depth;
      if (!arg_start) arg_start = cur_.z;
      arg_end = cur_.end();
      Advance();
    }
  }
  s->body_text = std::string_view(name_tok.z, static_cast<size_t>(prev_end_ - name_tok.z));
  return s;
}

// DROP TABLE|VIEW|INDEX|TRIGGER [IF EXISTS] [schema.]name
ast::Stmt* Parser::Impl::ParseDrop() {
  Advance();  // DROP
  auto* s = arena_->New<ast::DropStmt>();
  switch (T()) {
    case Tk::kTable:
      s->object = ast::ObjectKind::kTable;
      break;
    case Tk::kView:
      s->object = ast::ObjectKind::kView;
      break;
    case Tk::kIndex:
      s->object = ast::ObjectKind::kIndex;
      break;
    case Tk::kTrigger:
      s->object = ast::ObjectKind::kTrigger;
      break;
    default:
      return SyntaxError();
  }
  Advance();
  if (T() == Tk::kIf) {
    if (!ParseIfExists()) return nullptr;
    s->if_exists = true;
  }
  if (!ParseFullName(&s->schema, &s->name)) return nullptr;
  return s;
}

namespace {
bool IsQuoteChar(char c) { return c == '"' || c == '\'' || c == '[' || c == '`'; }
}  // namespace

// ALTER TABLE [schema.]t RENAME TO n | RENAME [COLUMN] a TO b | ADD [COLUMN] def
//   | DROP [COLUMN] c
ast::Stmt* Parser::Impl::ParseAlter() {
  Advance();  // ALTER
  if (!Expect(Tk::kTable)) return nullptr;
  auto* s = arena_->New<ast::AlterTableStmt>();
  if (!ParseFullName(&s->schema, &s->table)) return nullptr;
  switch (T()) {
    case Tk::kRename:
      Advance();
      if (T() == Tk::kTo) {
        Advance();
        s->action = ast::AlterTableStmt::kRenameTable;
        s->new_name_quoted = IsQuoteChar(*cur_.z);
        if (!ParseNm(&s->new_name)) return nullptr;
        return s;
      }
      if (T() == Tk::kColumn) Advance();
      s->action = ast::AlterTableStmt::kRenameColumn;
      if (!ParseNm(&s->old_name) || !Expect(Tk::kTo)) return nullptr;
      s->new_name_quoted = IsQuoteChar(*cur_.z);
      if (!ParseNm(&s->new_name)) return nullptr;
      return s;
    case Tk::kAdd:
      Advance();
      if (T() == Tk::kColumn) Advance();
      s->action = ast::AlterTableStmt::kAddColumn;
      last_fk_ = nullptr;
      in_schema_ddl_ = true;
      {
        const char* start = cur_.z;
        s->column = ParseColumnDef(base_ + 5);
        if (s->column == nullptr) return nullptr;
        s->column_text = std::string_view(start, static_cast<size_t>(prev_end_ - start));
      }
      return s;
    case Tk::kDrop:
      Advance();
      if (T() == Tk::kColumn) Advance();
      s->action = ast::AlterTableStmt::kDropColumn;
      if (!ParseNm(&s->old_name)) return nullptr;
      return s;
    default:
      return SyntaxError();
  }
}

}  // namespace basalt
