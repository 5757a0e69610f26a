#include "catalog/catalog.h"

#include "common/assert.h"
#include "record/collation.h"

namespace basalt {

int Catalog::Find(std::string_view name) const {
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (EqualsIgnoreCase(spaces_[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

void Catalog::Add(std::string name, Schema* schema) {
  BASALT_DCHECK(schema != nullptr);
  // main and temp come first, in that order.
  BASALT_DCHECK(spaces_.size() != kTemp || schema->is_temp());
  schema->db_index = static_cast<int>(spaces_.size());
  spaces_.push_back({std::move(name), schema});
}

void Catalog::Remove(int i) {
  BASALT_DCHECK(i > kTemp && i < size());
  spaces_.erase(spaces_.begin() + i);
  for (size_t k = static_cast<size_t>(i); k < spaces_.size(); ++k) {
    spaces_[k].schema->db_index = static_cast<int>(k);
  }
}

template <typename F>
auto Catalog::Search(int fixed, F&& find) const -> decltype(find(static_cast<Schema*>(nullptr))) {
  if (fixed >= 0) return find(schema(fixed));
  // TEMP first, then main, then the attached databases.
  for (int k = 0; k < size(); ++k) {
    int i = k < 2 ? (k ^ 1) : k;
    if (auto* found = find(schema(i))) return found;
  }
  return nullptr;
}

Table* Catalog::FindTable(std::string_view db, std::string_view name, int fixed) const {
  if (!db.empty()) {
    int i = Find(db);
    if (i < 0) return nullptr;
    Schema* s = schema(i);
    Table* t = s->FindTable(name);
    // temp.sqlite_master and temp.sqlite_schema name TEMP's system table.
    if (t == nullptr && i == kTemp && Schema::IsSystemTableName(LowerAscii(name), false)) {
      t = s->schema_table();
    }
    return t;
  }
  return Search(fixed, [&](Schema* s) { return s->FindTable(name); });
}

Index* Catalog::FindIndex(std::string_view db, std::string_view name, int fixed) const {
  if (!db.empty()) {
    int i = Find(db);
    return i < 0 ? nullptr : schema(i)->FindIndex(name);
  }
  return Search(fixed, [&](Schema* s) { return s->FindIndex(name); });
}

Trigger* Catalog::FindTrigger(std::string_view db, std::string_view name) const {
  if (!db.empty()) {
    int i = Find(db);
    return i < 0 ? nullptr : schema(i)->FindTrigger(name);
  }
  return Search(-1, [&](Schema* s) { return s->FindTrigger(name); });
}

void Catalog::TriggersOn(const Table* t, std::vector<const Trigger*>* out) const {
  out->assign(t->triggers.begin(), t->triggers.end());
  if (size() <= kTemp || t->owner == nullptr || t->owner->is_temp()) return;
  Schema* temp = schema(kTemp);
  for (const auto& [key, trig] : temp->triggers()) {
    if (!EqualsIgnoreCase(trig->table_name, t->name)) continue;
    bool targets_t;
    if (!trig->table_db.empty()) {
      targets_t = Find(trig->table_db) == t->owner->db_index;
    } else {
      // Unqualified and not a TEMP table: whatever the search order finds.
      targets_t = temp->FindTable(t->name) == nullptr && FindTable("", t->name) == t;
    }
    if (targets_t) out->push_back(trig.get());
  }
}

}  // namespace basalt
