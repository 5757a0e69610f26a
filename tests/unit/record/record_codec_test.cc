// The record codec: serial types, round trips, header parsing, corruption,
// and key comparison.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "record/record.h"
#include "record/value_ops.h"
#include "sqlite_ref.h"

namespace basalt {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST(SerialTypeTest, Widths) {
  EXPECT_EQ(SerialTypeOf(Value()), 0u);
  EXPECT_EQ(SerialTypeOf(Value::Int(0)), 8u);
  EXPECT_EQ(SerialTypeOf(Value::Int(1)), 9u);
  EXPECT_EQ(SerialTypeOf(Value::Int(2)), 1u);
  EXPECT_EQ(SerialTypeOf(Value::Int(-1)), 1u);
  EXPECT_EQ(SerialTypeOf(Value::Int(127)), 1u);
  EXPECT_EQ(SerialTypeOf(Value::Int(-128)), 1u);
  EXPECT_EQ(SerialTypeOf(Value::Int(128)), 2u);
  EXPECT_EQ(SerialTypeOf(Value::Int(-129)), 2u);
  EXPECT_EQ(SerialTypeOf(Value::Int(32768)), 3u);
  EXPECT_EQ(SerialTypeOf(Value::Int(8388608)), 4u);
  EXPECT_EQ(SerialTypeOf(Value::Int(2147483648LL)), 5u);
  EXPECT_EQ(SerialTypeOf(Value::Int(140737488355328LL)), 6u);
  EXPECT_EQ(SerialTypeOf(Value::Int(-140737488355328LL)), 5u);
  EXPECT_EQ(SerialTypeOf(Value::Real(1.0)), 7u);
  EXPECT_EQ(SerialTypeOf(Value::Text("abc")), 19u);
  Value b;
  b.SetBlob("ab", 2);
  EXPECT_EQ(SerialTypeOf(b), 16u);
  EXPECT_EQ(SerialTypeLen(5), 6u);
  EXPECT_EQ(SerialTypeLen(19), 3u);
}

TEST(RecordTest, KnownBytes) {
  // (1, 'hi', NULL, 2.5) as SQLite writes it.
  std::vector<Value> v = {Value::Int(1), Value::Text("hi"), Value(), Value::Real(2.5)};
  std::string rec;
  EncodeRecord(v.data(), 4, &rec);
  const std::string want("\x05\x09\x11\x00\x07hi\x40\x04\x00\x00\x00\x00\x00\x00", 15);
  EXPECT_EQ(rec, want);
}

TEST(RecordTest, RoundTripAndBorrow) {
  std::vector<Value> v;
  const int64_t ints[] = {0,
                          1,
                          -1,
                          127,
                          128,
                          -32769,
                          8388607,
                          -2147483649LL,
                          140737488355327LL,
                          std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max()};
  for (int64_t i : ints) v.push_back(Value::Int(i));
  v.push_back(Value::Real(-0.0));
  v.push_back(Value::Real(1e308));
  v.push_back(Value());
  v.push_back(Value::Text(std::string(200, 'x')));  // forces a 2-byte header varint
  Value blob;
  blob.SetBlob("\x00\x01\xff", 3);
  v.push_back(blob);
  std::string rec;
  EncodeRecord(v.data(), static_cast<int>(v.size()), &rec);
  std::vector<uint32_t> types, offsets;
  auto n = ParseRecordHeader(Bytes(rec), static_cast<uint32_t>(rec.size()), &types, &offsets);
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(*n, static_cast<int>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(types[i], SerialTypeOf(v[i]));
    Value got;
    DecodeSerial(Bytes(rec) + offsets[i], types[i], &got, true);
    EXPECT_TRUE(testing::SameValue(v[i], got, true)) << i << ": " << testing::Describe(got);
    if (got.is_string_like() && got.size() > 0) {
      EXPECT_EQ(got.data(), rec.data() + offsets[i]);  // borrowed, not copied
      EXPECT_FALSE(got.owns_bytes());
    }
  }
}

TEST(RecordTest, ManyColumnsHeaderSize) {
  // A header just past 127 bytes needs a 2-byte size varint.
  std::vector<Value> v(127, Value::Int(5));
  std::string rec;
  EncodeRecord(v.data(), 127, &rec);
  std::vector<uint32_t> types, offsets;
  auto n = ParseRecordHeader(Bytes(rec), static_cast<uint32_t>(rec.size()), &types, &offsets);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 127);
  EXPECT_EQ(offsets[0], 129u);
}

