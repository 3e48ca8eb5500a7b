// Interop tests: the PDU client against a real pmcd (PCP 6), the private one
// scripts/pmcd-private.sh starts for the CTest fixture (with the sample
// PMDA as domain 29). These fail, never skip, when PCP is not installed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "host_connection.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"
#include "private_pmcd.h"

namespace pmapi {
namespace {

const PmID kLongOne = MakePmID(29, 0, 10);
const PmID kLongHundred = MakePmID(29, 0, 12);
const PmID kLongWriteMe = MakePmID(29, 0, 14);
const PmID kColour = MakePmID(29, 0, 5);
const PmID kStringHullo = MakePmID(29, 0, 31);
const InDom kColourInDom = MakeInDom(29, 1);

// The private pmcd's port and socket, read once from the script.
struct PrivatePmcd {
  std::string port;
  std::string socket;
};

const PrivatePmcd& Pmcd() {
  static const PrivatePmcd* pmcd = [] {
    std::string env = ShellOutput(PmcdScript() + " env " + PMAPI_PMCD_DIR);
    return new PrivatePmcd{EnvValue(env, "PMCD_PORT"), EnvValue(env, "PMCD_SOCKET")};
  }();
  return *pmcd;
}

ConnectOptions Options() {
  ConnectOptions o;
  o.ports = {std::atoi(Pmcd().port.c_str())};
  o.unix_socket = Pmcd().socket;
  o.connect_timeout = absl::Seconds(5);
  o.request_timeout = absl::Seconds(10);
  return o;
}

std::unique_ptr<HostConnection> Open(const std::string& spec) {
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect(spec, Options());
  EXPECT_TRUE(c.ok()) << spec << ": " << c.status();
  return c.ok() ? std::move(*c) : nullptr;
}

absl::StatusOr<std::vector<uint8_t>> Call(HostConnection& c, const std::vector<uint8_t>& req) {
  return c.Call(req);
}

int TypeOf(const std::vector<uint8_t>& pdu) { return DecodePduHeader(pdu)->type; }

TEST(Interop, PrivatePmcdIsRunning) {
  ASSERT_FALSE(Pmcd().port.empty()) << "no private pmcd: is PCP installed? "
                                       "(scripts/install-deps.sh --pcp)";
  ASSERT_FALSE(Pmcd().socket.empty());
}

class Handshake : public testing::TestWithParam<std::string> {};

TEST_P(Handshake, AdvertisesAndEnablesTheFeaturesWeUse) {
  std::string spec = GetParam();
  if (spec.find("PORT") != std::string::npos) spec.replace(spec.find("PORT"), 4, Pmcd().port);
  std::unique_ptr<HostConnection> c = Open(spec);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->has_feature(kFeatureHighRes | kFeatureLabels | kFeatureDescs));
  EXPECT_EQ(c->features() & ~(kFeatureHighRes | kFeatureLabels | kFeatureDescs), 0);
  // A first request works on every transport.
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeDescReq(0, kLongOne));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeDescPdu(*r)->pmid, kLongOne);
}

INSTANTIATE_TEST_SUITE_P(Transports, Handshake,
                         testing::Values("unix:", "local:", "localhost", "localhost:PORT",
                                         "127.0.0.1", "[::1]:PORT", "[::1]", "pcp://localhost"));

TEST(Interop, UnixSpecWithExplicitPath) {
  std::unique_ptr<HostConnection> c = Open("unix:" + Pmcd().socket);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->is_local());
}

TEST(Interop, LocalFallsBackToTcp) {
  ConnectOptions o = Options();
  o.unix_socket = "/nonexistent/pmcd.socket";
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect("local:", o);
  ASSERT_TRUE(c.ok()) << c.status();
}

TEST(Interop, MissingSocketIsEnoent) {
  ConnectOptions o = Options();
  o.unix_socket = "/nonexistent/pmcd.socket";
  EXPECT_EQ(PcpCode(HostConnection::Connect("unix:", o).status()), -ENOENT);
}

