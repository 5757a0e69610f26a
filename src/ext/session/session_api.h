// The session extension's C interface (SQLite's sqlite3session.h is not
// installed with the library; these are its documented declarations, see
// sessionintro.html). Implemented in this folder.
#pragma once

#include "sqlite3.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sqlite3_session sqlite3_session;
typedef struct sqlite3_changeset_iter sqlite3_changeset_iter;
typedef struct sqlite3_changegroup sqlite3_changegroup;
typedef struct sqlite3_rebaser sqlite3_rebaser;

#define SQLITE_SESSION_OBJCONFIG_SIZE 1
#define SQLITE_CHANGESETSTART_INVERT 0x0002
#define SQLITE_CHANGESETAPPLY_NOSAVEPOINT 0x0001
#define SQLITE_CHANGESETAPPLY_INVERT 0x0002
#define SQLITE_CHANGESET_DATA 1
#define SQLITE_CHANGESET_NOTFOUND 2
#define SQLITE_CHANGESET_CONFLICT 3
#define SQLITE_CHANGESET_CONSTRAINT 4
#define SQLITE_CHANGESET_FOREIGN_KEY 5
#define SQLITE_CHANGESET_OMIT 0
#define SQLITE_CHANGESET_REPLACE 1
#define SQLITE_CHANGESET_ABORT 2
#define SQLITE_SESSION_CONFIG_STRMSIZE 1

typedef int (*SessionInput)(void* pIn, void* pData, int* pnData);
typedef int (*SessionOutput)(void* pOut, const void* pData, int nData);
typedef int (*SessionFilter)(void* pCtx, const char* zTab);
typedef int (*SessionConflict)(void* pCtx, int eConflict, sqlite3_changeset_iter* p);

int sqlite3session_create(sqlite3* db, const char* zDb, sqlite3_session** ppSession);
void sqlite3session_delete(sqlite3_session* pSession);
int sqlite3session_object_config(sqlite3_session*, int op, void* pArg);
int sqlite3session_enable(sqlite3_session* pSession, int bEnable);
int sqlite3session_indirect(sqlite3_session* pSession, int bIndirect);
int sqlite3session_attach(sqlite3_session* pSession, const char* zTab);
void sqlite3session_table_filter(sqlite3_session* pSession, SessionFilter xFilter, void* pCtx);
int sqlite3session_changeset(sqlite3_session* pSession, int* pnChangeset, void** ppChangeset);
sqlite3_int64 sqlite3session_changeset_size(sqlite3_session* pSession);
int sqlite3session_diff(sqlite3_session* pSession, const char* zFromDb, const char* zTbl,
                        char** pzErrMsg);
int sqlite3session_patchset(sqlite3_session* pSession, int* pnPatchset, void** ppPatchset);
int sqlite3session_isempty(sqlite3_session* pSession);
sqlite3_int64 sqlite3session_memory_used(sqlite3_session* pSession);

int sqlite3changeset_start(sqlite3_changeset_iter** pp, int nChangeset, void* pChangeset);
int sqlite3changeset_start_v2(sqlite3_changeset_iter** pp, int nChangeset, void* pChangeset,
                              int flags);
int sqlite3changeset_next(sqlite3_changeset_iter* pIter);
int sqlite3changeset_op(sqlite3_changeset_iter* pIter, const char** pzTab, int* pnCol, int* pOp,
                        int* pbIndirect);
int sqlite3changeset_pk(sqlite3_changeset_iter* pIter, unsigned char** pabPK, int* pnCol);
int sqlite3changeset_old(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
int sqlite3changeset_new(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
int sqlite3changeset_conflict(sqlite3_changeset_iter* pIter, int iVal, sqlite3_value** ppValue);
int sqlite3changeset_fk_conflicts(sqlite3_changeset_iter* pIter, int* pnOut);
int sqlite3changeset_finalize(sqlite3_changeset_iter* pIter);
int sqlite3changeset_invert(int nIn, const void* pIn, int* pnOut, void** ppOut);
int sqlite3changeset_concat(int nA, void* pA, int nB, void* pB, int* pnOut, void** ppOut);

int sqlite3changegroup_new(sqlite3_changegroup** pp);
int sqlite3changegroup_add(sqlite3_changegroup*, int nData, void* pData);
int sqlite3changegroup_output(sqlite3_changegroup*, int* pnData, void** ppData);
void sqlite3changegroup_delete(sqlite3_changegroup*);

int sqlite3changeset_apply(sqlite3* db, int nChangeset, void* pChangeset, SessionFilter xFilter,
                           SessionConflict xConflict, void* pCtx);
int sqlite3changeset_apply_v2(sqlite3* db, int nChangeset, void* pChangeset, SessionFilter xFilter,
                              SessionConflict xConflict, void* pCtx, void** ppRebase, int* pnRebase,
                              int flags);

int sqlite3rebaser_create(sqlite3_rebaser** ppNew);
int sqlite3rebaser_configure(sqlite3_rebaser*, int nRebase, const void* pRebase);
int sqlite3rebaser_rebase(sqlite3_rebaser*, int nIn, const void* pIn, int* pnOut, void** ppOut);
void sqlite3rebaser_delete(sqlite3_rebaser* p);

int sqlite3changeset_apply_strm(sqlite3* db, SessionInput xInput, void* pIn, SessionFilter xFilter,
                                SessionConflict xConflict, void* pCtx);
int sqlite3changeset_apply_v2_strm(sqlite3* db, SessionInput xInput, void* pIn,
                                   SessionFilter xFilter, SessionConflict xConflict, void* pCtx,
                                   void** ppRebase, int* pnRebase, int flags);
int sqlite3changeset_concat_strm(SessionInput xInputA, void* pInA, SessionInput xInputB, void* pInB,
                                 SessionOutput xOutput, void* pOut);
int sqlite3changeset_invert_strm(SessionInput xInput, void* pIn, SessionOutput xOutput, void* pOut);
int sqlite3changeset_start_strm(sqlite3_changeset_iter** pp, SessionInput xInput, void* pIn);
int sqlite3changeset_start_v2_strm(sqlite3_changeset_iter** pp, SessionInput xInput, void* pIn,
                                   int flags);
int sqlite3session_changeset_strm(sqlite3_session* pSession, SessionOutput xOutput, void* pOut);
int sqlite3session_patchset_strm(sqlite3_session* pSession, SessionOutput xOutput, void* pOut);
int sqlite3changegroup_add_strm(sqlite3_changegroup*, SessionInput xInput, void* pIn);
int sqlite3changegroup_output_strm(sqlite3_changegroup*, SessionOutput xOutput, void* pOut);
int sqlite3rebaser_rebase_strm(sqlite3_rebaser* pRebaser, SessionInput xInput, void* pIn,
                               SessionOutput xOutput, void* pOut);
int sqlite3session_config(int op, void* pArg);

#ifdef __cplusplus
}
#endif
