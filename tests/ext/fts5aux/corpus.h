// A deterministic corpus for comparing FTS5 tokenizers and auxiliary
// functions: words in several scripts and cases, accents (precomposed and
// combining), CJK, emoji, punctuation, sentence breaks, long documents and
// some malformed UTF-8.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace basalt::fts5test {

// The words documents and queries draw from (query-safe: no quotes).
const std::vector<std::string>& Vocabulary();

// Document number `i` of the corpus (seeded by i; some are long).
std::string Document(int i, bool malformed_utf8);

// Random text for the direct tokenizer comparison: any code points,
// combining marks, ASCII punctuation and raw bytes.
std::string RandomText(std::mt19937* rng);

// Random English-like words: stems joined with the suffixes the Porter
// stemmer's rules look for (and short or odd ones), separated by spaces.
std::string StemmerWords(std::mt19937* rng);

// `cp` as UTF-8 (4 bytes at most; no checks).
std::string Utf8(uint32_t cp);

}  // namespace basalt::fts5test
