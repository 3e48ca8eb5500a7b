// Tests for the bounds-checked big-endian ByteReader.
#include "byte_reader.h"

#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace pmapi {
namespace {

TEST(ByteReaderTest, ReadsBigEndian) {
  const std::vector<uint8_t> bytes = {0x12, 0x34, 0x56, 0x78, 0xff, 0xff, 0xff, 0xfe,
                                      0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02};
  ByteReader r(bytes);
  uint32_t u = 0;
  int32_t i = 0;
  uint64_t u64 = 0;
  ASSERT_TRUE(r.U32(&u));
  EXPECT_EQ(u, 0x12345678u);
  ASSERT_TRUE(r.I32(&i));
  EXPECT_EQ(i, -2);
  ASSERT_TRUE(r.U64(&u64));
  EXPECT_EQ(u64, 0x0000000100000002ull);
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.position(), 16u);
}

TEST(ByteReaderTest, Floats) {
  std::vector<uint8_t> bytes(12);
  float f = 1.5f;
  double d = -2.25;
  uint32_t fw;
  uint64_t dw;
  std::memcpy(&fw, &f, 4);
  std::memcpy(&dw, &d, 8);
  StoreBigEndian32(bytes.data(), fw);
  StoreBigEndian64(bytes.data() + 4, dw);
  ByteReader r(bytes);
  float f2 = 0;
  double d2 = 0;
  ASSERT_TRUE(r.F32(&f2));
  ASSERT_TRUE(r.F64(&d2));
  EXPECT_EQ(f2, 1.5f);
  EXPECT_EQ(d2, -2.25);
}

TEST(ByteReaderTest, EveryReadFailsCleanlyPastTheEnd) {
  const std::vector<uint8_t> bytes = {1, 2, 3, 4, 5, 6, 7};
  ByteReader r(bytes);
  uint64_t u64 = 99;
  EXPECT_FALSE(r.U64(&u64));
  EXPECT_EQ(u64, 99u);
  EXPECT_EQ(r.position(), 0u);
  uint32_t u = 0;
  ASSERT_TRUE(r.U32(&u));
  int32_t i = 7;
  EXPECT_FALSE(r.I32(&i));
  EXPECT_EQ(i, 7);
  float f = 0;
  EXPECT_FALSE(r.F32(&f));
  double d = 0;
  EXPECT_FALSE(r.F64(&d));
  int64_t i64 = 0;
  EXPECT_FALSE(r.I64(&i64));
  std::span<const uint8_t> s;
  EXPECT_FALSE(r.Bytes(4, &s));
  ASSERT_TRUE(r.Bytes(3, &s));
  EXPECT_EQ(s[2], 7);
  EXPECT_FALSE(r.Skip(1));
  EXPECT_TRUE(r.Skip(0));
  EXPECT_FALSE(r.Seek(8));
  EXPECT_TRUE(r.Seek(7));
  EXPECT_TRUE(r.Seek(0));
  EXPECT_EQ(r.remaining(), 7u);
}

TEST(ByteReaderTest, HugeLengthsDoNotOverflow) {
  const std::vector<uint8_t> bytes = {1, 2, 3, 4};
  ByteReader r(bytes);
  ASSERT_TRUE(r.Skip(2));
  EXPECT_FALSE(r.Has(SIZE_MAX));
  EXPECT_FALSE(r.Skip(SIZE_MAX));
  std::span<const uint8_t> s;
  EXPECT_FALSE(r.Bytes(SIZE_MAX - 1, &s));
}

TEST(ByteReaderTest, EmptySpan) {
  ByteReader r;
  uint32_t u;
  EXPECT_FALSE(r.U32(&u));
  EXPECT_EQ(r.remaining(), 0u);
}

}  // namespace
}  // namespace pmapi
