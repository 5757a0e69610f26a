// The SQLite database file format as the B-tree layer codes it
// (fileformat2 sections 1.3 - 1.6). Each table below sits next to the
// constants that implement it.
#pragma once

#include <cstdint>

namespace basalt::btfmt {

// ---------------------------------------------------------------------------
// Database header: the first 100 bytes of page 1. Big-endian.
//
//   offset size  field
//   0      16    "SQLite format 3\0"
//   16     2     page size (1 means 65536)
//   18     1     file format write version (1 legacy, 2 WAL)
//   19     1     file format read version  (1 legacy, 2 WAL)
//   20     1     reserved bytes at the end of each page
//   21     1     max embedded payload fraction, must be 64
//   22     1     min embedded payload fraction, must be 32
//   23     1     leaf payload fraction, must be 32
//   24     4     file change counter
//   28     4     database size in pages ("in-header database size")
//   32     4     first freelist trunk page
//   36     4     total freelist pages
//   40     4     schema cookie                    meta 0
//   44     4     schema format number (4)         meta 1
//   48     4     default page cache size          meta 2
//   52     4     largest root page (auto-vacuum)  meta 3
//   56     4     text encoding (1 UTF-8)          meta 4
//   60     4     user version                     meta 5
//   64     4     incremental vacuum flag          meta 6
//   68     4     application id                   meta 7
//   72     20    reserved, zero
//   92     4     version-valid-for (change counter when 96 was written)
//   96     4     SQLITE_VERSION_NUMBER of the last writer
// ---------------------------------------------------------------------------
inline constexpr char kMagic[16] = "SQLite format 3";  // 15 chars + NUL
inline constexpr int kHdrMagic = 0;
inline constexpr int kHdrPageSize = 16;
inline constexpr int kHdrWriteVersion = 18;
inline constexpr int kHdrReadVersion = 19;
inline constexpr int kHdrReserved = 20;
inline constexpr int kHdrMaxPayloadFrac = 21;
inline constexpr int kHdrMinPayloadFrac = 22;
inline constexpr int kHdrLeafPayloadFrac = 23;
inline constexpr int kHdrChangeCounter = 24;
inline constexpr int kHdrDatabaseSize = 28;
inline constexpr int kHdrFreelistTrunk = 32;
inline constexpr int kHdrFreelistCount = 36;
inline constexpr int kHdrMetaBase = 40;  // meta i at 40 + 4 * i
inline constexpr int kHdrVersionValidFor = 92;
inline constexpr int kHdrVersionNumber = 96;
inline constexpr int kDbHeaderSize = 100;

inline constexpr uint32_t kSqliteVersionNumber = 3040001;
inline constexpr uint32_t kSchemaFormat = 4;
inline constexpr uint32_t kTextUtf8 = 1;

// ---------------------------------------------------------------------------
// B-tree page header (at offset 100 on page 1, else 0).
//
//   offset size  field
//   0      1     page type: 2 index interior, 5 table interior,
//                           10 index leaf, 13 table leaf
//   1      2     first freeblock (0 = none)
//   3      2     number of cells
//   5      2     start of the cell content area (0 means 65536)
//   7      1     fragmented free bytes in the content area
//   8      4     right-most child pointer (interior pages only)
//
// The cell pointer array follows: one 2-byte offset per cell, in key order.
// Freeblocks in the content area form a chain in increasing offset order:
//
//   offset size  field
//   0      2     offset of the next freeblock (0 = last)
//   2      2     size of this freeblock in bytes, including these 4
// ---------------------------------------------------------------------------
inline constexpr int kPgType = 0;
inline constexpr int kPgFirstFreeblock = 1;
inline constexpr int kPgCellCount = 3;
inline constexpr int kPgContentStart = 5;
inline constexpr int kPgFragBytes = 7;
inline constexpr int kPgRightChild = 8;
inline constexpr int kLeafHeaderSize = 8;
inline constexpr int kInteriorHeaderSize = 12;
inline constexpr int kMaxFragBytes = 60;

inline constexpr uint8_t kIndexInterior = 2;
inline constexpr uint8_t kTableInterior = 5;
inline constexpr uint8_t kIndexLeaf = 10;
inline constexpr uint8_t kTableLeaf = 13;
inline constexpr uint8_t kLeafFlag = 8;  // set in both leaf types

// ---------------------------------------------------------------------------
// Cells.
//
//   table leaf (13):     varint payload size P, varint rowid,
//                        local payload, [4-byte first overflow page]
//   table interior (5):  4-byte left child, varint rowid
//   index leaf (10):     varint payload size P, local payload,
//                        [4-byte first overflow page]
//   index interior (2):  4-byte left child, varint payload size P,
//                        local payload, [4-byte first overflow page]
//
// Local payload (U = usable size):
//   X = U - 35 for table leaves, ((U - 12) * 64 / 255) - 23 for index pages
//   M = ((U - 12) * 32 / 255) - 23
//   K = M + ((P - M) % (U - 4))
//   P <= X: all P bytes local; else K bytes if K <= X, else M bytes; the
//   rest goes to the overflow chain.
// A cell occupies at least 4 bytes on its page (so that freeing it leaves
// room for a freeblock header).
//
// Overflow page: 4-byte next page (0 = last), then U - 4 payload bytes.
// ---------------------------------------------------------------------------
inline constexpr int kMinCellSize = 4;
inline constexpr int kOverflowHeader = 4;

inline uint32_t MaxLocalTable(uint32_t usable) { return usable - 35; }
inline uint32_t MaxLocalIndex(uint32_t usable) { return (usable - 12) * 64 / 255 - 23; }
inline uint32_t MinLocal(uint32_t usable) { return (usable - 12) * 32 / 255 - 23; }

// Bytes of a payload of size p stored on the b-tree page.
inline uint32_t LocalSize(uint64_t p, uint32_t max_local, uint32_t min_local, uint32_t usable) {
  if (p <= max_local) return uint32_t(p);
  uint32_t k = min_local + uint32_t((p - min_local) % (usable - 4));
  return k <= max_local ? k : min_local;
}

// ---------------------------------------------------------------------------
// Freelist trunk page.
//
//   offset size  field
//   0      4     next trunk page (0 = last)
//   4      4     number of leaf page numbers that follow (L)
//   8      4*L   leaf page numbers
// SQLite fills at most U/4 - 8 leaf slots (the last six stay unused for old
// readers); readers accept up to U/4 - 2.
// ---------------------------------------------------------------------------
inline constexpr int kTrunkNext = 0;
inline constexpr int kTrunkCount = 4;
inline constexpr int kTrunkLeaves = 8;
inline uint32_t MaxTrunkLeavesWritten(uint32_t usable) { return usable / 4 - 8; }
inline uint32_t MaxTrunkLeavesRead(uint32_t usable) { return usable / 4 - 2; }

// The page holding file bytes 1073741824..1073742335 (the lock-byte page) is
// never used by the B-tree: not as a b-tree, overflow, freelist or pointer-map
// page. It exists only in files larger than 1 GiB.
inline uint32_t LockBytePage(uint32_t page_size) { return 0x40000000u / page_size + 1; }

// ---------------------------------------------------------------------------
// Pointer-map pages (auto-vacuum databases, fileformat2 1.7). With
// J = U / 5 entries per page, the first pointer-map page is page 2 and
// covers pages 3 .. J + 2; the next is page J + 3, and so on: every group of
// J + 1 pages starting at page 2 begins with its pointer map. When the
// lock-byte page falls where a pointer map belongs, the map is the page
// after it. Entry for page P (on map page M): 5 bytes at 5 * (P - M - 1):
//
//   offset size  field
//   0      1     type: 1 root page, 2 free page, 3 first overflow page,
//                4 later overflow page, 5 non-root b-tree page
//   1      4     parent: 0 for types 1 and 2; the b-tree page holding the
//                cell (3); the previous overflow page (4); the parent
//                b-tree page (5)
//
// Root pages occupy 2 .. "largest root page" (header offset 52), skipping
// pointer maps and the lock-byte page, so auto-vacuum never moves a root.
// ---------------------------------------------------------------------------
inline constexpr uint8_t kPtrmapRoot = 1;
inline constexpr uint8_t kPtrmapFree = 2;
inline constexpr uint8_t kPtrmapOverflow1 = 3;
inline constexpr uint8_t kPtrmapOverflow2 = 4;
inline constexpr uint8_t kPtrmapBtree = 5;
inline constexpr int kPtrmapEntrySize = 5;

}  // namespace basalt::btfmt
