#include "common/arena.h"

#include "common/mem.h"

namespace basalt {

void* Arena::AllocateSlow(size_t bytes, size_t align) {
  size_t need = bytes + align + sizeof(Block);
  size_t size = next_block_size_;
  while (size < need) size *= 2;
  if (next_block_size_ < 64 * 1024) next_block_size_ *= 2;
  void* raw = mem::AcquireOrThrow(size);
  Block* b = static_cast<Block*>(raw);
  b->prev = blocks_;
  b->size = size;
  blocks_ = b;
  total_ += size;
  ptr_ = reinterpret_cast<char*>(b + 1);
  end_ = reinterpret_cast<char*>(raw) + size;
  uintptr_t p = (reinterpret_cast<uintptr_t>(ptr_) + align - 1) & ~(uintptr_t(align) - 1);
  ptr_ = reinterpret_cast<char*>(p + bytes);
  return reinterpret_cast<void*>(p);
}

void Arena::Reset() {
  for (Cleanup* c = cleanups_; c != nullptr; c = c->prev) c->fn(c->obj);
  cleanups_ = nullptr;
  while (blocks_ != nullptr) {
    Block* prev = blocks_->prev;
    mem::Release(blocks_, blocks_->size);
    blocks_ = prev;
  }
  ptr_ = end_ = nullptr;
  total_ = 0;
}

}  // namespace basalt
