// Tests for the shared pmResult codec: round trips in every layout, the
// DPTR offset rule, host byte order of numbers, and one test per
// corruption path (each must give the caller's error code, never a crash).
#include "result_codec.h"

#include <cstring>
#include <string>
#include <vector>

#include "byte_reader.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr int64_t kStamp = 1763775772104650000;  // 2025-11-22, whole usec

Result SampleResult() {
  Result r;
  r.set_timestamp_ns(kStamp);
  r.AddSet(MakePmID(29, 0, 10), 1, kValInsitu);
  r.AddInsitu(kInNull, 42);
  r.AddSet(MakePmID(29, 0, 6), 3, kValInsitu);
  r.AddInsitu(Inst{0}, -1);
  r.AddInsitu(Inst{1}, 2);
  r.AddInsitu(Inst{2}, 3);
  r.AddSet(MakePmID(29, 0, 28), 1, kValDptr);
  double d = 1e6;
  uint8_t db[8];
  std::memcpy(db, &d, 8);
  r.AddBlock(kInNull, kTypeDouble, db);
  r.AddSet(MakePmID(29, 0, 31), 2, kValDptr);
  const std::string hullo = "hullo world!";
  r.AddBlock(Inst{7}, kTypeString,
             std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(hullo.c_str()),
                                      hullo.size() + 1));
  r.AddBlock(Inst{8}, kTypeString,
             std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("ab"), 3));
  r.AddSet(MakePmID(29, 0, 1), -12357, kValInsitu);
  r.AddSet(MakePmID(29, 0, 2), 0, kValInsitu);
  return r;
}

void ExpectSame(const Result& a, const Result& b) {
  ASSERT_EQ(a.numpmid(), b.numpmid());
  for (int i = 0; i < a.numpmid(); ++i) {
    const ValueSet& x = a.sets()[i];
    const ValueSet& y = b.sets()[i];
    EXPECT_EQ(x.pmid, y.pmid);
    EXPECT_EQ(x.numval, y.numval);
    if (x.numval <= 0) continue;
    EXPECT_EQ(x.valfmt, y.valfmt);
    for (int j = 0; j < x.numval; ++j) {
      ValueView u = a.value(x, j);
      ValueView v = b.value(y, j);
      EXPECT_EQ(u.inst, v.inst);
      EXPECT_EQ(u.lval, v.lval);
      EXPECT_EQ(u.vtype, v.vtype);
      ASSERT_EQ(u.payload.size(), v.payload.size());
      if (!u.payload.empty()) {
        EXPECT_EQ(0, std::memcmp(u.payload.data(), v.payload.data(), u.payload.size()));
      }
    }
  }
}

class RoundTrip : public testing::TestWithParam<ResultLayout> {};

TEST_P(RoundTrip, EncodeThenDecode) {
  Result in = SampleResult();
  std::vector<uint8_t> body = EncodeResult(in, GetParam());
  Result out;
  ASSERT_TRUE(DecodeResult(body, GetParam(), kErrIpc, &out).ok());
  EXPECT_EQ(out.timestamp_ns(), kStamp);
  ExpectSame(in, out);
  double d = 0;
  ValueView v = out.value(out.sets()[2], 0);
  ASSERT_EQ(v.payload.size(), 8u);
  std::memcpy(&d, v.payload.data(), 8);
  EXPECT_EQ(d, 1e6);
  EXPECT_STREQ(reinterpret_cast<const char*>(out.value(out.sets()[3], 0).payload.data()),
               "hullo world!");
  EXPECT_EQ(out.sets()[4].numval, -12357);
}

INSTANTIATE_TEST_SUITE_P(Layouts, RoundTrip,
                         testing::Values(ResultLayout::kTimeval, ResultLayout::kTimestamp,
                                         ResultLayout::kHighRes));

TEST(ResultCodecTest, MarkRecordHasNoSets) {
  Result in;
  in.set_timestamp_ns(kStamp);
  std::vector<uint8_t> body = EncodeResult(in, ResultLayout::kTimestamp);
  EXPECT_EQ(body.size(), 16u);
  Result out;
  ASSERT_TRUE(DecodeResult(body, ResultLayout::kTimestamp, kErrLogrec, &out).ok());
  EXPECT_TRUE(out.is_mark());
}

