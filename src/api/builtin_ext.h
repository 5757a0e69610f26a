// Extensions compiled into the library — SQLite's built-in ones: R*Tree,
// FTS3/4, FTS5 — run on every new connection, as SQLite's own open does.
//
// The extensions live in src/ext, above this layer, and are written against
// the public C API only. Each adds its entry point here from a static
// initializer of its own object file; this layer only keeps the list and
// runs it. The list is constant-initialized, so registration order between
// translation units does not matter, and nothing here allocates.
#pragma once

#include "sqlite3.h"

namespace basalt::api {

// An extension's per-connection entry point: registers its modules and
// functions on `db`; returns an SQLite result code.
using BuiltinExtensionInit = int (*)(sqlite3* db);

// Appends `init` to the list. Meant for static initialization (before any
// connection opens); at most kMaxBuiltinExtensions entries.
void AddBuiltinExtension(BuiltinExtensionInit init) noexcept;

// Runs every registered entry point on `db`, in registration order; stops
// at and returns the first error code (SQLITE_OK when all succeed).
int RunBuiltinExtensions(sqlite3* db) noexcept;

inline constexpr int kMaxBuiltinExtensions = 16;

}  // namespace basalt::api
