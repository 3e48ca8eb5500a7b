// Tests for the label, .meta and .index record decoders: each record type
// decodes, and each corruption path gives PCP's error (one test per path).
#include "../../archive/src/meta_decoder.h"

#include <string>
#include <vector>

#include "../../archive/src/log_format.h"
#include "byte_reader.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

namespace lf = log_format;

// Builds big-endian records word by word.
class Bytes {
 public:
  Bytes& U32(uint32_t v) {
    size_t at = b_.size();
    b_.resize(at + 4);
    StoreBigEndian32(b_.data() + at, v);
    return *this;
  }
  // A PMID or an InDom is written as PCP's 32-bit number.
  Bytes& U32(PmID id) { return U32(ToPcp(id)); }
  Bytes& U32(InDom indom) { return U32(ToPcp(indom)); }
  Bytes& Str(const std::string& s, size_t pad_to = 0) {
    b_.insert(b_.end(), s.begin(), s.end());
    for (size_t i = s.size(); i < pad_to; ++i) b_.push_back(0);
    return *this;
  }
  Bytes& Raw(uint8_t c) {
    b_.push_back(c);
    return *this;
  }
  std::vector<uint8_t>& v() { return b_; }

 private:
  std::vector<uint8_t> b_;
};

std::vector<uint8_t> LabelV2(int32_t vol, uint32_t len = lf::kLabelRecordV2,
                             uint32_t trailer = lf::kLabelRecordV2, uint32_t magic = 0x50052602) {
  Bytes b;
  b.U32(len).U32(magic).U32(1234).U32(1000).U32(500).U32(static_cast<uint32_t>(vol));
  b.Str("bozo", lf::kHostLenV2).Str("AEDT-11", lf::kTzLenV2).U32(trailer);
  return b.v();
}

std::vector<uint8_t> LabelV3(int32_t vol) {
  Bytes b;
  b.U32(lf::kLabelRecordV3).U32(0x50052603).U32(99);
  b.U32(0x6b0248b8).U32(0).U32(186708937);  // seconds low word first, then nsec
  b.U32(static_cast<uint32_t>(vol)).U32(0).U32(0);
  b.Str("vm", lf::kHostLenV3).Str("UTC", lf::kTzLenV3).Str(":Etc/UTC", lf::kZoneinfoLenV3);
  b.U32(lf::kLabelRecordV3);
  return b.v();
}

TEST(LabelDecoderTest, V2) {
  absl::StatusOr<ArchiveLabel> l = DecodeLabel(LabelV2(-1));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->version, 2);
  EXPECT_EQ(l->pid, 1234);
  EXPECT_EQ(l->start.sec, 1000);
  EXPECT_EQ(l->start.nsec, 500000);
  EXPECT_EQ(l->vol, -1);
  EXPECT_EQ(l->hostname, "bozo");
  EXPECT_EQ(l->timezone, "AEDT-11");
  EXPECT_EQ(l->zoneinfo, "");
}

TEST(LabelDecoderTest, V3) {
  absl::StatusOr<ArchiveLabel> l = DecodeLabel(LabelV3(0));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->version, 3);
  EXPECT_EQ(l->start.sec, 0x6b0248b8);
  EXPECT_EQ(l->start.nsec, 186708937);
  EXPECT_EQ(l->zoneinfo, ":Etc/UTC");
  EXPECT_EQ(LabelRecordBytes(3), 808u);
  EXPECT_EQ(LabelRecordBytes(2), 132u);
}

TEST(LabelDecoderTest, FullLengthStringIsCutAtLimit) {
  std::vector<uint8_t> b = LabelV2(0);
  for (size_t i = 0; i < lf::kHostLenV2; ++i) b[4 + 20 + i] = 'x';
  absl::StatusOr<ArchiveLabel> l = DecodeLabel(b);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->hostname.size(), lf::kHostLenV2 - 1);
}

TEST(LabelDecoderTest, EmptyFileIsNoData) {
  EXPECT_EQ(PcpCode(DecodeLabel({}).status()), kErrNodata);
  std::vector<uint8_t> seven(7, 0);
  EXPECT_EQ(PcpCode(DecodeLabel(seven).status()), kErrNodata);
}
TEST(LabelDecoderTest, BadHeaderLength) {
  EXPECT_EQ(PcpCode(DecodeLabel(LabelV2(0, 131)).status()), kErrLabel);
}
TEST(LabelDecoderTest, BadTrailerLength) {
  EXPECT_EQ(PcpCode(DecodeLabel(LabelV2(0, 132, 133)).status()), kErrLabel);
}
TEST(LabelDecoderTest, UnknownVersion) {
  EXPECT_EQ(PcpCode(DecodeLabel(LabelV2(0, 132, 132, 0x50052601)).status()), kErrLabel);
}
TEST(LabelDecoderTest, BadMagic) {
  EXPECT_EQ(PcpCode(DecodeLabel(LabelV2(0, 132, 132, 0x51052602)).status()), kErrLabel);
}
TEST(LabelDecoderTest, ShortLabel) {
  std::vector<uint8_t> b = LabelV2(0);
  b.resize(100);
  EXPECT_EQ(PcpCode(DecodeLabel(b).status()), kErrLabel);
}