TEST(Interop, LookupName) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  const std::vector<std::string> names = {"sample.long.one", "sample.colour"};
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeNameList(0, names, {}));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<IdList> ids = DecodeIdList(*r);
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_EQ(ids->sts, 2);
  EXPECT_EQ(ids->ids, (std::vector<PmID>{kLongOne, kColour}));
}

TEST(Interop, LookupWithUnknownNameGivesNullId) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  const std::vector<std::string> names = {"sample.long.one", "no.such.metric"};
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeNameList(0, names, {}));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<IdList> ids = DecodeIdList(*r);
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_EQ(ids->sts, 1);
  EXPECT_EQ(ids->ids, (std::vector<PmID>{kLongOne, kPmIDNull}));
}

TEST(Interop, NameOfPmid) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  const std::vector<PmID> ids = {kLongOne};
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeIdList(kPduPmnsIds, 0, 0, ids));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeNameList(*r)->names, std::vector<std::string>{"sample.long.one"});
}

TEST(Interop, ChildrenWithStatus) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r =
      Call(*c, EncodeNameReq(kPduPmnsChild, 0, "sample", kPmnsChildStatus));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<NameList> list = DecodeNameList(*r);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->status.size(), list->names.size());
  int seen = 0;
  for (size_t i = 0; i < list->names.size(); ++i) {
    if (list->names[i] == "long") {
      EXPECT_EQ(list->status[i], kPmnsNonLeafStatus);
      ++seen;
    }
    if (list->names[i] == "colour") {
      EXPECT_EQ(list->status[i], kPmnsLeafStatus);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
}

TEST(Interop, Traverse) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r =
      Call(*c, EncodeNameReq(kPduPmnsTraverse, 0, "sample.long", 0));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeNameList(*r)->names,
            (std::vector<std::string>{"sample.long.one", "sample.long.ten", "sample.long.hundred",
                                      "sample.long.million", "sample.long.write_me",
                                      "sample.long.bin", "sample.long.bin_ctr"}));
  absl::StatusOr<std::vector<uint8_t>> all = Call(*c, EncodeNameReq(kPduPmnsTraverse, 0, "sample", 0));
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_GT(DecodeNameList(*all)->names.size(), 100u);
}

TEST(Interop, TraverseUnknownIsNameError) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r =
      Call(*c, EncodeNameReq(kPduPmnsTraverse, 0, "no.such.metric", 0));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(TypeOf(*r), kPduError);
  EXPECT_EQ(*DecodeError(*r), kErrName);
}

TEST(Interop, Descriptors) {
  std::unique_ptr<HostConnection> c = Open("localhost:" + Pmcd().port);
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeDescReq(0, kColour));
  ASSERT_TRUE(r.ok()) << r.status();
  Desc colour{kColour, kType32, kColourInDom, kSemInstant, Units{}};
  EXPECT_EQ(*DecodeDescPdu(*r), colour);
  const std::vector<PmID> ids = {kLongOne, kStringHullo, kColour};
  r = Call(*c, EncodeIdList(kPduDescIds, 0, -1, ids));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<std::vector<Desc>> descs = DecodeDescs(*r);
  ASSERT_TRUE(descs.ok()) << descs.status();
  ASSERT_EQ(descs->size(), 3u);
  EXPECT_EQ((*descs)[0], (Desc{kLongOne, kType32, kInDomNull, kSemInstant, Units{}}));
  EXPECT_EQ((*descs)[1].type, kTypeString);
  EXPECT_EQ((*descs)[2], colour);
}

TEST(Interop, UnknownPmidIsAnErrorPdu) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  for (PmID id : {MakePmID(29, 0, 999), MakePmID(200, 0, 1)}) {
    absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeDescReq(0, id));
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(TypeOf(*r), kPduError);
    EXPECT_EQ(*DecodeError(*r), kErrPmid);
  }
}

