// Checks the PDU codec against PCP 6.0.3's own libpcp: tests/oracle/pdu.c
// wrote the bytes libpcp sends for each PDU into tests/data/oracle/pdu.tsv
// ("name<TAB>hex"). Our encoders must produce the same bytes from the same
// inputs, and our decoders must give those inputs back.
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

std::string Hex(const std::vector<uint8_t>& b) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) {
    s += kDigits[c >> 4];
    s += kDigits[c & 15];
  }
  return s;
}

std::vector<uint8_t> Unhex(const std::string& s) {
  std::vector<uint8_t> b;
  for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back(std::stoi(s.substr(i, 2), nullptr, 16));
  return b;
}

const std::map<std::string, std::string>& Golden() {
  static const std::map<std::string, std::string>* table = [] {
    auto* t = new std::map<std::string, std::string>;
    std::ifstream in(std::string(PMAPI_TEST_DATA_DIR) + "/oracle/pdu.tsv");
    std::string line;
    while (std::getline(in, line)) {
      size_t tab = line.find('\t');
      if (tab != std::string::npos) (*t)[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return t;
  }();
  return *table;
}

std::string G(const std::string& name) {
  auto it = Golden().find(name);
  return it == Golden().end() ? "<missing " + name + ">" : it->second;
}

std::vector<uint8_t> GB(const std::string& name) { return Unhex(G(name)); }

TEST(PduOracle, TableIsComplete) { EXPECT_EQ(Golden().size(), 45u); }

TEST(PduOracle, Creds) {
  EXPECT_EQ(Hex(EncodeCreds(3161, 0)), G("creds_plain"));
  EXPECT_EQ(Hex(EncodeCreds(77, kFeatureCredsReqd | kFeatureContainer)), G("creds_flags"));
  EXPECT_EQ(*DecodeCreds(GB("creds_flags")), kFeatureCredsReqd | kFeatureContainer);
}

TEST(PduOracle, Profile) {
  EXPECT_EQ(Hex(EncodeProfile(0, 0, InstanceProfile{})), G("profile_empty"));
  InstanceProfile p;
  p.indoms.push_back({MakeInDom(29, 1), kProfileExclude, {Inst{0}, Inst{2}}});
  p.indoms.push_back({MakeInDom(29, 2), kProfileInclude, {Inst{100}}});
  EXPECT_EQ(Hex(EncodeProfile(3, 3, p)), G("profile_two"));
}

TEST(PduOracle, FetchAndIdLists) {
  const std::vector<PmID> ids = {MakePmID(29, 0, 10), MakePmID(29, 0, 5), MakePmID(2, 3, 4)};
  EXPECT_EQ(Hex(EncodeFetch(kPduFetch, 0, 0, std::span(ids).first(1))), G("fetch_one"));
  EXPECT_EQ(Hex(EncodeFetch(kPduHighResFetch, 5, 5, ids)), G("highres_fetch_three"));
  EXPECT_EQ(Hex(EncodeDescReq(0, MakePmID(29, 0, 10))), G("desc_req"));
  EXPECT_EQ(Hex(EncodeIdList(kPduDescIds, 0, -1, ids)), G("desc_ids"));
  EXPECT_EQ(Hex(EncodeIdList(kPduPmnsIds, 0, 0, std::span(ids).first(1))), G("pmns_ids_req"));
  EXPECT_EQ(Hex(EncodeIdList(kPduPmnsIds, 0, 2, std::span(ids).first(2))), G("pmns_ids_reply"));
  absl::StatusOr<IdList> reply = DecodeIdList(GB("pmns_ids_reply"));
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->sts, 2);
  EXPECT_EQ(reply->ids, std::vector<PmID>(ids.begin(), ids.begin() + 2));
  absl::StatusOr<IdList> descids = DecodeIdList(GB("desc_ids"));
  ASSERT_TRUE(descids.ok());
  EXPECT_EQ(descids->sts, -1);
  EXPECT_EQ(descids->ids, ids);
}

TEST(PduOracle, InstanceRequests) {
  EXPECT_EQ(Hex(EncodeInstanceReq(0, MakeInDom(29, 1), kInNull, "")), G("instance_req_all"));
  EXPECT_EQ(Hex(EncodeInstanceReq(0, MakeInDom(29, 1), Inst{1}, "")), G("instance_req_inst"));
  EXPECT_EQ(Hex(EncodeInstanceReq(0, MakeInDom(29, 1), kInNull, "green")),
            G("instance_req_name"));
  EXPECT_EQ(Hex(EncodeInstanceReq(0, MakeInDom(29, 2), kInNull, "bin-")),
            G("instance_req_name4"));
}

TEST(PduOracle, TextAndLabelRequests) {
  EXPECT_EQ(Hex(EncodeTextReq(0, ToPcp(MakePmID(29, 0, 6)), kTextPmid | kTextOneline)),
            G("text_req_pmid_oneline"));
  EXPECT_EQ(Hex(EncodeTextReq(0, ToPcp(MakeInDom(29, 1)), kTextInDom | kTextHelp)),
            G("text_req_indom_help"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, 0, kLabelContext)), G("label_req_context"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, 29, kLabelDomain)), G("label_req_domain"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, ToPcp(MakeInDom(29, 1)), kLabelInDom)), G("label_req_indom"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, ToPcp(MakePmID(29, 0, 6)), kLabelCluster)),
            G("label_req_cluster"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, ToPcp(MakePmID(29, 0, 6)), kLabelItem)), G("label_req_item"));
  EXPECT_EQ(Hex(EncodeLabelReq(0, ToPcp(MakeInDom(29, 1)), kLabelInstances)),
            G("label_req_instances"));
}

