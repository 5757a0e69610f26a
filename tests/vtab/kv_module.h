/* The "kv" test module (kv_module.c). */
#ifndef BASALT_TESTS_KV_MODULE_H
#define BASALT_TESTS_KV_MODULE_H

#include "sqlite3.h"

struct KvStats {
  int connects, destroys, best_index, eq, range, order_by, filters, updates, replaces;
  int begins, syncs, commits, rollbacks, savepoints, rollback_tos;
};
extern struct KvStats kv_stats;

/* Registers the module as "kv" on db. */
int kv_register(sqlite3* db);

#endif
