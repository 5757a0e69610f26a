// The databases of one connection: main (index 0), TEMP (1) and up to
// kMaxAttached attached ones (2..), with the Catalog the compiler resolves
// names through and the VM's view of their B-trees (VmEnv::dbs / encs).
//
// Invariants (checked by BASALT_DCHECK in Check()):
//   1. dbs_[i]->schema.db_index == i and catalog_ lists the same databases
//      in the same order under the same names.
//   2. env_->dbs[i] == dbs_[i]->bt.get() (null for a TEMP database not yet
//      used) and env_->encs[i] is main's text encoding: every database of a
//      connection uses main's encoding (ATTACH refuses another).
//   3. generation() never repeats a value: it moves on every schema change
//      of any database and on every ATTACH / DETACH, so a compiled statement
//      that remembers it knows when to compile again.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "exec/vm.h"
#include "main/database.h"
#include "pager/pager.h"

namespace basalt {

class SchemaStore {
 public:
  // SQLite's MAX_ATTACHED in Debian's build.
  static constexpr int kMaxAttached = 10;

  explicit SchemaStore(VmEnv* env) : env_(env) {}
  SchemaStore(const SchemaStore&) = delete;
  SchemaStore& operator=(const SchemaStore&) = delete;

  // Installs the main database and an unopened TEMP database.
  void Init(std::unique_ptr<Database> main);

  int size() const { return static_cast<int>(dbs_.size()); }
  Database* at(int i) const { return dbs_[static_cast<size_t>(i)].get(); }
  Database* main() const { return at(Catalog::kMain); }
  Database* temp() const { return at(Catalog::kTemp); }
  // Index of the database called `name` ("main", "temp", an alias), or -1.
  int Find(std::string_view name) const { return catalog_.Find(name); }
  const Catalog& catalog() const { return catalog_; }

  // The TEMP database's B-tree is created at its first use.
  Status OpenTemp();
  // Drops the TEMP database and everything in it (PRAGMA temp_store); it
  // is created anew at its next use. Not inside a transaction.
  void CloseTemp();
  // Database i, opened (TEMP) and with its schema read.
  Status EnsureSchema(int i);
  // Reads database i's schema again (after a rollback undid DDL, or when
  // another connection changed it).
  Status Reload(int i);
  // Database::CheckSchemaCookie for database i, keeping the VM's view of
  // the encoding current.
  Status CheckSchemaCookie(int i);

  // ATTACH: appends `db` (open, named). DETACH: removes database i >= 2.
  void Attach(std::unique_ptr<Database> db);
  void Detach(int i);

  uint64_t generation() const;
  // Makes compiled statements compile again (new functions, collations).
  void Invalidate() { ++detach_gen_; }

  // Applied to every database's pager, now and when one is opened later.
  void SetBusyHandler(BusyHandler handler);

  // After main's encoding was set for a database not yet created.
  void SyncEncoding() { SyncEnv(); }

  // Invariants 1 and 2 (debug builds).
  void Check() const;

 private:
  // Brings VmEnv::dbs / encs up to date (invariant 2).
  void SyncEnv();

  VmEnv* env_;
  std::vector<std::unique_ptr<Database>> dbs_;
  Catalog catalog_;
  BusyHandler busy_;
  // Added to the sum of the schemas' generations: grows by more than the
  // detached schema's generation on DETACH, so the sum never goes back.
  uint64_t detach_gen_ = 0;
};

}  // namespace basalt