TEST(DescDecoderTest, WithNames) {
  Bytes b;
  b.U32(MakePmID(29, 0, 6)).U32(kType32).U32(MakeInDom(29, 2)).U32(kSemInstant).U32(0x00100000);
  b.U32(2).U32(10).Str("sample.bin").U32(3).Str("a.b");
  absl::StatusOr<MetricDesc> d = DecodeDesc(b.v());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->desc.pmid, MakePmID(29, 0, 6));
  EXPECT_EQ(d->desc.indom, MakeInDom(29, 2));
  EXPECT_EQ(d->desc.units.dim_count, 1);
  ASSERT_EQ(d->names.size(), 2u);
  EXPECT_EQ(d->names[1], "a.b");
}
TEST(DescDecoderTest, NoNamesWordAtAll) {
  Bytes b;
  b.U32(1).U32(kTypeU64).U32(kInDomNull).U32(kSemCounter).U32(0);
  absl::StatusOr<MetricDesc> d = DecodeDesc(b.v());
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->names.empty());
}
TEST(DescDecoderTest, ShortDescriptor) {
  Bytes b;
  b.U32(1).U32(kTypeU64).U32(kInDomNull).U32(kSemCounter);
  EXPECT_EQ(PcpCode(DecodeDesc(b.v()).status()), kErrLogrec);
}
TEST(DescDecoderTest, NameCountBeyondRecord) {
  Bytes b;
  b.U32(1).U32(0).U32(kInDomNull).U32(1).U32(0).U32(1000);
  EXPECT_EQ(PcpCode(DecodeDesc(b.v()).status()), kErrLogrec);
}
TEST(DescDecoderTest, NameLengthBeyondRecord) {
  Bytes b;
  b.U32(1).U32(0).U32(kInDomNull).U32(1).U32(0).U32(1).U32(99).Str("short");
  EXPECT_EQ(PcpCode(DecodeDesc(b.v()).status()), kErrLogrec);
}

Bytes InDomV2(int32_t n, int32_t inst0, int32_t off1) {
  Bytes b;
  b.U32(1000).U32(5).U32(MakeInDom(29, 1)).U32(static_cast<uint32_t>(n));
  b.U32(static_cast<uint32_t>(inst0)).U32(1).U32(0).U32(static_cast<uint32_t>(off1));
  b.Str("red").Raw(0).Str("green").Raw(0);
  return b;
}

TEST(InDomDecoderTest, V2) {
  absl::StatusOr<InDomRecord> r = DecodeInDom(InDomV2(2, 0, 4).v(), InDomRecord::Kind::kV2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stamp.sec, 1000);
  EXPECT_EQ(r->stamp.nsec, 5000);
  ASSERT_EQ(r->names.size(), 2u);
  EXPECT_EQ(r->names[0], "red");
  EXPECT_EQ(r->names[1], "green");
}
TEST(InDomDecoderTest, NegativeInstance) {
  EXPECT_EQ(PcpCode(DecodeInDom(InDomV2(2, -5, 4).v(), InDomRecord::Kind::kV2).status()),
            kErrLogrec);
}
TEST(InDomDecoderTest, NegativeStringOffset) {
  EXPECT_EQ(PcpCode(DecodeInDom(InDomV2(2, 0, -3).v(), InDomRecord::Kind::kV2).status()),
            kErrLogrec);
}
TEST(InDomDecoderTest, StringOffsetPastEnd) {
  EXPECT_EQ(PcpCode(DecodeInDom(InDomV2(2, 0, 400).v(), InDomRecord::Kind::kV2).status()),
            kErrLogrec);
}
TEST(InDomDecoderTest, CountBeyondRecord) {
  EXPECT_EQ(PcpCode(DecodeInDom(InDomV2(1000, 0, 4).v(), InDomRecord::Kind::kV2).status()),
            kErrLogrec);
  EXPECT_EQ(PcpCode(DecodeInDom(InDomV2(-1, 0, 4).v(), InDomRecord::Kind::kV2).status()),
            kErrLogrec);
}
TEST(InDomDecoderTest, UnterminatedName) {
  Bytes b = InDomV2(2, 0, 4);
  b.v().pop_back();
  EXPECT_EQ(PcpCode(DecodeInDom(b.v(), InDomRecord::Kind::kV2).status()), kErrLogrec);
}
TEST(InDomDecoderTest, DeltaDeletesWithMinusOne) {
  Bytes b;
  b.U32(0x6b0248b8).U32(0).U32(7).U32(MakeInDom(29, 3)).U32(2);
  b.U32(7).U32(14).U32(0xffffffff).U32(0).Str("m-14").Raw(0);
  absl::StatusOr<InDomRecord> r = DecodeInDom(b.v(), InDomRecord::Kind::kDelta);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stamp.sec, 0x6b0248b8);
  EXPECT_TRUE(r->deleted[0]);
  EXPECT_FALSE(r->deleted[1]);
  EXPECT_EQ(r->names[1], "m-14");
  // -1 is only a deletion in a delta record.
  EXPECT_EQ(PcpCode(DecodeInDom(b.v(), InDomRecord::Kind::kFull).status()), kErrLogrec);
}

