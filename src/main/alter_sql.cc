// Token-level edits of stored CREATE statements for ALTER TABLE (see
// alter_sql.h for the rules that find the tokens).
#include "main/alter_sql.h"

#include <algorithm>

#include "common/strings.h"
#include "parser/tokenizer.h"

namespace basalt::alter {

namespace {

using parser::Tk;

struct Tok {
  size_t off = 0, len = 0;
  Tk type = Tk::kEof;
  std::string name;  // dequoted text of a name-like token; empty otherwise
  int depth = 0;     // parenthesis depth ('(' and ')' carry the outer depth)
};

std::string DequoteName(std::string_view s) {
  if (s.empty()) return std::string();
  const char q = s[0];
  if (q != '"' && q != '\'' && q != '`' && q != '[') return std::string(s);
  const char close = q == '[' ? ']' : q;
  std::string out;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] == close) {
      if (q != '[' && i + 1 < s.size() && s[i + 1] == close) {
        out += close;
        ++i;
        continue;
      }
      break;
    }
    out += s[i];
  }
  return out;
}

bool IsNameType(Tk t) {
  return t == Tk::kId || t == Tk::kString || (parser::TokenFlags(t) & parser::kFallbackId) != 0;
}

std::vector<Tok> Tokenize(std::string_view sql) {
  std::vector<Tok> out;
  const char* p = sql.data();
  const char* end = p + sql.size();
  int depth = 0;
  for (;;) {
    parser::Token t;
    parser::NextToken(&p, end, &t);
    if (t.type == Tk::kEof || t.n == 0) break;
    Tok k;
    k.off = static_cast<size_t>(t.z - sql.data());
    k.len = t.n;
    k.type = t.type;
    if (t.type == Tk::kRp) --depth;
    k.depth = depth;
    if (t.type == Tk::kLp) ++depth;
    if (IsNameType(t.type)) k.name = DequoteName(t.text());
    out.push_back(std::move(k));
  }
  return out;
}

