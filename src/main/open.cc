// Opening a connection: ":memory:" and file databases (plain paths and
// "file:" URIs), the lazy first read of the schema, and noticing schema
// changes made by other connections.
#include <cstring>

#include "func/builtins.h"
#include "main/connection.h"
#include "os/vfs.h"
#include "pager/file_pager.h"
#include "parser/parser.h"

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

// What a filename asks for once a "file:" URI is taken apart.
struct OpenTarget {
  std::string path;  // empty or ":memory:" for an in-memory database
  int flags = 0;
  bool memory = false;
};

Status ParseTarget(std::string_view filename, int flags, OpenTarget* t) {
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
      } else if (key == "vfs" && val != "unix" && val != "unix-none" && val != "unix-dotfile" &&
                 val != "unix-excl") {
        return Status(kError, "no such vfs: " + val);
      }
    }
  }
  (void)kFlagUri;
  if ((flags & kFlagMemory) != 0) t->memory = true;
  if (t->path.empty() || t->path == ":memory:") t->memory = true;
  return Status();
}

}  // namespace

Result<std::unique_ptr<Connection>> Connection::Open(std::string_view filename, int flags,
                                                     Vfs* vfs) {
  std::unique_ptr<Connection> c(new Connection());
  c->filename_ = std::string(filename);
  c->open_flags_ = flags;
  OpenTarget target;
  TRY(ParseTarget(filename, flags, &target));
  if (target.memory) {
    ASSIGN_OR_RETURN(c->main_, Btree::OpenInMemory());
    c->schema_loaded_ = true;
  } else {
    TRY(c->OpenMainFile(vfs != nullptr ? vfs : DefaultVfs(), target.path, target.flags));
  }
  c->funcs_.SetFallback(&SharedBuiltinFunctions(false));
  c->env_.dbs.push_back(c->main_.get());
  c->env_.hooks = c.get();
  c->env_.interrupted = &c->interrupted_;
  return c;
}

Status Connection::OpenMainFile(Vfs* vfs, const std::string& path, int flags) {
  std::string full;
  TRY(vfs->FullPathname(path, &full));
  path_ = full;
  is_file_ = true;
  vfs_ = vfs;
  PagerOptions opt;
  opt.read_only = (flags & kFlagReadOnly) != 0;
  opt.create = (flags & kFlagCreate) != 0;
  // (Defaults at open; what was set since when RetryBusyOpen opens again.)
  opt.busy_handler = busy_handler_;
  opt.synchronous = static_cast<Synchronous>(synchronous_);
  opt.cache_size = cache_size_;
  opt.wal_autocheckpoint = wal_autocheckpoint_;
  Result<std::unique_ptr<Pager>> pager = OpenFilePager(vfs, full, opt);
  if (!pager.ok()) {
    int code = pager.status().code() & 0xff;
    if (code == kCantOpen || code == kPerm || code == kNoMem) {
      return Status(kCantOpen, "unable to open database file");
    }
    // The file opened but could not be read as a database: SQLite reports
    // that at the first statement that needs the schema.
    open_error_ = pager.status();
    ASSIGN_OR_RETURN(main_, Btree::OpenInMemory());
    return Status();
  }
  read_only_ = (*pager)->read_only();
  Result<std::unique_ptr<Btree>> bt = Btree::Open(std::move(pager).value());
  if (!bt.ok()) {
    open_error_ = bt.status();
    ASSIGN_OR_RETURN(main_, Btree::OpenInMemory());
    return Status();
  }
  main_ = std::move(bt).value();
  main_->pager()->SetBusyHandler(busy_handler_);
  return Status();
}

void Connection::SetBusyHandler(BusyHandler handler) {
  busy_timeout_ms_ = 0;
  busy_handler_ = std::move(handler);
  Pager* pager = main_ ? main_->pager() : nullptr;
  if (pager != nullptr) pager->SetBusyHandler(busy_handler_);
}

void Connection::SetBusyTimeout(int ms) {
  if (ms <= 0) {
    SetBusyHandler(nullptr);
    return;
  }
  SetBusyHandler([limit = ms](int attempts) {
    // Waits grow from 1 ms to 100 ms, until the total passes the timeout.
    static const int kDelays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
    constexpr int kN = static_cast<int>(sizeof(kDelays) / sizeof(kDelays[0]));
    int spent = 0;
    for (int i = 0; i < attempts && i < kN; ++i) spent += kDelays[i];
    if (attempts >= kN) spent += (attempts - kN) * kDelays[kN - 1];
    int next = attempts < kN ? kDelays[attempts] : kDelays[kN - 1];
    if (spent >= limit) return false;
    if (spent + next > limit) next = limit - spent;
    DefaultVfs()->Sleep(next * 1000);
    return true;
  });
  busy_timeout_ms_ = ms;
}

// The file was busy when the connection opened it (another connection
// was committing): it is opened again at the first statement that needs
// it, now with the busy handler and the settings made since. (SQLite reads
// nothing at open, so opening never fails for a busy lock.)
Status Connection::RetryBusyOpen() {
  OpenTarget target;
  TRY(ParseTarget(filename_, open_flags_, &target));
  open_error_ = Status();
  Status st = OpenMainFile(vfs_, target.path, target.flags);  // main_: new (or placeholder)
  if (!st.ok()) open_error_ = st;
  env_.dbs[0] = main_.get();
  return open_error_;
}

Status Connection::EnsureSchema() {
  if (schema_loaded_) return Status();
  if (open_error_.primary() == kBusy) TRY(RetryBusyOpen());
  if (!open_error_.ok()) return open_error_;
  TRY(LoadSchema());
  schema_loaded_ = true;
  return Status();
}

Status Connection::CheckSchemaCookie() {
  if (!is_file_ || main_->page_count() == 0) return Status();
  // Unchanged cache: no other connection has written since the last check.
  uint64_t epoch = main_->pager()->cache_epoch();
  if (schema_loaded_ && epoch == schema_epoch_) return Status();
  schema_epoch_ = epoch;
  uint32_t cookie = 0;
  TRY(main_->GetMeta(Meta::kSchemaCookie, &cookie));
  if (schema_loaded_ && cookie == schema_.cookie) return Status();
  TRY(LoadSchema());
  schema_loaded_ = true;
  return Status(kSchema, "database schema has changed");
}

}  // namespace basalt
