// Value: the engine's representation of one SQL value, and the VM's register.
//
// A compact tagged union: integers and reals live inline (no heap); text and
// blobs either point at memory that outlives the value (kStatic: arena
// literals, a page the caller keeps pinned) or at the value's own buffer,
// which is kept and reused when the value is overwritten, so a register that
// holds a string on every row allocates only while its high-water mark grows.
// Text is UTF-8 and always followed by a NUL byte when owned (so the C API
// can hand it out as a C string).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "common/assert.h"

namespace basalt {

enum class Type : uint8_t { kNull = 0, kInteger = 1, kReal = 2, kText = 3, kBlob = 4 };

class Value {
 public:
  Value() : i_(0) {}
  ~Value() { FreeBuffer(); }
  Value(const Value& o) : i_(0) { CopyFrom(o); }
  Value& operator=(const Value& o) {
    if (this != &o) CopyFrom(o);
    return *this;
  }
  Value(Value&& o) noexcept { MoveFrom(&o); }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      FreeBuffer();
      buf_ = nullptr;
      cap_ = 0;
      MoveFrom(&o);
    }
    return *this;
  }

  static Value Int(int64_t v) {
    Value x;
    x.SetInt(v);
    return x;
  }
  static Value Real(double v) {
    Value x;
    x.SetReal(v);
    return x;
  }
  static Value Text(std::string_view s) {
    Value x;
    x.SetText(s);
    return x;
  }

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_int() const { return type_ == Type::kInteger; }
  bool is_real() const { return type_ == Type::kReal; }
  bool is_text() const { return type_ == Type::kText; }
  bool is_blob() const { return type_ == Type::kBlob; }
  bool is_numeric() const { return type_ == Type::kInteger || type_ == Type::kReal; }
  bool is_string_like() const { return type_ == Type::kText || type_ == Type::kBlob; }

  // Raw accessors: only valid for the matching type.
  int64_t int_value() const { return i_; }
  double real_value() const { return r_; }
  const char* data() const { return z_; }
  uint32_t size() const { return n_; }
  std::string_view text() const { return std::string_view(z_, n_); }

  // Subtype (sqlite3_result_subtype), kept with the value; 0 normally.
  uint8_t subtype() const { return subtype_; }
  void set_subtype(uint8_t s) { subtype_ = s; }

  void SetNull() {
    type_ = Type::kNull;
    subtype_ = 0;
    n_ = 0;
  }
  // The "unchanged" NULL an UPDATE of a virtual table passes for a column
  // the table did not produce under sqlite3_vtab_nochange (the value
  // sqlite3_value_nochange reports; records store it as serial type 10).
  void SetNoChange() {
    type_ = Type::kNull;
    subtype_ = 0;
    n_ = kNoChangeTag;
  }
  bool is_nochange() const { return type_ == Type::kNull && subtype_ == 0 && n_ == kNoChangeTag; }
  // A pointer value (sqlite3_result_pointer): SQL NULL with subtype 'p'
  // that carries `p` and a tag naming its type (a hash of the type string).
  void SetPointer(void* p, uint32_t tag) {
    type_ = Type::kNull;
    i_ = static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
    n_ = tag;
    subtype_ = 'p';
  }
  void* pointer(uint32_t tag) const {
    if (type_ != Type::kNull || subtype_ != 'p' || n_ != tag) return nullptr;
    return reinterpret_cast<void*>(static_cast<intptr_t>(i_));
  }
  void SetInt(int64_t v) {
    i_ = v;
    type_ = Type::kInteger;
    subtype_ = 0;
  }
  void SetReal(double v) {
    r_ = v;
    type_ = Type::kReal;
    subtype_ = 0;
  }
  // Copies s into the value's own buffer.
  void SetText(std::string_view s) { SetBytes(Type::kText, s.data(), s.size()); }
  void SetBlob(const void* p, size_t n) { SetBytes(Type::kBlob, p, n); }
  // Points at memory the caller guarantees outlives this value (no copy).
  void SetTextStatic(std::string_view s) { SetStatic(Type::kText, s.data(), s.size()); }
  void SetBlobStatic(const void* p, size_t n) { SetStatic(Type::kBlob, p, n); }

  // Makes the value a text/blob of n bytes in its own buffer and returns the
  // buffer to fill (NUL-terminated at n by this call). Old contents are lost.
  char* Reserve(Type t, size_t n) {
    char* p = Grow(n + 1);
    p[n] = '\0';
    z_ = p;
    n_ = static_cast<uint32_t>(n);
    type_ = t;
    subtype_ = 0;
    return p;
  }
  // Keeps text bytes (a numeric value's rendering) in the value's own buffer
  // while the value keeps its type and number: sqlite3_value_text leaves an
  // INTEGER an INTEGER. Returns the NUL-terminated copy, valid until the
  // value changes. Only for numeric values.
  const char* CacheNumericText(const char* s, size_t n) {
    BASALT_DCHECK(is_numeric());
    char* p = Grow(n + 1);
    std::memcpy(p, s, n);
    p[n] = '\0';
    n_ = static_cast<uint32_t>(n);
    return p;
  }
  // Shrinks a string-like value to n bytes (n <= size()), keeping it owned.
  void Truncate(size_t n) {
    MakeOwned();
    n_ = static_cast<uint32_t>(n);
    buf_[n] = '\0';
  }

  // Deep copy: afterwards this value does not depend on `o`'s memory.
  void CopyFrom(const Value& o) {
    if (o.is_string_like()) {
      SetBytes(o.type_, o.z_, o.n_);
    } else {
      i_ = o.i_;
      n_ = o.n_;
      type_ = o.type_;
    }
    subtype_ = o.subtype_;
  }
  // Shallow copy: text/blob point at `o`'s bytes, valid while `o` is unchanged.
  void ShallowCopyFrom(const Value& o) {
    i_ = o.i_;
    n_ = o.n_;
    type_ = o.type_;
    subtype_ = o.subtype_;
  }
  // Ensures text/blob bytes live in the value's own buffer.
  void MakeOwned() {
    if (is_string_like() && (buf_ == nullptr || z_ != buf_)) SetBytes(type_, z_, n_);
  }
  bool owns_bytes() const { return buf_ != nullptr && z_ == buf_; }
  // Relabels a TEXT value as BLOB or the reverse, keeping its bytes (CAST).
  // Only for string-like values and t in {kText, kBlob}.
  void RetagStringLike(Type t) { type_ = t; }
  void Swap(Value& o) noexcept {
    Value tmp(std::move(o));
    o = std::move(*this);
    *this = std::move(tmp);
  }
  // Frees the value's own buffer (keeps the value if it does not use it).
  void ReleaseBuffer() {
    if (owns_bytes()) SetNull();
    FreeBuffer();
    buf_ = nullptr;
    cap_ = 0;
  }

 private:
  // n_ of a NULL: 0, a pointer's tag (subtype 'p'), or this.
  static constexpr uint32_t kNoChangeTag = 0xffffffffu;
  void SetBytes(Type t, const void* p, size_t n) {
    // p may point into our own buffer (e.g. a substring of ourselves).
    if (buf_ != nullptr && p >= buf_ && static_cast<const char*>(p) < buf_ + cap_) {
      std::memmove(buf_, p, n);
      buf_[n] = '\0';
      z_ = buf_;
    } else {
      char* d = Grow(n + 1);
      if (n) std::memcpy(d, p, n);
      d[n] = '\0';
      z_ = d;
    }
    n_ = static_cast<uint32_t>(n);
    type_ = t;
    subtype_ = 0;
  }
  void SetStatic(Type t, const void* p, size_t n) {
    z_ = static_cast<const char*>(p);
    n_ = static_cast<uint32_t>(n);
    type_ = t;
    subtype_ = 0;
  }
  // Buffers of kCountedBytes or more come from the library heap (counted
  // in sqlite3_memory_used, subject to the heap limits); smaller ones, too
  // many and too short-lived to be worth counting, straight from malloc.
  static constexpr uint32_t kCountedBytes = 1024;
  // Frees buf_ (leaves buf_ and cap_ stale).
  void FreeBuffer() {
    if (buf_ != nullptr) FreeBufferSlow();
  }
  void FreeBufferSlow();  // value_buffer.cc
  char* Grow(size_t need) {
    if (need > cap_) GrowSlow(need);
    return buf_;
  }
  // Makes buf_ hold at least `need` bytes, keeping its contents; out of
  // memory travels as std::bad_alloc to the API boundary (SQLITE_NOMEM),
  // and the value keeps its old buffer.
  void GrowSlow(size_t need);  // value_buffer.cc
  void MoveFrom(Value* o) {
    i_ = o->i_;
    n_ = o->n_;
    type_ = o->type_;
    subtype_ = o->subtype_;
    buf_ = o->buf_;
    cap_ = o->cap_;
    o->buf_ = nullptr;
    o->cap_ = 0;
    if (o->is_string_like() && o->z_ == buf_) o->type_ = Type::kNull;
  }

  union {
    int64_t i_;
    double r_;
    const char* z_;
  };
  uint32_t n_ = 0;
  Type type_ = Type::kNull;
  uint8_t subtype_ = 0;
  char* buf_ = nullptr;
  uint32_t cap_ = 0;
};

}  // namespace basalt
