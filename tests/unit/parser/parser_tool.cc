// Developer tool for the parser (not part of ctest):
//   parser_tool check            stdin: NUL-separated SQL texts; prints one line per
//                                text: "OK" or "ERR <message>" (first statement only,
//                                like sqlite3_prepare)
//   parser_tool complete         stdin as for check; prints 1 or 0 per text (IsComplete)
//   parser_tool slt FILE...      parses every SQL record of sqllogictest files and
//                                reports records that fail to parse
//   parser_tool bench FILE N     parses the NUL-separated statements of FILE N times
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ast_printer.h"
#include "parser/parser.h"
#include "parser/tokenizer.h"

namespace {

// One output line per input text: backslashes and newlines escaped.
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string ParseOne(const std::string& sql) {
  basalt::Arena arena;
  basalt::Parser p(&arena, sql);
  auto r = p.ParseStatement();
  if (!r.ok()) return "ERR " + r.status().message();
  return "OK";
}

std::vector<std::string> SplitNul(const std::string& all) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= all.size()) {
    size_t e = all.find('\0', pos);
    if (e == std::string::npos) e = all.size();
    if (e > pos || e < all.size()) out.push_back(all.substr(pos, e - pos));
    pos = e + 1;
  }
  return out;
}

// Prints the first result column of each SELECT fully parenthesised, or with
// `spans` the spans of all result columns (CREATE TABLE: DEFAULT texts).
int Print(bool spans) {
  std::stringstream ss;
  ss << std::cin.rdbuf();
  for (const std::string& sql : SplitNul(ss.str())) {
    basalt::Arena arena;
    basalt::Parser p(&arena, sql);
    auto r = p.ParseStatement();
    std::string out;
    if (!r.ok()) {
      out = "ERR " + r.status().message();
    } else if (*r && (*r)->kind == basalt::ast::StmtKind::kSelect) {
      const basalt::ast::ExprList* cols = (*r)->As<basalt::ast::SelectStmt>()->select->columns;
      if (spans) {
        for (size_t i = 0; i < cols->size(); ++i) {
          if (i) out += '\x1f';
          out += std::string((*cols)[i]->span);
        }
      } else {
        out = basalt::testing::PrintExpr((*cols)[0]);
      }
    } else if (*r && (*r)->kind == basalt::ast::StmtKind::kCreateTable && spans) {
      // DEFAULT texts, one per column ("" without a default).
      const auto* t = (*r)->As<basalt::ast::CreateTableStmt>();
      for (size_t i = 0; i < t->columns.size(); ++i) {
        if (i) out += '\x1f';
        for (const auto* c : t->columns[i]->constraints) {
          if (c->kind == basalt::ast::ConstraintKind::kDefault)
            out = out + std::string(c->expr->span);
        }
      }
    }
    std::cout << Escape(out) << "\n";
  }
  return 0;
}

int Complete() {
  std::stringstream ss;
  ss << std::cin.rdbuf();
  for (const std::string& sql : SplitNul(ss.str())) {
    std::cout << (basalt::Parser::IsComplete(sql) ? 1 : 0) << "\n";
  }
  return 0;
}

int Check() {
  std::stringstream ss;
  ss << std::cin.rdbuf();
  for (const std::string& sql : SplitNul(ss.str())) std::cout << Escape(ParseOne(sql)) << "\n";
  return 0;
}

// sqllogictest records: a "statement ..." or "query ..." line, then SQL lines up to a
// blank line or "----". Records after "onlyif <not sqlite>" or "skipif sqlite" are
// skipped.
int Slt(int argc, char** argv) {
  long total = 0, failed = 0, errors_expected = 0, skipped = 0;
  for (int i = 0; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::string line;
    bool skip_next = false;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("onlyif", 0) == 0) {
        if (line.find("sqlite") == std::string::npos) skip_next = true;
        continue;
      }
      if (line.rfind("skipif", 0) == 0) {
        if (line.find("sqlite") != std::string::npos) skip_next = true;
        continue;
      }
      bool is_stmt = line.rfind("statement", 0) == 0;
      bool is_query = line.rfind("query", 0) == 0;
      if (!is_stmt && !is_query) continue;
      bool expect_error = is_stmt && line.find("error") != std::string::npos;
      std::string sql, l;
      while (std::getline(in, l)) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        if (l.empty() || l == "----") break;
        sql += l;
        sql += "\n";
      }
      if (skip_next) {
        skip_next = false;
        ++skipped;
        continue;
      }
      ++total;
      std::string r = ParseOne(sql);
      if (r != "OK") {
        if (expect_error) {
          ++errors_expected;
        } else {
          ++failed;
          std::cout << argv[i] << ": " << r << "\n  " << sql.substr(0, 300) << "\n";
        }
      }
    }
  }
  std::cout << "records: " << total << "  failed: " << failed
            << "  errors in 'statement error' records: " << errors_expected
            << "  skipped (non-sqlite): " << skipped << "\n";
  return failed ? 1 : 0;
}

int Bench(const char* file, int n) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::vector<std::string> stmts = SplitNul(ss.str());
  basalt::Arena arena;
  auto cpu = [] {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  double c0 = cpu();
  auto t0 = std::chrono::steady_clock::now();
  long count = 0, errors = 0;
  if (std::getenv("TOKENS_ONLY")) {
    long tokens = 0;
    for (int k = 0; k < n; ++k) {
      for (const std::string& sql : stmts) {
        const char* pos = sql.data();
        const char* end = pos + sql.size();
        basalt::parser::Token t;
        do {
          basalt::parser::NextToken(&pos, end, &t);
          ++tokens;
        } while (t.type != basalt::parser::Tk::kEof);
        ++count;
      }
    }
    double c = cpu() - c0;
    std::printf("%ld statements, %ld tokens, %.3f s cpu, %.1f ns/token\n", count, tokens, c,
                c * 1e9 / static_cast<double>(tokens));
    return 0;
  }
  for (int k = 0; k < n; ++k) {
    for (const std::string& sql : stmts) {
      basalt::Parser p(&arena, sql);
      auto r = p.ParseStatement();
      if (!r.ok()) ++errors;
      ++count;
      arena.Reset();
    }
  }
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu_sec = cpu() - c0;
  std::printf("%ld statements, %ld errors, %.3f s wall, %.3f s cpu, %.0f ns/statement (cpu)\n",
              count, errors, sec, cpu_sec, cpu_sec * 1e9 / static_cast<double>(count));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return Check();
  if (argc >= 2 && std::strcmp(argv[1], "complete") == 0) return Complete();
  if (argc >= 2 && std::strcmp(argv[1], "print") == 0) return Print(false);
  if (argc >= 2 && std::strcmp(argv[1], "spans") == 0) return Print(true);
  if (argc >= 2 && std::strcmp(argv[1], "slt") == 0) return Slt(argc - 2, argv + 2);
  if (argc >= 4 && std::strcmp(argv[1], "bench") == 0) return Bench(argv[2], std::atoi(argv[3]));
  std::fprintf(stderr, "usage: parser_tool check | complete | slt FILE... | bench FILE N\n");
  return 2;
}
