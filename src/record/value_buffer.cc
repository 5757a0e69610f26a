// The owned buffer of a Value: where its memory comes from (record/value.h).
#include <cstdlib>
#include <cstring>
#include <new>

#include "common/mem.h"
#include "record/value.h"

namespace basalt {

void Value::FreeBufferSlow() {
  if (cap_ >= kCountedBytes) {
    mem::Release(buf_, cap_);
  } else {
    std::free(buf_);
  }
}

void Value::GrowSlow(size_t need) {
  size_t ncap = need < 32 ? 32 : need + need / 4;
  char* nb;
  if (ncap < kCountedBytes) {  // then the old buffer was a plain one too
    nb = static_cast<char*>(std::realloc(buf_, ncap));
  } else if (cap_ >= kCountedBytes) {
    nb = static_cast<char*>(mem::Reacquire(buf_, cap_, ncap));
  } else {
    nb = static_cast<char*>(mem::Acquire(ncap));
    if (nb != nullptr && buf_ != nullptr) {
      std::memcpy(nb, buf_, cap_);
      std::free(buf_);
    }
  }
  if (nb == nullptr) throw std::bad_alloc();
  buf_ = nb;
  cap_ = static_cast<uint32_t>(ncap);
}

}  // namespace basalt
