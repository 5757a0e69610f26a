// A bump allocator for short-lived nodes (AST, plans). Everything allocated
// from an Arena lives until the Arena is destroyed or Reset(); objects with
// non-trivial destructors are destroyed then, in reverse order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

namespace basalt {

class Arena {
 public:
  Arena() = default;
  explicit Arena(size_t first_block) : next_block_size_(first_block) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() { Reset(); }

  void* Allocate(size_t bytes, size_t align = alignof(std::max_align_t)) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(ptr_) + align - 1) & ~(uintptr_t(align) - 1);
    if (p + bytes > reinterpret_cast<uintptr_t>(end_) || ptr_ == nullptr) {
      return AllocateSlow(bytes, align);
    }
    ptr_ = reinterpret_cast<char*>(p + bytes);
    return reinterpret_cast<void*>(p);
  }

  template <typename T, typename... Args>
  T* New(Args&&... args) {
    void* mem = Allocate(sizeof(T), alignof(T));
    T* obj = new (mem) T(std::forward<Args>(args)...);
    if constexpr (!std::is_trivially_destructible_v<T>) {
      AddCleanup([](void* p) { static_cast<T*>(p)->~T(); }, obj);
    }
    return obj;
  }

  // An uninitialised array of n trivially destructible T.
  template <typename T>
  T* NewArray(size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (n == 0) return nullptr;
    return static_cast<T*>(Allocate(sizeof(T) * n, alignof(T)));
  }

  // A copy of `s`, NUL-terminated, owned by the arena.
  std::string_view CopyString(std::string_view s) {
    char* p = static_cast<char*>(Allocate(s.size() + 1, 1));
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return std::string_view(p, s.size());
  }

  void Reset();
  size_t bytes_allocated() const { return total_; }

 private:
  struct Block {
    Block* prev;
    size_t size;
  };
  struct Cleanup {
    void (*fn)(void*);
    void* obj;
    Cleanup* prev;
  };
  void* AllocateSlow(size_t bytes, size_t align);
  void AddCleanup(void (*fn)(void*), void* obj) {
    Cleanup* c = static_cast<Cleanup*>(Allocate(sizeof(Cleanup), alignof(Cleanup)));
    c->fn = fn;
    c->obj = obj;
    c->prev = cleanups_;
    cleanups_ = c;
  }

  char* ptr_ = nullptr;
  char* end_ = nullptr;
  Block* blocks_ = nullptr;
  Cleanup* cleanups_ = nullptr;
  size_t next_block_size_ = 4096;
  size_t total_ = 0;
};

// A growable array whose storage lives in an Arena; for AST and plan nodes.
// Elements must be trivially copyable (pointers, small structs).
template <typename T>
class ArenaVec {
 public:
  ArenaVec() = default;
  void push_back(Arena& arena, const T& v) {
    if (size_ == cap_) Grow(arena);
    data_[size_++] = v;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  void clear() { size_ = 0; }
  void pop_back() { --size_; }
  void resize(Arena& arena, size_t n) {
    while (cap_ < n) Grow(arena);
    for (size_t i = size_; i < n; ++i) data_[i] = T();
    size_ = n;
  }

 private:
  void Grow(Arena& arena) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint32_t ncap = cap_ ? cap_ * 2 : 4;
    T* nd = static_cast<T*>(arena.Allocate(sizeof(T) * ncap, alignof(T)));
    if (size_) std::memcpy(static_cast<void*>(nd), data_, sizeof(T) * size_);
    data_ = nd;
    cap_ = ncap;
  }
  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t cap_ = 0;
};

}  // namespace basalt
