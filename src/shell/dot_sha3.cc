// .sha3sum: a SHA3 hash of the database content, computed as sqlite3
// computes it so that the two shells agree on the same data. The shell adds
// sha3(X[,BITS]) and sha3_query(SQL[,BITS]) to each connection it opens.
//
// sha3_query hashes, for each statement of SQL: "S<len>:" and its text;
// for each row "R"; for each value "N" (NULL), "I" or "F" and the 8 bytes
// of the integer or double (big-endian), "T<len>:" or "B<len>:" and the
// bytes of text or a blob.
#include <cstring>
#include <string>
#include <vector>

#include "shell/sha3.h"
#include "shell/shell.h"

namespace shell {
namespace {

int BitsArg(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc < 2) return 256;
  int bits = sqlite3_value_int(argv[1]);
  if (bits != 224 && bits != 256 && bits != 384 && bits != 512) {
    sqlite3_result_error(ctx, "SHA3 size should be one of: 224 256 384 512", -1);
    return 0;
  }
  return bits;
}

void Big8(Sha3& h, char tag, uint64_t u) {
  unsigned char x[9];
  x[0] = static_cast<unsigned char>(tag);
  for (int j = 8; j >= 1; --j) {
    x[j] = static_cast<unsigned char>(u & 0xff);
    u >>= 8;
  }
  h.Update(x, 9);
}

void Sha3Func(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const int bits = BitsArg(ctx, argc, argv);
  if (bits == 0) return;
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return;
  Sha3 h(bits);
  const void* p = type == SQLITE_BLOB ? sqlite3_value_blob(argv[0])
                                      : static_cast<const void*>(sqlite3_value_text(argv[0]));
  h.Update(p, static_cast<size_t>(sqlite3_value_bytes(argv[0])));
  std::string d = h.Final();
  sqlite3_result_blob(ctx, d.data(), static_cast<int>(d.size()), SQLITE_TRANSIENT);
}

void Sha3QueryFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const int bits = BitsArg(ctx, argc, argv);
  if (bits == 0) return;
  const char* sql = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (sql == nullptr) return;
  sqlite3* db = sqlite3_context_db_handle(ctx);
  Sha3 h(bits);
  while (sql[0]) {
    sqlite3_stmt* st = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
      std::string msg = std::string("error SQL statement [") + sql + "]: " + sqlite3_errmsg(db);
      sqlite3_finalize(st);
      sqlite3_result_error(ctx, msg.c_str(), -1);
      return;
    }
    sql = tail;
    if (st == nullptr) continue;
    if (!sqlite3_stmt_readonly(st)) {
      std::string msg = std::string("non-query: [") + sqlite3_sql(st) + "]";
      sqlite3_finalize(st);
      sqlite3_result_error(ctx, msg.c_str(), -1);
      return;
    }
    const int ncol = sqlite3_column_count(st);
    if (const char* z = sqlite3_sql(st)) {
      h.Update("S" + std::to_string(std::strlen(z)) + ":");
      h.Update(z, std::strlen(z));
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      h.Update("R", 1);
      for (int i = 0; i < ncol; ++i) {
        switch (sqlite3_column_type(st, i)) {
          case SQLITE_NULL:
            h.Update("N", 1);
            break;
          case SQLITE_INTEGER:
            Big8(h, 'I', static_cast<uint64_t>(sqlite3_column_int64(st, i)));
            break;
          case SQLITE_FLOAT: {
            const double r = sqlite3_column_double(st, i);
            uint64_t u;
            std::memcpy(&u, &r, 8);
            Big8(h, 'F', u);
            break;
          }
          case SQLITE_TEXT: {
            const int n = sqlite3_column_bytes(st, i);
            h.Update("T" + std::to_string(n) + ":");
            h.Update(sqlite3_column_text(st, i), static_cast<size_t>(n));
            break;
          }
          default: {
            const int n = sqlite3_column_bytes(st, i);
            h.Update("B" + std::to_string(n) + ":");
            h.Update(sqlite3_column_blob(st, i), static_cast<size_t>(n));
          }
        }
      }
    }
    sqlite3_finalize(st);
  }
  std::string d = h.Final();
  sqlite3_result_blob(ctx, d.data(), static_cast<int>(d.size()), SQLITE_TRANSIENT);
}

std::string Wrap(const std::string& s, char q) {
  std::string r(1, q);
  for (char c : s) {
    r += c;
    if (c == q) r += c;
  }
  return r + q;
}

}  // namespace