TEST(Interop, InstancesOfColour) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r = Call(*c, EncodeInstanceReq(0, kColourInDom, kInNull, ""));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<InstanceList> all = DecodeInstance(*r);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->indom, kColourInDom);
  EXPECT_EQ(all->insts, (std::vector<Inst>{Inst{0}, Inst{1}, Inst{2}}));
  EXPECT_EQ(all->names, (std::vector<std::string>{"red", "green", "blue"}));
  r = Call(*c, EncodeInstanceReq(0, kColourInDom, kInNull, "green"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeInstance(*r)->insts, std::vector<Inst>{Inst{1}});
  r = Call(*c, EncodeInstanceReq(0, kColourInDom, Inst{2}, ""));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeInstance(*r)->names, std::vector<std::string>{"blue"});
  r = Call(*c, EncodeInstanceReq(0, kColourInDom, kInNull, "purple"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(TypeOf(*r), kPduError);
  EXPECT_EQ(*DecodeError(*r), kErrInst);
}

TEST(Interop, HelpText) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::vector<uint8_t>> r =
      Call(*c, EncodeTextReq(0, ToPcp(kLongOne), kTextPmid | kTextOneline));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeTextPdu(*r)->text, "1 as a 32-bit integer");
  r = Call(*c, EncodeTextReq(0, ToPcp(kLongOne), kTextPmid | kTextHelp));
  ASSERT_TRUE(r.ok()) << r.status();
  std::string help = DecodeTextPdu(*r)->text;
  EXPECT_EQ(help.rfind("The sample.long.* metrics provide a group of 32-bit integer metrics\n", 0),
            0u);
  EXPECT_NE(help.find("This one has the constant value 1."), std::string::npos);
  r = Call(*c, EncodeTextReq(0, ToPcp(kColourInDom), kTextInDom | kTextOneline));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(TypeOf(*r), kPduText);
  EXPECT_FALSE(DecodeTextPdu(*r)->text.empty());
}

absl::StatusOr<LabelReply> Labels(HostConnection& c, uint32_t ident, int type) {
  absl::StatusOr<std::vector<uint8_t>> r = Call(c, EncodeLabelReq(0, ident, type));
  if (!r.ok()) return r.status();
  return DecodeLabelPdu(*r);
}

TEST(Interop, Labels) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<LabelReply> context = Labels(*c, 0, kLabelContext);
  ASSERT_TRUE(context.ok()) << context.status();
  // Over the unix socket pmcd adds the peer's ids as optional labels.
  ASSERT_EQ(context->sets.size(), 1u);
  const LabelSetWire& ctx = context->sets[0];
  EXPECT_NE(ctx.json.find("\"hostname\":"), std::string::npos);
  bool optional_userid = false;
  for (const LabelWire& l : ctx.labels) {
    if (ctx.json.substr(l.name, l.namelen) == "userid") optional_userid = (l.flags & 0x80) != 0;
  }
  EXPECT_TRUE(optional_userid);
  absl::StatusOr<LabelReply> domain = Labels(*c, 29, kLabelDomain);
  ASSERT_TRUE(domain.ok()) << domain.status();
  ASSERT_EQ(domain->sets.size(), 1u);
  EXPECT_EQ(domain->sets[0].json, "{\"agent\":\"sample\",\"role\":\"testing\"}");
  ASSERT_EQ(domain->sets[0].labels.size(), 2u);
  const LabelWire& agent = domain->sets[0].labels[0];
  EXPECT_EQ(domain->sets[0].json.substr(agent.name, agent.namelen), "agent");
  EXPECT_EQ(domain->sets[0].json.substr(agent.value, agent.valuelen), "\"sample\"");
  absl::StatusOr<LabelReply> indom = Labels(*c, ToPcp(kColourInDom), kLabelInDom);
  ASSERT_TRUE(indom.ok()) << indom.status();
  ASSERT_EQ(indom->sets.size(), 1u);
  EXPECT_EQ(indom->sets[0].json, "{\"model\":\"RGB\"}");
  absl::StatusOr<LabelReply> cluster = Labels(*c, ToPcp(kColour), kLabelCluster);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  EXPECT_EQ(cluster->sets[0].json, "{\"cluster\":\"zero\"}");
  absl::StatusOr<LabelReply> insts = Labels(*c, ToPcp(kColourInDom), kLabelInstances);
  ASSERT_TRUE(insts.ok()) << insts.status();
  EXPECT_EQ(insts->sets.size(), 3u);
}

