// The DBSTAT virtual table (dbstat.html): one row per page of every b-tree
// of a database (or, with aggregate=1, one row per b-tree). The module is
// registered as "dbstat" on every connection; its eponymous table reads the
// main database, `CREATE VIRTUAL TABLE x USING dbstat(schema)` another one.
//
// Columns: name, path, pageno, pagetype, ncell, payload, unused,
// mx_payload, pgoffset, pgsize, then the hidden schema and aggregate.
//
// Protocol:
//   1. BestIndex takes `=` constraints on schema (omitted), name and
//      aggregate (both checked again by the VM), in that argv order, and
//      flags them in idx_num (kUseSchema, kUseName, kUseAggregate). An
//      unusable `=` constraint on any column makes the plan unusable
//      (SQLITE_CONSTRAINT), so that a join puts dbstat innermost. ORDER BY
//      name [, path] ascending is consumed (kOrderByName).
//   2. Filter picks the database (an unknown schema name gives no rows, not
//      an error), opens a read transaction on it and lists the b-trees:
//      sqlite_schema (root 1) first, then each sqlite_schema row with a
//      non-zero rootpage in rowid order, keeping those whose name equals the
//      name constraint; sorted by name under kOrderByName.
//   3. Each b-tree is walked depth first from its root. A page's row comes
//      before what hangs below it; for cell i of a page its overflow pages
//      come first, then its left child, and the right-most child last.
//      Paths: "/" for a root, parent path + "%03x/" (child index) for a
//      child, parent path + "%03x+%06x" (cell index, overflow index) for an
//      overflow page.
//   4. Counters (ncell, payload, unused, mx_payload, pgsize, page count)
//      restart at each row; in aggregate mode they run over a whole b-tree
//      and one row is produced when its walk ends.
//   5. Quirks of SQLite 3.40.1, reproduced: pgsize (and so pgoffset, which
//      is pgsize * (pageno - 1)) uses the page size of the database the
//      table belongs to (main for the eponymous table), not of the one
//      scanned; an overflow page's pgoffset is computed before the walk
//      moves to that page, so it is the offset of the previous row's page;
//      the rowid of an aggregate row is the last b-tree (not overflow) page
//      read.
#include <algorithm>
#include <cstdio>

#include "btree/btree.h"
#include "btree/format.h"
#include "catalog/function.h"
#include "catalog/vtab.h"
#include "common/assert.h"
#include "main/connection.h"
#include "main/dbstat_vtab.h"
#include "record/value_ops.h"

namespace basalt {

namespace {

// Columns, in declared order.
enum DbstatColumn : int {
  kColName = 0,
  kColPath,
  kColPageno,
  kColPagetype,
  kColNcell,
  kColPayload,
  kColUnused,
  kColMxPayload,
  kColPgoffset,
  kColPgsize,
  kColSchema,
  kColAggregate,
};

// idx_num bits.
constexpr int kUseSchema = 0x01;
constexpr int kUseName = 0x02;
constexpr int kUseAggregate = 0x04;
constexpr int kOrderByName = 0x08;

// Levels of a b-tree walk (SQLite's limit for dbstat too).
constexpr size_t kMaxDepth = 32;

constexpr const char* kDeclaration =
    "CREATE TABLE x(name TEXT, path TEXT, pageno INTEGER, pagetype TEXT, ncell INTEGER, "
    "payload INTEGER, unused INTEGER, mx_payload INTEGER, pgoffset INTEGER, pgsize INTEGER, "
    "schema TEXT HIDDEN, aggregate BOOLEAN HIDDEN)";

// A database name as written in the module arguments, quotes removed.
std::string DequoteName(std::string_view s) {
  if (s.size() < 2) return std::string(s);
  char close = 0;
  switch (s.front()) {
    case '\'':
    case '"':
    case '`':
      close = s.front();
      break;
    case '[':
      close = ']';
      break;
    default:
      return std::string(s);
  }
  std::string out;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] != close) {
      out += s[i];
    } else if (close != ']' && i + 1 < s.size() && s[i + 1] == close) {
      out += close;
      ++i;
    } else {
      break;
    }
  }
  return out;
}

// Text of an argument as sqlite3_value_text gives it; false for NULL.
bool ArgText(const Value& v, std::string* out) {
  if (v.is_null()) return false;
  Value copy;
  copy.CopyFrom(v);
  Stringify(&copy);
  *out = std::string(copy.data(), copy.size());
  return true;
}

std::string Hex(uint64_t v, int width) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%0*llx", width, static_cast<unsigned long long>(v));
  return buf;
}

