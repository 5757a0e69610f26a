#include "main/schema_build.h"

#include <algorithm>

#include "parser/parser.h"
#include "record/affinity.h"
#include "record/collation.h"
#include "record/collation_set.h"

namespace basalt {

namespace {

OnConflict Conflict(ast::ConflictAction a) { return static_cast<OnConflict>(static_cast<int>(a)); }

bool IsIntegerType(std::string_view t) { return EqualsIgnoreCase(t, "INTEGER"); }

struct KeySpec {
  bool primary = false;
  std::vector<int> cols;
  std::vector<std::string> colls;
  std::vector<uint8_t> desc;
  OnConflict conflict = OnConflict::kDefault;
};

// Column number and collation of an indexed-column expression (kColumn,
// optionally wrapped in COLLATE).
Status IndexedColumn(const Table& t, const ast::ExprItem& item, int* col, std::string* coll) {
  const ast::Expr* e = item.expr;
  coll->clear();
  if (e->kind == ast::ExprKind::kCollate) {
    *coll = std::string(e->text);
    e = e->left;
  }
  if (e->kind != ast::ExprKind::kColumn && e->kind != ast::ExprKind::kString) {
    return Status(kError, "expressions prohibited in PRIMARY KEY and UNIQUE constraints");
  }
  *col = t.FindColumn(e->text);
  if (*col < 0) return Status(kError, "no such column: " + std::string(e->text));
  return Status();
}

// A FOREIGN KEY clause (from: its child columns, or null for a REFERENCES
// column constraint on column from_col), with SQLite's CREATE TABLE errors.
Status AddForeignKey(Table* t, const ast::IdList* from, int from_col, const ast::ForeignKey* fk) {
  ForeignKeyDef def;
  def.parent_table = std::string(fk->table);
  if (fk->columns != nullptr) {
    for (std::string_view c : fk->columns->names) def.parent_columns.emplace_back(c);
  }
  if (from == nullptr) {
    if (def.parent_columns.size() > 1) {
      return Status(kError, "foreign key on " + t->columns[static_cast<size_t>(from_col)].name +
                                " should reference only one column of table " + def.parent_table);
    }
    def.from_columns.push_back(from_col);
  } else {
    if (!def.parent_columns.empty() && def.parent_columns.size() != from->size()) {
      return Status(kError,
                    "number of columns in foreign key does not match the number of columns in "
                    "the referenced table");
    }
    for (std::string_view c : from->names) {
      const int col = t->FindColumn(c);
      if (col < 0) {
        return Status(kError,
                      "unknown column \"" + std::string(c) + "\" in foreign key definition");
      }
      def.from_columns.push_back(col);
    }
  }
  def.on_delete = fk->on_delete;
  def.on_update = fk->on_update;
  def.deferred = fk->deferrable == 1;
  t->foreign_keys.push_back(std::move(def));
  return Status();
}

Status MorePrimaryKeys(const Table& t) {
  return Status(kError, "table \"" + t.name + "\" has more than one primary key");
}

// Builds a Table from CREATE TABLE, one clause at a time.
class TableBuilder {
 public:
  explicit TableBuilder(std::unique_ptr<Table> t) : t_(std::move(t)) {}

  Status AddColumn(const ast::ColumnDef* cd) {
    if (t_->FindColumn(cd->name) >= 0) {
      return Status(kError, "duplicate column name: " + std::string(cd->name));
    }
    Column c;
    c.name = std::string(cd->name);
    c.decl_type = std::string(cd->type);
    c.affinity = AffinityFromDeclType(c.decl_type);
    int idx = static_cast<int>(t_->columns.size());
    t_->columns.push_back(c);
    for (const ast::ColumnConstraint* cc : cd->constraints) TRY(AddColumnConstraint(idx, cc));
    return Status();
  }

