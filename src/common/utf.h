// UTF-8 and UTF-16 helpers. Decoding is lenient the way SQLite's is: bytes
// that do not form a valid sequence decode to something rather than fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace basalt {

// Decodes one code point starting at *p (p < end) and advances *p past it.
uint32_t Utf8Decode(const uint8_t** p, const uint8_t* end);

// Appends the UTF-8 encoding of `cp` to out; returns bytes written (1..4).
int Utf8Encode(uint32_t cp, char* out);
void Utf8Append(uint32_t cp, std::string* out);

// Number of characters in s (a continuation byte 10xxxxxx does not start one).
size_t Utf8CharCount(std::string_view s);

// Byte offset of the character with index n (clamped to s.size()).
size_t Utf8ByteOffset(std::string_view s, size_t n);

// Conversions between UTF-8 and UTF-16 (little or big endian byte order).
std::string Utf16ToUtf8(const void* data, size_t bytes, bool big_endian);
std::u16string Utf8ToUtf16(std::string_view s);

}  // namespace basalt
