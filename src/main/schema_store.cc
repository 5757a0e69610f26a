#include "main/schema_store.h"

#include "common/assert.h"
#include "record/record.h"

namespace basalt {

void SchemaStore::Init(std::unique_ptr<Database> main) {
  BASALT_DCHECK(dbs_.empty());
  main->name = "main";
  dbs_.push_back(std::move(main));
  dbs_.push_back(std::make_unique<Database>("temp", /*temp=*/true));
  catalog_.Add("main", &dbs_[0]->schema);
  catalog_.Add("temp", &dbs_[1]->schema);
  SetBusyHandler(busy_);
  SyncEnv();
}

Status SchemaStore::OpenTemp() {
  Database* t = temp();
  if (t->is_open()) return Status();
  TRY(t->OpenMemory());
  t->SetTextEncoding(main()->enc);
  SyncEnv();
  return Status();
}

void SchemaStore::CloseTemp() {
  Database* t = temp();
  if (!t->is_open()) return;
  t->schema.Clear();
  t->bt.reset();
  ++detach_gen_;  // statements that used TEMP compile again
  SyncEnv();
}

Status SchemaStore::EnsureSchema(int i) {
  if (i == Catalog::kTemp) return OpenTemp();
  Database* db = at(i);
  if (db->schema_loaded) return Status();
  if (db->open_error.primary() == kBusy) {
    Status st = db->ReopenAfterBusy(busy_);
    SyncEnv();
    if (!st.ok()) return st;
  }
  Status st = db->EnsureSchema();
  SyncEnv();
  return st;
}

Status SchemaStore::Reload(int i) {
  Database* db = at(i);
  if (!db->is_open()) return Status();
  Status st = db->LoadSchema();
  // A reload that failed (an I/O error reading sqlite_schema) leaves the
  // schema empty: it is marked unloaded, so that the next statement reads
  // it again instead of compiling against nothing.
  if (!st.ok() && db->open_error.ok()) db->schema_loaded = false;
  SyncEnv();
  return st;
}

Status SchemaStore::CheckSchemaCookie(int i) {
  Status st = at(i)->CheckSchemaCookie();
  if (st.code() == kSchema && i == Catalog::kMain) SyncEnv();
  return st;
}

void SchemaStore::Attach(std::unique_ptr<Database> db) {
  BASALT_DCHECK(size() < 2 + kMaxAttached);
  Database* raw = db.get();
  dbs_.push_back(std::move(db));
  catalog_.Add(raw->name, &raw->schema);
  if (raw->bt && busy_ && raw->is_file) raw->bt->pager()->SetBusyHandler(busy_);
  SyncEnv();
}

void SchemaStore::Detach(int i) {
  BASALT_DCHECK(i >= 2 && i < size());
  detach_gen_ += at(i)->schema.generation() + 1;
  catalog_.Remove(i);
  dbs_.erase(dbs_.begin() + i);
  SyncEnv();
}

uint64_t SchemaStore::generation() const {
  uint64_t g = detach_gen_;
  for (const auto& db : dbs_) g += db->schema.generation();
  return g;
}

void SchemaStore::SetBusyHandler(BusyHandler handler) {
  busy_ = std::move(handler);
  for (const auto& db : dbs_) {
    if (db->bt && db->is_file) db->bt->pager()->SetBusyHandler(busy_);
  }
}

void SchemaStore::SyncEnv() {
  env_->dbs.resize(dbs_.size());
  env_->encs.resize(dbs_.size());
  const uint8_t enc = main()->enc;
  for (size_t i = 0; i < dbs_.size(); ++i) {
    env_->dbs[i] = dbs_[i]->bt.get();
    env_->encs[i] = enc;
  }
  Check();
}

void SchemaStore::Check() const {
#if BASALT_DCHECK_ENABLED
  BASALT_DCHECK(catalog_.size() == size());
  BASALT_DCHECK(env_->dbs.size() == dbs_.size());
  for (int i = 0; i < size(); ++i) {
    BASALT_DCHECK(at(i)->schema.db_index == i);
    BASALT_DCHECK(catalog_.schema(i) == &at(i)->schema);
    BASALT_DCHECK(env_->dbs[static_cast<size_t>(i)] == at(i)->bt.get());
  }
#endif
}

}  // namespace basalt