const char* PageTypeName(uint8_t type) {
  switch (type) {
    case btfmt::kTableInterior:
    case btfmt::kIndexInterior:
      return "internal";
    case btfmt::kTableLeaf:
    case btfmt::kIndexLeaf:
      return "leaf";
    default:
      return "corrupted";
  }
}

// A b-tree to walk.
struct TreeRef {
  Value name;  // text, or NULL for a nameless sqlite_schema row
  Pgno root = 0;
};

// One page on the path from the root to the current page.
struct Frame {
  Pgno pgno = 0;
  std::string path;
  PageLayout layout;
  size_t cell = 0;     // the cell whose overflow pages / child come next
  uint32_t ovfl = 0;   // overflow pages of that cell already reported
  Pgno ovfl_next = 0;  // the next of them
};

class DbstatCursor : public VtabCursor {
 public:
  DbstatCursor(Connection* conn, int db) : conn_(conn), default_db_(db) {}

  Status Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) override;
  Status Next() override;
  bool Eof() override { return eof_; }
  Status Column(FuncContext* ctx, int i) override;
  Status Rowid(int64_t* rowid) override {
    *rowid = static_cast<int64_t>(pageno_);
    return Status();
  }

 private:
  void ResetCounts() {
    ncell_ = 0;
    payload_ = 0;
    unused_ = 0;
    mx_payload_ = 0;
    pgsize_ = 0;
    npage_ = 0;
  }
  // SQLite's offset rule (protocol 5): pgsize grows by a page, the offset
  // is that of pageno_ as it stands.
  void AddPageSize() {
    pgsize_ += table_page_size_;
    pgoffset_ = pgsize_ * (static_cast<int64_t>(pageno_) - 1);
  }
  Status ListTrees(const std::string* name, bool by_name);
  // Reads the page of the top frame and adds it to the counters.
  Status EnterTopPage();
  // Reports the next overflow page of the top frame's current cell.
  Status StepOverflow(bool* produced);

  Connection* conn_;
  int default_db_;
  int db_ = 0;
  Btree* bt_ = nullptr;
  int64_t table_page_size_ = 0;  // see protocol 5
  bool agg_ = false;
  bool eof_ = true;
  std::vector<TreeRef> trees_;
  size_t tree_ = 0;  // trees_ index of the walk in progress + 1 (0: none yet)
  std::vector<Frame> stack_;
  // The current row.
  std::string path_;
  const char* pagetype_ = "";
  Pgno pageno_ = 0;
  int64_t ncell_ = 0;
  int64_t payload_ = 0;
  int64_t unused_ = 0;
  int64_t mx_payload_ = 0;
  int64_t pgoffset_ = 0;
  int64_t pgsize_ = 0;
  int64_t npage_ = 0;
};

Status DbstatCursor::Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) {
  (void)idx_str;
  trees_.clear();
  stack_.clear();
  tree_ = 0;
  eof_ = true;
  pageno_ = 0;
  int arg = 0;
  db_ = default_db_;
  if ((idx_num & kUseSchema) != 0) {
    BASALT_DCHECK(arg < argc);
    std::string schema;
    db_ = ArgText(*argv[arg++], &schema) ? conn_->dbs().Find(schema) : -1;
    if (db_ < 0) {
      db_ = 0;
      return Status();  // an unknown database has no pages
    }
  }
  if (db_ >= conn_->dbs().size()) return Status();  // detached since
  std::string name;
  bool has_name = false;
  if ((idx_num & kUseName) != 0) {
    BASALT_DCHECK(arg < argc);
    has_name = ArgText(*argv[arg++], &name);
  }
  agg_ = false;
  if ((idx_num & kUseAggregate) != 0) {
    BASALT_DCHECK(arg < argc);
    agg_ = ValueToDouble(*argv[arg++]) != 0.0;
  }
  // The walk reads the database inside the statement's transaction.
  Status st = conn_->txn().EnsureTransaction(db_, false);
  if (!st.ok() && st.code() != kSchema) return st;
  bt_ = conn_->dbs().at(db_)->bt.get();
  if (bt_ == nullptr || bt_->page_count() == 0) return Status();
  table_page_size_ = bt_->page_size();
  if (default_db_ < conn_->dbs().size()) {
    const Database* own = conn_->dbs().at(default_db_);
    if (own->bt != nullptr) table_page_size_ = own->bt->page_size();
  }
  TRY(ListTrees(has_name ? &name : nullptr, (idx_num & kOrderByName) != 0));
  eof_ = false;
  return Next();
}

