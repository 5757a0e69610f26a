/* The "xor" user VFS (xor_vfs.c). */
#ifndef BASALT_TESTS_UVFS_XOR_VFS_H
#define BASALT_TESTS_UVFS_XOR_VFS_H

#include "sqlite3.h"

typedef struct XorCounters {
  int opens, reads, writes, syncs, locks, shm_maps, companions;
} XorCounters;

/* Registers "xor" over the current default VFS. */
int xor_vfs_register(int make_default);
XorCounters* xor_counters(void);

#endif
