// fuzz_record: the record layer (src/record) on raw bytes. The input splits at
// its first byte: the rest is two records a and b, the first byte's value
// saying where b starts. Each record's header is parsed, every column is
// decoded (copied, borrowed and as UTF-16), re-encoded and compared back; a
// and b are compared with each other and with a's decoded values as a key, and
// transcoded between encodings. Malformed records must give kCorrupt, never
// an out-of-bounds read.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "record/record.h"

namespace {

using basalt::Value;

// Decodes every column of rec into *vals; false for a malformed record.
bool DecodeAll(const uint8_t* rec, uint32_t len, std::vector<Value>* vals) {
  std::vector<uint32_t> types;
  std::vector<uint32_t> offsets;
  auto n = basalt::ParseRecordHeader(rec, len, &types, &offsets);
  if (!n.ok()) return false;
  vals->resize(static_cast<size_t>(*n));
  for (int i = 0; i < *n; ++i) {
    // The header parse promised every body lies inside the record.
    Value borrowed;
    basalt::DecodeSerial(rec + offsets[i], types[i], &borrowed, /*borrow=*/true);
    Value wide;
    basalt::DecodeSerialEnc(rec + offsets[i], types[i], &wide, basalt::kUtf16le);
    basalt::DecodeSerial(rec + offsets[i], types[i], &(*vals)[i]);
  }
  return true;
}

void CompareBoth(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                 const std::vector<Value>& key) {
  basalt::KeyInfo ki;
  ki.n_fields = static_cast<int>(key.size());
  basalt::Status st;
  (void)basalt::CompareRecords(a, na, b, nb, ki, &st);
  if (key.empty()) return;
  int n = static_cast<int>(key.size());
  (void)basalt::CompareRecordWithKey(b, nb, key.data(), n, ki, 0, &st);
  auto cmp = basalt::ChooseRecordComparator(key.data(), n, ki);
  (void)cmp(b, nb, key.data(), n, ki, 0, &st);
  (void)basalt::CompareRecordIntFirst(b, nb, key.data(), n, ki, 0, &st);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 100000) return 0;
  const uint8_t* rest = data + 1;
  uint32_t len = static_cast<uint32_t>(size - 1);
  uint32_t split = len == 0 ? 0 : data[0] % (len + 1);
  const uint8_t* a = rest;
  uint32_t na = split;
  const uint8_t* b = rest + split;
  uint32_t nb = len - split;

  std::vector<Value> va;
  std::vector<Value> vb;
  bool a_ok = DecodeAll(a, na, &va);
  bool b_ok = DecodeAll(b, nb, &vb);
  CompareBoth(a, na, b, nb, a_ok ? va : std::vector<Value>{});
  CompareBoth(b, nb, a, na, b_ok ? vb : std::vector<Value>{});
  if (a_ok) {
    // Encoding the decoded values again must give a record that decodes to
    // the same number of columns.
    std::string again;
    basalt::EncodeRecord(va.data(), static_cast<int>(va.size()), &again);
    std::vector<Value> back;
    bool ok = DecodeAll(reinterpret_cast<const uint8_t*>(again.data()),
                        static_cast<uint32_t>(again.size()), &back);
    if (!ok || back.size() != va.size()) __builtin_trap();
  }
  std::string out;
  (void)basalt::TranscodeRecord(a, na, basalt::kUtf8, basalt::kUtf16be, &out);
  out.clear();
  (void)basalt::TranscodeRecord(b, nb, basalt::kUtf16le, basalt::kUtf8, &out);
  return 0;
}