Status DbstatCursor::ListTrees(const std::string* name, bool by_name) {
  auto keep = [&](const Value& v) { return name == nullptr || (v.is_text() && v.text() == *name); };
  Value schema_name = Value::Text("sqlite_schema");
  if (keep(schema_name)) trees_.push_back({std::move(schema_name), 1});
  Database* db = conn_->dbs().at(db_);
  BtCursor cur;
  TRY(bt_->OpenCursor(1, false, &cur, nullptr, nullptr, TreeKind::kTable));
  TRY(cur.First());
  std::string rec;
  Value fields[4];  // type, name, tbl_name, rootpage
  while (!cur.eof()) {
    int nfields = 0;
    TRY(db->ReadSchemaFields(&cur, &rec, fields, 4, &nfields));
    const Value& root = fields[3];
    if (!root.is_null() && ValueToDouble(root) != 0.0 && keep(fields[1])) {
      TreeRef t;
      t.name.CopyFrom(fields[1]);  // a deep copy: rec is reused
      t.root = static_cast<Pgno>(root.is_int() ? root.int_value() : 0);
      trees_.push_back(std::move(t));
    }
    TRY(cur.Next());
  }
  if (by_name) {
    std::stable_sort(trees_.begin(), trees_.end(), [](const TreeRef& a, const TreeRef& b) {
      return CompareValues(a.name, b.name, nullptr) < 0;
    });
  }
  return Status();
}

Status DbstatCursor::EnterTopPage() {
  Frame& f = stack_.back();
  pageno_ = f.pgno;
  Status st = bt_->ReadPageLayout(f.pgno, &f.layout);
  if (st.primary() == kCorrupt) {
    f.layout = PageLayout();  // reported as a "corrupted" page with nothing on it
  } else if (!st.ok()) {
    return st;
  }
  AddPageSize();
  pagetype_ = PageTypeName(f.layout.type);
  ncell_ += static_cast<int64_t>(f.layout.cells.size());
  unused_ += f.layout.unused;
  for (const PageLayout::Cell& c : f.layout.cells) {
    mx_payload_ = std::max<int64_t>(mx_payload_, c.payload);
    payload_ += c.local;
  }
  if (!agg_) path_ = f.path;
  return Status();
}

Status DbstatCursor::StepOverflow(bool* produced) {
  *produced = false;
  Frame& f = stack_.back();
  const PageLayout::Cell& c = f.layout.cells[f.cell];
  const Pgno page = f.ovfl == 0 ? c.overflow : f.ovfl_next;
  const uint32_t index = f.ovfl++;
  const int64_t per_page = bt_->usable_size() - btfmt::kOverflowHeader;
  ++npage_;
  AddPageSize();
  if (f.ovfl < c.n_overflow) {
    payload_ += per_page;
    TRY(bt_->ReadOverflowNext(page, &f.ovfl_next));
  } else {
    const int64_t last = static_cast<int64_t>(c.payload - c.local) -
                         static_cast<int64_t>(c.n_overflow - 1) * per_page;
    payload_ += last;
    unused_ += per_page - last;
  }
  if (agg_) return Status();
  pageno_ = page;
  pagetype_ = "overflow";
  path_ = f.path + Hex(f.cell, 3) + "+" + Hex(index, 6);
  *produced = true;
  return Status();
}

Status DbstatCursor::Next() {
  for (;;) {
    if (stack_.empty()) {
      // Start the next b-tree.
      ResetCounts();
      if (tree_ >= trees_.size()) {
        eof_ = true;
        return Status();
      }
      const TreeRef& t = trees_[tree_++];
      Frame root;
      root.pgno = t.root;
      if (!agg_) root.path = "/";
      stack_.push_back(std::move(root));
      npage_ = 1;
    } else {
      Frame* f = &stack_.back();
      if (!agg_) ResetCounts();
      bool produced = false;
      while (f->cell < f->layout.cells.size()) {
        while (f->ovfl < f->layout.cells[f->cell].n_overflow) {
          TRY(StepOverflow(&produced));
          if (produced) return Status();
        }
        if (f->layout.right_child != 0) break;
        ++f->cell;
        f->ovfl = 0;
      }
      if (f->layout.right_child == 0 || f->cell > f->layout.cells.size()) {
        stack_.pop_back();
        if (agg_ && stack_.empty()) return Status();  // the b-tree's row
        continue;
      }
      // A deeper tree is a damaged one (its child pointers form a cycle).
      if (stack_.size() >= kMaxDepth) return CORRUPT();
      Frame child;
      child.pgno = f->cell == f->layout.cells.size() ? f->layout.right_child
                                                     : f->layout.cells[f->cell].child;
      if (!agg_) child.path = f->path + Hex(f->cell, 3) + "/";
      ++f->cell;
      f->ovfl = 0;
      ++npage_;
      stack_.push_back(std::move(child));  // f is invalid from here
    }
    TRY(EnterTopPage());
    if (!agg_) return Status();
  }
}