// Sends an empty profile and fetches `ids` with FETCH or HIGHRES_FETCH.
absl::Status Fetch(HostConnection& c, int type, const std::vector<PmID>& ids, Result* out) {
  absl::Status s = c.Send(EncodeProfile(0, 0, InstanceProfile{}));
  if (!s.ok()) return s;
  absl::StatusOr<std::vector<uint8_t>> r = c.Call(EncodeFetch(type, 0, 0, ids));
  if (!r.ok()) return r.status();
  if (TypeOf(*r) == kPduError) return PcpError(*DecodeError(*r));
  return DecodeResultPdu(*r, out);
}

void ExpectSampleValues(const Result& r) {
  ASSERT_EQ(r.numpmid(), 3);
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, 1);
  EXPECT_EQ(r.value(r.sets()[1], 0).lval, 100);
  const ValueSet& hullo = r.sets()[2];
  ASSERT_EQ(hullo.numval, 1);
  EXPECT_EQ(hullo.valfmt, kValDptr);
  ValueView v = r.value(hullo, 0);
  EXPECT_EQ(v.vtype, kTypeString);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.payload.data())), "hullo world!");
}

TEST(Interop, FetchAndHighResFetch) {
  std::unique_ptr<HostConnection> c = Open("localhost:" + Pmcd().port);
  ASSERT_NE(c, nullptr);
  const std::vector<PmID> ids = {kLongOne, kLongHundred, kStringHullo};
  Result r;
  ASSERT_TRUE(Fetch(*c, kPduFetch, ids, &r).ok());
  ExpectSampleValues(r);
  const int64_t now = absl::ToUnixNanos(absl::Now());
  EXPECT_LT(std::abs(r.timestamp_ns() - now), int64_t{60} * 1000000000);
  Result h;
  ASSERT_TRUE(Fetch(*c, kPduHighResFetch, ids, &h).ok());
  ExpectSampleValues(h);
  EXPECT_GE(h.timestamp_ns(), r.timestamp_ns() - 1000);
}

TEST(Interop, FetchUnknownPmidGivesErrorSet) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  Result r;
  ASSERT_TRUE(Fetch(*c, kPduHighResFetch, {kLongOne, MakePmID(200, 0, 1)}, &r).ok());
  ASSERT_EQ(r.numpmid(), 2);
  EXPECT_EQ(r.sets()[0].numval, 1);
  EXPECT_EQ(r.sets()[1].numval, kErrNoagent);
}

int32_t FetchWriteMe(HostConnection& c) {
  Result r;
  absl::Status s = Fetch(c, kPduHighResFetch, {kLongWriteMe}, &r);
  EXPECT_TRUE(s.ok()) << s;
  return s.ok() && r.numpmid() == 1 && r.sets()[0].numval == 1 ? r.value(r.sets()[0], 0).lval
                                                                : INT32_MIN;
}

int Store(HostConnection& c, int32_t value) {
  Result r;
  r.set_timestamp_ns(absl::ToUnixNanos(absl::Now()));
  r.AddSet(kLongWriteMe, 1, kValInsitu);
  r.AddInsitu(kInNull, value);
  absl::StatusOr<std::vector<uint8_t>> reply = c.Call(EncodeResultPdu(0, r));
  if (!reply.ok()) return PcpCode(reply.status());
  absl::StatusOr<int> code = DecodeError(*reply);
  return code.ok() ? *code : PcpCode(code.status());
}

