#include "sql_session.h"

#include <cstdio>

#include "main/statement.h"

namespace basalt::testing {

namespace {
std::string Render(const Value* v) {
  if (v == nullptr || v->is_null()) return "NULL";
  if (v->is_int()) return std::to_string(v->int_value());
  if (v->is_real()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.15g", v->real_value());
    return buf;
  }
  if (v->is_text()) return std::string(v->text());
  return "blob:" + std::to_string(v->text().size());
}
}  // namespace

ExecResult Exec(Connection* c, const std::string& sql) {
  ExecResult out;
  std::string_view rest = sql;
  while (!rest.empty()) {
    size_t tail = 0;
    auto st = c->Prepare(rest, &tail);
    if (!st.ok()) {
      out.code = st.status().code();
      out.error = st.status().message();
      return out;
    }
    rest = rest.substr(tail);
    if (!*st) continue;
    Statement* s = st->get();
    for (;;) {
      int rc = s->Step();
      if (rc == kRow) {
        std::string line;
        for (int i = 0; i < s->column_count(); ++i) {
          if (i > 0) line += '|';
          line += Render(s->column(i));
        }
        out.output += line + "\n";
        continue;
      }
      if (rc != kDone) {
        out.code = s->status().code();
        out.error = s->status().message();
        return out;
      }
      break;
    }
  }
  return out;
}

std::unique_ptr<Connection> OpenDb(Vfs* vfs, const std::string& path) {
  auto c = Connection::Open(path, 0x2 | 0x4, vfs);
  if (!c.ok()) return nullptr;
  return std::move(c).value();
}

}  // namespace basalt::testing