  Status AddTableConstraint(const ast::TableConstraint* tc) {
    switch (tc->kind) {
      case ast::ConstraintKind::kPrimaryKey:
      case ast::ConstraintKind::kUnique: {
        KeySpec k;
        k.primary = tc->kind == ast::ConstraintKind::kPrimaryKey;
        for (size_t i = 0; i < tc->columns->size(); ++i) {
          int c = -1;
          std::string coll;
          TRY(IndexedColumn(*t_, tc->columns->items[i], &c, &coll));
          k.cols.push_back(c);
          k.colls.push_back(coll);
          k.desc.push_back(tc->columns->items[i].order == ast::SortOrder::kDesc);
        }
        k.conflict = Conflict(tc->on_conflict);
        if (k.primary) {
          if (pk_spec_ >= 0) return MorePrimaryKeys(*t_);
          pk_spec_ = static_cast<int>(keys_.size());
          pk_autoinc_ = tc->autoincrement;
        }
        keys_.push_back(k);
        return Status();
      }
      case ast::ConstraintKind::kCheck:
        t_->checks.push_back({std::string(tc->name), std::string(tc->check->span)});
        return Status();
      case ast::ConstraintKind::kReferences:
        return AddForeignKey(t_.get(), tc->fk_columns, -1, tc->fk);
      default:
        return Status();
    }
  }

  // Finishes the table: the rowid alias or primary-key index, and the
  // automatic indexes of PRIMARY KEY and UNIQUE.
  Status Finish(BuiltTable* out) {
    if (t_->strict) TRY(ApplyStrictTypes(t_.get()));
    TRY(CheckGeneratedColumns(*t_));
    if (t_->without_rowid) {
      if (pk_spec_ < 0) return Status(kError, "PRIMARY KEY missing on table " + t_->name);
      if (pk_autoinc_) {
        return Status(kError, IntegerKey()
                                  ? "AUTOINCREMENT not allowed on WITHOUT ROWID tables"
                                  : "AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY");
      }
      for (int c : keys_[static_cast<size_t>(pk_spec_)].cols) {
        Column& col = t_->columns[static_cast<size_t>(c)];
        if (col.is_generated()) {
          return Status(kError, "generated columns cannot be part of the PRIMARY KEY");
        }
        col.primary_key = true;
        col.not_null = true;  // implicit NOT NULL (its ON CONFLICT stays if declared)
      }
    } else {
      TRY(ResolvePrimaryKey());
    }
    TRY(MakeAutoIndexes(out));
    out->table = std::move(t_);
    return Status();
  }

 private:
  Status AddColumnConstraint(int idx, const ast::ColumnConstraint* cc) {
    Column& col = t_->columns[static_cast<size_t>(idx)];
    switch (cc->kind) {
      case ast::ConstraintKind::kPrimaryKey: {
        if (pk_spec_ >= 0) return MorePrimaryKeys(*t_);
        KeySpec k;
        k.primary = true;
        k.cols.push_back(idx);
        k.colls.push_back(std::string());
        k.desc.push_back(cc->order == ast::SortOrder::kDesc);
        k.conflict = Conflict(cc->on_conflict);
        pk_spec_ = static_cast<int>(keys_.size());
        keys_.push_back(k);
        pk_autoinc_ = cc->autoincrement;
        pk_col_order_ = cc->order;
        pk_from_column_ = true;
        return Status();
      }
      case ast::ConstraintKind::kNotNull:
        col.not_null = true;
        col.not_null_conflict = Conflict(cc->on_conflict);
        return Status();
      case ast::ConstraintKind::kUnique: {
        KeySpec k;
        k.cols.push_back(idx);
        k.colls.push_back(std::string());
        k.desc.push_back(0);
        k.conflict = Conflict(cc->on_conflict);
        keys_.push_back(k);
        return Status();
      }
      case ast::ConstraintKind::kCheck:
        t_->checks.push_back({std::string(cc->name), std::string(cc->expr->span)});
        return Status();
      case ast::ConstraintKind::kDefault:
        col.default_sql = std::string(cc->expr->span);
        if (col.default_sql.empty()) col.default_sql = "NULL";
        t_->has_defaults = true;
        return Status();
      case ast::ConstraintKind::kCollate:
        if (FindCollation(cc->collation) == nullptr) {
          return Status(kError, "no such collation sequence: " + std::string(cc->collation));
        }
        col.collation = std::string(cc->collation);
        return Status();
      case ast::ConstraintKind::kReferences:
        return AddForeignKey(t_.get(), nullptr, idx, cc->fk);
      case ast::ConstraintKind::kGenerated:
        col.generated_sql = std::string(cc->expr->span);
        col.generated_stored = cc->stored;
        t_->has_generated = true;
        if (!cc->stored) ++t_->n_virtual;
        return Status();
      default:
        return Status();
    }
  }

