// bm25(table, weight...): minus the Okapi BM25 score of the current row.
//
//   score = sum over phrases P of
//             idf(P) * (f(P) * (k1 + 1)) / (f(P) + k1 * (1 - b + b * D / avgdl))
//   idf(P) = log((N - n(P) + 0.5) / (n(P) + 0.5)), or 1e-6 if that is <= 0
//
// with k1 = 1.2, b = 0.75, N the table's rows, n(P) the rows matching P,
// f(P) the row's instances of P each weighted by its column's argument
// (1.0 when missing), D the row's tokens and avgdl the mean tokens per row.
// The per-query part (idf, avgdl) is computed once and kept as auxdata.
// The floating-point operations run in SQLite's order so the doubles are
// bit-identical.
#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

#include "ext/fts5/auxfn/functions.h"

namespace basalt::fts5 {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

struct QueryData {
  double avgdl = 0;
  std::vector<double> idf;   // per phrase
  std::vector<double> freq;  // per phrase, scratch for each row
};

int CountRow(const Fts5ExtensionApi*, Fts5Context*, void* count) {
  ++*static_cast<sqlite3_int64*>(count);
  return SQLITE_OK;
}

void DeleteQueryData(void* p) { delete static_cast<QueryData*>(p); }

int GetQueryData(const Fts5ExtensionApi* api, Fts5Context* fts, QueryData** out) {
  *out = static_cast<QueryData*>(api->xGetAuxdata(fts, 0));
  if (*out != nullptr) return SQLITE_OK;
  auto* data = new (std::nothrow) QueryData();
  if (data == nullptr) return SQLITE_NOMEM;
  const int phrases = api->xPhraseCount(fts);
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc == SQLITE_OK) {
    data->avgdl = static_cast<double>(tokens) / static_cast<double>(rows);
    data->idf.resize(static_cast<size_t>(phrases));
    data->freq.resize(static_cast<size_t>(phrases));
  }
  for (int i = 0; rc == SQLITE_OK && i < phrases; ++i) {
    sqlite3_int64 hits = 0;
    rc = api->xQueryPhrase(fts, i, &hits, &CountRow);
    if (rc == SQLITE_OK) {
      double idf = std::log((rows - hits + 0.5) / (hits + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      data->idf[static_cast<size_t>(i)] = idf;
    }
  }
  if (rc != SQLITE_OK) {
    delete data;
    return rc;
  }
  // On failure xSetAuxdata destroys the object itself.
  rc = api->xSetAuxdata(fts, data, &DeleteQueryData);
  if (rc != SQLITE_OK) return rc;
  *out = data;
  return SQLITE_OK;
}

}  // namespace

void Bm25Function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                  sqlite3_value** argv) {
  try {
    QueryData* data = nullptr;
    int rc = GetQueryData(api, fts, &data);
    if (rc != SQLITE_OK) {
      ResultErrorCode(ctx, rc);
      return;
    }
    std::fill(data->freq.begin(), data->freq.end(), 0.0);
    int count = 0;
    rc = api->xInstCount(fts, &count);
    for (int i = 0; rc == SQLITE_OK && i < count; ++i) {
      int phrase = 0, column = 0, offset = 0;
      rc = api->xInst(fts, i, &phrase, &column, &offset);
      if (rc != SQLITE_OK) break;
      const double weight = argc > column ? sqlite3_value_double(argv[column]) : 1.0;
      data->freq[static_cast<size_t>(phrase)] += weight;
    }
    int row_tokens = 0;
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &row_tokens);
    if (rc != SQLITE_OK) {
      ResultErrorCode(ctx, rc);
      return;
    }
    const double d = static_cast<double>(row_tokens);
    double score = 0.0;
    for (size_t i = 0; i < data->idf.size(); ++i) {
      const double f = data->freq[i];
      score += data->idf[i] * ((f * (kK1 + 1.0)) / (f + kK1 * (1 - kB + kB * d / data->avgdl)));
    }
    sqlite3_result_double(ctx, -1.0 * score);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

}  // namespace basalt::fts5