TEST(ResultCodecTest, DptrOffsetIsInWordsFromTheVirtualPduStart) {
  // One DPTR U64 value: the block sits right after the single value set.
  // body: sec usec numpmid | pmid numval valfmt inst offset | block
  std::vector<uint8_t> body(4 * 8 + 12);
  uint32_t words[] = {100, 5, 1, ToPcp(MakePmID(1, 2, 3)), 1, kValDptr, 0xffffffff,
                      (12 + 32) / 4, (uint32_t(kTypeU64) << 24) | 12};
  for (size_t i = 0; i < 9; ++i) StoreBigEndian32(body.data() + 4 * i, words[i]);
  StoreBigEndian64(body.data() + 36, 0x0102030405060708ull);
  Result out;
  ASSERT_TRUE(DecodeResult(body, ResultLayout::kTimeval, kErrIpc, &out).ok());
  EXPECT_EQ(out.timestamp_ns(), 100000005000);
  ValueView v = out.value(out.sets()[0], 0);
  EXPECT_EQ(v.vtype, kTypeU64);
  uint64_t u = 0;
  std::memcpy(&u, v.payload.data(), 8);
  EXPECT_EQ(u, 0x0102030405060708ull);  // host order
}

// Old archives (951127.23.01_v2 of PCP's QA) wrote string blocks with vtype
// 0, which is PM_TYPE_32's code; a 4-byte payload such as "red" must come
// back as it was written, as PCP swaps no 32-bit block.
TEST(ResultCodecTest, FourByteBlockOfVtypeZeroIsNotSwapped) {
  std::vector<uint8_t> body(4 * 8 + 8);
  uint32_t words[] = {100, 5, 1, ToPcp(MakePmID(29, 0, 46)), 1, kValDptr, 0xffffffff,
                      (12 + 32) / 4, 8};
  for (size_t i = 0; i < 9; ++i) StoreBigEndian32(body.data() + 4 * i, words[i]);
  std::memcpy(body.data() + 36, "red", 4);
  Result out;
  ASSERT_TRUE(DecodeResult(body, ResultLayout::kTimeval, kErrIpc, &out).ok());
  ValueView v = out.value(out.sets()[0], 0);
  EXPECT_EQ(v.vtype, 0);
  ASSERT_EQ(v.payload.size(), 4u);
  EXPECT_STREQ(reinterpret_cast<const char*>(v.payload.data()), "red");
  std::vector<uint8_t> again = EncodeResult(out, ResultLayout::kTimeval);
  EXPECT_EQ(again, body);
}

// Corruption paths: each returns the caller's code.
class Corrupt : public testing::Test {
 protected:
  void SetUp() override { body_ = EncodeResult(SampleResult(), ResultLayout::kTimeval); }
  void Put(size_t byte, uint32_t v) { StoreBigEndian32(body_.data() + byte, v); }
  int Decode() {
    Result out;
    return PcpCode(DecodeResult(body_, ResultLayout::kTimeval, kErrLogrec, &out));
  }
  std::vector<uint8_t> body_;
};

TEST_F(Corrupt, ShortPreamble) {
  body_.resize(11);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, NegativeNumpmid) {
  Put(8, 0xffffffff);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, NumpmidBeyondBody) {
  Put(8, 0x10000000);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, NumvalBeyondBody) {
  Put(16, 0x00100000);  // first set's numval
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, BadValfmt) {
  Put(20, 7);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, TruncatedSets) {
  body_.resize(40);
  EXPECT_EQ(Decode(), kErrLogrec);
}
// The double's DPTR word is in the third set: 12 + (8+12) + (8+4+24) + 12.
constexpr size_t kDoubleOffsetWord = 12 + 20 + 36 + 12 + 4;
TEST_F(Corrupt, DptrOffsetInsideHeader) {
  Put(kDoubleOffsetWord, 2);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, DptrOffsetPastEnd) {
  Put(kDoubleOffsetWord, 0x40000000);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, DptrHugeOffsetDoesNotWrap) {
  Put(kDoubleOffsetWord, 0xffffffff);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, VlenTooSmall) {
  uint32_t off = LoadBigEndian32(body_.data() + kDoubleOffsetWord);
  Put(off * 4 - 12, (uint32_t(kTypeDouble) << 24) | 3);
  EXPECT_EQ(Decode(), kErrLogrec);
}
TEST_F(Corrupt, VlenPastEnd) {
  uint32_t off = LoadBigEndian32(body_.data() + kDoubleOffsetWord);
  Put(off * 4 - 12, (uint32_t(kTypeDouble) << 24) | 0xffffff);
  EXPECT_EQ(Decode(), kErrLogrec);
}

