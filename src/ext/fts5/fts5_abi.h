// The FTS5 extension interfaces as SQLite 3.40 publishes them (its fts5.h):
// custom tokenizers, custom auxiliary functions and the fts5_api object a
// program obtains with `SELECT fts5(?1)` and sqlite3_bind_pointer(...,
// "fts5_api_ptr", ...).
//
// These are binary interfaces: programs compiled against SQLite's header
// call through these structures, so every member stays in the documented
// order and no member may be added, removed or retyped. Version numbers are
// those of SQLite 3.40: Fts5ExtensionApi version 2, fts5_api version 2,
// fts5_tokenizer without a version field.
#pragma once

#include "sqlite3.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Fts5ExtensionApi Fts5ExtensionApi;
typedef struct Fts5Context Fts5Context;  // opaque: one per MATCH cursor row
typedef struct Fts5PhraseIter Fts5PhraseIter;

// An auxiliary function (bm25, highlight, snippet, or one a program adds).
typedef void (*fts5_extension_function)(const Fts5ExtensionApi* api, Fts5Context* fts,
                                        sqlite3_context* ctx, int argc, sqlite3_value** argv);

// Iterator state for xPhraseFirst/xPhraseNext and the column variants; the
// implementation decides what the two pointers mean.
struct Fts5PhraseIter {
  const unsigned char* a;
  const unsigned char* b;
};

// What an auxiliary function can ask about the current row and query.
struct Fts5ExtensionApi {
  int iVersion;  // 2 in SQLite 3.40

  void* (*xUserData)(Fts5Context*);

  int (*xColumnCount)(Fts5Context*);
  int (*xRowCount)(Fts5Context*, sqlite3_int64* row_count);
  int (*xColumnTotalSize)(Fts5Context*, int column, sqlite3_int64* token_count);

  int (*xTokenize)(Fts5Context*, const char* text, int text_bytes, void* cb_ctx,
                   int (*on_token)(void* cb_ctx, int token_flags, const char* token,
                                   int token_bytes, int start, int end));

  int (*xPhraseCount)(Fts5Context*);
  int (*xPhraseSize)(Fts5Context*, int phrase);

  int (*xInstCount)(Fts5Context*, int* inst_count);
  int (*xInst)(Fts5Context*, int inst, int* phrase, int* column, int* offset);

  sqlite3_int64 (*xRowid)(Fts5Context*);
  int (*xColumnText)(Fts5Context*, int column, const char** text, int* text_bytes);
  int (*xColumnSize)(Fts5Context*, int column, int* token_count);

  int (*xQueryPhrase)(Fts5Context*, int phrase, void* user_data,
                      int (*)(const Fts5ExtensionApi*, Fts5Context*, void*));
  int (*xSetAuxdata)(Fts5Context*, void* aux, void (*destroy)(void*));
  void* (*xGetAuxdata)(Fts5Context*, int clear);

  int (*xPhraseFirst)(Fts5Context*, int phrase, Fts5PhraseIter*, int* column, int* offset);
  void (*xPhraseNext)(Fts5Context*, Fts5PhraseIter*, int* column, int* offset);

  int (*xPhraseFirstColumn)(Fts5Context*, int phrase, Fts5PhraseIter*, int* column);
  void (*xPhraseNextColumn)(Fts5Context*, Fts5PhraseIter*, int* column);
};

typedef struct Fts5Tokenizer Fts5Tokenizer;  // opaque: a tokenizer instance
typedef struct fts5_tokenizer fts5_tokenizer;

// A tokenizer module. xTokenize reports each token through the callback;
// the callback's return value, if not SQLITE_OK, stops tokenizing and is
// returned by xTokenize.
struct fts5_tokenizer {
  int (*xCreate)(void* user_data, const char** argv, int argc, Fts5Tokenizer** out);
  void (*xDelete)(Fts5Tokenizer*);
  int (*xTokenize)(Fts5Tokenizer*, void* cb_ctx, int flags, const char* text, int text_bytes,
                   int (*on_token)(void* cb_ctx, int token_flags, const char* token,
                                   int token_bytes, int start, int end));
};

// Why the text is being tokenized (the `flags` argument of xTokenize).
#define FTS5_TOKENIZE_QUERY 0x0001
#define FTS5_TOKENIZE_PREFIX 0x0002
#define FTS5_TOKENIZE_DOCUMENT 0x0004
#define FTS5_TOKENIZE_AUX 0x0008

// A token that occupies the same position as the previous one (synonyms).
#define FTS5_TOKEN_COLOCATED 0x0001

typedef struct fts5_api fts5_api;

// The per-connection registry of tokenizers and auxiliary functions.
struct fts5_api {
  int iVersion;  // 2 in SQLite 3.40

  int (*xCreateTokenizer)(fts5_api* api, const char* name, void* user_data,
                          fts5_tokenizer* tokenizer, void (*destroy)(void*));
  int (*xFindTokenizer)(fts5_api* api, const char* name, void** user_data,
                        fts5_tokenizer* tokenizer);
  int (*xCreateFunction)(fts5_api* api, const char* name, void* user_data,
                         fts5_extension_function function, void (*destroy)(void*));
};

#ifdef __cplusplus
}  // extern "C"
#endif