Status DbstatCursor::Column(FuncContext* ctx, int i) {
  Value* out = ctx->result;
  out->SetNull();
  switch (i) {
    case kColName:
      if (tree_ > 0) out->CopyFrom(trees_[tree_ - 1].name);
      break;
    case kColPath:
      if (!agg_) out->SetText(path_);
      break;
    case kColPageno:
      out->SetInt(agg_ ? npage_ : static_cast<int64_t>(pageno_));
      break;
    case kColPagetype:
      if (!agg_) out->SetText(pagetype_);
      break;
    case kColNcell:
      out->SetInt(ncell_);
      break;
    case kColPayload:
      out->SetInt(payload_);
      break;
    case kColUnused:
      out->SetInt(unused_);
      break;
    case kColMxPayload:
      out->SetInt(mx_payload_);
      break;
    case kColPgoffset:
      if (!agg_) out->SetInt(pgoffset_);
      break;
    case kColPgsize:
      out->SetInt(pgsize_);
      break;
    case kColSchema:
      out->SetText(conn_->dbs().at(db_)->name);
      break;
    default:
      out->SetInt(agg_ ? 1 : 0);
      break;
  }
  return Status();
}

class DbstatVtab : public Vtab {
 public:
  DbstatVtab(Connection* conn, int db) : conn_(conn), db_(db) {
    risk = 2;  // SQLITE_VTAB_DIRECTONLY
  }

  Status BestIndex(IndexInfo* info) override {
    int schema = -1, name = -1, aggregate = -1;
    for (size_t i = 0; i < info->constraints.size(); ++i) {
      const IndexInfo::Constraint& c = info->constraints[i];
      if (c.op != kVtabEq) continue;
      // Without its value dbstat cannot run: it must be the inner loop.
      if (!c.usable) return Status(kConstraint, "dbstat constraint not usable");
      if (c.column == kColName) name = static_cast<int>(i);
      if (c.column == kColSchema) schema = static_cast<int>(i);
      if (c.column == kColAggregate) aggregate = static_cast<int>(i);
    }
    int argc = 0;
    if (schema >= 0) {
      info->constraints[static_cast<size_t>(schema)].argv_index = ++argc;
      info->constraints[static_cast<size_t>(schema)].omit = true;
      info->idx_num |= kUseSchema;
    }
    if (name >= 0) {
      info->constraints[static_cast<size_t>(name)].argv_index = ++argc;
      info->idx_num |= kUseName;
    }
    if (aggregate >= 0) {
      info->constraints[static_cast<size_t>(aggregate)].argv_index = ++argc;
      info->idx_num |= kUseAggregate;
    }
    info->estimated_cost = 1.0;
    const std::vector<IndexInfo::OrderTerm>& ob = info->order_by;
    const bool by_name = (ob.size() == 1 || ob.size() == 2) && ob[0].column == kColName &&
                         !ob[0].desc &&
                         (ob.size() == 1 || (ob[1].column == kColPath && !ob[1].desc));
    if (by_name) {
      info->order_by_consumed = true;
      info->idx_num |= kOrderByName;
    }
    return Status();
  }

  Status Open(std::unique_ptr<VtabCursor>* out) override {
    *out = std::make_unique<DbstatCursor>(conn_, db_);
    return Status();
  }

 private:
  Connection* conn_;
  int db_;
};

class DbstatModule : public VtabModule {
 public:
  explicit DbstatModule(Connection* conn) : conn_(conn) {}

  Status Create(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    return Connect(args, out, declared);
  }
  Status Connect(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    int db = 0;
    if (!args.args.empty()) {
      db = conn_->dbs().Find(DequoteName(args.args[0]));
      if (db < 0) return Status(kError, "no such database: " + args.args[0]);
    }
    *declared = kDeclaration;
    *out = std::make_unique<DbstatVtab>(conn_, db);
    return Status();
  }
  bool eponymous() const override { return true; }

 private:
  Connection* conn_;
};

}  // namespace

std::shared_ptr<VtabModule> MakeDbstatModule(Connection* conn) {
  return std::make_shared<DbstatModule>(conn);
}

}  // namespace basalt