TEST(Interop, StoreThenRestore) {
  std::unique_ptr<HostConnection> c = Open("localhost:" + Pmcd().port);
  ASSERT_NE(c, nullptr);
  const int32_t before = FetchWriteMe(*c);
  ASSERT_NE(before, INT32_MIN);
  EXPECT_EQ(Store(*c, 4242), 0);
  EXPECT_EQ(FetchWriteMe(*c), 4242);
  EXPECT_EQ(Store(*c, before), 0);
  EXPECT_EQ(FetchWriteMe(*c), before);
}

TEST(Interop, OversizedRequestIsRefusedLocally) {
  std::unique_ptr<HostConnection> c = Open("unix:");
  ASSERT_NE(c, nullptr);
  std::vector<PmID> many(20000, kLongOne);
  EXPECT_EQ(PcpCode(c->Call(EncodeFetch(kPduFetch, 0, 0, many)).status()), kErrToobig);
  // The connection is still usable.
  EXPECT_TRUE(c->Call(EncodeDescReq(0, kLongOne)).ok());
}

// A second private pmcd that demands authentication (pmcd -S): over TCP
// that needs SASL (its default configuration knows no user here); over the
// unix socket the kernel vouches for the client. Its SASL configuration
// is its own (PCP_SASL2_CONFIG_PATH), with no user database.
class AuthPmcd : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(std::string(PMAPI_PMCD_DIR) + "-auth");
    // SASL's configuration of its own: SCRAM against a user database that
    // does not exist, whatever the machine's /etc/sasl2 says.
    const std::string sasl = *dir_ + "-sasl";
    ShellOutput("mkdir -p " + sasl + " && printf 'mech_list: scram-sha-256\\nsasldb_path: " + sasl +
                "/nosuchdb\\n' > " + sasl + "/pmcd.conf");
    std::string env = ShellOutput("PCP_SASL2_CONFIG_PATH=" + sasl + " PMCD_PRIVATE_ARGS=-S " + PmcdScript() +
                                  " start " + *dir_);
    port_ = new std::string(EnvValue(env, "PMCD_PORT"));
    socket_ = new std::string(EnvValue(env, "PMCD_SOCKET"));
  }
  static void TearDownTestSuite() { ShellOutput(PmcdScript() + " stop " + *dir_); }
  static ConnectOptions AuthOptions() {
    ConnectOptions o;
    o.ports = {std::atoi(port_->c_str())};
    o.unix_socket = *socket_;
    return o;
  }
  static std::string* dir_;
  static std::string* port_;
  static std::string* socket_;
};
std::string* AuthPmcd::dir_;
std::string* AuthPmcd::port_;
std::string* AuthPmcd::socket_;

TEST_F(AuthPmcd, TcpAuthenticatesInsteadOfSkippingIt) {
  ASSERT_FALSE(port_->empty());
  // No user known to pmcd's SASL: the exchange fails ("user not found",
  // SASL_NOUSER = -20), where a client that skipped it would connect.
  EXPECT_EQ(PcpCode(HostConnection::Connect("localhost?username=nobody&password=x", AuthOptions()).status()),
            kErrNyi - 20);
}

TEST_F(AuthPmcd, UnixSocketCredentialsSuffice) {
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect("unix:", AuthOptions());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE((*c)->server_features() & kFeatureCredsReqd);
  EXPECT_TRUE((*c)->Call(EncodeDescReq(0, kLongOne)).ok());
}

TEST_F(AuthPmcd, DemandedTlsIsNotSilentlyDropped) {
  EXPECT_EQ(PcpCode(HostConnection::Connect("pcps://localhost", AuthOptions()).status()),
            -EOPNOTSUPP);
}

}  // namespace
}  // namespace pmapi
