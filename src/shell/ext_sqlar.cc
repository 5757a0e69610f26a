// Compression functions of sqlite3 3.40.1's shell:
//   sqlar_compress(X)        a blob X zlib-compressed when that makes it
//                            smaller; anything else unchanged
//   sqlar_uncompress(X, SZ)  X unchanged when SZ is 0 or X's size, else X
//                            inflated to (at most) SZ bytes
//   zipfile(NAME, [MODE, MTIME,] DATA [, METHOD])  aggregate: a ZIP archive
//                            (blob) holding one member per row, or NULL
#include <zlib.h>

#include <ctime>
#include <string>
#include <vector>

#include "shell/shell_ext.h"
#include "shell/zip_format.h"

namespace shell {
namespace {

void SqlarCompress(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  const auto* in = static_cast<const Bytef*>(sqlite3_value_blob(argv[0]));
  const uLong n = static_cast<uLong>(sqlite3_value_bytes(argv[0]));
  std::string out(compressBound(n), '\0');
  uLongf out_n = static_cast<uLongf>(out.size());
  if (compress(reinterpret_cast<Bytef*>(out.data()), &out_n, in, n) == Z_OK && out_n < n) {
    sqlite3_result_blob64(ctx, out.data(), out_n, SQLITE_TRANSIENT);
  } else {
    sqlite3_result_value(ctx, argv[0]);
  }
}

void SqlarUncompress(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int sz = sqlite3_value_int(argv[1]);
  const int n = sqlite3_value_bytes(argv[0]);
  if (sz == 0 || sz == n) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  const auto* in = static_cast<const Bytef*>(sqlite3_value_blob(argv[0]));
  uLongf out_n = sz < 0 ? 0 : static_cast<uLongf>(sz);
  std::string out(out_n, '\0');
  if (sz < 0 ||
      uncompress(reinterpret_cast<Bytef*>(out.data()), &out_n, in, static_cast<uLong>(n)) != Z_OK) {
    sqlite3_result_error(ctx, "error in uncompress()", -1);
    return;
  }
  sqlite3_result_blob64(ctx, out.data(), out_n, SQLITE_TRANSIENT);
}

// The aggregate's state: the local records so far and the members' fields.
struct ZipBuild {
  std::string body;
  std::vector<zip::Entry> members;  // without their bytes
};

ZipBuild* BuildOf(sqlite3_context* ctx, bool create) {
  auto** slot =
      static_cast<ZipBuild**>(sqlite3_aggregate_context(ctx, create ? sizeof(ZipBuild*) : 0));
  if (slot == nullptr) return nullptr;
  if (*slot == nullptr && create) *slot = new ZipBuild();
  return *slot;
}

void ZipStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 2 && argc != 4 && argc != 5) {
    sqlite3_result_error(ctx, "wrong number of arguments to function zipfile()", -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_error(ctx, "first argument to zipfile() must be non-NULL", -1);
    return;
  }
  int method = -1;
  if (argc == 5 && sqlite3_value_type(argv[4]) != SQLITE_NULL) {
    method = sqlite3_value_int(argv[4]);
    if (method != 0 && method != 8) {
      const std::string msg = "illegal method value: " + std::to_string(method);
      sqlite3_result_error(ctx, msg.c_str(), -1);
      return;
    }
  }
  sqlite3_value* data = argv[argc == 2 ? 1 : 3];
  const bool is_dir = sqlite3_value_type(data) == SQLITE_NULL;
  uint32_t mode = is_dir ? 040755 : 0100644;
  if (argc > 2) {
    const unsigned char* t = sqlite3_value_text(argv[1]);
    const std::string text = t == nullptr ? "" : reinterpret_cast<const char*>(t);
    if (!zip::ParseMode(text.c_str(), t == nullptr, sqlite3_value_int(argv[1]), mode, &mode)) {
      const std::string msg = "zipfile: parse error in mode: " + text;
      sqlite3_result_error(ctx, msg.c_str(), -1);
      return;
    }
  }
  if (((mode & 040000) != 0) != is_dir) {
    sqlite3_result_error(ctx, "zipfile: mode does not match data", -1);
    return;
  }
  const bool now = argc == 2 || sqlite3_value_type(argv[2]) == SQLITE_NULL;
  const uint32_t mtime =
      static_cast<uint32_t>(now ? std::time(nullptr) : sqlite3_value_int64(argv[2]));
  std::string name = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (is_dir && (name.empty() || name.back() != '/')) name += '/';
  std::string bytes;
  if (!is_dir) {
    const char* p = static_cast<const char*>(sqlite3_value_blob(data));
    if (p != nullptr) bytes.assign(p, static_cast<size_t>(sqlite3_value_bytes(data)));
  }
  ZipBuild* b = BuildOf(ctx, true);
  if (b == nullptr) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  zip::Entry e;
  if (!zip::MakeEntry(name, mode, mtime, is_dir ? nullptr : &bytes, method, &e)) {
    sqlite3_result_error(ctx, "zipfile: deflate() error", -1);
    return;
  }
  e.offset = static_cast<uint32_t>(b->body.size());
  b->body += zip::LocalRecord(e);
  e.raw.clear();
  b->members.push_back(std::move(e));
}

void ZipFinal(sqlite3_context* ctx) {
  ZipBuild* b = BuildOf(ctx, false);
  if (b == nullptr) return;
  std::string dir;
  for (const zip::Entry& e : b->members) dir += zip::CentralRecord(e);
  std::string out = b->body + dir;
  out += zip::EndRecord(static_cast<uint32_t>(b->members.size()), static_cast<uint32_t>(dir.size()),
                        static_cast<uint32_t>(b->body.size()));
  delete b;
  sqlite3_result_blob64(ctx, out.data(), out.size(), SQLITE_TRANSIENT);
}

}  // namespace

void RegisterSqlar(sqlite3* db) {
  sqlite3_create_function(db, "sqlar_compress", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, nullptr,
                          SqlarCompress, nullptr, nullptr);
  sqlite3_create_function(db, "sqlar_uncompress", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, nullptr,
                          SqlarUncompress, nullptr, nullptr);
  sqlite3_create_function(db, "zipfile", -1, SQLITE_UTF8, nullptr, nullptr, ZipStep, ZipFinal);
}

}  // namespace shell