  // Whether the PRIMARY KEY is one INTEGER column (not declared DESC on
  // the column): in a rowid table an alias for the rowid.
  bool IntegerKey() const {
    const KeySpec& pk = keys_[static_cast<size_t>(pk_spec_)];
    return pk.cols.size() == 1 &&
           IsIntegerType(t_->columns[static_cast<size_t>(pk.cols[0])].decl_type) &&
           !(pk_from_column_ && pk_col_order_ == ast::SortOrder::kDesc);
  }

  // INTEGER PRIMARY KEY: an alias for the rowid rather than an index.
  Status ResolvePrimaryKey() {
    if (pk_spec_ < 0) return Status();
    KeySpec& pk = keys_[static_cast<size_t>(pk_spec_)];
    for (int c : pk.cols) {
      Column& col = t_->columns[static_cast<size_t>(c)];
      if (col.is_generated()) {
        return Status(kError, "generated columns cannot be part of the PRIMARY KEY");
      }
      col.primary_key = true;
    }
    if (IntegerKey()) {
      t_->rowid_alias = pk.cols[0];
      t_->pk_conflict = pk.conflict;
      t_->autoincrement = pk_autoinc_;
      keys_.erase(keys_.begin() + pk_spec_);
      pk_spec_ = -1;  // no index: the rowid is the key
    } else if (pk_autoinc_) {
      return Status(kError, "AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY");
    } else if (t_->strict) {
      // A STRICT table's PRIMARY KEY columns (other than the rowid alias)
      // are NOT NULL.
      for (int c : pk.cols) {
        Column& col = t_->columns[static_cast<size_t>(c)];
        if (!col.not_null) col.not_null = true;
      }
    }
    return Status();
  }

  // One index per key, skipping a key that repeats an earlier one (a
  // PRIMARY KEY repeating an earlier UNIQUE shares its index). For a
  // WITHOUT ROWID table the primary key's index is the table's own B-tree
  // (Table::pk_index), built first: the other indexes end with its columns.
  Status MakeAutoIndexes(BuiltTable* out) {
    std::vector<int> number(keys_.size(), 0);  // sqlite_autoindex number, 0 for a repeat
    std::vector<int> rep(keys_.size(), -1);    // the key whose index serves it
    int n = 0;
    auto assign = [&](size_t i) {
      for (size_t j = 0; j < keys_.size(); ++j) {
        if (number[j] > 0 && keys_[j].cols == keys_[i].cols && keys_[j].colls == keys_[i].colls) {
          rep[i] = static_cast<int>(j);
          return;
        }
      }
      number[i] = ++n;
      rep[i] = static_cast<int>(i);
    };
    // A WITHOUT ROWID table's key that would be an INTEGER PRIMARY KEY of a
    // rowid table gets its index last (SQLite makes it when the table is
    // complete, not where the key is declared).
    const bool pk_last = t_->without_rowid && IntegerKey();
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (!(pk_last && static_cast<int>(i) == pk_spec_)) assign(i);
    }
    if (pk_last) assign(static_cast<size_t>(pk_spec_));
    const int pk_rep = pk_spec_ >= 0 ? rep[static_cast<size_t>(pk_spec_)] : -1;
    if (t_->without_rowid) TRY(MakePrimaryKeyIndex(pk_rep, number[static_cast<size_t>(pk_rep)]));
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (number[i] == 0 || (t_->without_rowid && static_cast<int>(i) == pk_rep)) continue;
      std::unique_ptr<Index> idx;
      TRY(MakeKeyIndex(keys_[i], number[i], &idx));
      idx->BuildKeyInfo();
      out->auto_indexes.push_back(std::move(idx));
    }
    return Status();
  }