TEST_F(Corrupt, EveryTruncationFailsCleanly) {
  const std::vector<uint8_t> whole = body_;
  for (size_t n = 0; n < whole.size(); ++n) {
    body_.assign(whole.begin(), whole.begin() + n);
    // The last block may be cut inside its padding only if the padding is
    // not needed; otherwise every short body is an error.
    int code = Decode();
    EXPECT_TRUE(code == kErrLogrec || code == 0) << n;
    if (n < whole.size() - 3) {
      EXPECT_EQ(code, kErrLogrec) << n;
    }
  }
}

TEST(ResultCodecTest, ReuseKeepsNothingFromBefore) {
  Result r = SampleResult();
  std::vector<uint8_t> mark = EncodeResult(Result(), ResultLayout::kTimeval);
  ASSERT_TRUE(DecodeResult(mark, ResultLayout::kTimeval, kErrIpc, &r).ok());
  EXPECT_TRUE(r.is_mark());
  EXPECT_EQ(r.timestamp_ns(), 0);
}

}  // namespace
}  // namespace pmapi

namespace pmapi {
namespace {

// Decoding only some metrics: the chosen sets are decoded as in full, the
// others come back as empty sets of their PMIDs, and framing errors in a
// skipped set are still caught.
TEST(DecodeResultOnlyTest, KeepsChosenSetsAndEmptiesTheRest) {
  const Result in = SampleResult();
  const std::vector<uint8_t> body = EncodeResult(in, ResultLayout::kTimestamp);
  const std::vector<PmID> keep = {MakePmID(29, 0, 6), MakePmID(29, 0, 28)};  // sorted
  Result out;
  ASSERT_TRUE(DecodeResultOnly(body, ResultLayout::kTimestamp, kErrLogrec, keep, &out).ok());
  ASSERT_EQ(out.numpmid(), in.numpmid());
  EXPECT_EQ(out.timestamp_ns(), in.timestamp_ns());
  Result full;
  ASSERT_TRUE(DecodeResult(body, ResultLayout::kTimestamp, kErrLogrec, &full).ok());
  for (int i = 0; i < in.numpmid(); ++i) {
    const ValueSet& got = out.sets()[i];
    EXPECT_EQ(got.pmid, in.sets()[i].pmid);
    const bool kept = got.pmid == keep[0] || got.pmid == keep[1];
    if (!kept) {
      EXPECT_EQ(got.numval, 0) << i;
      continue;
    }
    const ValueSet& want = full.sets()[i];
    ASSERT_EQ(got.numval, want.numval);
    for (int j = 0; j < got.numval; ++j) {
      EXPECT_EQ(out.value(got, j).inst, full.value(want, j).inst);
      EXPECT_EQ(out.value(got, j).lval, full.value(want, j).lval);
      EXPECT_EQ(std::vector<uint8_t>(out.value(got, j).payload.begin(), out.value(got, j).payload.end()),
                std::vector<uint8_t>(full.value(want, j).payload.begin(), full.value(want, j).payload.end()));
    }
  }
  // An empty choice decodes everything.
  Result all;
  ASSERT_TRUE(DecodeResultOnly(body, ResultLayout::kTimestamp, kErrLogrec, {}, &all).ok());
  ExpectSame(all, full);
  // A skipped set whose value count overruns the body is still an error.
  // (Set 29.0.6 is the second: after the 16-byte preamble and the 20 bytes
  // of set 29.0.10; its count is the word after its PMID.)
  std::vector<uint8_t> bad = body;
  ASSERT_EQ(PmID{LoadBigEndian32(bad.data() + 36)}, MakePmID(29, 0, 6));
  StoreBigEndian32(bad.data() + 40, 0x7fffffff);
  EXPECT_EQ(PcpCode(DecodeResultOnly(bad, ResultLayout::kTimestamp, kErrLogrec,
                                     std::vector<PmID>{MakePmID(29, 0, 10)}, &out)),
            kErrLogrec);
}

}  // namespace
}  // namespace pmapi