// A double-quoted name as a string literal: 'text' with ' doubled.
std::string AsStringLiteral(std::string_view token) {
  std::string out = "'";
  for (char c : DequoteName(token)) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

// Index of the token starting at byte `off`, or npos.
size_t TokenAt(const std::vector<Tok>& toks, size_t off) {
  auto it = std::lower_bound(toks.begin(), toks.end(), off,
                             [](const Tok& k, size_t o) { return k.off < o; });
  return it != toks.end() && it->off == off ? static_cast<size_t>(it - toks.begin())
                                            : std::string::npos;
}

// Replaces tokens `idx` of `sql` by `new_name` the way SQLite's
// renameEditSql does: the double-quoted form when `quote` is set or the
// token was quoted, the bare name otherwise; a space after the quoted form
// when a '"' follows the token. Tokens `strings` become string literals.
std::string Edit(std::string_view sql, const std::vector<Tok>& toks, std::vector<size_t> idx,
                 std::string_view new_name, bool quote, std::vector<size_t> strings = {}) {
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
  std::string quoted = "\"";
  for (char c : new_name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  std::string out;
  size_t pos = 0;
  size_t a = 0, b = 0;
  while (a < idx.size() || b < strings.size()) {
    const bool rename = b == strings.size() || (a < idx.size() && idx[a] <= strings[b]);
    const size_t i = rename ? idx[a++] : strings[b++];
    if (rename && b < strings.size() && strings[b] == i) ++b;
    const Tok& k = toks[i];
    out.append(sql.substr(pos, k.off - pos));
    if (!rename) {
      out += AsStringLiteral(sql.substr(k.off, k.len));
    } else if (!quote && parser::IsIdChar(static_cast<unsigned char>(sql[k.off]))) {
      out += new_name;
    } else {
      out += quoted;
      if (k.off + k.len < sql.size() && sql[k.off + k.len] == '"') out += ' ';
    }
    pos = k.off + k.len;
  }
  out.append(sql.substr(pos));
  return out;
}

enum class Kind { kOther, kTable, kIndex, kView, kTrigger };

// The statement around the tokens: its kind, its own name, and where table
// names stand.
class Scan {
 public:
  Scan(std::string_view sql, const Target& t) : sql_(sql), t_(t), toks_(Tokenize(sql)) {
    Header();
    TablePositions();
  }

  std::vector<size_t> TableRefs() const;
  // Column references; *fk_list marks those inside FOREIGN KEY(...).
  std::vector<size_t> ColumnRefs(std::vector<bool>* fk_list) const;
  const std::vector<Tok>& toks() const { return toks_; }
  Kind kind() const { return kind_; }
  // Index of the token after the parenthesis that closes the one at `open`.
  size_t SkipGroup(size_t open) const {
    size_t i = open + 1;
    while (i < toks_.size() && !(toks_[i].type == Tk::kRp && toks_[i].depth == toks_[open].depth)) {
      ++i;
    }
    return i + 1;
  }

 private:
  static constexpr int kNone = -1, kUnqualified = -2;

  bool Is(size_t i, Tk type) const { return i < toks_.size() && toks_[i].type == type; }
  bool Named(size_t i, std::string_view n) const {
    return i < toks_.size() && !toks_[i].name.empty() && EqualsIgnoreCase(toks_[i].name, n);
  }
  // A table token (or schema-qualified one) that means the target table.
  bool MeansTarget(size_t i, int schema) const {
    if (!Named(i, t_.table)) return false;
    if (schema == kUnqualified) return t_.unqualified_ok;
    return EqualsIgnoreCase(toks_[static_cast<size_t>(schema)].name, t_.db_name);
  }
  bool IsAlias(std::string_view n) const {
    for (const std::string& a : aliases_) {
      if (EqualsIgnoreCase(a, n)) return true;
    }
    return false;
  }
  void Header();
  void TablePositions();
  void MarkTable(size_t j, bool allow_call, bool legacy_ok);
  void OwnTableColumns(std::vector<size_t>* hits, std::vector<bool>* fk_list) const;
  void ReferenceLists(std::vector<size_t>* hits) const;
  void BodyColumns(size_t from, std::vector<size_t>* hits) const;
  bool ColumnAt(size_t i, bool involved) const;

  std::string_view sql_;
  const Target& t_;
  std::vector<Tok> toks_;
  Kind kind_ = Kind::kOther;
  size_t body_ = 0;       // first token after the header (view: after AS; trigger: after ON t)
  size_t header_on_ = 0;  // index / trigger: the token after ON
  bool on_target_ = false;
  std::vector<int> table_pos_;        // per token: kNone, kUnqualified, or its schema token
  std::vector<bool> legacy_pos_;      // positions legacy_alter_table still renames
  std::vector<std::string> aliases_;  // aliases of the target table
};

void Scan::Header() {
  size_t i = 0;
  if (!Is(i, Tk::kCreate)) return;
  ++i;
  if (Is(i, Tk::kTemp) || Is(i, Tk::kUnique)) ++i;
  if (Is(i, Tk::kTable)) kind_ = Kind::kTable;
  if (Is(i, Tk::kIndex)) kind_ = Kind::kIndex;
  if (Is(i, Tk::kView)) kind_ = Kind::kView;
  if (Is(i, Tk::kTrigger)) kind_ = Kind::kTrigger;
  if (kind_ == Kind::kView) {
    while (i < toks_.size() && !(Is(i, Tk::kAs) && toks_[i].depth == 0)) ++i;
    body_ = i + 1;
  } else if (kind_ == Kind::kIndex || kind_ == Kind::kTrigger) {
    while (i < toks_.size() && !(Is(i, Tk::kOn) && toks_[i].depth == 0)) ++i;
    header_on_ = i + 1;
    size_t name = header_on_;
    int schema = kUnqualified;
    if (Is(name + 1, Tk::kDot)) {
      schema = static_cast<int>(name);
      name += 2;
    }
    on_target_ = MeansTarget(name, schema);
    body_ = name + 1;
  }
}

void Scan::MarkTable(size_t j, bool allow_call, bool legacy_ok) {
  if (j >= toks_.size() || toks_[j].name.empty()) return;
  int schema = kUnqualified;
  if (Is(j + 1, Tk::kDot) && j + 2 < toks_.size() && !toks_[j + 2].name.empty()) {
    schema = static_cast<int>(j);
    j += 2;
  }
  if (!allow_call && Is(j + 1, Tk::kLp)) return;  // a table-valued function
  table_pos_[j] = schema;
  legacy_pos_[j] = legacy_ok;
  if (!MeansTarget(j, schema)) return;
  if (Is(j + 1, Tk::kAs) && j + 2 < toks_.size()) {
    aliases_.push_back(toks_[j + 2].name);
  } else if (Is(j + 1, Tk::kId)) {
    aliases_.push_back(toks_[j + 1].name);
  }
}

void Scan::TablePositions() {
  table_pos_.assign(toks_.size(), kNone);
  legacy_pos_.assign(toks_.size(), false);
  std::vector<char> in_from(1, 0);
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Tok& k = toks_[i];
    const size_t d = static_cast<size_t>(std::max(k.depth, 0));
    if (in_from.size() < d + 2) in_from.resize(d + 2, 0);
    switch (k.type) {
      case Tk::kLp:
        in_from[d + 1] = 0;
        break;
      case Tk::kFrom:
        in_from[d] = 1;
        MarkTable(i + 1, false, false);
        break;
      case Tk::kJoin:
        MarkTable(i + 1, false, false);
        break;
      case Tk::kComma:
        if (in_from[d]) MarkTable(i + 1, false, false);
        break;
      case Tk::kInto:
        MarkTable(i + 1, true, false);
        break;
      case Tk::kReferences:
        MarkTable(i + 1, true, !t_.legacy || t_.legacy_references);
        break;
      case Tk::kUpdate:
        if (Is(i + 1, Tk::kOf)) break;
        MarkTable(Is(i + 1, Tk::kOr) ? i + 3 : i + 1, true, false);
        break;
      case Tk::kTable:
        if (i <= 2 && kind_ == Kind::kTable)
          MarkTable(Is(i + 1, Tk::kIf) ? i + 4 : i + 1, true, true);
        break;
      case Tk::kOn:
        if (i + 1 == header_on_) MarkTable(i + 1, true, true);
        break;
      case Tk::kWhere:
      case Tk::kGroup:
      case Tk::kHaving:
      case Tk::kOrder:
      case Tk::kLimit:
      case Tk::kWindow:
      case Tk::kUnion:
      case Tk::kIntersect:
      case Tk::kExcept:
      case Tk::kSelect:
      case Tk::kValues:
      case Tk::kSet:
      case Tk::kSemi:
      case Tk::kEnd:
      case Tk::kReturning:
        in_from[d] = 0;
        break;
      default:
        break;
    }
  }
}

std::vector<size_t> Scan::TableRefs() const {
  std::vector<size_t> hits;
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (table_pos_[i] != kNone) {
      if (MeansTarget(i, table_pos_[i]) && (!t_.legacy || legacy_pos_[i])) hits.push_back(i);
      continue;
    }
    // A column qualifier `t.x` (not `schema.t` of a table position).
    if (t_.legacy || toks_[i].name.empty() || !Is(i + 1, Tk::kDot)) continue;
    if (i + 2 < toks_.size() && table_pos_[i + 2] != kNone) continue;
    if (i > 0 && Is(i - 1, Tk::kDot)) {
      if (i >= 2 && MeansTarget(i, static_cast<int>(i - 2))) hits.push_back(i);
      continue;
    }
    if (Is(i + 3, Tk::kDot)) {  // schema.t.x
      continue;
    }
    if (MeansTarget(i, kUnqualified) && !IsAlias(t_.table)) hits.push_back(i);
  }
  return hits;
}