TEST(PduOracle, PmnsRequests) {
  const std::vector<std::string> names = {"sample.long.one", "sample.colour", "a.b.cd", "x"};
  const std::vector<int> status = {0, 1, 0, 0};
  EXPECT_EQ(Hex(EncodeNameList(0, names, {})), G("names_req"));
  EXPECT_EQ(Hex(EncodeNameList(0, names, status)), G("names_status"));
  EXPECT_EQ(Hex(EncodeNameReq(kPduPmnsChild, 0, "sample", kPmnsChildStatus)),
            G("child_status"));
  EXPECT_EQ(Hex(EncodeNameReq(kPduPmnsChild, 0, "", kPmnsChildNames)), G("child_root"));
  EXPECT_EQ(Hex(EncodeNameReq(kPduPmnsTraverse, 0, "sample.long", 0)), G("traverse"));
  EXPECT_EQ(Hex(EncodeNameReq(kPduPmnsTraverse, 0, "", 0)), G("traverse_root"));
  EXPECT_EQ(Hex(EncodeAttr(0, kAttrContainer, "box")), G("attr_container"));
  absl::StatusOr<NameList> list = DecodeNameList(GB("names_status"));
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->names, names);
  EXPECT_EQ(list->status, status);
  absl::StatusOr<NameList> plain = DecodeNameList(GB("names_req"));
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->names, names);
  EXPECT_TRUE(plain->status.empty());
}

Result OracleResult() {
  Result r;
  r.set_timestamp_ns(int64_t{1795312055} * 1000000000 + 101394000);
  r.AddSet(MakePmID(29, 0, 14), 1, kValInsitu);
  r.AddInsitu(kInNull, 13);
  r.AddSet(MakePmID(29, 0, 31), 2, kValDptr);
  r.AddBlock(Inst{7}, kTypeString,
             std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("hullo world!"), 13));
  r.AddBlock(Inst{8}, kTypeString, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("ab"), 3));
  r.AddSet(MakePmID(29, 0, 28), 1, kValDptr);
  double d = 1e6;
  uint8_t db[8];
  std::memcpy(db, &d, 8);
  r.AddBlock(kInNull, kTypeDouble, db);
  r.AddSet(MakePmID(29, 0, 55), kErrAppversion, kValInsitu);
  r.AddSet(MakePmID(29, 0, 138), 0, kValInsitu);
  return r;
}

