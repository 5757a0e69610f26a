#include "common/mem.h"

#include <atomic>
#include <climits>
#include <cstdlib>

#include "common/assert.h"

namespace basalt::mem {

namespace {

// Requests at or above this many bytes are refused outright, as SQLite's
// allocator refuses them (the methods take an int).
constexpr uint64_t kMaxRequest = 0x7fffff00;

size_t Round8(size_t n) { return (n + 7) & ~size_t{7}; }

// ---- the built-in methods: malloc with the rounded size in a prefix ----
void* BuiltinMalloc(int n) {
  size_t r = Round8(static_cast<size_t>(n));
  auto* p = static_cast<int64_t*>(std::malloc(r + sizeof(int64_t)));
  if (p == nullptr) return nullptr;
  p[0] = static_cast<int64_t>(r);
  return p + 1;
}
void BuiltinFree(void* p) {
  if (p != nullptr) std::free(static_cast<int64_t*>(p) - 1);
}
void* BuiltinRealloc(void* p, int n) {
  size_t r = Round8(static_cast<size_t>(n));
  auto* q = static_cast<int64_t*>(std::realloc(static_cast<int64_t*>(p) - 1, r + sizeof(int64_t)));
  if (q == nullptr) return nullptr;
  q[0] = static_cast<int64_t>(r);
  return q + 1;
}
int BuiltinSize(void* p) {
  return p == nullptr ? 0 : static_cast<int>(static_cast<const int64_t*>(p)[-1]);
}
int BuiltinRoundup(int n) { return static_cast<int>(Round8(static_cast<size_t>(n))); }
int BuiltinInit(void*) { return 0; }
void BuiltinShutdown(void*) {}

constexpr Methods kBuiltin = {BuiltinMalloc,  BuiltinFree, BuiltinRealloc,  BuiltinSize,
                              BuiltinRoundup, BuiltinInit, BuiltinShutdown, nullptr};

// Invariant: g_builtin is true exactly when g_methods equals kBuiltin; then
// caller-sized blocks skip the methods and use malloc/free directly.
Methods g_methods = kBuiltin;
bool g_builtin = true;
std::atomic<bool> g_counting{true};

struct Counter {
  std::atomic<int64_t> now{0};
  std::atomic<int64_t> max{0};
  void Add(int64_t d) {
    int64_t v = now.fetch_add(d, std::memory_order_relaxed) + d;
    Raise(v);
  }
  void Sub(int64_t d) { now.fetch_sub(d, std::memory_order_relaxed); }
  void Raise(int64_t v) {
    int64_t m = max.load(std::memory_order_relaxed);
    while (v > m && !max.compare_exchange_weak(m, v, std::memory_order_relaxed)) {
    }
  }
};
Counter g_used, g_count, g_size, g_pcache, g_pcache_size;
std::atomic<int64_t> g_soft{0}, g_hard{0};

// Whether a counted request of n more bytes must be refused (the hard
// limit, as SQLite applies it: refused once the bytes outstanding reach
// the limit less the request).
bool Refused(uint64_t n) {
  int64_t hard = g_hard.load(std::memory_order_relaxed);
  if (hard <= 0) return false;
  return g_used.now.load(std::memory_order_relaxed) >= hard - static_cast<int64_t>(n);
}

void CountIn(int64_t bytes, uint64_t request, Kind kind) {
  g_used.Add(bytes);
  g_count.Add(1);
  g_size.Raise(static_cast<int64_t>(request));
  if (kind == Kind::kPageCache) {
    g_pcache.Add(bytes);
    g_pcache_size.Raise(static_cast<int64_t>(request));
  }
}

void CountOut(int64_t bytes, Kind kind) {
  g_used.Sub(bytes);
  g_count.Sub(1);
  if (kind == Kind::kPageCache) g_pcache.Sub(bytes);
}

}  // namespace

const Methods& Current() { return g_methods; }

void Install(const Methods* m) {
  g_methods = m != nullptr ? *m : kBuiltin;
  g_builtin = m == nullptr;
}

void SetCounting(bool on) { g_counting.store(on, std::memory_order_relaxed); }
bool Counting() { return g_counting.load(std::memory_order_relaxed); }

void* Malloc(uint64_t n) {
  if (n == 0 || n >= kMaxRequest) return nullptr;
  if (!Counting()) return g_methods.xMalloc(static_cast<int>(n));
  // As SQLite, the methods see the request rounded up by their xRoundup.
  int full = g_methods.xRoundup(static_cast<int>(n));
  if (Refused(static_cast<uint64_t>(full))) return nullptr;
  void* p = g_methods.xMalloc(full);
  if (p != nullptr) CountIn(g_methods.xSize(p), n, Kind::kGeneral);
  return p;
}

void Free(void* p) {
  if (p == nullptr) return;
  if (Counting()) CountOut(g_methods.xSize(p), Kind::kGeneral);
  g_methods.xFree(p);
}

void* Realloc(void* p, uint64_t n) {
  if (p == nullptr) return Malloc(n);
  if (n == 0) {
    Free(p);
    return nullptr;
  }
  if (n >= kMaxRequest) return nullptr;
  if (!Counting()) return g_methods.xRealloc(p, static_cast<int>(n));
  int64_t old = g_methods.xSize(p);
  int64_t want = g_methods.xRoundup(static_cast<int>(n));
  if (want == old) return p;
  if (want > old && Refused(static_cast<uint64_t>(want - old))) return nullptr;
  void* q = g_methods.xRealloc(p, static_cast<int>(want));
  if (q == nullptr) return nullptr;
  int64_t now = g_methods.xSize(q);
  if (now >= old) {
    g_used.Add(now - old);
  } else {
    g_used.Sub(old - now);
  }
  g_size.Raise(static_cast<int64_t>(n));
  return q;
}

uint64_t Size(const void* p) {
  return p == nullptr ? 0 : static_cast<uint64_t>(g_methods.xSize(const_cast<void*>(p)));
}

void* Acquire(size_t n, Kind kind) {
  bool counting = Counting();
  if (counting && Refused(n)) return nullptr;
  void* p;
  if (g_builtin) {
    p = std::malloc(n == 0 ? 1 : n);
  } else {
    if (n >= kMaxRequest) return nullptr;
    p = g_methods.xMalloc(static_cast<int>(n == 0 ? 1 : n));
  }
  if (p != nullptr && counting) CountIn(static_cast<int64_t>(n), n, kind);
  return p;
}

void Release(void* p, size_t n, Kind kind) {
  if (p == nullptr) return;
  if (Counting()) CountOut(static_cast<int64_t>(n), kind);
  if (g_builtin) {
    std::free(p);
  } else {
    g_methods.xFree(p);
  }
}

bool Reserve(size_t n) {
  if (!Counting()) return true;
  if (Refused(n)) return false;
  CountIn(static_cast<int64_t>(n), n, Kind::kGeneral);
  return true;
}

void Unreserve(size_t n) {
  if (Counting()) CountOut(static_cast<int64_t>(n), Kind::kGeneral);
}

void* Reacquire(void* p, size_t old_n, size_t new_n) {
  if (p == nullptr) return Acquire(new_n);
  bool counting = Counting();
  if (counting && new_n > old_n && Refused(new_n - old_n)) return nullptr;
  void* q;
  if (g_builtin) {
    q = std::realloc(p, new_n == 0 ? 1 : new_n);
  } else {
    if (new_n >= kMaxRequest) return nullptr;
    q = g_methods.xRealloc(p, static_cast<int>(new_n == 0 ? 1 : new_n));
  }
  if (q == nullptr || !counting) return q;
  if (new_n >= old_n) {
    g_used.Add(static_cast<int64_t>(new_n - old_n));
  } else {
    g_used.Sub(static_cast<int64_t>(old_n - new_n));
  }
  g_size.Raise(static_cast<int64_t>(new_n));
  return q;
}

Figure Read(Stat s, bool reset) {
  // Indexed by Stat; the "size" figures keep only a high-water mark.
  static Counter* const kCounters[] = {&g_used, &g_count, &g_size, &g_pcache, &g_pcache_size};
  auto i = static_cast<size_t>(s);
  BASALT_DCHECK(i < sizeof(kCounters) / sizeof(kCounters[0]));
  Counter& c = *kCounters[i];
  const bool high_only = s == Stat::kMallocSize || s == Stat::kPageCacheSize;
  Figure f{high_only ? 0 : c.now.load(std::memory_order_relaxed),
           c.max.load(std::memory_order_relaxed)};
  if (reset) c.max.store(f.current, std::memory_order_relaxed);
  return f;
}

int64_t SetSoftLimit(int64_t n) {
  int64_t old = g_soft.load();
  if (n >= 0) {
    int64_t hard = g_hard.load();
    if (hard > 0 && (n > hard || n == 0)) n = hard;
    g_soft.store(n);
  }
  return old;
}

int64_t SetHardLimit(int64_t n) {
  int64_t old = g_hard.load();
  if (n >= 0) {
    g_hard.store(n);
    int64_t soft = g_soft.load();
    if (n > 0 && (soft == 0 || soft > n)) g_soft.store(n);
  }
  return old;
}

bool NearlyFull() {
  int64_t soft = g_soft.load(std::memory_order_relaxed);
  return soft > 0 && g_used.now.load(std::memory_order_relaxed) >= soft;
}

}  // namespace basalt::mem