// True if token i, a name equal to the column, is a reference to it in an
// expression or a column list; `involved`: the statement uses the table.
bool Scan::ColumnAt(size_t i, bool involved) const {
  if (table_pos_[i] != kNone || Is(i + 1, Tk::kLp) || Is(i + 1, Tk::kDot)) return false;
  if (i > 0 && (Is(i - 1, Tk::kAs) || Is(i - 1, Tk::kCollate) || Is(i - 1, Tk::kConstraint))) {
    return false;
  }
  if (toks_[i].type == Tk::kString) return false;
  if (i >= 2 && Is(i - 1, Tk::kDot)) {
    const Tok& q = toks_[i - 2];
    if (i >= 4 && Is(i - 3, Tk::kDot)) return MeansTarget(i - 2, static_cast<int>(i - 4));
    if (EqualsIgnoreCase(q.name, t_.table)) return t_.unqualified_ok && !IsAlias(t_.table);
    if (IsAlias(q.name)) return true;
    return kind_ == Kind::kTrigger && on_target_ &&
           (EqualsIgnoreCase(q.name, "new") || EqualsIgnoreCase(q.name, "old"));
  }
  return involved;
}

// Names in `REFERENCES target(...)` lists of any CREATE TABLE.
void Scan::ReferenceLists(std::vector<size_t>* hits) const {
  for (size_t i = 0; i + 2 < toks_.size(); ++i) {
    if (!Is(i, Tk::kReferences)) continue;
    size_t j = i + 1;
    int schema = kUnqualified;
    if (Is(j + 1, Tk::kDot)) {
      schema = static_cast<int>(j);
      j += 2;
    }
    if (!MeansTarget(j, schema) || !Is(j + 1, Tk::kLp)) continue;
    for (size_t k = j + 2; k < SkipGroup(j + 1) - 1; ++k) {
      if (Named(k, t_.column)) hits->push_back(k);
    }
  }
}