void ExpectOracleResult(const Result& r, int64_t stamp_ns) {
  EXPECT_EQ(r.timestamp_ns(), stamp_ns);
  ASSERT_EQ(r.numpmid(), 5);
  EXPECT_EQ(r.sets()[0].pmid, MakePmID(29, 0, 14));
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, 13);
  ASSERT_EQ(r.sets()[1].numval, 2);
  EXPECT_STREQ(reinterpret_cast<const char*>(r.value(r.sets()[1], 0).payload.data()),
               "hullo world!");
  EXPECT_EQ(r.value(r.sets()[1], 1).inst, Inst{8});
  double d = 0;
  std::memcpy(&d, r.value(r.sets()[2], 0).payload.data(), 8);
  EXPECT_EQ(d, 1e6);
  EXPECT_EQ(r.sets()[3].numval, kErrAppversion);
  EXPECT_EQ(r.sets()[4].numval, 0);
}

TEST(PduOracle, ResultForStore) {
  Result r = OracleResult();
  EXPECT_EQ(Hex(EncodeResultPdu(0, r)), G("result_store"));
  Result back;
  ASSERT_TRUE(DecodeResultPdu(GB("result_store"), &back).ok());
  // RESULT carries microseconds.
  ExpectOracleResult(back, r.timestamp_ns());
}

TEST(PduOracle, HighResResult) {
  Result r = OracleResult();
  EXPECT_EQ(Hex(EncodeHighResResultPdu(0, r)), G("highres_result"));
  Result back;
  ASSERT_TRUE(DecodeResultPdu(GB("highres_result"), &back).ok());
  ExpectOracleResult(back, r.timestamp_ns());
}

TEST(PduOracle, Errors) {
  EXPECT_EQ(Hex(EncodeError(0, kErrName)), G("error_name"));
  EXPECT_EQ(*DecodeError(GB("error_name")), kErrName);
  EXPECT_EQ(Hex(EncodeError(0, 9)), G("error_state_change"));
  EXPECT_EQ(*DecodeError(GB("error_state_change")), kPmcdAddAgent | kPmcdLabelChange);
  HandshakeInfo ok{0, 2, 1, 0x0e44};
  EXPECT_EQ(Hex(EncodeHandshake(0, ok)), G("handshake_ok"));
  absl::StatusOr<HandshakeInfo> h = DecodeHandshake(GB("handshake_ok"));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->code, 0);
  EXPECT_EQ(h->version, 2);
  EXPECT_EQ(h->licensed, 1);
  EXPECT_EQ(h->features, kFeatureDescs | kFeatureHighRes | kFeatureLabels | kFeatureContainer |
                             kFeatureAuth);
  HandshakeInfo refused{kErrPermission, 2, 1, 0x0e4c};
  EXPECT_EQ(Hex(EncodeHandshake(0, refused)), G("handshake_refused"));
  EXPECT_EQ(DecodeHandshake(GB("handshake_refused"))->code, kErrPermission);
}

Desc OracleDesc() {
  Desc d{MakePmID(29, 0, 6), kTypeU32, MakeInDom(29, 2), kSemCounter, Units{1, -1, 0, 1, 3, 0}};
  return d;
}

TEST(PduOracle, Descs) {
  Desc d = OracleDesc();
  EXPECT_EQ(Hex(EncodeDesc(0, d)), G("desc"));
  EXPECT_EQ(*DecodeDescPdu(GB("desc")), d);
  Desc none{kPmIDNull, kTypeString, kInDomNull, kSemDiscrete, Units{0, 0, 1, 0, 0, -3}};
  std::vector<Desc> both = {d, none};
  EXPECT_EQ(Hex(EncodeDescs(0, both)), G("descs"));
  EXPECT_EQ(*DecodeDescs(GB("descs")), both);
}