TEST(RecordTest, NanReadsAsNull) {
  const uint8_t nan[8] = {0x7f, 0xf8, 0, 0, 0, 0, 0, 0};
  Value out = Value::Int(3);
  DecodeSerial(nan, 7, &out);
  EXPECT_TRUE(out.is_null());
}

TEST(RecordTest, Corruption) {
  std::vector<Value> v = {Value::Int(1000), Value::Text("hello")};
  std::string rec;
  EncodeRecord(v.data(), 2, &rec);
  std::vector<uint32_t> types, offsets;
  for (size_t cut = 0; cut < rec.size(); ++cut) {
    auto n = ParseRecordHeader(Bytes(rec), static_cast<uint32_t>(cut), &types, &offsets);
    EXPECT_FALSE(n.ok()) << cut;
  }
  std::string bad = rec;
  bad[0] = 100;  // header size beyond the record
  EXPECT_FALSE(
      ParseRecordHeader(Bytes(bad), static_cast<uint32_t>(bad.size()), &types, &offsets).ok());
  Status st;
  KeyInfo ki;
  CompareRecordWithKey(Bytes(bad), static_cast<uint32_t>(bad.size()), v.data(), 2, ki, 0, &st);
  EXPECT_FALSE(st.ok());
}

TEST(RecordTest, CompareWithKey) {
  std::vector<Value> row = {Value::Text("Abc"), Value::Int(5), Value::Real(2.5)};
  std::string rec;
  EncodeRecord(row.data(), 3, &rec);
  uint32_t len = static_cast<uint32_t>(rec.size());
  Status st;
  KeyInfo ki;
  std::vector<Value> key = {Value::Text("Abc"), Value::Int(5)};
  EXPECT_EQ(CompareRecordWithKey(Bytes(rec), len, key.data(), 2, ki, -7, &st), -7);
  key[1] = Value::Real(5.5);
  EXPECT_LT(CompareRecordWithKey(Bytes(rec), len, key.data(), 2, ki, 0, &st), 0);
  key[0] = Value::Text("abc");
  EXPECT_LT(CompareRecordWithKey(Bytes(rec), len, key.data(), 1, ki, 0, &st), 0);
  const Collation* colls[] = {NocaseCollation(), nullptr};
  ki.n_fields = 2;
  ki.colls = colls;
  EXPECT_EQ(CompareRecordWithKey(Bytes(rec), len, key.data(), 1, ki, 0, &st), 0);
  const uint8_t desc[] = {0, 1};
  ki.desc = desc;
  EXPECT_GT(CompareRecordWithKey(Bytes(rec), len, key.data(), 2, ki, 0, &st), 0);
  EXPECT_TRUE(st.ok());

  std::vector<Value> other = {Value::Text("Abc"), Value::Int(6)};
  std::string rec2;
  EncodeRecord(other.data(), 2, &rec2);
  KeyInfo plain;
  EXPECT_LT(
      CompareRecords(Bytes(rec), len, Bytes(rec2), static_cast<uint32_t>(rec2.size()), plain, &st),
      0);
  EXPECT_EQ(CompareRecords(Bytes(rec), len, Bytes(rec), len, plain, &st), 0);
  EXPECT_TRUE(st.ok());
}

}  // namespace
}  // namespace basalt
