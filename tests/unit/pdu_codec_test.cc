// Tests for the PDU codec: round trips, and one test per malformed-PDU path.
// Every malformed PDU must give PM_ERR_IPC (never a crash, and never an
// allocation sized by a count the PDU cannot hold).
#include "pdu_codec.h"

#include <cstring>
#include <string>
#include <vector>

#include "byte_reader.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Builds a PDU of `type` whose payload is the given words.
std::vector<uint8_t> Words(int type, std::initializer_list<uint32_t> words) {
  PduWriter w(type, 0);
  for (uint32_t v : words) w.U32(v);
  return w.Finish();
}

template <typename T>
int CodeOf(const absl::StatusOr<T>& s) {
  return PcpCode(s.status());
}

// ---- Header ----

TEST(PduHeader, Decodes) {
  std::vector<uint8_t> pdu = EncodeDescReq(7, PmID{42});
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->len, 16u);
  EXPECT_EQ(h->type, kPduDescReq);
  EXPECT_EQ(h->from, 7);
}

TEST(PduHeader, ShortHeaderIsIpc) {
  std::vector<uint8_t> pdu = EncodeDescReq(0, PmID{42});
  pdu.resize(11);
  EXPECT_EQ(CodeOf(DecodePduHeader(pdu)), kErrIpc);
}

TEST(PduHeader, LengthBelowHeaderIsIpc) {
  std::vector<uint8_t> pdu = EncodeDescReq(0, PmID{42});
  StoreBigEndian32(pdu.data(), 11);
  EXPECT_EQ(CodeOf(DecodePduHeader(pdu)), kErrIpc);
}

TEST(PduDecode, LengthFieldBeyondBytesIsIpc) {
  std::vector<uint8_t> pdu = EncodeDesc(0, Desc{});
  StoreBigEndian32(pdu.data(), static_cast<uint32_t>(pdu.size() + 4));
  EXPECT_EQ(CodeOf(DecodeDescPdu(pdu)), kErrIpc);
}

TEST(PduDecode, WrongTypeIsIpc) {
  std::vector<uint8_t> pdu = EncodeDesc(0, Desc{});
  EXPECT_EQ(CodeOf(DecodeTextPdu(pdu)), kErrIpc);
  EXPECT_EQ(CodeOf(DecodeError(pdu)), kErrIpc);
  Result r;
  EXPECT_EQ(PcpCode(DecodeResultPdu(pdu, &r)), kErrIpc);
}

// ---- ERROR and the handshake ----

TEST(PduError, BadLengthIsIpc) {
  EXPECT_EQ(CodeOf(DecodeError(Words(kPduError, {1, 2, 3}))), kErrIpc);
  EXPECT_EQ(CodeOf(DecodeError(Words(kPduError, {}))), kErrIpc);
}

TEST(PduError, ExtendedFormGivesItsCode) {
  EXPECT_EQ(*DecodeError(Words(kPduError, {uint32_t(kErrPmid), 0})), kErrPmid);
}

TEST(PduHandshake, PlainErrorIsIpc) {
  EXPECT_EQ(CodeOf(DecodeHandshake(EncodeError(0, 0))), kErrIpc);
}

TEST(PduHandshake, VersionAndFeaturesRoundTrip) {
  HandshakeInfo in{kErrConnlimit, 2, 1, kFeatureSecure | kFeatureDescs};
  absl::StatusOr<HandshakeInfo> out = DecodeHandshake(EncodeHandshake(0, in));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->code, kErrConnlimit);
  EXPECT_EQ(out->version, 2);
  EXPECT_EQ(out->features, in.features);
}

TEST(PduHandshake, MostNegativeCodeDoesNotOverflow) {
  absl::StatusOr<HandshakeInfo> h = DecodeHandshake(Words(kPduError, {0x80000000u, 0x02010000}));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->code, INT32_MIN);
}

TEST(PduCreds, WrongCountIsIpc) {
  EXPECT_EQ(CodeOf(DecodeCreds(Words(kPduCreds, {2, 0x01020000, 0x01020000}))), kErrIpc);
  EXPECT_EQ(CodeOf(DecodeCreds(Words(kPduCreds, {1}))), kErrIpc);
}