// The table's own CREATE TABLE: column names, CHECK / generated
// expressions, PRIMARY KEY / UNIQUE / FOREIGN KEY lists; not type names,
// DEFAULT values, COLLATE or CONSTRAINT names.
void Scan::OwnTableColumns(std::vector<size_t>* hits, std::vector<bool>* fk_list) const {
  size_t i = 0;
  while (i < toks_.size() && !Is(i, Tk::kLp)) ++i;
  bool def_start = true, in_type = false, table_constraints = false;
  for (++i; i < toks_.size(); ++i) {
    const Tok& k = toks_[i];
    if (k.depth == 0) break;  // the closing parenthesis
    if (k.type == Tk::kComma && k.depth == 1) {
      def_start = !table_constraints;
      in_type = false;
      continue;
    }
    if (def_start) {
      def_start = false;
      const Tk ty = k.type;
      if (ty == Tk::kConstraint || ty == Tk::kPrimary || ty == Tk::kUnique || ty == Tk::kCheck ||
          ty == Tk::kForeign) {
        table_constraints = true;
      } else {
        if (Named(i, t_.column)) hits->push_back(i);
        in_type = true;
        continue;
      }
    }
    switch (k.type) {
      case Tk::kConstraint:
      case Tk::kPrimary:
      case Tk::kNot:
      case Tk::kNull:
      case Tk::kUnique:
      case Tk::kCheck:
      case Tk::kGenerated:
      case Tk::kAs:
      case Tk::kForeign:
        in_type = false;
        continue;
      case Tk::kDefault:
      case Tk::kCollate:
        in_type = false;
        ++i;
        if (Is(i, Tk::kPlus) || Is(i, Tk::kMinus)) ++i;
        if (Is(i, Tk::kLp)) i = SkipGroup(i) - 1;
        continue;
      case Tk::kReferences:
        in_type = false;
        ++i;
        if (Is(i + 1, Tk::kDot)) i += 2;
        if (Is(i + 1, Tk::kLp)) i = SkipGroup(i + 1) - 1;  // ReferenceLists() renames these
        continue;
      default:
        break;
    }
    if (in_type) {
      if (k.type == Tk::kLp) i = SkipGroup(i) - 1;
      continue;
    }
    if (Named(i, t_.column) && ColumnAt(i, true)) {
      hits->push_back(i);
      if (fk_list != nullptr) {
        fk_list->resize(hits->size(), false);
        size_t open = i;
        while (open > 0 && !(Is(open, Tk::kLp) && toks_[open].depth == k.depth - 1)) --open;
        fk_list->back() = open > 0 && Is(open - 1, Tk::kKey) && Is(open - 2, Tk::kForeign);
      }
    }
  }
}

// Views and trigger bodies: each statement (trigger bodies: between
// BEGIN, ';' and END) renames unqualified columns when it uses the table;
// SET targets and INSERT column lists only when their table is the target.
void Scan::BodyColumns(size_t from, std::vector<size_t>* hits) const {
  size_t i = from;
  while (i < toks_.size()) {
    size_t end = i;
    while (end < toks_.size() && !(Is(end, Tk::kSemi) && toks_[end].depth == 0)) ++end;
    if (kind_ == Kind::kView) end = toks_.size();
    bool involved = false;
    for (size_t k = i; k < end; ++k) {
      if (table_pos_[k] != kNone && MeansTarget(k, table_pos_[k])) involved = true;
    }
    bool foreign_target = false;  // the INSERT / UPDATE target is another table
    for (size_t k = i; k < end; ++k) {
      if (table_pos_[k] != kNone && k > 0 &&
          (Is(k - 1, Tk::kInto) || Is(k - 1, Tk::kUpdate) || Is(k - 3, Tk::kUpdate) ||
           (Is(k - 1, Tk::kDot) && (Is(k - 3, Tk::kInto) || Is(k - 3, Tk::kUpdate))))) {
        foreign_target = !MeansTarget(k, table_pos_[k]);
        if (foreign_target && Is(k + 1, Tk::kLp)) {
          k = SkipGroup(k + 1) - 1;  // INSERT INTO other(cols)
          continue;
        }
      }
      if (foreign_target && (Is(k, Tk::kSet) || (Is(k, Tk::kComma) && toks_[k].depth == 0)) &&
          Named(k + 1, t_.column) && Is(k + 2, Tk::kEq)) {
        k += 1;  // SET target of another table
        continue;
      }
      if (Named(k, t_.column) && ColumnAt(k, involved)) hits->push_back(k);
    }
    i = end + 1;
  }
}

