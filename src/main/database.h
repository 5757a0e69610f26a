// One database of a connection — main, TEMP, or an attached one — with its
// B-tree (and pager), its in-memory Schema, and the per-database settings
// SQLite keeps per schema (synchronous, cache_size, ...).
//
// Life of the schema (fields schema_loaded / schema_epoch / schema.cookie):
//   1. A file database is opened without reading anything; its schema is
//      read by EnsureSchema() before the first statement that needs it.
//      An in-memory database starts loaded (it is empty).
//   2. At the start of each transaction CheckSchemaCookie() compares the
//      header's schema cookie with the loaded one (only when the pager says
//      another connection may have written: its cache epoch moved). A
//      different cookie reloads the schema and returns SQLITE_SCHEMA, so the
//      statement that asked compiles again.
//   3. DDL of this connection changes the Schema object in place and bumps
//      the cookie (BumpSchemaCookie), and marks schema_changed_in_txn: a
//      rollback then reloads the schema from the file.
// The TEMP database is created empty on first use (no B-tree until then).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "btree/btree.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "record/value.h"

namespace basalt {

class Vfs;

// What a filename asks for once a "file:" URI is taken apart.
struct OpenTarget {
  std::string path;  // empty or ":memory:" for an in-memory database
  int flags = 0;     // SQLITE_OPEN_* flags after mode= and immutable=
  bool memory = false;
  Vfs* vfs = nullptr;  // from a URI's vfs= (null: the connection's VFS)
};

// Splits `filename` ("file:" URIs included) as sqlite3_open_v2 and ATTACH
// read it; `flags` are the open flags asked for.
Status ParseOpenTarget(std::string_view filename, int flags, OpenTarget* out);

class Database {
 public:
  Database(std::string name, bool temp)
      : name(std::move(name)),
        schema(temp),
        synchronous(temp ? 0 : 2),
        cache_size(temp ? 0 : -2000) {}
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Opens the database `target` describes into this object. A file that
  // opens but cannot be read as a database is not an error here: it is kept
  // in open_error and reported by the first statement that needs the file.
  Status Open(const OpenTarget& target, Vfs* vfs);
  // An empty in-memory database (":memory:", and TEMP on first use).
  Status OpenMemory();
  // Open found the file busy (open_error kBusy): opens it again, waiting
  // through `busy`; open_error says how that went.
  Status ReopenAfterBusy(const BusyHandler& busy);
  bool is_open() const { return bt != nullptr; }

  // Reads the schema if it has not been read yet (lazily, at the first
  // prepare that needs it). An unreadable file reports open_error.
  Status EnsureSchema();
  // Rebuilds `schema` from sqlite_schema (schema_load.cc).
  Status LoadSchema();
  Status LoadSchemaRows();  // LoadSchema without keeping connected virtual tables
  // Step 2 above: kSchema when the schema was reloaded.
  Status CheckSchemaCookie();
  // After DDL: the header's schema cookie + 1 (and the schema format set
  // on a database's first object).
  Status BumpSchemaCookie();
  // The text encoding (record.h TextEncoding): from page 1, or the one
  // PRAGMA encoding chose for a database not yet created.
  void SetTextEncoding(uint8_t e);

  // ---- sqlite_schema rows, in UTF-8 whatever the encoding (schema_rows.cc)
  // Reads the row under `cur` into *rec and decodes its first n fields into
  // v (NULL past the end; text borrows from *rec); *nfields: fields stored.
  Status ReadSchemaFields(BtCursor* cur, std::string* rec, Value* v, int n, int* nfields);
  Status WriteSchemaRecord(BtCursor* cur, int64_t rowid, const std::string& rec);
  Status InsertSchemaRow(std::string_view type, std::string_view name, std::string_view tbl,
                         uint32_t root, std::string_view sql);
  // Deletes the sqlite_schema rows whose name (or tbl_name) is `name`.
  Status DeleteSchemaRows(std::string_view name);
  // Deletes the rows of table `root` whose first column is `name`.
  Status DeleteRowsNamed(uint32_t root, std::string_view name);
  // Drops trees, largest root first, following auto-vacuum root moves.
  Status DropTrees(std::vector<uint32_t> roots);
  Status MoveSchemaRoot(uint32_t from, uint32_t to);
  // sqlite_sequence(name, seq): created with the first AUTOINCREMENT table.
  Status CreateSequenceTable();

  std::string name;      // "main", "temp" or the ATTACH alias
  std::string filename;  // as given to sqlite3_open / ATTACH
  std::string path;      // full path of the file ("" for in-memory)
  std::unique_ptr<Btree> bt;
  Schema schema;
  Vfs* vfs = nullptr;  // where the file lives (null: in memory)
  bool is_file = false;
  bool read_only = false;
  bool schema_loaded = false;
  bool schema_changed_in_txn = false;    // DDL since the transaction began
  uint64_t schema_epoch = ~uint64_t{0};  // pager cache epoch at the last check
  Status open_error;
  int open_flags = 0;  // OpenTarget::flags the file was opened with
  uint8_t enc = 1;     // TextEncoding (kUtf8)
  // What the next VACUUM builds: PRAGMA page_size / auto_vacuum requests
  // the database could not take at once (0 / -1: none).
  uint32_t vacuum_page_size = 0;
  int vacuum_auto_vacuum = -1;
  // Per-database PRAGMA settings.
  int synchronous;  // TEMP: 0, others 2
  int cache_size;   // TEMP: 0, others -2000
  int wal_autocheckpoint = 1000;
  int64_t journal_size_limit = -1;
  bool exclusive_locking = false;
  // PRAGMA max_page_count (the reference build's MAX_PAGE_COUNT until set;
  // a limit that was set is enforced by the pager).
  uint32_t max_page_count = 1073741823;
  // Read back as set; the pager does not act on them yet.
  int secure_delete = 1;  // 0 off, 1 on, 2 fast
  int cache_spill = 1;    // spill threshold in pages (at least)
  int64_t mmap_size = 0;
  // TEMP's journal_mode as SQLite shows it while temp_store keeps TEMP in
  // a file (every mode but WAL). Basalt's TEMP pager is in memory whatever
  // temp_store says: it runs kOff when this is kOff, else kMemory.
  JournalMode temp_file_journal_mode = JournalMode::kDelete;

 private:
  // The file part of Open (path, vfs and open_flags set).
  Status OpenFile(const BusyHandler& busy);
};

}  // namespace basalt
