// Opening one database (main, TEMP or attached): ":memory:" and files,
// plain paths and "file:" URIs; the lazy first read of its schema, and
// noticing schema changes made by other connections.
#include "main/database.h"

#include "os/vfs.h"
#include "pager/file_pager.h"
#include "record/record.h"

namespace basalt {

namespace {

constexpr int kFlagReadOnly = 0x00000001;
constexpr int kFlagCreate = 0x00000004;
constexpr int kFlagUri = 0x00000040;
constexpr int kFlagMemory = 0x00000080;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexDigit(s[i + 1]) >= 0 && HexDigit(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(s[i + 1]) * 16 + HexDigit(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace

Status ParseOpenTarget(std::string_view filename, int flags, OpenTarget* t) {
  t->flags = flags;
  bool uri = filename.size() >= 5 && EqualsIgnoreCase(filename.substr(0, 5), "file:");
  if (!uri) {
    t->path = std::string(filename);
  } else {
    std::string_view rest = filename.substr(5);
    size_t hash = rest.find('#');
    if (hash != std::string_view::npos) rest = rest.substr(0, hash);
    std::string_view query;
    size_t q = rest.find('?');
    if (q != std::string_view::npos) {
      query = rest.substr(q + 1);
      rest = rest.substr(0, q);
    }
    if (rest.size() >= 2 && rest.substr(0, 2) == "//") {
      rest = rest.substr(2);
      size_t slash = rest.find('/');
      std::string_view authority = rest.substr(0, slash);
      if (!authority.empty() && !EqualsIgnoreCase(authority, "localhost")) {
        return Status(kError, "invalid uri authority: " + std::string(authority));
      }
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    }
    t->path = PercentDecode(rest);
    while (!query.empty()) {
      size_t amp = query.find('&');
      std::string_view kv = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      size_t eq = kv.find('=');
      std::string key = PercentDecode(kv.substr(0, eq));
      std::string val = eq == std::string_view::npos ? "" : PercentDecode(kv.substr(eq + 1));
      if (key == "mode") {
        int mask = kFlagReadOnly | 0x2 | kFlagCreate;
        int want;
        if (val == "ro") {
          want = kFlagReadOnly;
        } else if (val == "rw") {
          want = 0x2;
        } else if (val == "rwc") {
          want = 0x2 | kFlagCreate;
        } else if (val == "memory") {
          t->memory = true;
          continue;
        } else {
          return Status(kError, "no such access mode: " + val);
        }
        if (want > (flags & mask)) return Status(kPerm, "access mode not allowed: " + val);
        t->flags = (t->flags & ~mask) | want;
      } else if (key == "immutable" && val == "1") {
        t->flags = (t->flags & ~(0x2 | kFlagCreate)) | kFlagReadOnly;
      } else if (key == "vfs") {
        t->vfs = FindVfs(val);
        if (t->vfs == nullptr) return Status(kError, "no such vfs: " + val);
      }
    }
  }
  (void)kFlagUri;
  if ((flags & kFlagMemory) != 0) t->memory = true;
  if (t->path.empty() || t->path == ":memory:") t->memory = true;
  return Status();
}

Status Database::OpenMemory() {
  ASSIGN_OR_RETURN(bt, Btree::OpenInMemory());
  schema_loaded = true;
  return Status();
}

Status Database::Open(const OpenTarget& target, Vfs* vfs) {
  if (target.memory) return OpenMemory();
  if (target.vfs != nullptr) vfs = target.vfs;
  std::string full;
  TRY(vfs->FullPathname(target.path, &full));
  path = full;
  is_file = true;
  this->vfs = vfs;
  open_flags = target.flags;
  return OpenFile(nullptr);
}

// The file was busy when it was opened (another connection was writing):
// it is opened again, at the first statement that needs it, waiting
// through the busy handler. (SQLite reads nothing at open, so its open
// never fails for a busy lock.)
Status Database::ReopenAfterBusy(const BusyHandler& busy) {
  std::unique_ptr<Btree> placeholder = std::move(bt);
  open_error = Status();
  Status st = OpenFile(busy);  // busy again: a new placeholder and open_error
  if (!st.ok()) {
    bt = std::move(placeholder);
    open_error = st;
  }
  return open_error;
}

Status Database::OpenFile(const BusyHandler& busy) {
  PagerOptions opt;
  opt.read_only = (open_flags & kFlagReadOnly) != 0;
  opt.create = (open_flags & kFlagCreate) != 0;
  // What was set before the file could be read (ReopenAfterBusy).
  opt.busy_handler = busy;
  opt.synchronous = static_cast<Synchronous>(synchronous);
  opt.cache_size = cache_size;
  opt.wal_autocheckpoint = wal_autocheckpoint;
  Result<std::unique_ptr<Pager>> pager = OpenFilePager(vfs, path, opt);
  if (!pager.ok()) {
    int code = pager.status().code() & 0xff;
    if (code == kCantOpen || code == kPerm || code == kNoMem) {
      return Status(kCantOpen, "unable to open database file");
    }
    // The file opened but could not be read as a database: SQLite reports
    // that at the first statement that needs the schema.
    open_error = pager.status();
    ASSIGN_OR_RETURN(bt, Btree::OpenInMemory());
    return Status();
  }
  read_only = (*pager)->read_only();
  Result<std::unique_ptr<Btree>> opened = Btree::Open(std::move(pager).value());
  if (!opened.ok()) {
    open_error = opened.status();
    ASSIGN_OR_RETURN(bt, Btree::OpenInMemory());
    return Status();
  }
  bt = std::move(opened).value();
  return Status();
}

Status Database::EnsureSchema() {
  if (schema_loaded) return Status();
  if (!open_error.ok()) return open_error;
  TRY(LoadSchema());
  schema_loaded = true;
  return Status();
}

Status Database::CheckSchemaCookie() {
  if (!is_file || bt->page_count() == 0) return Status();
  // Unchanged cache: no other connection has written since the last check.
  uint64_t epoch = bt->pager()->cache_epoch();
  if (schema_loaded && epoch == schema_epoch) return Status();
  schema_epoch = epoch;
  uint32_t cookie = 0;
  TRY(bt->GetMeta(Meta::kSchemaCookie, &cookie));
  if (schema_loaded && cookie == schema.cookie) return Status();
  TRY(LoadSchema());
  schema_loaded = true;
  return Status(kSchema, "database schema has changed");
}

Status Database::BumpSchemaCookie() {
  uint32_t cookie = 0;
  TRY(bt->GetMeta(Meta::kSchemaCookie, &cookie));
  TRY(bt->SetMeta(Meta::kSchemaCookie, cookie + 1));
  uint32_t format = 0;
  TRY(bt->GetMeta(Meta::kSchemaFormat, &format));
  if (format == 0) TRY(bt->SetMeta(Meta::kSchemaFormat, 4));
  schema.cookie = cookie + 1;
  schema.Touch();
  return Status();
}

void Database::SetTextEncoding(uint8_t e) {
  enc = e;
  if (bt) bt->SetNewDatabaseEncoding(e);
}

}  // namespace basalt