std::vector<size_t> Scan::ColumnRefs(std::vector<bool>* fk_list) const {
  std::vector<size_t> hits;
  switch (kind_) {
    case Kind::kTable:
      if (toks_.size() > 2 && table_pos_[2] != kNone && MeansTarget(2, table_pos_[2])) {
        OwnTableColumns(&hits, fk_list);
      }
      ReferenceLists(&hits);
      break;
    case Kind::kIndex:
      if (!on_target_) break;
      for (size_t i = body_; i < toks_.size(); ++i) {
        if (Named(i, t_.column) && ColumnAt(i, true)) hits.push_back(i);
      }
      break;
    case Kind::kView:
      BodyColumns(body_, &hits);
      break;
    case Kind::kTrigger: {
      size_t of = 0;
      while (of < header_on_ && !Is(of, Tk::kOf)) ++of;
      for (size_t i = of + 1; on_target_ && i + 1 < header_on_; ++i) {
        if (Named(i, t_.column)) hits.push_back(i);
      }
      BodyColumns(body_, &hits);
      break;
    }
    case Kind::kOther:
      break;
  }
  if (fk_list != nullptr) fk_list->resize(hits.size(), false);
  return hits;
}

// The token of a CREATE TABLE where a new column goes: the ',' before the
// first table constraint, or the closing parenthesis (SQLite's
// addColOffset). npos if there is none.
size_t ColumnsEnd(const std::vector<Tok>& toks, std::vector<size_t>* starts) {
  size_t i = 0;
  while (i < toks.size() && toks[i].type != Tk::kLp) ++i;
  if (i < toks.size() && starts != nullptr) starts->push_back(i + 1);
  for (++i; i < toks.size(); ++i) {
    const Tok& k = toks[i];
    if (k.depth == 0 && k.type == Tk::kRp) return i;
    if (k.depth != 1 || k.type != Tk::kComma || i + 1 >= toks.size()) continue;
    const Tk next = toks[i + 1].type;
    if (next == Tk::kConstraint || next == Tk::kPrimary || next == Tk::kUnique ||
        next == Tk::kCheck || next == Tk::kForeign) {
      return i;
    }
    if (starts != nullptr) starts->push_back(i + 1);
  }
  return std::string::npos;
}

}  // namespace

bool RenameTable(std::string_view sql, const Target& t, std::string_view new_name,
                 std::string* out) {
  Scan scan(sql, t);
  std::vector<size_t> hits = scan.TableRefs();
  if (hits.empty()) return false;
  *out = Edit(sql, scan.toks(), std::move(hits), new_name, true);
  return true;
}

