// The event array reader (events_format.h) and DecodeEventArray, the
// record-by-record view of an array that pmdumplog shows.
#include <cstring>
#include <string>
#include <vector>

#include "events_format.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
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
  Put32(b, ToPcp(pmid));
  Put32(b, events_format::TypeLenWord(type, len));
  b->insert(b->end(), value.begin(), value.end());
  while (b->size() % 4 != 0) b->push_back(0);
}

// The payload of a value block built by EventArrays.
std::vector<uint8_t> Payload(absl::StatusOr<std::span<const uint8_t>> block) {
  EXPECT_TRUE(block.ok());
  if (!block.ok()) return {};
  return std::vector<uint8_t>(block->begin() + 4, block->end());
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
  EXPECT_EQ(PmID{p.pmid}, MakePmID(1, 2, 3));  // ParamHead keeps the wire's number
  EXPECT_EQ(p.type, kTypeString);
  EXPECT_EQ(p.len, 7u);
  EXPECT_EQ(p.Step(), 12u);
  p.len = 0;  // shorter than its own header word: PCP still steps 4 bytes
  EXPECT_EQ(p.Step(), 4u);
  EXPECT_FALSE(EventArrayReader(std::span<const uint8_t>(b).first(7), false).Param(0, &p));
}

TEST(DecodeEventArray, RecordsAsBuilt) {
  for (bool highres : {false, true}) {
    EventArrays arrays;
    const int a = arrays.NewArray();
    AtomValue v;
    v.bytes = "hello";
    if (highres) {
      ASSERT_TRUE(arrays.AddHighResRecord(a, 1700000000, 123456789, kEventFlagPoint).ok());
      ASSERT_TRUE(arrays.AddHighResParam(a, MakePmID(245, 0, 1), kTypeString, v).ok());
      ASSERT_TRUE(arrays.AddHighResMissedRecord(a, 1700000001, 5, 4).ok());
    } else {
      ASSERT_TRUE(arrays.AddRecord(a, 1700000000, 123456, kEventFlagPoint).ok());
      ASSERT_TRUE(arrays.AddParam(a, MakePmID(245, 0, 1), kTypeString, v).ok());
      ASSERT_TRUE(arrays.AddMissedRecord(a, 1700000001, 5, 4).ok());
    }
    std::vector<uint8_t> payload = Payload(highres ? arrays.GetHighResAddr(a) : arrays.GetAddr(a));
    absl::StatusOr<std::vector<EventRecordView>> records = DecodeEventArray(payload, highres);
    ASSERT_TRUE(records.ok()) << records.status();
    ASSERT_EQ(records->size(), 2u);
    const EventRecordView& first = (*records)[0];
    EXPECT_EQ(first.stamp, (TimeSpec{1700000000, highres ? 123456789 : 123456000}));
    EXPECT_EQ(first.flags, kEventFlagPoint);
    EXPECT_EQ(first.nparams, 1);
    ASSERT_EQ(first.params.size(), 1u);
    EXPECT_EQ(first.params[0].pmid, MakePmID(245, 0, 1));
    EXPECT_EQ(first.params[0].type, kTypeString);
    EXPECT_EQ(std::string(first.params[0].value.begin(), first.params[0].value.end()), "hello");
    const EventRecordView& missed = (*records)[1];
    EXPECT_EQ(missed.stamp, (TimeSpec{1700000001, highres ? 5 : 5000}));
    EXPECT_EQ(missed.flags, kEventFlagMissed);
    EXPECT_EQ(missed.nparams, 4);
    EXPECT_TRUE(missed.params.empty());
  }
}

int DecodeCode(const std::vector<uint8_t>& payload) {
  return PcpCode(DecodeEventArray(payload, false).status());
}

TEST(DecodeEventArray, CountsMustFit) {
  std::vector<uint8_t> b;
  EXPECT_EQ(DecodeCode(b), kErrLogrec);  // no count
  Put32(&b, static_cast<uint32_t>(-1));
  EXPECT_EQ(DecodeCode(b), kErrLogrec);
  b.clear();
  Put32(&b, 1);
  EXPECT_EQ(DecodeCode(b), kErrLogrec);  // a record that is not there
  PutRecord(&b, 1, 2, 0, -1);
  EXPECT_EQ(DecodeCode(b), kErrLogrec);  // a negative parameter count
  b.clear();
  Put32(&b, 1);
  PutRecord(&b, 1, 2, kEventFlagMissed, -1);
  EXPECT_EQ(DecodeCode(b), 0);  // a missed record's count is not a parameter count
}

TEST(DecodeEventArray, ParametersMustFit) {
  std::vector<uint8_t> b;
  Put32(&b, 1);
  PutRecord(&b, 1, 2, 0, 1);
  std::vector<uint8_t> short_len = b;
  PutParam(&short_len, PmID{1}, kType32, 3, "");
  EXPECT_EQ(DecodeCode(short_len), kErrLogrec);  // shorter than its header word
  std::vector<uint8_t> past_end = b;
  PutParam(&past_end, PmID{1}, kTypeString, 20, "abc");
  EXPECT_EQ(DecodeCode(past_end), kErrLogrec);
  std::vector<uint8_t> unpadded = b;
  PutParam(&unpadded, PmID{1}, kTypeString, 7, "abc");
  unpadded.pop_back();  // the last parameter's padding may be missing
  absl::StatusOr<std::vector<EventRecordView>> records = DecodeEventArray(unpadded, false);
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(records->at(0).params.at(0).value.size(), 3u);
}

}  // namespace
}  // namespace pmapi
