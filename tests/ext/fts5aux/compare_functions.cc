// Auxiliary functions: bm25, highlight and snippet against b_bm25,
// b_highlight and b_snippet in the same statements, over many queries on
// tables with SQLite's tokenizers. bm25 must match to the bit.
#include <random>

#include "compare.h"
#include "corpus.h"

namespace basalt::fts5test {
namespace {

std::string Quote(const std::string& word) {
  std::string q = "\"";
  for (char c : word) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string SqlQuote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("''") : std::string(1, c);
  return o + "'";
}

// A random FTS5 query over the vocabulary (frequent words more often).
std::string Query(std::mt19937* rng) {
  const auto& words = Vocabulary();
  auto word = [&]() {
    size_t w = (*rng)() % words.size();
    if ((*rng)() % 3 != 0) w %= 12;
    return Quote(words[w]);
  };
  switch ((*rng)() % 11) {
    case 0:
      return word() + " " + word();
    case 1:
      return "\"" + words[(*rng)() % 12] + " " + words[(*rng)() % 12] + "\"";
    case 2:
      return word() + " OR " + word() + " OR " + word();
    case 3:
      return word() + " NOT " + word();
    case 4:
      return "NEAR(" + word() + " " + word() + ", " + std::to_string((*rng)() % 6) + ")";
    case 5:
      return std::string((*rng)() % 2 ? "a" : "c") + " : " + word();
    case 6:
      return Quote(words[(*rng)() % 12].substr(0, 2)) + " *";
    case 7:
      return word() + " + " + word();
    case 8:
      return "(" + word() + " OR " + word() + ") " + word();
    case 9:
      return "{a b} : " + word() + " " + word();
    default:
      return word();
  }
}

// Pairs of calls (SQLite's, Basalt's) compared in each result row.
const std::vector<std::string>& Calls() {
  static const std::vector<std::string> kCalls = {
      "bm25(%)",
      "bm25(%, 1.0, 2.5, 0.5)",
      "bm25(%, 0.0, 10)",
      "bm25(%, -1.0, 'x', NULL, 3.0)",
      "highlight(%, 0, '[', ']')",
      "highlight(%, 1, '<b>', '</b>')",
      "highlight(%, 2, NULL, '|')",
      "snippet(%, -1, '[', ']', '...', 8)",
      "snippet(%, -1, '[', ']', '...', 1)",
      "snippet(%, -1, '[', ']', '...', 2)",
      "snippet(%, 0, '<', '>', '…', 5)",
      "snippet(%, 1, '', '', NULL, 3)",
      "snippet(%, 2, '{', '}', '~', 15)",
      "snippet(%, -1, '(', ')', '..', 64)",
      "snippet(%, -1, '(', ')', '..', 100)",
      "snippet(%, -1, '(', ')', '..', 0)",
      "snippet(%, -1, '(', ')', '..', -3)",
      "snippet(%, 5, '(', ')', '..', 10)",
      "highlight(%, 9, '[', ']')",
      "highlight(%, 0)",
      "snippet(%, 0, 'a', 'b', 'c')",
  };
  return kCalls;
}

std::string Instantiate(const std::string& call, const std::string& prefix,
                        const std::string& table) {
  std::string out = prefix + call;
  out.replace(out.find('%'), 1, table);
  return out;
}

void Fill(const Env& env, const std::string& table, const std::string& tokenize) {
  Exec(env, "CREATE VIRTUAL TABLE " + table + " USING fts5(a, b, c" + tokenize + ")");
  Exec(env, "BEGIN");
  for (int i = 0; i < 250; ++i) {
    std::string b = i % 11 == 0 ? "NULL" : i % 13 == 0 ? "''" : SqlQuote(Document(i + 5000, false));
    Exec(env, "INSERT INTO " + table + " VALUES(" + SqlQuote(Document(i, i % 3 == 0)) + ", " + b +
                  ", " + SqlQuote(Document(3 * i + 7, false)) + ")");
  }
  Exec(env, "COMMIT");
}

}  // namespace

void CompareFunctions(const Env& env, Tally* tally) {
  const std::vector<std::pair<std::string, std::string>> tables = {{"ft", ""},
                                                                   {"fp", ", tokenize=porter"},
                                                                   {"fa", ", tokenize='ascii'"},
                                                                   {"fg", ", tokenize=trigram"}};
  for (const auto& [table, tokenize] : tables) Fill(env, table, tokenize);
  std::mt19937 rng(77);
  for (int q = 0; q < 160; ++q) {
    const auto& [table, tokenize] = tables[q % tables.size()];
    std::string query = Query(&rng);
    if (table == "fg") query = Quote(Vocabulary()[rng() % 12].substr(0, 3 + rng() % 3));
    for (size_t k = 0; k < Calls().size(); k += 7) {
      // Seven calls per statement keep the row width moderate.
      std::string sql = "SELECT rowid";
      size_t end = std::min(k + 7, Calls().size());
      for (size_t c = k; c < end; ++c) {
        sql +=
            ", " + Instantiate(Calls()[c], "", table) + ", " + Instantiate(Calls()[c], "b_", table);
      }
      sql += " FROM " + table + " WHERE " + table + " MATCH " + SqlQuote(query) + " ORDER BY rowid";
      // Run each call alone as well when the statement as a whole fails
      // (argument errors stop the whole statement).
      auto rows = Rows(env, sql);
      if (!rows.empty() && rows.back().rfind("ERROR: ", 0) == 0) {
        for (size_t c = k; c < end; ++c) {
          auto a = Rows(env, "SELECT " + Instantiate(Calls()[c], "", table) + " FROM " + table +
                                 " WHERE " + table + " MATCH " + SqlQuote(query));
          auto b = Rows(env, "SELECT " + Instantiate(Calls()[c], "b_", table) + " FROM " + table +
                                 " WHERE " + table + " MATCH " + SqlQuote(query));
          tally->Check(a == b, Calls()[c] + " on " + table + " MATCH " + query + ": " +
                                   (a.empty() ? "" : Escape(a.back())) + " vs " +
                                   (b.empty() ? "" : Escape(b.back())));
        }
        continue;
      }
      for (const std::string& row : rows) {
        // Split on " | " and compare pairs.
        std::vector<std::string> cells;
        size_t from = 0, at;
        while ((at = row.find(" | ", from)) != std::string::npos) {
          cells.push_back(row.substr(from, at - from));
          from = at + 3;
        }
        cells.push_back(row.substr(from));
        for (size_t c = 1; c + 1 < cells.size(); c += 2) {
          tally->Check(cells[c] == cells[c + 1], Calls()[k + (c - 1) / 2] + " on " + table +
                                                     " MATCH " + query + " rowid " + cells[0] +
                                                     ":\n  sqlite " + Escape(cells[c]) +
                                                     "\n  basalt " + Escape(cells[c + 1]));
        }
      }
    }
  }
  for (const auto& [table, tokenize] : tables) Exec(env, "DROP TABLE " + table);
}

}  // namespace basalt::fts5test