namespace {

// The column-name token of the reference starting at token s (`c`,
// `t.c` or `schema.t.c`).
size_t ColumnToken(const std::vector<Tok>& toks, size_t s) {
  auto dot = [&](size_t i) { return i < toks.size() && toks[i].type == Tk::kDot; };
  if (dot(s + 1)) s += dot(s + 3) ? 4 : 2;
  return s;
}

// Settles the expression references among `hits` by what the resolver
// bound: drops those bound to another column and the double-quoted names
// read as strings, adds those bound to the target that the token scan
// missed.
void ApplyResolution(const std::vector<Tok>& toks, const Resolution& res,
                     std::vector<size_t>* hits) {
  std::vector<size_t> gone = res.other_refs;
  gone.insert(gone.end(), res.dq_strings.begin(), res.dq_strings.end());
  for (size_t off : gone) {
    size_t s = TokenAt(toks, off);
    if (s == std::string::npos) continue;
    size_t c = ColumnToken(toks, s);
    hits->erase(std::remove(hits->begin(), hits->end(), c), hits->end());
  }
  for (size_t off : res.target_refs) {
    size_t s = TokenAt(toks, off);
    if (s == std::string::npos) continue;
    size_t c = ColumnToken(toks, s);
    if (c < toks.size() && std::find(hits->begin(), hits->end(), c) == hits->end()) {
      hits->push_back(c);
    }
  }
  std::sort(hits->begin(), hits->end());
}

std::vector<size_t> StringTokens(const std::vector<Tok>& toks, const std::vector<size_t>& offsets) {
  std::vector<size_t> out;
  for (size_t off : offsets) {
    size_t i = TokenAt(toks, off);
    if (i != std::string::npos) out.push_back(i);
  }
  return out;
}

}  // namespace

bool RenameColumn(std::string_view sql, const Target& t, std::string_view new_name, bool quoted,
                  const Resolution* res, std::string* out) {
  Scan scan(sql, t);
  std::vector<size_t> hits = scan.ColumnRefs(nullptr);
  std::vector<size_t> strings;
  if (res != nullptr) {
    ApplyResolution(scan.toks(), *res, &hits);
    strings = StringTokens(scan.toks(), res->dq_strings);
  }
  if (hits.empty() && strings.empty()) return false;
  *out = Edit(sql, scan.toks(), std::move(hits), new_name, quoted, std::move(strings));
  return true;
}

bool QuoteStrings(std::string_view sql, const std::vector<size_t>& offsets, std::string* out) {
  std::vector<Tok> toks = Tokenize(sql);
  std::vector<size_t> strings = StringTokens(toks, offsets);
  if (strings.empty()) return false;
  *out = Edit(sql, toks, {}, "", false, std::move(strings));
  return true;
}

bool RefersToColumn(std::string_view sql, const Target& t, const Resolution* res,
                    std::string* what) {
  Scan scan(sql, t);
  std::vector<bool> fk;
  std::vector<size_t> hits = scan.ColumnRefs(&fk);
  const std::vector<Tok>& toks = scan.toks();
  if (res != nullptr) {
    // (Views and triggers have no FOREIGN KEY lists.)
    ApplyResolution(toks, *res, &hits);
    fk.assign(hits.size(), false);
  }
  for (size_t h = 0; h < hits.size(); ++h) {
    const Tok& k = toks[hits[h]];
    if (fk[h]) {
      *what = "unknown column \"" + k.name + "\" in foreign key definition";
      return true;
    }
    const bool qualified = hits[h] >= 2 && toks[hits[h] - 1].type == Tk::kDot;
    // In a view or trigger an unqualified "name" that names no column is
    // a string (SQLite's double-quoted string fallback).
    if (res == nullptr && !qualified && sql[k.off] == '"' &&
        (scan.kind() == Kind::kView || scan.kind() == Kind::kTrigger)) {
      continue;
    }
    *what =
        "no such column: " + (qualified ? toks[hits[h] - 2].name + "." : std::string()) + k.name;
    return true;
  }
  return false;
}

bool AddColumn(std::string_view sql, std::string_view column_text, std::string* out) {
  std::vector<Tok> toks = Tokenize(sql);
  size_t end = ColumnsEnd(toks, nullptr);
  if (end == std::string::npos) return false;
  const size_t at = toks[end].off;
  *out = std::string(sql.substr(0, at)) + ", " + std::string(column_text) +
         std::string(sql.substr(at));
  return true;
}

bool DropColumn(std::string_view sql, int col, std::string* out) {
  std::vector<Tok> toks = Tokenize(sql);
  std::vector<size_t> starts;
  size_t end = ColumnsEnd(toks, &starts);
  if (end == std::string::npos || col < 0 || static_cast<size_t>(col) >= starts.size()) {
    return false;
  }
  const size_t c = static_cast<size_t>(col);
  size_t from = toks[starts[c]].off;
  size_t to = 0;
  if (c + 1 < starts.size()) {
    to = toks[starts[c + 1]].off;
  } else {
    to = toks[end].off;
    from = toks[starts[c] - 1].off;  // the ',' before the last column
  }
  *out = std::string(sql.substr(0, from)) + std::string(sql.substr(to));
  return true;
}

}  // namespace basalt::alter
