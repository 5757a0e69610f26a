#include "catalog/schema.h"

#include <algorithm>

#include "common/assert.h"

namespace basalt {

namespace {
// The key the system table is kept under, whatever it is called.
constexpr const char* kSystemKey = " system";
}  // namespace

int Table::FindColumn(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    const std::string& c = columns[i].name;
    if (c.size() != name.size()) continue;
    bool eq = true;
    for (size_t k = 0; k < c.size() && eq; ++k) {
      char a = c[k], b = name[k];
      if (a >= 'A' && a <= 'Z') a = static_cast<char>(a + 32);
      if (b >= 'A' && b <= 'Z') b = static_cast<char>(b + 32);
      eq = a == b;
    }
    if (eq) return static_cast<int>(i);
  }
  return -1;
}

std::vector<const Index*> Table::IndexesInCreationOrder() const {
  std::vector<const Index*> out(indexes.begin(), indexes.end());
  if (!pk_index) return out;
  // sqlite_autoindex_<table>_<n>: n - 1 automatic indexes came before it.
  const std::string& name = pk_index->name;
  size_t pos = 0;
  size_t us = name.rfind('_');
  if (us != std::string::npos) {
    for (size_t i = us + 1; i < name.size(); ++i) {
      pos = pos * 10 + static_cast<size_t>(name[i] - '0');
    }
  }
  pos = pos > 0 ? pos - 1 : 0;
  if (pos > out.size()) pos = out.size();
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos), pk_index.get());
  return out;
}

void Index::BuildKeyInfo() {
  const size_t n = columns.size();
  if (!without_rowid()) {
    // The key is the indexed columns followed by the rowid.
    collations.resize(n + 1, nullptr);
    desc.resize(n + 1, 0);
    collations[n] = nullptr;
    desc[n] = 0;
  } else if (!is_table_store()) {
    // The key columns, then the primary-key columns the key lacks (a key
    // column with the same collation stands for its primary-key column).
    const Index* pk = table->pk_index.get();
    collations.resize(n);
    desc.resize(n);
    suffix.clear();
    pk_fields.clear();
    for (size_t j = 0; j < pk->columns.size(); ++j) {
      int field = -1;
      for (size_t k = 0; k < n && field < 0; ++k) {
        if (columns[k] == pk->columns[j] && collations[k] == pk->collations[j]) {
          field = static_cast<int>(k);
        }
      }
      if (field < 0) {
        field = static_cast<int>(n + suffix.size());
        suffix.push_back(pk->columns[j]);
        collations.push_back(pk->collations[j]);
        desc.push_back(pk->desc[j]);
      }
      pk_fields.push_back(field);
    }
  } else {
    // The table's own records: collations and desc are given for the key
    // columns and the suffix (schema_build.cc).
    BASALT_DCHECK(collations.size() == n + suffix.size());
    pk_fields.clear();
    for (size_t j = 0; j < n; ++j) pk_fields.push_back(static_cast<int>(j));
  }
  key_info.n_fields = static_cast<int>(collations.size());
  key_info.colls = collations.data();
  key_info.desc = desc.data();
}

Schema::Schema(bool temp) : temp_(temp) {
  auto t = std::make_unique<Table>();
  t->name = temp ? "sqlite_temp_master" : "sqlite_master";
  t->owner = this;
  t->root = 1;
  const char* names[] = {"type", "name", "tbl_name", "rootpage", "sql"};
  // Declared types as SQLite records them (known type names upper-cased).
  const char* types[] = {"TEXT", "TEXT", "TEXT", "INT", "TEXT"};
  for (int i = 0; i < 5; ++i) {
    Column c;
    c.name = names[i];
    c.decl_type = types[i];
    c.affinity = AffinityFromDeclType(c.decl_type);
    t->columns.push_back(std::move(c));
  }
  t->sql = std::string("CREATE TABLE ") + t->name +
           "(type text,name text,tbl_name text,rootpage int,sql text)";
  schema_table_ = t.get();
  table_order_.Insert(t->name, t.get());
  tables_.emplace(kSystemKey, std::move(t));
}

std::vector<const Table*> Schema::TablesInSqliteOrder() const {
  std::vector<const Table*> out;
  for (const void* v : table_order_.Values()) out.push_back(static_cast<const Table*>(v));
  return out;
}

Table* Schema::FindTable(std::string_view name) const {
  std::string key = LowerAscii(name);
  if (IsSystemTableName(key, temp_)) key = kSystemKey;
  auto it = tables_.find(key);
  return it == tables_.end() ? nullptr : it->second.get();
}