Bytes LabelSetRecord(uint32_t jsonlen, int32_t nlabels, uint16_t value_len) {
  Bytes b;
  b.U32(1000).U32(0).U32(lf::kLabelDomain).U32(29).U32(1);
  b.U32(0xffffffff).U32(jsonlen).Str("{\"agent\":\"sample\"}");
  b.U32(static_cast<uint32_t>(nlabels)).U32((2u << 16) | (5u << 8) | lf::kLabelDomain);
  b.U32((9u << 16) | value_len);
  return b;
}

TEST(LabelRecordDecoderTest, V2Domain) {
  absl::StatusOr<LabelRecord> r = DecodeLabelRecord(LabelSetRecord(18, 1, 8).v(), false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ident, 29u);
  ASSERT_EQ(r->sets.size(), 1u);
  EXPECT_EQ(r->sets[0].json, "{\"agent\":\"sample\"}");
  EXPECT_EQ(r->sets[0].labels[0].namelen, 5);
  EXPECT_EQ(r->sets[0].labels[0].valuelen, 8);
}
TEST(LabelRecordDecoderTest, JsonLengthBeyondRecord) {
  EXPECT_EQ(PcpCode(DecodeLabelRecord(LabelSetRecord(5000, 1, 8).v(), false).status()),
            kErrLogrec);
}
TEST(LabelRecordDecoderTest, LabelCountBeyondRecord) {
  EXPECT_EQ(PcpCode(DecodeLabelRecord(LabelSetRecord(18, 50, 8).v(), false).status()),
            kErrLogrec);
}
// pmlogger writes an agent's error (here PM_ERR_TEXT) as the label count of
// an empty set (the pcp-zeroconf archive of PCP's QA suite has one).
TEST(LabelRecordDecoderTest, NegativeCountIsAnEmptySet) {
  Bytes b;
  b.U32(1000).U32(0).U32(lf::kLabelInstances).U32(0x0f800000).U32(1);
  b.U32(1).U32(0).U32(static_cast<uint32_t>(-12351));
  absl::StatusOr<LabelRecord> r = DecodeLabelRecord(b.v(), false);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->sets.size(), 1u);
  EXPECT_EQ(r->sets[0].inst, Inst{1});
  EXPECT_TRUE(r->sets[0].json.empty());
  EXPECT_TRUE(r->sets[0].labels.empty());
}
TEST(LabelRecordDecoderTest, MoreThanMaxLabels) {
  EXPECT_EQ(PcpCode(DecodeLabelRecord(LabelSetRecord(18, 256, 8).v(), false).status()),
            kErrLogrec);
}
TEST(LabelRecordDecoderTest, LabelOutsideJson) {
  EXPECT_EQ(PcpCode(DecodeLabelRecord(LabelSetRecord(18, 1, 200).v(), false).status()),
            kErrLogrec);
}

TEST(TextDecoderTest, OneLine) {
  Bytes b;
  b.U32(lf::kTextOneline | lf::kTextPmid).U32(MakePmID(2, 0, 3)).Str("clients").Raw(0);
  absl::StatusOr<HelpText> t = DecodeText(b.v());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->text, "clients");
}
TEST(TextDecoderTest, Short) {
  Bytes b;
  b.U32(1);
  EXPECT_EQ(PcpCode(DecodeText(b.v()).status()), kErrLogrec);
}

TEST(IndexDecoderTest, V2AndPartialEntry) {
  Bytes b;
  b.U32(1000).U32(5).U32(0).U32(132).U32(132);
  b.U32(1001).U32(6).U32(1).U32(350).U32(264);
  b.U32(7).U32(8);  // a partial entry is ignored
  std::vector<IndexEntry> e = DecodeIndex(b.v(), 2);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[1].vol, 1);
  EXPECT_EQ(e[1].meta_offset, 350);
  EXPECT_EQ(e[1].stamp.nsec, 6000);
}
TEST(IndexDecoderTest, V3) {
  Bytes b;
  b.U32(0x6b0248b8).U32(0).U32(7).U32(0).U32(0).U32(808).U32(1).U32(0);
  std::vector<IndexEntry> e = DecodeIndex(b.v(), 3);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].stamp.sec, 0x6b0248b8);
  EXPECT_EQ(e[0].meta_offset, 808);
  EXPECT_EQ(e[0].data_offset, int64_t{1} << 32);
}

}  // namespace
}  // namespace pmapi
