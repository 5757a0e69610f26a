// A connection's user-defined collating sequences (sqlite3_create_collation)
// and how the compiler finds them.
//
// Invariants:
//   C1. Every Collation the set ever handed out stays at the same address
//       until the set is destroyed: schema objects and compiled programs
//       hold plain pointers. Replacing a collation rewrites its entry in
//       place; deleting one leaves the entry (comparing as BINARY) but
//       hides it from Find.
//   C2. An entry's destroy(arg) runs exactly once: when it is replaced,
//       deleted, or when the set is destroyed.
//   C3. As in SQLite, a name has one entry per text encoding it was
//       registered for (1 UTF-8, 2 UTF-16le, 3 UTF-16be); Find prefers
//       UTF-8, then UTF-16le, then UTF-16be. (The engine compares UTF-8
//       text: a UTF-16 entry's function converts, see api_collation.cc.)
//
// The compiler reaches the set of the connection it works for through
// CollationScope: Connection::Prepare and Statement::Step install it for
// the length of the call (both run under the connection's mutex), and
// FindCollation looks there after the built-in collations.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "record/collation.h"

namespace basalt {

class CollationSet {
 public:
  CollationSet() = default;
  ~CollationSet();
  CollationSet(const CollationSet&) = delete;
  CollationSet& operator=(const CollationSet&) = delete;

  // Adds or replaces `name` for encoding `enc` (compare null: deletes it).
  // Returns true when an existing collation changed (compiled statements
  // must compile again).
  bool Define(std::string_view name, int enc,
              int (*compare)(void*, int, const void*, int, const void*), void* arg,
              void (*destroy)(void*));
  // True when `name` has a live entry for encoding `enc`.
  bool Defines(std::string_view name, int enc) const {
    Entry* e = Lookup(name, enc);
    return e != nullptr && e->live;
  }
  // The live collation called `name` (case-insensitive), or null.
  const Collation* Find(std::string_view name) const;
  // Calls f(name) for every name ever defined, in the order first defined
  // (deleted ones too: SQLite keeps their entries).
  template <typename F>
  void ForEachName(F&& f) const {
    for (const auto& e : entries_) f(std::string_view(e->name));
  }
  // sqlite3_collation_needed: asked for a name Find does not know (before
  // "no such collation sequence"); it may Define it.
  std::function<void(std::string_view)> needed;

 private:
  struct Entry {
    std::string name;
    int enc = 1;
    Collation coll;
    bool live = false;
  };
  Entry* Lookup(std::string_view name, int enc) const;
  std::vector<std::unique_ptr<Entry>> entries_;  // C1: never erased
};

// Installs `set` as the one FindCollation consults on this thread until
// the scope ends (scopes nest; the innermost wins).
class CollationScope {
 public:
  explicit CollationScope(CollationSet* set);
  ~CollationScope();
  CollationScope(const CollationScope&) = delete;
  CollationScope& operator=(const CollationScope&) = delete;

 private:
  CollationSet* prev_;
};

// A built-in collation, else the current scope's user collation (asking
// its `needed` callback once), else null.
const Collation* FindCollation(std::string_view name);

}  // namespace basalt
