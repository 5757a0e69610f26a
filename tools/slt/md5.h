// MD5 message digest (RFC 1321), used for the "N values hashing to <md5>"
// form of query results. Incremental: Update() any number of times, then
// HexDigest() once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace basalt::slt {

class Md5 {
 public:
  Md5() { Reset(); }

  void Reset();
  void Update(const void* data, size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  // Pads the message, finishes the digest and returns it as 32 lowercase hex
  // digits. The object must be Reset() before it is used again.
  std::string HexDigest();

  // The digest of one string.
  static std::string Of(std::string_view text);

 private:
  void Compress(const uint8_t block[64]);

  uint32_t state_[4];
  uint64_t length_ = 0;  // message bytes seen so far
  uint8_t buffer_[64];   // the current, incomplete block
  size_t buffered_ = 0;
};

}  // namespace basalt::slt