void RegisterShellFunctions(sqlite3* db) {
  for (int n : {1, 2}) {
    sqlite3_create_function(db, "sha3", n, SQLITE_UTF8 | SQLITE_INNOCUOUS, nullptr, Sha3Func,
                            nullptr, nullptr);
    sqlite3_create_function(db, "sha3_query", n, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                            Sha3QueryFunc, nullptr, nullptr);
  }
}

int DotSha3(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, false);
  const std::string* like = nullptr;
  bool schema = false, separate = false, debug = false;
  int bits = 224;
  for (size_t i = 1; i < a.size(); ++i) {
    const char* z = a[i].c_str();
    if (z[0] == '-') {
      ++z;
      if (z[0] == '-') ++z;
      if (std::strcmp(z, "schema") == 0) {
        schema = true;
      } else if (std::strcmp(z, "sha3-224") == 0 || std::strcmp(z, "sha3-256") == 0 ||
                 std::strcmp(z, "sha3-384") == 0 || std::strcmp(z, "sha3-512") == 0) {
        bits = std::atoi(z + 5);
      } else if (std::strcmp(z, "debug") == 0) {
        debug = true;
      } else {
        std::fprintf(stderr, "Unknown option \"%s\" on \"%s\"\n", a[i].c_str(), a[0].c_str());
        ShowHelp(sh.out, a[0]);
        return 1;
      }
    } else if (like) {
      std::fprintf(stderr, "Usage: .sha3sum ?OPTIONS? ?LIKE-PATTERN?\n");
      return 1;
    } else {
      like = &a[i];
      separate = true;
      if (sqlite3_strnicmp(z, "sqlite_", 7) == 0) schema = true;
    }
  }
  std::string q = schema ? "SELECT lower(name) FROM sqlite_schema WHERE type='table' AND "
                           "coalesce(rootpage,0)>1 UNION ALL SELECT 'sqlite_schema' ORDER BY 1 "
                           "collate nocase"
                         : "SELECT lower(name) FROM sqlite_schema WHERE type='table' AND "
                           "coalesce(rootpage,0)>1 AND name NOT LIKE 'sqlite_%' ORDER BY 1 "
                           "collate nocase";
  std::vector<std::string> tables;
  ForEachRow(sh.db, q, [&](sqlite3_stmt* st) {
    if (sqlite3_column_text(st, 0)) tables.push_back(ColText(st, 0));
  });
  if (like) {  // LIKE, case-insensitive: through the database's own LIKE
    std::vector<std::string> kept;
    for (const std::string& t : tables) {
      sqlite3_stmt* st = nullptr;
      sqlite3_prepare_v2(sh.db, "SELECT ?2 LIKE ?1", -1, &st, nullptr);
      sqlite3_bind_text(st, 1, like->c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(st, 2, t.c_str(), -1, SQLITE_TRANSIENT);
      if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0)) kept.push_back(t);
      sqlite3_finalize(st);
    }
    tables = kept;
  }
  std::string sql = "WITH [sha3sum$query](a,b) AS(";
  const char* sep = "VALUES(";
  for (const std::string& t : tables) {
    std::string query;
    if (t.compare(0, 7, "sqlite_") != 0) {
      query = "SELECT * FROM " + Wrap(t, '"') + " NOT INDEXED;";
    } else if (t == "sqlite_schema") {
      query = "SELECT type,name,tbl_name,sql FROM sqlite_schema ORDER BY name;";
    } else if (t == "sqlite_sequence") {
      query = "SELECT name,seq FROM sqlite_sequence ORDER BY name;";
    } else if (t == "sqlite_stat1") {
      query = "SELECT tbl,idx,stat FROM sqlite_stat1 ORDER BY tbl,idx;";
    } else if (t == "sqlite_stat4") {
      query = "SELECT * FROM " + t + " ORDER BY tbl, idx, rowid;\n";
    }
    sql += sep + Wrap(query, '\'') + "," + Wrap(t, '\'');
    sep = "),(";
  }
  const std::string b = std::to_string(bits);
  if (separate) {
    sql +=
        ")) SELECT lower(hex(sha3_query(a," + b + "))) AS hash, b AS label   FROM [sha3sum$query]";
  } else {
    sql += ")) SELECT lower(hex(sha3_query(group_concat(a,'')," + b +
           "))) AS hash   FROM [sha3sum$query]";
  }
  if (debug) {
    std::fprintf(sh.out, "%s\n", sql.c_str());
  } else {
    ExecSql(sh, sql.c_str(), nullptr);
  }
  return 0;
}

}  // namespace shell
