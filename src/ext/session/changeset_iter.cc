// sqlite3_changeset_iter: walks a changeset change by change.
#include "ext/session/session_internal.h"

using basalt::Value;
using basalt::session::Field;

namespace basalt::session {

namespace {

void SetValue(Value* v, const Field& f) {
  switch (f.type) {
    case SQLITE_INTEGER:
      v->SetInt(f.i);
      break;
    case SQLITE_FLOAT:
      v->SetReal(f.r);
      break;
    case SQLITE_TEXT:
      v->SetText(f.bytes);
      break;
    case SQLITE_BLOB:
      v->SetBlob(f.bytes.data(), f.bytes.size());
      break;
    default:
      v->SetNull();
      break;
  }
}

void Fill(const std::vector<Field>& rec, int n, std::vector<Value>* vals, std::vector<bool>* has) {
  vals->assign(static_cast<size_t>(n), Value());
  has->assign(static_cast<size_t>(n), false);
  if (rec.empty()) return;
  for (int i = 0; i < n; ++i) {
    const Field& f = rec[static_cast<size_t>(i)];
    if (f.type == 0) continue;
    SetValue(&(*vals)[static_cast<size_t>(i)], f);
    (*has)[static_cast<size_t>(i)] = true;
  }
}

}  // namespace

void LoadValues(sqlite3_changeset_iter* it) {
  const Change& c = it->change;
  const int n = it->table.n_col;
  const std::vector<Field>* o = &c.old_rec;
  const std::vector<Field>* w = &c.new_rec;
  it->op = c.op;
  if (it->invert) {
    std::swap(o, w);
    if (c.op == kOpInsert) it->op = kOpDelete;
    if (c.op == kOpDelete) it->op = kOpInsert;
  }
  Fill(*o, n, &it->old_vals, &it->has_old);
  Fill(*w, n, &it->new_vals, &it->has_new);
  if (it->table.patchset && c.op == kOpUpdate) {
    // A patchset UPDATE carries its key in the new record: it is read as
    // the old values, as for a changeset.
    for (int i = 0; i < n; ++i) {
      size_t k = static_cast<size_t>(i);
      if (!it->table.pk[k]) continue;
      it->old_vals[k] = it->new_vals[k];
      it->has_old[k] = it->has_new[k];
      it->has_new[k] = false;
    }
    return;
  }
  if (it->invert && c.op == kOpUpdate) {
    // The inverted UPDATE's new values: the old ones of the changed columns
    // only; its old values: the new ones, plus the old key values.
    for (int i = 0; i < n; ++i) {
      size_t k = static_cast<size_t>(i);
      if (it->table.pk[k] && !it->has_old[k] && it->has_new[k]) {
        it->old_vals[k] = it->new_vals[k];
        it->has_old[k] = true;
      }
      if (it->table.pk[k]) it->has_new[k] = false;
    }
  }
}

sqlite3_changeset_iter* NewIter(const void* data, int n, bool copy, bool invert) {
  auto* it = new (std::nothrow) sqlite3_changeset_iter;
  if (it == nullptr) return nullptr;
  if (copy) {
    it->owned.assign(static_cast<const char*>(data), static_cast<size_t>(n > 0 ? n : 0));
    data = it->owned.data();
  }
  it->p = static_cast<const uint8_t*>(data);
  it->end = it->p + (n > 0 ? n : 0);
  it->invert = invert;
  return it;
}

}  // namespace basalt::session

using basalt::session::GetChange;
using basalt::session::GetTableHeader;
using basalt::session::LoadValues;
using basalt::session::NewIter;
using basalt::session::ReadAll;