TEST(PduOracle, Instances) {
  InstanceList in{MakeInDom(29, 1),
                  {Inst{0}, Inst{1}, Inst{2}, Inst{100}},
                  {"red", "green", "blue", "bin-"}};
  EXPECT_EQ(Hex(EncodeInstance(0, in)), G("instance"));
  absl::StatusOr<InstanceList> back = DecodeInstance(GB("instance"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->indom, in.indom);
  EXPECT_EQ(back->insts, in.insts);
  EXPECT_EQ(back->names, in.names);
  InstanceList none{MakeInDom(29, 1), {}, {}};
  EXPECT_EQ(Hex(EncodeInstance(0, none)), G("instance_empty"));
  EXPECT_TRUE(DecodeInstance(GB("instance_empty"))->insts.empty());
}

TEST(PduOracle, Texts) {
  // pmcd writes the identifier in its own (here little-endian) byte order.
  EXPECT_EQ(Hex(EncodeText(0, 0x06004007, "Several constant instances")), G("text_oneline"));
  EXPECT_EQ(DecodeTextPdu(GB("text_oneline"))->text, "Several constant instances");
  EXPECT_EQ(Hex(EncodeText(0, ToPcp(MakePmID(29, 0, 6)), "line one\nline two\n")), G("text_help"));
  EXPECT_EQ(DecodeTextPdu(GB("text_help"))->text, "line one\nline two\n");
  EXPECT_EQ(Hex(EncodeText(0, 0, "")), G("text_empty"));
  EXPECT_EQ(DecodeTextPdu(GB("text_empty"))->text, "");
}

TEST(PduOracle, ChildNamesReply) {
  const std::vector<std::string> names = {"long", "colour"};
  const std::vector<int> status = {kPmnsNonLeafStatus, kPmnsLeafStatus};
  EXPECT_EQ(Hex(EncodeNameList(0, names, status)), G("names_child_reply"));
}

LabelReply OracleLabels() {
  LabelReply r;
  r.ident = 29;
  r.type = kLabelDomain;
  LabelSetWire a;
  a.inst = kInNull;
  a.nlabels = 2;
  a.json = "{\"agent\":\"sample\",\"role\":\"testing\"}";
  a.labels = {{2, 5, kLabelDomain, 8, 8}, {18, 4, kLabelDomain, 24, 9}};
  LabelSetWire b;
  b.inst = Inst{1};
  b.nlabels = 1;
  b.json = "{\"cluster\":\"zero\"}";
  b.labels = {{2, 7, kLabelCluster | 0x80, 11, 6}};
  LabelSetWire c;
  c.inst = Inst{2};
  r.sets = {a, b, c};
  return r;
}

TEST(PduOracle, Labels) {
  LabelReply in = OracleLabels();
  EXPECT_EQ(Hex(EncodeLabel(0, in)), G("label_three_sets"));
  absl::StatusOr<LabelReply> back = DecodeLabelPdu(GB("label_three_sets"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ident, 29u);
  EXPECT_EQ(back->type, kLabelDomain);
  ASSERT_EQ(back->sets.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back->sets[i].inst, in.sets[i].inst);
    EXPECT_EQ(back->sets[i].nlabels, in.sets[i].nlabels);
    EXPECT_EQ(back->sets[i].json, in.sets[i].json);
    EXPECT_EQ(back->sets[i].labels, in.sets[i].labels);
  }
  LabelReply none;
  none.ident = ToPcp(MakePmID(29, 0, 6));
  none.type = kLabelItem;
  EXPECT_EQ(Hex(EncodeLabel(0, none)), G("label_none"));
  EXPECT_TRUE(DecodeLabelPdu(GB("label_none"))->sets.empty());
}

}  // namespace
}  // namespace pmapi
