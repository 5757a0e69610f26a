// The schema spaces of one connection as the compiler sees them: the main
// database (index 0), the TEMP database (index 1) and attached databases
// (2.., in ATTACH order), each with its name and Schema.
//
// Name resolution follows SQLite (lang_naming):
//   1. A qualified name `db.obj` looks only in database `db` ("main",
//      "temp" or an ATTACH alias, case-insensitive).
//   2. An unqualified name looks in TEMP, then main, then each attached
//      database in order; the first match wins.
//   3. Inside a view or trigger of a non-TEMP database, unqualified names
//      bind to that database only (the caller passes it as `fixed`).
// The Catalog owns no Schema; the connection keeps the databases alive
// and calls Add/Remove as it attaches and detaches them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"

namespace basalt {

class Catalog {
 public:
  static constexpr int kMain = 0;
  static constexpr int kTemp = 1;

  int size() const { return static_cast<int>(spaces_.size()); }
  Schema* schema(int i) const { return spaces_[static_cast<size_t>(i)].schema; }
  const std::string& name(int i) const { return spaces_[static_cast<size_t>(i)].name; }
  // Index of the database called `name`, or -1.
  int Find(std::string_view name) const;

  // Appends a database; its Schema's db_index becomes its position.
  void Add(std::string name, Schema* schema);
  // Removes database i (>= 2); later databases move down one place.
  void Remove(int i);

  // Tables and views. `db` empty: the search order above, or only `fixed`
  // when fixed >= 0. A `db` that names no database finds nothing.
  Table* FindTable(std::string_view db, std::string_view name, int fixed = -1) const;
  Index* FindIndex(std::string_view db, std::string_view name, int fixed = -1) const;
  Trigger* FindTrigger(std::string_view db, std::string_view name) const;

  // The triggers that fire on table t: those of its own schema linked into
  // t->triggers, and TEMP triggers on t that name t's database in their ON
  // clause (or name no database and find t by the search order). Newest
  // last, as in t->triggers.
  void TriggersOn(const Table* t, std::vector<const Trigger*>* out) const;

 private:
  // Indexes to search for an unqualified name.
  template <typename F>
  auto Search(int fixed, F&& find) const -> decltype(find(static_cast<Schema*>(nullptr)));

  struct Space {
    std::string name;
    Schema* schema;
  };
  std::vector<Space> spaces_;
};

}  // namespace basalt