bool Schema::IsSystemTableName(std::string_view lower, bool temp) {
  if (temp) return lower == "sqlite_temp_master" || lower == "sqlite_temp_schema";
  return lower == "sqlite_master" || lower == "sqlite_schema";
}

Index* Schema::FindIndex(std::string_view name) const {
  auto it = indexes_.find(LowerAscii(name));
  if (it != indexes_.end()) return it->second.get();
  // The primary-key index of a WITHOUT ROWID table has no sqlite_schema row
  // and is kept by its table.
  if (name.size() > 17 && EqualsIgnoreCase(name.substr(0, 17), "sqlite_autoindex_")) {
    for (const auto& [k, t] : tables_) {
      if (t->pk_index && EqualsIgnoreCase(t->pk_index->name, name)) return t->pk_index.get();
    }
  }
  return nullptr;
}

Trigger* Schema::FindTrigger(std::string_view name) const {
  auto it = triggers_.find(LowerAscii(name));
  return it == triggers_.end() ? nullptr : it->second.get();
}

Table* Schema::AddTable(std::unique_ptr<Table> t) {
  Table* raw = t.get();
  raw->owner = this;
  table_order_.Insert(raw->name, raw);
  tables_[LowerAscii(t->name)] = std::move(t);
  // Triggers may have been loaded before their table.
  for (auto& [k, trig] : triggers_) {
    if (trig->table_db.empty() && LowerAscii(trig->table_name) == LowerAscii(raw->name)) {
      raw->triggers.push_back(trig.get());
    }
  }
  Touch();
  return raw;
}

Index* Schema::AddIndex(std::unique_ptr<Index> i) {
  Index* raw = i.get();
  indexes_[LowerAscii(i->name)] = std::move(i);
  if (raw->table) raw->table->indexes.push_back(raw);
  Touch();
  return raw;
}

Trigger* Schema::AddTrigger(std::unique_ptr<Trigger> t) {
  Trigger* raw = t.get();
  raw->owner = this;
  triggers_[LowerAscii(t->name)] = std::move(t);
  if (raw->table_db.empty()) {
    if (Table* tab = FindTable(raw->table_name)) tab->triggers.push_back(raw);
  }
  Touch();
  return raw;
}

size_t Schema::HeapBytes() const {
  size_t n = sizeof(Schema);
  for (const auto& [name, t] : tables_) {
    n += sizeof(Table) + name.size() + t->sql.size() + t->columns.size() * sizeof(Column);
    for (const Column& c : t->columns) n += c.name.size();
  }
  for (const auto& [name, i] : indexes_) n += sizeof(Index) + name.size() + i->sql.size();
  for (const auto& [name, g] : triggers_) n += sizeof(Trigger) + name.size() + g->sql.size();
  return n;
}

void Schema::RemoveIndex(std::string_view name) {
  auto it = indexes_.find(LowerAscii(name));
  if (it == indexes_.end()) return;
  Index* idx = it->second.get();
  if (idx->table) {
    auto& v = idx->table->indexes;
    v.erase(std::remove(v.begin(), v.end(), idx), v.end());
  }
  indexes_.erase(it);
  Touch();
}

void Schema::RemoveTrigger(std::string_view name) {
  auto it = triggers_.find(LowerAscii(name));
  if (it == triggers_.end()) return;
  Trigger* trig = it->second.get();
  if (Table* tab = FindTable(trig->table_name)) {
    auto& v = tab->triggers;
    v.erase(std::remove(v.begin(), v.end(), trig), v.end());
  }
  triggers_.erase(it);
  Touch();
}

void Schema::RemoveTable(std::string_view name) {
  auto it = tables_.find(LowerAscii(name));
  if (it == tables_.end()) return;
  Table* tab = it->second.get();
  std::vector<std::string> idx_names, trig_names;
  for (Index* i : tab->indexes) idx_names.push_back(i->name);
  for (Trigger* t : tab->triggers) trig_names.push_back(t->name);
  for (auto& n : idx_names) RemoveIndex(n);
  for (auto& n : trig_names) RemoveTrigger(n);
  table_order_.Remove(tab->name);
  tables_.erase(it);
  Touch();
}

void Schema::Clear() {
  std::vector<std::string> names;
  for (auto& [k, t] : tables_) {
    if (t.get() != schema_table_) names.push_back(k);
  }
  for (auto& n : names) RemoveTable(n);
  // A reload starts SQLite's hash afresh, with the schema table first.
  table_order_.Clear();
  table_order_.Insert(schema_table_->name, schema_table_);
  triggers_.clear();
  indexes_.clear();
  Touch();
}

}  // namespace basalt
