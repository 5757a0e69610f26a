// Pointer passing (bindptr.html): sqlite3_bind_pointer,
// sqlite3_result_pointer and sqlite3_value_pointer. A pointer value is an
// SQL NULL to everything else; only sqlite3_value_pointer with the same
// type string gets the pointer back.
#include <cstring>

#include "api/guard.h"
#include "api/handles.h"

using basalt::api::AsCtx;
using basalt::api::AsValue;
using basalt::api::Guard;
using basalt::api::GuardVoid;

namespace {

constexpr uint8_t kPointerSubtype = 'p';

// A NULL keeps its integer payload (Value's copies carry it along).
void SetPointer(basalt::Value* v, PointerBox* box) {
  v->SetInt(static_cast<int64_t>(reinterpret_cast<intptr_t>(box)));
  v->SetNull();
  v->set_subtype(kPointerSubtype);
}

}  // namespace

extern "C" {

int sqlite3_bind_pointer(sqlite3_stmt* s, int i, void* p, const char* type, void (*del)(void*)) {
  if (s == nullptr) {
    if (del != nullptr) del(p);
    return SQLITE_MISUSE;
  }
  int rc = sqlite3_bind_null(s, i);
  if (rc != SQLITE_OK) {
    if (del != nullptr) del(p);
    return rc;
  }
  return Guard(s->db, basalt::api::kCodeOnThrow, [&] {
    auto box = std::make_unique<PointerBox>(p, type != nullptr ? type : "", del);
    basalt::Value v;
    SetPointer(&v, box.get());
    s->stmt->Bind(i, v);
    s->bound_pointers[i] = std::move(box);  // the previous box of i (if any) goes
    return SQLITE_OK;
  });
}

void sqlite3_result_pointer(sqlite3_context* c, void* p, const char* type, void (*del)(void*)) {
  basalt::FuncContext* ctx = AsCtx(c);
  auto* db = static_cast<sqlite3*>(ctx->api_db);
  if (db == nullptr) {
    if (del != nullptr) del(p);
    ctx->result->SetNull();
    return;
  }
  GuardVoid(ctx, [&] {
    auto box = std::make_unique<PointerBox>(p, type != nullptr ? type : "", del);
    SetPointer(ctx->result, box.get());
    db->scratch.result_pointers.push_back(std::move(box));
  });
}

void* sqlite3_value_pointer(sqlite3_value* v, const char* type) {
  if (v == nullptr || type == nullptr) return nullptr;
  basalt::Value* x = AsValue(v);
  if (!x->is_null() || x->subtype() != kPointerSubtype) return nullptr;
  auto* box = reinterpret_cast<PointerBox*>(static_cast<intptr_t>(x->int_value()));
  if (box == nullptr || box->type != type) return nullptr;
  return box->ptr;
}

}  // extern "C"
