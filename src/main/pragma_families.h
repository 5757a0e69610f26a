// The run functions of the PRAGMA table (pragma_table.cc), one group per
// file. Each receives the call (pragma.h): the database it applies to, the
// value of a setting form, and where its rows go.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "main/pragma.h"

namespace basalt {

class Connection;
class Database;
struct Table;

// A read transaction on database `db` while the object lives, when none is
// open yet (pragmas that read the header or the trees in autocommit mode
// see what another connection committed); pragma.cc.
class PragmaReadScope {
 public:
  PragmaReadScope(Connection* conn, int db);
  ~PragmaReadScope();
  PragmaReadScope(const PragmaReadScope&) = delete;
  PragmaReadScope& operator=(const PragmaReadScope&) = delete;
  // The error of beginning the transaction (a reloaded schema is not one).
  const Status& status() const { return status_; }

 private:
  Database* db_;
  bool began_ = false;
  Status status_;
};

// The write form of PragmaReadScope's job: changes database `db` inside a
// write transaction (the open one, or one that commits when fn returns OK
// in autocommit mode, and rolls back otherwise).
Status PragmaWrite(Connection* conn, int db, const std::function<Status(Database*)>& fn);

// pragma_flags.cc: the connection's boolean settings.
Status RunFlagPragma(PragmaCall* call);
Status RunCaseSensitiveLike(PragmaCall* call);

// pragma_header.cc: values kept in the database header and page counts.
Status RunHeaderCookie(PragmaCall* call);  // user_version, schema_version, application_id
Status RunDataVersion(PragmaCall* call);
Status RunEncoding(PragmaCall* call);
Status CheckEncoding(PragmaCall* call);  // a known encoding
Status RunFreelistCount(PragmaCall* call);
Status RunPageCount(PragmaCall* call);  // page_count, max_page_count
Status RunPageSize(PragmaCall* call);

// pragma_storage.cc: journaling, caching and locking of each database.
Status RunJournalMode(PragmaCall* call);
Status RunSynchronous(PragmaCall* call);
Status CheckSynchronous(PragmaCall* call);  // not inside a transaction
Status RunCacheSize(PragmaCall* call);
Status RunBusyTimeout(PragmaCall* call);
Status RunLockingMode(PragmaCall* call);
Status RunWalCheckpoint(PragmaCall* call);
Status RunWalAutocheckpoint(PragmaCall* call);
Status RunJournalSizeLimit(PragmaCall* call);
Status RunCacheSpill(PragmaCall* call);
Status RunMmapSize(PragmaCall* call);
Status RunSecureDelete(PragmaCall* call);
Status RunDatabaseList(PragmaCall* call);

// pragma_vacuum.cc: auto-vacuum and default cache size (header fields that
// change how the file is kept), and where temporary tables live.
Status RunAutoVacuum(PragmaCall* call);
Status RunIncrementalVacuum(PragmaCall* call);
Status RunDefaultCacheSize(PragmaCall* call);
Status RunTempStore(PragmaCall* call);
Status RunTempStoreDirectory(PragmaCall* call);
Status CheckTempStore(PragmaCall* call);           // not while TEMP is in a transaction
Status CheckTempStoreDirectory(PragmaCall* call);  // a writable directory

// pragma_schema.cc: the columns, indexes and foreign keys of tables.
// The name of the database the call names ("" when none).
std::string_view PragmaSchemaName(const PragmaCall* call);
// The table or view `name` as pragmas look it up: in the named database,
// or in TEMP, main and the attached ones; else a module's eponymous table
// (connected). Null when there is none.
Result<Table*> PragmaLookupTable(PragmaCall* call, std::string_view name);
Status RunTableInfo(PragmaCall* call);    // table_info, table_xinfo
Status CheckTableInfo(PragmaCall* call);  // a view that does not compile
Status RunIndexList(PragmaCall* call);
Status RunIndexInfo(PragmaCall* call);  // index_info, index_xinfo
Status RunForeignKeyList(PragmaCall* call);
Status RunTableList(PragmaCall* call);

// pragma_lists.cc: what the connection and the build provide.
Status RunCollationList(PragmaCall* call);
Status RunFunctionList(PragmaCall* call);
Status RunModuleList(PragmaCall* call);
Status RunPragmaList(PragmaCall* call);
Status RunCompileOptions(PragmaCall* call);

// pragma_check.cc: integrity_check, quick_check, foreign_key_check.
Status RunIntegrityCheck(PragmaCall* call);
Status RunForeignKeyCheck(PragmaCall* call);
// Their prepare-time errors: an unknown table, a foreign key mismatch.
Status CheckIntegrityCheck(PragmaCall* call);
Status CheckForeignKeyCheck(PragmaCall* call);

// integrity_rows.cc: the row-level part of integrity_check on table t of
// db: NOT NULL, STRICT types, CHECK constraints, and with `full` index
// entries and counts; at most max_errors messages in *msgs. A page or
// record the scan cannot read (corruption, I/O) ends it with that error,
// the messages found before it kept in *msgs. A record whose header does
// not decode sets *malformed and ends the scan (SQLite reports it as the
// check's last row, "database disk image is malformed").
Status CheckTableRows(Connection* conn, Database* db, const Table& t, bool full, size_t max_errors,
                      std::vector<std::string>* msgs, bool* malformed);

// pragma_limits.cc: process and connection limits with no file behind them.
Status RunAnalysisLimit(PragmaCall* call);
Status RunThreads(PragmaCall* call);
Status RunHeapLimit(PragmaCall* call);  // soft_heap_limit, hard_heap_limit
Status RunShrinkMemory(PragmaCall* call);
Status RunOptimize(PragmaCall* call);

}  // namespace basalt
