// Btree: opening a database, the database header, transactions and
// savepoints, creating/dropping/clearing trees, meta fields.
#include <algorithm>
#include <cstring>

#include "btree/btree_internal.h"
#include "pager/mem_pager.h"
#include "pager/temp_pager.h"

namespace basalt {

using namespace btfmt;
using btree_detail::Node;
using btree_detail::WithRead;

int MemcmpKeyCompare(void*, const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb) {
  uint32_t n = std::min(na, nb);
  int c = n == 0 ? 0 : std::memcmp(a, b, n);
  if (c != 0) return c;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

void BtShared::SetUsable(uint32_t page, uint32_t reserved) {
  page_size = page;
  usable = page - reserved;
  max_local_table = uint16_t(MaxLocalTable(usable));
  max_local_index = uint16_t(MaxLocalIndex(usable));
  min_local = uint16_t(MinLocal(usable));
  lock_page = lock_page_override != 0 ? lock_page_override : LockBytePage(page);
  ptrmap_span = usable / kPtrmapEntrySize + 1;
}

Status BtShared::SaveCursors(Pgno root, const BtCursor* except) {
  ++change_seq;
  auto SaveCursor = [](BtCursor* c) {
    if (c->state_ == BtCursor::State::kValid) {
      Status st = c->SavePosition();
      if (!st.ok()) c->Trip(st.code());
    } else if (c->state_ == BtCursor::State::kInvalid) {
      c->ReleasePath();
    }
  };
  if (except != nullptr && root != 0 && except->root_ == root) {
    // The common case: a writer saving the other cursors on its own tree.
    for (BtCursor* c = except->peer_; c != except; c = c->peer_) SaveCursor(c);
    return Status();
  }
  for (BtCursor* c = cursors; c != nullptr; c = c->next_) {
    if (c == except || (root != 0 && c->root_ != root)) continue;
    SaveCursor(c);
  }
  return Status();
}

void BtShared::TripCursors(Pgno root, int code) {
  ++change_seq;
  for (BtCursor* c = cursors; c != nullptr; c = c->next_) {
    if (root == 0 || c->root_ == root) c->Trip(code);
  }
}

namespace {

// Checks a database header; fills the page size and reserved bytes.
Status ParseHeader(const uint8_t* h, uint32_t* page_size, uint32_t* reserved, bool* read_only) {
  if (std::memcmp(h, kMagic, 16) != 0) return Status(kNotADb);
  uint32_t ps = Get16(h + kHdrPageSize);
  if (ps == 1) ps = 65536;
  if (!IsValidPageSize(ps)) return Status(kNotADb);
  if (h[kHdrReadVersion] > 2) return Status(kNotADb);
  if (h[kHdrMaxPayloadFrac] != 64 || h[kHdrMinPayloadFrac] != 32 || h[kHdrLeafPayloadFrac] != 32) {
    return Status(kNotADb);
  }
  uint32_t res = h[kHdrReserved];
  if (ps - res < 480) return Status(kNotADb);
  *page_size = ps;
  *reserved = res;
  // Newer write versions are read-only here.
  *read_only = h[kHdrWriteVersion] > 2;
  return Status();
}

// Writes the header and the empty sqlite_schema root of a new page 1.
void FormatPage1(BtShared& bt, Node* n) {
  uint8_t* h = n->data;
  std::memset(h, 0, kDbHeaderSize);
  std::memcpy(h, kMagic, 16);
  Put16(h + kHdrPageSize, uint16_t(bt.page_size == 65536 ? 1 : bt.page_size));
  h[kHdrWriteVersion] = 1;
  h[kHdrReadVersion] = 1;
  h[kHdrReserved] = uint8_t(bt.page_size - bt.usable);
  h[kHdrMaxPayloadFrac] = 64;
  h[kHdrMinPayloadFrac] = 32;
  h[kHdrLeafPayloadFrac] = 32;
  Put32(h + kHdrDatabaseSize, 1);
  Put32(h + kHdrMetaBase + 4 * int(Meta::kSchemaFormat), kSchemaFormat);
  Put32(h + kHdrMetaBase + 4 * int(Meta::kTextEncoding), bt.new_db_encoding);
  if (bt.autovac != 0) {
    // Auto-vacuum: the largest root page so far is page 1.
    Put32(h + kHdrMetaBase + 4 * int(Meta::kLargestRootPage), 1);
    Put32(h + kHdrMetaBase + 4 * int(Meta::kIncrementalVacuum), bt.autovac == 2 ? 1 : 0);
  }
  Put32(h + kHdrVersionNumber, kSqliteVersionNumber);
  btree_detail::ZeroNode(bt, n, kTableLeaf);
}

Status NewDatabase(BtShared& bt) {
  Node n;
  TRY(bt.pager->Append(&n.ref));
  n.data = n.ref.data();
  FormatPage1(bt, &n);
  std::memcpy(bt.hdr_seen, n.data + kHdrPageSize, sizeof bt.hdr_seen);
  bt.hdr_known = true;
  return Status();
}

}  // namespace

Status BtShared::Refresh() {
  if (pager->page_count() == 0) {
    hdr_known = false;  // empty: whoever creates page 1 decides
    return Status();
  }
  PageRef p1;
  TRY(pager->Get(1, &p1));
  const uint8_t* h = p1.data();
  const uint8_t av = btree_detail::AutoVacuumOf(h);
  if (hdr_known && av == autovac && std::memcmp(h + kHdrPageSize, hdr_seen, sizeof hdr_seen) == 0) {
    return Status();
  }
  uint32_t ps = 0, reserved = 0;
  bool ro = false;
  TRY(ParseHeader(h, &ps, &reserved, &ro));
  if (ps != pager->page_size()) {
    // The pager could not follow a new page size (FilePager follows one
    // only when a transaction starts): nothing here may be used.
    if (!hdr_known) return Status(kNotADb);
    return Status(kSchema, "database page size changed; reopen the database");
  }
  if (ps != page_size || ps - reserved != usable) {
    // Cell geometry changes: no cached page facts or positions survive.
    ++change_seq;
    SetUsable(ps, reserved);
  }
  read_only = ro;
  autovac = av;
  std::memcpy(hdr_seen, h + kHdrPageSize, sizeof hdr_seen);
  hdr_known = true;
  return Status();
}

Status BtShared::BeginRead(bool* opened) {
  *opened = false;
  if (pager->txn() != PagerTxn::kNone) return Status();
  TRY(pager->BeginRead());
  *opened = true;
  Status st = Refresh();
  if (!st.ok()) {
    (void)pager->Commit();
    *opened = false;
  }
  return st;
}

Btree::Btree(std::unique_ptr<BtShared> s) : s_(std::move(s)) {}

Btree::~Btree() {
  // Cursors must be closed first; detach any left so they fail cleanly.
  for (BtCursor* c = s_->cursors; c != nullptr;) {
    BtCursor* next = c->next_;
    c->ReleasePath();
    c->bt_ = nullptr;
    c->next_ = c->prev_ = nullptr;
    c = next;
  }
}

Result<std::unique_ptr<Btree>> Btree::Open(std::unique_ptr<Pager> pager) {
  auto s = std::make_unique<BtShared>();
  s->pager = std::move(pager);
  Pager& p = *s->pager;
  // One read transaction: a file pager learns the page count (rolling back
  // a hot journal first) and page 1's header is validated. Later
  // transactions re-check the header (BtShared::Refresh).
  p.set_opening(true);
  Status begin = p.BeginRead();
  p.set_opening(false);
  TRY(begin);
  s->SetUsable(p.page_size(), 0);
  Status st = s->Refresh();
  Status end = p.Commit();
  TRY(st);
  TRY(end);
  return std::unique_ptr<Btree>(new Btree(std::move(s)));
}

Result<std::unique_ptr<Btree>> Btree::OpenInMemory(uint32_t page_size) {
  ASSIGN_OR_RETURN(auto pager, MemPager::Create(page_size, JournalMode::kMemory));
  return Open(std::move(pager));
}

Result<std::unique_ptr<Btree>> Btree::OpenEphemeral(uint32_t page_size, Vfs* spill_vfs,
                                                    size_t cache_pages) {
  std::unique_ptr<Pager> pager;
  if (spill_vfs != nullptr) {
    ASSIGN_OR_RETURN(pager, TempPager::Create(page_size, spill_vfs, cache_pages));
  } else {
    ASSIGN_OR_RETURN(pager, MemPager::Create(page_size, JournalMode::kOff));
  }
  ASSIGN_OR_RETURN(auto bt, Open(std::move(pager)));
  bt->s_->ephemeral = true;
  TRY(bt->BeginTransaction(true));
  return bt;
}

Result<std::unique_ptr<Btree>> Btree::OpenImage(std::string_view bytes) {
  if (bytes.empty()) return OpenInMemory();
  if (bytes.size() < kDbHeaderSize) return Status(kNotADb);
  uint32_t page_size, reserved;
  bool read_only;
  TRY(ParseHeader(reinterpret_cast<const uint8_t*>(bytes.data()), &page_size, &reserved,
                  &read_only));
  // Trust the in-header size when it is valid (fileformat2 1.3.7).
  const uint8_t* h = reinterpret_cast<const uint8_t*>(bytes.data());
  uint32_t hsize = Get32(h + kHdrDatabaseSize);
  if (hsize != 0 && Get32(h + kHdrChangeCounter) == Get32(h + kHdrVersionValidFor) &&
      uint64_t(hsize) * page_size < bytes.size()) {
    bytes = bytes.substr(0, size_t(hsize) * page_size);
  }
  ASSIGN_OR_RETURN(auto pager, MemPager::FromImage(bytes, page_size, JournalMode::kMemory));
  return Open(std::move(pager));
}

Status Btree::BeginTransaction(bool write) {
  Pager& pager = *s_->pager;
  if (!write) {
    bool opened;
    return s_->BeginRead(&opened);
  }
  if (s_->read_only) return Status(kReadOnly);
  if (pager.txn() == PagerTxn::kWrite) return Status();
  const bool fresh = pager.txn() == PagerTxn::kNone;
  TRY(pager.BeginWrite());
  Status st;
  if (fresh) st = s_->Refresh();
  if (st.ok() && s_->read_only) st = Status(kReadOnly);
  if (st.ok() && pager.page_count() == 0) st = NewDatabase(*s_);
  if (!st.ok()) {
    (void)pager.Rollback();
    return st;
  }
  return Status();
}

Status Btree::Commit() {
  TRY(CommitPhaseOne({}));
  return CommitPhaseTwo();
}

Status Btree::CommitPhaseOne(std::string_view super_journal) {
  Pager& pager = *s_->pager;
  if (s_->ephemeral) return Status();
  if (pager.txn() == PagerTxn::kWrite && pager.has_changes() && !s_->commit_prepared) {
    // Auto-vacuum FULL: free pages leave the file before it is committed.
    if (s_->autovac == 1) TRY(btree_detail::AutoVacuumCommit(*s_));
    // The header fields a commit maintains (fileformat2 1.3.5, 1.3.7, 1.3.16).
    // In WAL mode page 1 is written only when it changes anyway or the
    // database size does (other connections follow the WAL, not the
    // counter), as SQLite does; in rollback mode every commit counts.
    PageRef p1;
    TRY(pager.Get(1, &p1));
    uint8_t* h = p1.data();
    if (!pager.wal_open() || p1.frame()->write_stamp == pager.write_stamp() ||
        Get32(h + kHdrDatabaseSize) != pager.page_count()) {
      TRY(pager.Write(p1));
      h = p1.data();
      uint32_t counter = Get32(h + kHdrChangeCounter) + 1;
      Put32(h + kHdrChangeCounter, counter);
      Put32(h + kHdrDatabaseSize, pager.page_count());
      Put32(h + kHdrVersionValidFor, counter);
      Put32(h + kHdrVersionNumber, kSqliteVersionNumber);
    }
    // A retried commit (phase one failed with SQLITE_BUSY) must not count twice.
    s_->commit_prepared = true;
  }
  return pager.CommitPhaseOne(super_journal);
}

Status Btree::CommitPhaseTwo() {
  if (s_->ephemeral) return Status();
  Status st = s_->pager->CommitPhaseTwo();
  if (st.ok()) s_->commit_prepared = false;
  return st;
}

Status Btree::Rollback() {
  Pager& pager = *s_->pager;
  s_->commit_prepared = false;
  if (pager.txn() == PagerTxn::kWrite) {
    s_->TripCursors(0, kAbortRollback);
    s_->hdr_known = false;  // page 1 may return to another header
  }
  TRY(pager.Rollback());
  if (s_->ephemeral) return BeginTransaction(true);
  return Status();
}

bool Btree::in_transaction() const { return s_->pager->txn() != PagerTxn::kNone; }
bool Btree::in_write_transaction() const { return s_->pager->txn() == PagerTxn::kWrite; }
int Btree::savepoint_count() const { return s_->pager->savepoint_count(); }
Status Btree::OpenSavepoints(int n) { return s_->pager->OpenSavepoints(n); }
Status Btree::ReleaseSavepoint(int i) { return s_->pager->ReleaseSavepoint(i); }

Status Btree::RollbackToSavepoint(int i) {
  TRY(s_->SaveCursors(0, nullptr));
  TRY(s_->pager->RollbackToSavepoint(i));
  // Page 1 may be back to another header (CopyContentFrom).
  s_->hdr_known = false;
  return s_->Refresh();
}

uint32_t Btree::page_size() const { return s_->page_size; }
uint32_t Btree::usable_size() const { return s_->usable; }
Pgno Btree::page_count() const { return s_->pager->page_count(); }
Pager* Btree::pager() { return s_->pager.get(); }

Status Btree::SetPageSize(uint32_t page_size) {
  TRY(s_->pager->SetPageSize(page_size));
  s_->SetUsable(page_size, 0);
  return Status();
}

Status Btree::SetReservedBytes(uint8_t n) {
  if (page_count() != 0) return Status(kMisuse, "reserved bytes are set before the first page");
  if (s_->page_size < 512u + n) return Status(kMisuse, "reserve too large for the page size");
  s_->SetUsable(s_->page_size, n);
  return Status();
}

void Btree::SetLockBytePageForTesting(Pgno pgno) {
  s_->lock_page_override = pgno;
  s_->SetUsable(s_->page_size, s_->page_size - s_->usable);
}

Status Btree::FreelistCount(uint32_t* n) {
  return WithRead(*s_, [&] { return btree_detail::ReadFreelistCount(*s_, n); });
}

Status Btree::GetMeta(Meta field, uint32_t* value) {
  int i = int(field);
  if (i < 0 || i > 7) return Status(kMisuse, "bad meta field");
  return WithRead(*s_, [&]() -> Status {
    *value = 0;
    if (s_->pager->page_count() == 0) return Status();
    PageRef p1;
    TRY(s_->pager->Get(1, &p1));
    *value = Get32(p1.data() + kHdrMetaBase + 4 * i);
    return Status();
  });
}

Status Btree::SetMeta(Meta field, uint32_t value) {
  int i = int(field);
  if (i < 0 || i > 7) return Status(kMisuse, "bad meta field");
  if (!in_write_transaction()) return Status(kMisuse, "SetMeta outside a write transaction");
  PageRef p1;
  TRY(s_->pager->Get(1, &p1));
  TRY(s_->pager->Write(p1));
  Put32(p1.data() + kHdrMetaBase + 4 * i, value);
  return Status();
}

Result<Pgno> Btree::CreateTree(TreeKind kind) {
  if (!in_write_transaction()) return Status(kMisuse, "CreateTree outside a write transaction");
  if (s_->autovac != 0) return btree_detail::CreateRootAutoVacuum(*s_, kind == TreeKind::kTable);
  Node n;
  TRY(btree_detail::AllocatePage(*s_, &n.ref));
  n.data = n.ref.data();
  btree_detail::ZeroNode(*s_, &n, btree_detail::LeafTypeOf(kind == TreeKind::kTable));
  return n.pgno;
}

Status Btree::DropTree(Pgno root) {
  Pgno moved_from = 0;
  if (s_->autovac != 0 && in_write_transaction()) {
    // Only the two-argument form can report a root that moves.
    Pgno largest = 0;
    TRY(GetMeta(Meta::kLargestRootPage, &largest));
    if (root != largest) {
      return Status(kMisuse, "DropTree(root, &moved_from) is needed in auto-vacuum databases");
    }
  }
  return DropTree(root, &moved_from);
}

Status Btree::DropTree(Pgno root, Pgno* moved_from) {
  *moved_from = 0;
  if (!in_write_transaction()) return Status(kMisuse, "DropTree outside a write transaction");
  if (root < 2 || root > page_count()) return root == 1 ? Status(kMisuse) : CORRUPT();
  ++s_->change_seq;
  for (BtCursor* c = s_->cursors; c != nullptr; c = c->next_) {
    if (c->root_ == root) {
      c->ReleasePath();
      c->state_ = BtCursor::State::kInvalid;
      c->root_ = 0;  // the tree is gone: the cursor stays at eof
    }
  }
  if (s_->autovac == 0) return btree_detail::FreeTreePages(*s_, root, false, nullptr);
  TRY(btree_detail::DropRootAutoVacuum(*s_, root, moved_from));
  if (*moved_from != 0) {
    // Cursors on the moved tree follow it (they were saved: they re-seek).
    for (BtCursor* c = s_->cursors; c != nullptr; c = c->next_) {
      if (c->root_ == *moved_from) c->root_ = root;
    }
  }
  return Status();
}

Status Btree::ClearTree(Pgno root, int64_t* entries) {
  if (!in_write_transaction()) return Status(kMisuse, "ClearTree outside a write transaction");
  if (entries) *entries = 0;
  if (root == 0 || root > page_count()) return CORRUPT();
  TRY(s_->SaveCursors(root, nullptr));
  return btree_detail::FreeTreePages(*s_, root, true, entries);
}

Status Btree::OpenCursor(Pgno root, bool write, BtCursor* cur, KeyComparator cmp, void* cmp_ctx,
                         TreeKind kind) {
  cur->Close();
  if (write && s_->read_only) return Status(kReadOnly);
  bool intkey = kind != TreeKind::kIndex;
  if (root > page_count() && !(root == 1 && page_count() == 0)) return CORRUPT();
  if (root == 0) return CORRUPT();
  if (root <= page_count() && kind == TreeKind::kUnknown) {
    // The page type tells the tree kind.
    Status st = WithRead(*s_, [&]() -> Status {
      Node n;
      PageRef ref;
      TRY(s_->pager->Get(root, &ref));
      TRY(btree_detail::InitNode(*s_, std::move(ref), &n));
      intkey = n.intkey;
      return Status();
    });
    TRY(st);
  }
  cur->bt_ = s_.get();
  cur->root_ = root;
  cur->write_ = write;
  cur->intkey_ = intkey;
  cur->key_cmp_ = cmp ? cmp : MemcmpKeyCompare;
  cur->key_ctx_ = cmp_ctx;
  cur->state_ = BtCursor::State::kInvalid;
  cur->peer_ = cur;
  for (BtCursor* c = s_->cursors; c != nullptr; c = c->next_) {
    if (c->root_ == root) {
      cur->peer_ = c->peer_;
      c->peer_ = cur;
      break;
    }
  }
  cur->next_ = s_->cursors;
  cur->prev_ = nullptr;
  if (s_->cursors) s_->cursors->prev_ = cur;
  s_->cursors = cur;
  return Status();
}

Status Btree::CopyImage(std::string* out) {
  auto* mem = dynamic_cast<MemPager*>(s_->pager.get());
  if (mem == nullptr) return Status(kMisuse, "not an in-memory database");
  mem->CopyImage(out);
  return Status();
}

namespace btree_detail {

namespace {
Status ClearPage(BtShared& bt, Pgno pgno, int depth, bool free_it, bool intkey,
                 std::vector<bool>& seen, int64_t* entries) {
  if (depth > 20 || pgno < 1 || pgno > bt.pager->page_count()) return CORRUPT();
  // A page reached twice means a cycle or shared subtree: corrupt.
  if (seen[pgno]) return CORRUPT();
  seen[pgno] = true;
  Node n;
  {
    PageRef ref;
    TRY(bt.pager->Get(pgno, &ref));
    TRY(InitNode(bt, std::move(ref), &n));
  }
  if (n.intkey != intkey) return CORRUPT();
  for (int i = 0; i < n.ncell; ++i) {
    uint8_t* cell = nullptr;
    TRY(CellAt(bt, n, i, &cell));
    CellInfo info;
    TRY(ParseCell(bt, n, cell, &info));
    TRY(FreeOverflow(bt, info));
    if (!n.leaf) TRY(ClearPage(bt, Get32(cell), depth + 1, true, intkey, seen, entries));
  }
  if (!n.leaf) TRY(ClearPage(bt, RightChild(n), depth + 1, true, intkey, seen, entries));
  if (entries && (n.leaf || !n.intkey)) *entries += n.ncell;
  if (free_it) {
    if (pgno == 1) return CORRUPT();
    n.ref.Reset();
    return FreePage(bt, pgno);
  }
  TRY(bt.pager->Write(n.ref));
  ZeroNode(bt, &n, LeafTypeOf(intkey));
  return Status();
}
}  // namespace

Status FreeTreePages(BtShared& bt, Pgno root, bool keep_root, int64_t* entries) {
  bool intkey;
  {
    Node n;
    PageRef ref;
    TRY(bt.pager->Get(root, &ref));
    TRY(InitNode(bt, std::move(ref), &n));
    intkey = n.intkey;
  }
  std::vector<bool> seen(size_t(bt.pager->page_count()) + 1);
  return ClearPage(bt, root, 0, !keep_root, intkey, seen, entries);
}

}  // namespace btree_detail
}  // namespace basalt
