#include "catalog/function.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "catalog/schema.h"

namespace basalt {

void* AggregateContext(FuncContext* ctx, size_t n) {
  if (ctx->agg_mem == nullptr && n > 0) {
    ctx->agg_mem = std::calloc(1, n);
    // Out of memory travels as std::bad_alloc to the API boundary, which
    // turns it into SQLITE_NOMEM (callers never see a null block).
    if (ctx->agg_mem == nullptr) throw std::bad_alloc();
    ctx->agg_size = n;
  }
  return ctx->agg_mem;
}

void FreeAggregateContext(FuncContext* ctx) {
  std::free(ctx->agg_mem);
  ctx->agg_mem = nullptr;
  ctx->agg_size = 0;
}

void SetFuncError(FuncContext* ctx, std::string_view msg, int code) {
  ctx->is_error = true;
  ctx->error_code = code;
  ctx->error_msg.assign(msg.data(), msg.size());
}

void FunctionRegistry::Add(std::unique_ptr<FunctionDef> def) {
  def->name = LowerAscii(def->name);
  auto& v = by_name_[def->name];
  for (auto& d : v) {
    if (d->nargs == def->nargs) {
      d = std::move(def);
      return;
    }
  }
  v.push_back(std::move(def));
}

bool FunctionRegistry::Remove(std::string_view name, int nargs) {
  auto it = by_name_.find(LowerAscii(name));
  if (it == by_name_.end()) return false;
  auto& v = it->second;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i]->nargs == nargs) {
      v.erase(v.begin() + static_cast<long>(i));
      return true;
    }
  }
  return false;
}

const FunctionDef* FunctionRegistry::FindOwn(std::string_view lower, int nargs,
                                             const FunctionDef** any) const {
  *any = nullptr;
  if (by_name_.empty()) return nullptr;
  auto it = by_name_.find(std::string(lower));
  if (it == by_name_.end()) return nullptr;
  for (auto& d : it->second) {
    if (d->nargs == nargs) return d.get();
    if (d->nargs == -1) *any = d.get();
  }
  return nullptr;
}

const FunctionDef* FunctionRegistry::Find(std::string_view name, int nargs) const {
  std::string lower = LowerAscii(name);
  const FunctionDef* own_any = nullptr;
  if (const FunctionDef* d = FindOwn(lower, nargs, &own_any)) return d;
  const FunctionDef* base_any = nullptr;
  if (base_ != nullptr) {
    if (const FunctionDef* d = base_->FindOwn(lower, nargs, &base_any)) return d;
  }
  return own_any != nullptr ? own_any : base_any;
}

void FunctionRegistry::ForEach(const std::function<void(const FunctionDef&)>& fn) const {
  for (const auto& [name, defs] : by_name_) {
    for (const auto& d : defs) fn(*d);
  }
  if (base_ == nullptr) return;
  base_->ForEach([&](const FunctionDef& d) {
    const FunctionDef* any = nullptr;
    if (FindOwn(d.name, d.nargs, &any) == nullptr) fn(d);
  });
}

bool FunctionRegistry::HasName(std::string_view name) const {
  auto it = by_name_.find(LowerAscii(name));
  if (it != by_name_.end() && !it->second.empty()) return true;
  return base_ != nullptr && base_->HasName(name);
}

namespace {

bool SameValue(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Type::kNull:
      return true;
    case Type::kInteger:
      return a.int_value() == b.int_value();
    case Type::kReal:
      return a.real_value() == b.real_value();
    default:
      return a.text() == b.text();
  }
}

}  // namespace

void* AuxDataStore::Get(int site, int arg, const Value& current) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    if (e.site != site || e.arg != arg) continue;
    if (SameValue(e.value, current)) return e.p;
    // A1: the argument changed; the metadata no longer applies.
    void* p = e.p;
    void (*del)(void*) = e.del;
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
    if (del != nullptr && p != nullptr) del(p);
    return nullptr;
  }
  return nullptr;
}

void AuxDataStore::Set(int site, int arg, const Value& current, void* p, void (*del)(void*)) {
  for (Entry& e : entries_) {
    if (e.site != site || e.arg != arg) continue;
    void* old = e.p;
    void (*old_del)(void*) = e.del;
    e.value.CopyFrom(current);
    e.p = p;
    e.del = del;
    if (old_del != nullptr && old != nullptr && old != p) old_del(old);
    return;
  }
  entries_.push_back(Entry{site, arg, Value(), p, del});
  entries_.back().value.CopyFrom(current);
}

void AuxDataStore::Clear() {
  std::vector<Entry> gone;
  gone.swap(entries_);
  for (Entry& e : gone) {
    if (e.del != nullptr && e.p != nullptr) e.del(e.p);
  }
}

}  // namespace basalt
