// The B-tree side of VACUUM: copying a tree's entries in order into another
// database (CopyTree), and replacing a database's pages by those of a
// freshly built one inside a journaled write transaction (CopyContentFrom).
//
// The connection layer's VACUUM, in these terms:
//   1. build src: a new database with this one's page size (and the wanted
//      auto-vacuum mode), with every sqlite_schema object created in order
//      and its entries copied by src->CopyTree(this, old_root, new_root);
//      meta values (schema cookie + 1, user version, application id, ...)
//      set; committed;
//   2. in this database's write transaction: CopyContentFrom(src), Commit.
#include <vector>

#include "btree/btree_internal.h"

namespace basalt {

using namespace btfmt;
using btree_detail::WithRead;

Status Btree::CopyTree(Btree* src, Pgno src_root, Pgno dst_root) {
  if (!in_write_transaction()) return Status(kMisuse, "CopyTree outside a write transaction");
  return WithRead(*src->s_, [&]() -> Status {
    BtCursor in, out;
    TRY(src->OpenCursor(src_root, false, &in));
    TRY(OpenCursor(dst_root, true, &out));
    if (in.is_table() != out.is_table()) {
      return Status(kMisuse, "CopyTree between a table and an index tree");
    }
    // Within one database a write moves the reading cursor's pages: copy
    // every payload out first.
    const bool same = src == this;
    std::vector<uint8_t> buf;
    TRY(in.First());
    while (!in.eof()) {
      const uint32_t n = in.payload_size();
      std::span<const uint8_t> local = in.local_payload();
      const uint8_t* data = local.data();
      if (same || local.size() != n) {
        buf.resize(n);
        TRY(in.ReadPayload(0, n, buf.data()));
        data = buf.data();
      }
      if (in.is_table()) {
        TRY(out.InsertRow(in.rowid(), data, n));
      } else {
        TRY(out.AppendKey(data, n));
      }
      TRY(in.Next());
    }
    return Status();
  });
}

Status Btree::CopyContentFrom(Btree* src) {
  if (!in_write_transaction()) {
    return Status(kMisuse, "CopyContentFrom outside a write transaction");
  }
  if (src == this || src->s_->ephemeral) return Status(kMisuse, "bad CopyContentFrom source");
  Pager& dst = *s_->pager;
  return WithRead(*src->s_, [&]() -> Status {
    Pager& from = *src->s_->pager;
    const Pgno n = from.page_count();
    if (n == 0) return Status(kMisuse, "CopyContentFrom an empty database");
    // Every tree changes: open cursors cannot continue.
    s_->TripCursors(0, kAbort);
    if (from.page_size() != dst.page_size()) return CopyResized(src);
    const uint32_t ps = dst.page_size();
    for (Pgno pgno = 1; pgno <= n; ++pgno) {
      PageRef to;
      if (pgno <= dst.page_count()) {
        if (pgno == s_->lock_page) continue;  // never written
        TRY(dst.Get(pgno, &to));
      } else {
        TRY(dst.Append(&to));
        if (to.pgno() != pgno) return CORRUPT();
        if (pgno == s_->lock_page) continue;
      }
      PageRef page;
      TRY(from.Get(pgno, &page));
      TRY(dst.Write(to));
      to.frame()->user_pgno = 0;  // no cached free-space count survives
      uint8_t* d = to.data();
      if (pgno == 1) {
        // Keep what belongs to this file, not to its content: the journal
        // format (WAL or not) and the change counter.
        uint8_t versions[2] = {d[kHdrWriteVersion], d[kHdrReadVersion]};
        uint8_t counter[4];
        std::memcpy(counter, d + kHdrChangeCounter, 4);
        std::memcpy(d, page.data(), ps);
        d[kHdrWriteVersion] = versions[0];
        d[kHdrReadVersion] = versions[1];
        std::memcpy(d + kHdrChangeCounter, counter, 4);
      } else {
        std::memcpy(d, page.data(), ps);
      }
    }
    if (dst.page_count() > n) TRY(dst.Truncate(n));
    // Reserved bytes and auto-vacuum mode are now src's.
    s_->hdr_known = false;
    return s_->Refresh();
  });
}

// A new page size: the pager rewrites the whole file (journaled in the old
// page size, see Pager::RewriteWithPageSize); page 1 keeps this file's
// journal-format bytes and change counter, as above.
Status Btree::CopyResized(Btree* src) {
  Pager& dst = *s_->pager;
  Pager& from = *src->s_->pager;
  uint8_t versions[2];
  uint8_t counter[4];
  {
    PageRef p1;
    TRY(dst.Get(1, &p1));
    versions[0] = p1.data()[kHdrWriteVersion];
    versions[1] = p1.data()[kHdrReadVersion];
    std::memcpy(counter, p1.data() + kHdrChangeCounter, 4);
  }
  const uint32_t ps = from.page_size();
  TRY(dst.RewriteWithPageSize(ps, from.page_count(), [&](Pgno pgno, uint8_t* out) -> Status {
    PageRef page;
    TRY(from.Get(pgno, &page));
    std::memcpy(out, page.data(), ps);
    if (pgno == 1) {
      out[kHdrWriteVersion] = versions[0];
      out[kHdrReadVersion] = versions[1];
      std::memcpy(out + kHdrChangeCounter, counter, 4);
    }
    return Status();
  }));
  // Commit writes page 1 (change counter, size) as after any change.
  {
    PageRef p1;
    TRY(dst.Get(1, &p1));
    TRY(dst.Write(p1));
  }
  s_->hdr_known = false;
  return s_->Refresh();
}

}  // namespace basalt