// ---- DESC, DESCS ----

TEST(PduDesc, ShortIsIpc) {
  EXPECT_EQ(CodeOf(DecodeDescPdu(Words(kPduDesc, {1, 2, 3, 4}))), kErrIpc);
}

TEST(PduDesc, LongIsIpc) {
  EXPECT_EQ(CodeOf(DecodeDescPdu(Words(kPduDesc, {1, 2, 3, 4, 5, 6}))), kErrIpc);
}

TEST(PduDescs, ZeroCountIsIpc) {
  EXPECT_EQ(CodeOf(DecodeDescs(Words(kPduDescs, {0, 1, 2, 3, 4, 5}))), kErrIpc);
}

TEST(PduDescs, CountBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeDescs(Words(kPduDescs, {0x7fffffff, 1, 2, 3, 4, 5}))), kErrIpc);
  EXPECT_EQ(CodeOf(DecodeDescs(Words(kPduDescs, {0xffffffff, 1, 2, 3, 4, 5}))), kErrIpc);
}

TEST(PduDescs, TrailingBytesAreIpc) {
  EXPECT_EQ(CodeOf(DecodeDescs(Words(kPduDescs, {1, 1, 2, 3, 4, 5, 6}))), kErrIpc);
}

// ---- INSTANCE ----

TEST(PduInstance, RoundTripWithEmptyName) {
  InstanceList in{MakeInDom(3, 9), {Inst{5}, Inst{-1}}, {"", "x y"}};
  absl::StatusOr<InstanceList> out = DecodeInstance(EncodeInstance(0, in));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->insts, in.insts);
  EXPECT_EQ(out->names, in.names);
}

TEST(PduInstance, NegativeCountIsIpc) {
  EXPECT_EQ(CodeOf(DecodeInstance(Words(kPduInstance, {1, 0xffffffff}))), kErrIpc);
}

TEST(PduInstance, CountBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeInstance(Words(kPduInstance, {1, 0x7fffffff, 0, 0}))), kErrIpc);
}

TEST(PduInstance, NegativeNameLengthIsIpc) {
  EXPECT_EQ(CodeOf(DecodeInstance(Words(kPduInstance, {1, 1, 0, 0xfffffffc}))), kErrIpc);
}

TEST(PduInstance, NameBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeInstance(Words(kPduInstance, {1, 1, 0, 9, 0x41414141}))), kErrIpc);
}

TEST(PduInstance, MissingSecondInstanceIsIpc) {
  EXPECT_EQ(CodeOf(DecodeInstance(Words(kPduInstance, {1, 2, 0, 4, 0x41414141, 1}))), kErrIpc);
}

TEST(PduInstance, LastNameWithoutPaddingIsAccepted) {
  std::vector<uint8_t> pdu = EncodeInstance(0, InstanceList{InDom{1}, {Inst{0}}, {"red"}});
  pdu.pop_back();  // drop the '~'
  StoreBigEndian32(pdu.data(), static_cast<uint32_t>(pdu.size()));
  EXPECT_EQ(DecodeInstance(pdu)->names[0], "red");
}

// ---- TEXT ----

TEST(PduText, NegativeLengthIsIpc) {
  EXPECT_EQ(CodeOf(DecodeTextPdu(Words(kPduText, {1, 0x80000000}))), kErrIpc);
}

TEST(PduText, TextBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeTextPdu(Words(kPduText, {1, 5, 0x41414141}))), kErrIpc);
}

TEST(PduText, MissingLengthIsIpc) {
  EXPECT_EQ(CodeOf(DecodeTextPdu(Words(kPduText, {1}))), kErrIpc);
}

// ---- LABEL ----

// A LABEL PDU with one set; `set` is its inst, nlabels, jsonoff, jsonlen and
// label words, followed by `json`.
std::vector<uint8_t> OneSetLabel(std::initializer_list<uint32_t> set, const std::string& json) {
  PduWriter w(kPduLabel, 0);
  for (uint32_t v : {29u, 2u, 0u, 1u}) w.U32(v);
  for (uint32_t v : set) w.U32(v);
  w.Bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
  return w.Finish();
}