extern "C" {

int sqlite3changeset_start(sqlite3_changeset_iter** pp, int n, void* data) {
  *pp = NewIter(data, n, false, false);
  return *pp != nullptr ? SQLITE_OK : SQLITE_NOMEM;
}

int sqlite3changeset_start_v2(sqlite3_changeset_iter** pp, int n, void* data, int flags) {
  *pp = NewIter(data, n, false, (flags & SQLITE_CHANGESETSTART_INVERT) != 0);
  return *pp != nullptr ? SQLITE_OK : SQLITE_NOMEM;
}

int sqlite3changeset_start_strm(sqlite3_changeset_iter** pp, SessionInput input, void* in) {
  return sqlite3changeset_start_v2_strm(pp, input, in, 0);
}

int sqlite3changeset_start_v2_strm(sqlite3_changeset_iter** pp, SessionInput input, void* in,
                                   int flags) {
  *pp = nullptr;
  std::string data;
  int rc = ReadAll(input, in, &data);
  if (rc != SQLITE_OK) return rc;
  *pp = NewIter(data.data(), static_cast<int>(data.size()), true,
                (flags & SQLITE_CHANGESETSTART_INVERT) != 0);
  return *pp != nullptr ? SQLITE_OK : SQLITE_NOMEM;
}

int sqlite3changeset_next(sqlite3_changeset_iter* it) {
  if (it->rc != SQLITE_OK) return it->rc;
  if (it->p >= it->end) return SQLITE_DONE;
  if (*it->p == 'T' || *it->p == 'P') {
    if (!GetTableHeader(&it->p, it->end, &it->table)) return it->rc = SQLITE_CORRUPT;
    // A patchset lacks the old values an inverted change needs.
    if (it->invert && it->table.patchset) return it->rc = SQLITE_CORRUPT;
    it->started = true;
    if (it->p >= it->end) return SQLITE_DONE;
  }
  if (!it->started) return it->rc = SQLITE_CORRUPT;
  if (!GetChange(&it->p, it->end, it->table, &it->change)) return it->rc = SQLITE_CORRUPT;
  LoadValues(it);
  return SQLITE_ROW;
}

int sqlite3changeset_op(sqlite3_changeset_iter* it, const char** pzTab, int* pnCol, int* pOp,
                        int* pbIndirect) {
  if (pzTab != nullptr) *pzTab = it->table.name.c_str();
  if (pnCol != nullptr) *pnCol = it->table.n_col;
  if (pOp != nullptr) *pOp = it->op;
  if (pbIndirect != nullptr) *pbIndirect = it->change.indirect ? 1 : 0;
  return SQLITE_OK;
}

int sqlite3changeset_pk(sqlite3_changeset_iter* it, unsigned char** pabPK, int* pnCol) {
  *pabPK = it->table.pk.data();
  if (pnCol != nullptr) *pnCol = it->table.n_col;
  return SQLITE_OK;
}

int sqlite3changeset_old(sqlite3_changeset_iter* it, int i, sqlite3_value** out) {
  if (it->op != SQLITE_UPDATE && it->op != SQLITE_DELETE) return SQLITE_MISUSE;
  if (i < 0 || i >= it->table.n_col) return SQLITE_RANGE;
  size_t k = static_cast<size_t>(i);
  *out = it->has_old[k] ? reinterpret_cast<sqlite3_value*>(&it->old_vals[k]) : nullptr;
  return SQLITE_OK;
}

int sqlite3changeset_new(sqlite3_changeset_iter* it, int i, sqlite3_value** out) {
  if (it->op != SQLITE_UPDATE && it->op != SQLITE_INSERT) return SQLITE_MISUSE;
  if (i < 0 || i >= it->table.n_col) return SQLITE_RANGE;
  size_t k = static_cast<size_t>(i);
  *out = it->has_new[k] ? reinterpret_cast<sqlite3_value*>(&it->new_vals[k]) : nullptr;
  return SQLITE_OK;
}

int sqlite3changeset_conflict(sqlite3_changeset_iter* it, int i, sqlite3_value** out) {
  if (it->conflict == nullptr) return SQLITE_MISUSE;
  if (i < 0 || i >= sqlite3_column_count(it->conflict)) return SQLITE_RANGE;
  *out = sqlite3_column_value(it->conflict, i);
  return SQLITE_OK;
}

int sqlite3changeset_fk_conflicts(sqlite3_changeset_iter* it, int* pnOut) {
  if (it->fk_conflicts < 0) return SQLITE_MISUSE;
  *pnOut = it->fk_conflicts;
  return SQLITE_OK;
}

int sqlite3changeset_finalize(sqlite3_changeset_iter* it) {
  if (it == nullptr) return SQLITE_OK;
  int rc = it->rc;
  delete it;
  return rc;
}

}  // extern "C"