  // The index of one PRIMARY KEY or UNIQUE key (its key_info not built).
  Status MakeKeyIndex(const KeySpec& key, int number, std::unique_ptr<Index>* out) {
    auto idx = std::make_unique<Index>();
    idx->name = "sqlite_autoindex_" + t_->name + "_" + std::to_string(number);
    idx->table = t_.get();
    for (size_t k = 0; k < key.cols.size(); ++k) {
      std::string coll = key.colls[k];
      if (coll.empty()) coll = t_->columns[static_cast<size_t>(key.cols[k])].collation;
      const Collation* c = coll.empty() ? nullptr : FindCollation(coll);
      if (!coll.empty() && c == nullptr) {
        return Status(kError, "no such collation sequence: " + coll);
      }
      idx->columns.push_back(key.cols[k]);
      idx->collations.push_back(c);
      idx->collation_names.push_back(coll);
      idx->desc.push_back(key.desc[k]);
    }
    idx->unique = true;
    idx->on_conflict = key.conflict;
    idx->origin = key.primary ? 'p' : 'u';
    *out = std::move(idx);
    return Status();
  }

  // WITHOUT ROWID: the primary-key index holds the rows. A column repeated
  // in the key with the same collation counts once; the other columns
  // follow the key in table order. When a UNIQUE key (rep) repeats the
  // primary key its index, column order and all, is the one kept.
  Status MakePrimaryKeyIndex(int rep, int number) {
    const KeySpec& pk = keys_[static_cast<size_t>(pk_spec_)];
    std::unique_ptr<Index> idx;
    TRY(MakeKeyIndex(keys_[static_cast<size_t>(rep)], number, &idx));
    idx->origin = 'p';
    if (idx->on_conflict == OnConflict::kDefault) idx->on_conflict = pk.conflict;
    for (size_t k = 0; k < idx->columns.size();) {
      bool dup = false;
      for (size_t j = 0; j < k && !dup; ++j) {
        dup = idx->columns[j] == idx->columns[k] && idx->collations[j] == idx->collations[k];
      }
      if (dup) {
        idx->columns.erase(idx->columns.begin() + static_cast<std::ptrdiff_t>(k));
        idx->collations.erase(idx->collations.begin() + static_cast<std::ptrdiff_t>(k));
        idx->collation_names.erase(idx->collation_names.begin() + static_cast<std::ptrdiff_t>(k));
        idx->desc.erase(idx->desc.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
    const size_t ncol = t_->columns.size();
    t_->storage_field.assign(ncol, -1);
    for (size_t k = idx->columns.size(); k-- > 0;) {
      t_->storage_field[static_cast<size_t>(idx->columns[k])] = static_cast<int>(k);
    }
    for (size_t c = 0; c < ncol; ++c) {
      if (t_->storage_field[c] >= 0) continue;
      if (t_->columns[c].is_virtual()) continue;  // not stored: no field
      t_->storage_field[c] = static_cast<int>(idx->columns.size() + idx->suffix.size());
      idx->suffix.push_back(static_cast<int>(c));
      const std::string& coll = t_->columns[c].collation;
      idx->collations.push_back(coll.empty() ? nullptr : FindCollation(coll));
      idx->collation_names.push_back("BINARY");  // not a key column: shown as BINARY
      idx->desc.push_back(0);
    }
    t_->pk_conflict = idx->on_conflict;
    t_->pk_index = std::move(idx);
    t_->pk_index->BuildKeyInfo();
    return Status();
  }

  std::unique_ptr<Table> t_;
  std::vector<KeySpec> keys_;
  int pk_spec_ = -1;  // index in keys_ of the PRIMARY KEY
  bool pk_autoinc_ = false;
  ast::SortOrder pk_col_order_ = ast::SortOrder::kUnspecified;
  bool pk_from_column_ = false;  // a column constraint, not a table one
};

}  // namespace

Status BuildTable(const ast::CreateTableStmt* st, std::string sql, BuiltTable* out) {
  auto t = std::make_unique<Table>();
  t->name = std::string(st->name);
  t->sql = std::move(sql);
  t->strict = st->strict;
  t->without_rowid = st->without_rowid;
  TableBuilder b(std::move(t));
  for (const ast::ColumnDef* cd : st->columns) TRY(b.AddColumn(cd));
  for (const ast::TableConstraint* tc : st->constraints) TRY(b.AddTableConstraint(tc));
  return b.Finish(out);
}

Status BuildIndex(const ast::CreateIndexStmt* st, Table* table, std::string sql,
                  std::unique_ptr<Index>* out, std::string_view* bad_column) {
  auto idx = std::make_unique<Index>();
  idx->name = std::string(st->name);
  idx->sql = std::move(sql);
  idx->table = table;
  idx->unique = st->unique;
  idx->origin = 'c';
  for (size_t i = 0; i < st->columns->size(); ++i) {
    const ast::ExprItem& item = st->columns->items[i];
    const ast::Expr* e = item.expr;
    std::string coll;
    if (e->kind == ast::ExprKind::kCollate) {
      coll = std::string(e->text);
      e = e->left;
    }
    int col;
    const bool truth = e->kind == ast::ExprKind::kColumn && e->table.empty() &&
                       table->FindColumn(e->text) < 0 &&
                       (EqualsIgnoreCase(e->text, "true") || EqualsIgnoreCase(e->text, "false"));
    if (truth) {
      // TRUE / FALSE name no column: the constant, an expression column.
      col = kExprColumn;
      idx->column_exprs.emplace_back(e->span);
    } else if (e->kind == ast::ExprKind::kColumn && e->table.empty()) {
      col = table->FindColumn(e->text);
      if (col < 0) {
        if (bad_column) *bad_column = e->span;
        return Status(kError, "no such column: " + std::string(e->text));
      }
      idx->column_exprs.emplace_back();
      if (coll.empty()) coll = table->columns[static_cast<size_t>(col)].collation;
    } else if (e->kind == ast::ExprKind::kString) {
      // A string literal there names a column (SQLite's old compatibility).
      col = table->FindColumn(e->text);
      if (col < 0) {
        if (bad_column) *bad_column = e->span;
        return Status(kError, "no such column: " + std::string(e->text));
      }
      idx->column_exprs.emplace_back();
      if (coll.empty()) coll = table->columns[static_cast<size_t>(col)].collation;
    } else {
      col = kExprColumn;
      idx->column_exprs.emplace_back(e->span);
    }
    const Collation* c = coll.empty() ? nullptr : FindCollation(coll);
    if (!coll.empty() && c == nullptr) return Status(kError, "no such collation sequence: " + coll);
    idx->columns.push_back(col);
    idx->collations.push_back(c);
    idx->collation_names.push_back(coll);
    idx->desc.push_back(item.order == ast::SortOrder::kDesc);
  }
  if (st->where) idx->where_sql = std::string(st->where->span);
  idx->BuildKeyInfo();
  *out = std::move(idx);
  return Status();
}

std::unique_ptr<Table> BuildView(const ast::CreateViewStmt* st, std::string sql) {
  auto t = std::make_unique<Table>();
  t->name = std::string(st->name);
  t->sql = std::move(sql);
  t->is_view = true;
  t->view_sql = std::string(st->select->span);
  if (st->columns) {
    for (size_t i = 0; i < st->columns->size(); ++i) {
      t->view_columns.emplace_back(st->columns->names[i]);
    }
  }
  return t;
}

std::unique_ptr<Trigger> BuildTrigger(const ast::CreateTriggerStmt* st, std::string sql,
                                      bool temp) {
  auto t = std::make_unique<Trigger>();
  t->name = std::string(st->name);
  t->table_name = std::string(st->table);
  // Only a TEMP trigger's table may live in another database.
  if (temp && !EqualsIgnoreCase(st->table_schema, "temp")) {
    t->table_db = std::string(st->table_schema);
  }
  t->sql = std::move(sql);
  t->time = static_cast<uint8_t>(st->time);
  t->event = static_cast<uint8_t>(st->event);
  if (st->update_columns) {
    for (size_t i = 0; i < st->update_columns->size(); ++i) {
      t->update_columns.emplace_back(st->update_columns->names[i]);
    }
  }
  return t;
}

}  // namespace basalt