TEST(PduLabel, WellFormedSetDecodes) {
  // jsonoff 52 = 12 header + 16 + 16 set + 8 label.
  absl::StatusOr<LabelReply> r =
      DecodeLabelPdu(OneSetLabel({0xffffffff, 1, 52, 7, 0x00020100, 0x00050001}, "{\"a\":1}"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sets[0].json, "{\"a\":1}");
  EXPECT_EQ(r->sets[0].labels[0].valuelen, 1);
}

TEST(PduLabel, NegativeSetCountIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(Words(kPduLabel, {29, 2, 0, 0xffffffff}))), kErrIpc);
}

TEST(PduLabel, SetCountBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(Words(kPduLabel, {29, 2, 0, 0x7fffffff, 1, 0, 0, 0}))), kErrIpc);
}

TEST(PduLabel, JsonOffsetOutsidePduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 1, 4000, 7, 0x00020100, 0x00050001},
                                           "{\"a\":1}"))),
            kErrIpc);
}

TEST(PduLabel, JsonOffsetWrapIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 1, 0xffffffff, 7, 0x00020100, 0x00050001},
                                           "{\"a\":1}"))),
            kErrIpc);
}

TEST(PduLabel, JsonTooLongIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 1, 52, 65535, 0x00020100, 0x00050001},
                                           "{\"a\":1}"))),
            kErrIpc);
}

TEST(PduLabel, TooManyLabelsIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 255, 52, 7, 0x00020100, 0x00050001},
                                           "{\"a\":1}"))),
            kErrIpc);
}

TEST(PduLabel, LabelsBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 9, 36, 0}, ""))), kErrIpc);
}

TEST(PduLabel, LabelOutsideItsJsonIsIpc) {
  EXPECT_EQ(CodeOf(DecodeLabelPdu(OneSetLabel({0, 1, 52, 7, 0x00020100, 0x00050009},
                                           "{\"a\":1}"))),
            kErrIpc);
}

TEST(PduLabel, ErrorSetKeepsItsCode) {
  absl::StatusOr<LabelReply> r = DecodeLabelPdu(OneSetLabel({0, uint32_t(kErrNolabels), 36, 0}, ""));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sets[0].nlabels, kErrNolabels);
}

// ---- PMNS_IDS / DESC_IDS ----

TEST(PduIdList, ZeroCountIsIpc) {
  EXPECT_EQ(CodeOf(DecodeIdList(Words(kPduPmnsIds, {0, 0}))), kErrIpc);
}

TEST(PduIdList, CountBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeIdList(Words(kPduPmnsIds, {1, 0x40000000, 5}))), kErrIpc);
}

TEST(PduIdList, TrailingBytesAreIpc) {
  EXPECT_EQ(CodeOf(DecodeIdList(Words(kPduPmnsIds, {1, 1, 5, 6}))), kErrIpc);
}

// ---- PMNS_NAMES ----

TEST(PduNames, NegativeCountIsTheCarriedError) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {0, 0, uint32_t(kErrName)}))), kErrName);
}

TEST(PduNames, EmptyListDecodes) {
  EXPECT_TRUE(DecodeNameList(Words(kPduPmnsNames, {0, 0, 0}))->names.empty());
}

TEST(PduNames, NegativeStringBytesIsIpc) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {0xffffffff, 0, 1, 1, 0x787e7e7e}))),
            kErrIpc);
}

TEST(PduNames, StatusCountMismatchIsIpc) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {2, 2, 1, 0, 1, 0x787e7e7e}))), kErrIpc);
}

TEST(PduNames, CountBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {2, 0, 0x7fffffff, 1, 0x787e7e7e}))),
            kErrIpc);
}

TEST(PduNames, StringBytesBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {100000, 0, 1, 1, 0x787e7e7e}))),
            kErrIpc);
}

TEST(PduNames, NameBeyondPduIsIpc) {
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames, {20, 0, 1, 17, 0x787e7e7e}))), kErrIpc);
}

TEST(PduNames, NamesBeyondDeclaredBytesIsIpc) {
  // Two 1-byte names need 4 string bytes with their terminators; 3 declared.
  EXPECT_EQ(CodeOf(DecodeNameList(Words(kPduPmnsNames,
                                        {3, 0, 2, 1, 0x787e7e7e, 1, 0x797e7e7e}))),
            kErrIpc);
}

