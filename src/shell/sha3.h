// SHA3 (FIPS 202) for .sha3sum: incremental hashing with 224, 256, 384 or
// 512-bit output.
#ifndef BASALT_SHELL_SHA3_H_
#define BASALT_SHELL_SHA3_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace shell {

class Sha3 {
 public:
  explicit Sha3(int bits);
  void Update(const void* data, size_t n);
  void Update(const std::string& s) { Update(s.data(), s.size()); }
  std::string Final();  // the digest, bits/8 raw bytes

 private:
  void Permute();

  uint64_t state_[25] = {};
  size_t rate_;     // bytes absorbed per permutation
  size_t pos_ = 0;  // bytes absorbed into the current block
  int bits_;
};

}  // namespace shell

#endif  // BASALT_SHELL_SHA3_H_
