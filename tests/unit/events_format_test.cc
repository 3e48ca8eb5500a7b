// The event array reader (events_format.h).
#include <cstring>
#include <vector>

#include "events_format.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

using events_format::ByteOrder;
using events_format::EventArrayReader;
using events_format::ParamHead;
using events_format::RecordHead;
using events_format::Stamp;

void Put32(std::vector<uint8_t>* b, uint32_t v) {
  uint8_t w[4];
  std::memcpy(w, &v, 4);
  b->insert(b->end(), w, w + 4);
}

void Put64(std::vector<uint8_t>* b, uint64_t v) {
  uint8_t w[8];
  std::memcpy(w, &v, 8);
  b->insert(b->end(), w, w + 8);
}

// Appends an EVENT record header.
void PutRecord(std::vector<uint8_t>* b, int32_t sec, int32_t usec, uint32_t flags, int32_t nparams) {
  Put32(b, static_cast<uint32_t>(sec));
  Put32(b, static_cast<uint32_t>(usec));
  Put32(b, flags);
  Put32(b, static_cast<uint32_t>(nparams));
}

// Appends a parameter whose type/len word claims `len`, with `value`
// padded to 4 bytes.
void PutParam(std::vector<uint8_t>* b, PmID pmid, int type, uint32_t len, const std::string& value) {
  Put32(b, pmid);
  Put32(b, events_format::TypeLenWord(type, len));
  b->insert(b->end(), value.begin(), value.end());
  while (b->size() % 4 != 0) b->push_back(0);
}

TEST(EventArrayReader, ReadsHostAndWireOrder) {
  std::vector<uint8_t> host;
  Put32(&host, 2);
  std::vector<uint8_t> wire = {0, 0, 0, 2};
  int32_t n = 0;
  EXPECT_TRUE(EventArrayReader(host, false).Count(&n));
  EXPECT_EQ(n, 2);
  n = 0;
  EXPECT_TRUE(EventArrayReader(wire, false, ByteOrder::kWire).Count(&n));
  EXPECT_EQ(n, 2);
  EXPECT_FALSE(EventArrayReader(std::span<const uint8_t>(wire).first(3), false).Count(&n));
}

TEST(EventArrayReader, RecordFieldsOfBothResolutions) {
  std::vector<uint8_t> b;
  PutRecord(&b, 1700000000, -5, kEventFlagStart, 3);
  RecordHead h;
  ASSERT_TRUE(EventArrayReader(b, false).Record(0, &h));
  EXPECT_EQ(h.stamp.sec, 1700000000);
  EXPECT_EQ(h.stamp.frac, -5);  // 32-bit fields are widened with their sign
  EXPECT_EQ(h.flags, kEventFlagStart);
  EXPECT_EQ(h.nparams, 3);

  std::vector<uint8_t> hr;
  Put64(&hr, uint64_t{1} << 40);
  Put64(&hr, 999999999);
  Put32(&hr, kEventFlagMissed);
  Put32(&hr, 7);
  ASSERT_TRUE(EventArrayReader(hr, true).Record(0, &h));
  EXPECT_EQ(h.stamp.sec, int64_t{1} << 40);
  EXPECT_EQ(h.stamp.frac, 999999999);
  EXPECT_EQ(h.flags, kEventFlagMissed);
  EXPECT_EQ(h.nparams, 7);
}

TEST(EventArrayReader, StampNeedsOnlyItsOwnBytes) {
  std::vector<uint8_t> b;
  PutRecord(&b, 10, 20, 0, 0);
  const EventArrayReader r(std::span<const uint8_t>(b).first(8), false);
  Stamp s;
  EXPECT_TRUE(r.RecordStamp(0, &s));
  EXPECT_EQ(s.sec, 10);
  EXPECT_EQ(s.frac, 20);
  RecordHead h;
  EXPECT_FALSE(r.Record(0, &h));
  EXPECT_FALSE(r.RecordStamp(4, &s));
  EXPECT_FALSE(r.RecordStamp(~size_t{0}, &s));  // far past the end
}

TEST(EventArrayReader, ParameterStepIsPcpsWhateverTheLength) {
  std::vector<uint8_t> b;
  PutParam(&b, MakePmID(1, 2, 3), kTypeString, 7, "abc");
  ParamHead p;
  ASSERT_TRUE(EventArrayReader(b, false).Param(0, &p));
  EXPECT_EQ(p.pmid, MakePmID(1, 2, 3));
  EXPECT_EQ(p.type, kTypeString);
  EXPECT_EQ(p.len, 7u);
  EXPECT_EQ(p.Step(), 12u);
  p.len = 0;  // shorter than its own header word: PCP still steps 4 bytes
  EXPECT_EQ(p.Step(), 4u);
  EXPECT_FALSE(EventArrayReader(std::span<const uint8_t>(b).first(7), false).Param(0, &p));
}

}  // namespace
}  // namespace pmapi