// ---- RESULT ----

TEST(PduResult, CountBeyondPduIsIpc) {
  Result r;
  EXPECT_EQ(PcpCode(DecodeResultPdu(Words(kPduResult, {1, 2, 0x7fffffff}), &r)), kErrIpc);
}

TEST(PduResult, ValueOffsetOutsidePduIsIpc) {
  Result r;
  EXPECT_EQ(PcpCode(DecodeResultPdu(Words(kPduResult, {1, 2, 1, 5, 1, 1, 0, 999}), &r)),
            kErrIpc);
}

TEST(PduResult, HighResRoundTrip) {
  Result in;
  in.set_timestamp_ns(1234567890123456789);
  in.AddSet(MakePmID(29, 0, 10), 1, kValInsitu);
  in.AddInsitu(kInNull, 1);
  Result out;
  ASSERT_TRUE(DecodeResultPdu(EncodeHighResResultPdu(0, in), &out).ok());
  EXPECT_EQ(out.timestamp_ns(), in.timestamp_ns());
  EXPECT_EQ(out.value(out.sets()[0], 0).lval, 1);
}

// ---- Every decoder survives every truncation and every corrupted byte ----

std::vector<std::vector<uint8_t>> SampleReplies() {
  LabelReply labels;
  labels.ident = 29;
  labels.type = kLabelDomain;
  LabelSetWire s;
  s.inst = Inst{1};
  s.nlabels = 1;
  s.json = "{\"a\":1}";
  s.labels = {{2, 1, 2, 5, 1}};
  labels.sets = {s, s};
  Result r;
  r.AddSet(MakePmID(1, 2, 3), 1, kValDptr);
  r.AddBlock(Inst{0}, kTypeString, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("ab"), 3));
  Desc d{PmID{1}, 2, InDom{3}, 4, Units{}};
  const std::vector<std::string> names = {"a", "bcdef"};
  const std::vector<int> status = {0, 1};
  const std::vector<PmID> ids = {PmID{1}, PmID{2}};
  return {EncodeLabel(0, labels),
          EncodeResultPdu(0, r),
          EncodeHighResResultPdu(0, r),
          EncodeInstance(0, InstanceList{InDom{1}, {Inst{1}, Inst{2}}, {"one", "twotwo"}}),
          EncodeText(0, 1, "some text"),
          EncodeNameList(0, names, status),
          EncodeIdList(kPduPmnsIds, 0, 2, ids),
          EncodeDescs(0, std::vector<Desc>{d, d}),
          EncodeHandshake(0, HandshakeInfo{0, 2, 1, 0xe00})};
}

// Runs every decoder on `pdu`; only the absence of crashes is checked.
void DecodeWithAll(const std::vector<uint8_t>& pdu) {
  Result r;
  (void)DecodeError(pdu);
  (void)DecodeHandshake(pdu);
  (void)DecodeDescPdu(pdu);
  (void)DecodeDescs(pdu);
  (void)DecodeInstance(pdu);
  (void)DecodeTextPdu(pdu);
  (void)DecodeLabelPdu(pdu);
  (void)DecodeIdList(pdu);
  (void)DecodeNameList(pdu);
  (void)DecodeResultPdu(pdu, &r);
}

TEST(PduRobustness, EveryTruncationIsRejectedOrDecoded) {
  for (const std::vector<uint8_t>& full : SampleReplies()) {
    for (size_t n = 0; n < full.size(); ++n) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + n);
      DecodeWithAll(cut);
      if (n >= 4) StoreBigEndian32(cut.data(), static_cast<uint32_t>(n));
      DecodeWithAll(cut);
    }
  }
}

TEST(PduRobustness, EveryCorruptedByteIsRejectedOrDecoded) {
  for (const std::vector<uint8_t>& full : SampleReplies()) {
    for (size_t i = 4; i < full.size(); ++i) {
      for (uint8_t v : {uint8_t{0x00}, uint8_t{0x7f}, uint8_t{0x80}, uint8_t{0xff}}) {
        std::vector<uint8_t> bad = full;
        bad[i] = v;
        DecodeWithAll(bad);
      }
    }
  }
}

}  // namespace
}  // namespace pmapi
