// host_protocol_test: the host context's requests against a scripted fake
// pmcd on a unix socket: which PDUs are sent (the profile only when it
// changed), how each reply maps to a value or a PCP code, state changes
// before a result, replies that break the protocol, a lost connection, and
// reconnecting.
#include "host_protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "byte_reader.h"
#include "gtest/gtest.h"
#include "host_connection.h"
#include "host_source.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr uint16_t kAllFeatures = kFeatureLabels | kFeatureHighRes | kFeatureDescs;
const PmID kId = MakePmID(29, 0, 10);
const InDom kInDom = MakeInDom(29, 1);

void SendAll(int fd, const std::vector<uint8_t>& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

// Reads one PDU; empty on end of file, error or `stop`.
std::vector<uint8_t> RecvPdu(int fd, const std::atomic<bool>& stop) {
  auto read_exact = [&](uint8_t* p, size_t n) {
    while (n > 0) {
      pollfd pf{fd, POLLIN, 0};
      if (stop) return false;
      if (poll(&pf, 1, 20) != 1) continue;
      ssize_t got = recv(fd, p, n, 0);
      if (got <= 0) return false;
      p += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  };
  std::vector<uint8_t> pdu(kPduHeaderBytes);
  if (!read_exact(pdu.data(), pdu.size())) return {};
  uint32_t len = LoadBigEndian32(pdu.data());
  if (len < kPduHeaderBytes || len > (1u << 20)) return {};
  pdu.resize(len);
  if (!read_exact(pdu.data() + kPduHeaderBytes, len - kPduHeaderBytes)) return {};
  return pdu;
}

int TypeOf(const std::vector<uint8_t>& pdu) { return DecodePduHeader(pdu)->type; }

// A fake pmcd: greets each client with `features`, then answers each
// request with what `answer` returns (an empty list: no reply; a list
// holding one empty PDU: close the connection). Serves clients one after
// another until destroyed, and records the type of every request.
class FakePmcd {
 public:
  using Answer = std::function<std::vector<std::vector<uint8_t>>(const std::vector<uint8_t>&)>;

  // `path` names the socket; by default a new one in /tmp.
  FakePmcd(Answer answer, uint16_t features = kAllFeatures, std::string path = "")
      : answer_(std::move(answer)), features_(features), path_(std::move(path)) {
    if (path_.empty()) {
      path_ = "/tmp/host-proto-" + std::to_string(getpid()) + "-" + std::to_string(counter_++);
    }
    unlink(path_.c_str());
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(listen_fd_, 4);
    thread_ = std::thread([this] { Serve(); });
  }

  ~FakePmcd() {
    stop_ = true;
    thread_.join();
    close(listen_fd_);
    unlink(path_.c_str());
  }

  std::string spec() const { return "unix:" + path_; }
  std::vector<int> requests() {
    std::lock_guard<std::mutex> l(mu_);
    return requests_;
  }
  int clients() const { return clients_; }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 20) != 1) continue;
      int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      ++clients_;
      SendAll(fd, EncodeHandshake(0, HandshakeInfo{0, kPduVersion, 1, features_}));
      RecvPdu(fd, stop_);  // CREDS
      Converse(fd);
      close(fd);
    }
  }

  void Converse(int fd) {
    while (!stop_) {
      std::vector<uint8_t> req = RecvPdu(fd, stop_);
      if (req.empty()) return;
      {
        std::lock_guard<std::mutex> l(mu_);
        requests_.push_back(TypeOf(req));
      }
      for (const std::vector<uint8_t>& reply : answer_(req)) {
        if (reply.empty()) return;
        SendAll(fd, reply);
      }
    }
  }

  static inline int counter_ = 0;
  Answer answer_;
  uint16_t features_;
  std::string path_;
  int listen_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> clients_{0};
  std::mutex mu_;
  std::vector<int> requests_;
  std::thread thread_;
};

Result OneValue(int32_t v) {
  Result r;
  r.set_timestamp_ns(1'700'000'000'123'456'789);
  r.AddSet(kId, 1, kValInsitu);
  r.AddInsitu(kInNull, v);
  return r;
}

// Answers fetches with a HIGHRES_RESULT holding 42 and ignores PROFILE.
std::vector<std::vector<uint8_t>> FetchAnswer(const std::vector<uint8_t>& req) {
  if (TypeOf(req) == kPduProfile) return {};
  if (TypeOf(req) == kPduHighResFetch) return {EncodeHighResResultPdu(0, OneValue(42))};
  if (TypeOf(req) == kPduFetch) return {EncodeResultPdu(0, OneValue(42))};
  return {EncodeError(0, kErrGeneric)};
}

ConnectOptions Quick() {
  ConnectOptions o;
  o.connect_timeout = absl::Seconds(2);
  o.request_timeout = absl::Milliseconds(500);
  return o;
}

std::unique_ptr<HostProtocol> Open(const FakePmcd& pmcd) {
  absl::StatusOr<std::unique_ptr<HostProtocol>> p = HostProtocol::Connect(pmcd.spec(), Quick());
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? std::move(*p) : nullptr;
}

TEST(HostProtocol, ProfileIsSentOnlyWhenItChanges) {
  FakePmcd pmcd(FetchAnswer);
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Profile profile;
  Result r;
  const PmID ids[] = {kId};
  ASSERT_TRUE(p->Fetch(ids, &profile, &r, nullptr).ok());
  ASSERT_TRUE(p->Fetch(ids, &profile, &r, nullptr).ok());
  const Inst one{1};
  profile.Add(kInDom, {&one, 1});
  ASSERT_TRUE(p->Fetch(ids, &profile, &r, nullptr).ok());
  ASSERT_TRUE(p->Fetch(ids, nullptr, &r, nullptr).ok());
  EXPECT_EQ(pmcd.requests(),
            (std::vector<int>{kPduProfile, kPduHighResFetch, kPduHighResFetch, kPduProfile,
                              kPduHighResFetch, kPduHighResFetch}));
  ASSERT_EQ(r.numpmid(), 1);
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, 42);
  EXPECT_EQ(r.timestamp_ns(), 1'700'000'000'123'456'789);
}

TEST(HostProtocol, PlainFetchWithoutHighRes) {
  FakePmcd pmcd(FetchAnswer, kFeatureLabels);
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Result r;
  const PmID ids[] = {kId};
  ASSERT_TRUE(p->Fetch(ids, nullptr, &r, nullptr).ok());
  EXPECT_EQ(pmcd.requests(), std::vector<int>{kPduFetch});
  // RESULT carries microseconds.
  EXPECT_EQ(r.timestamp_ns(), 1'700'000'000'123'456'000);
}

TEST(HostProtocol, StateChangesBeforeTheResultAreCollected) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    if (TypeOf(req) != kPduHighResFetch) return {};
    return {EncodeError(0, kPmcdAddAgent), EncodeError(0, kPmcdLabelChange),
            EncodeHighResResultPdu(0, OneValue(7))};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Result r;
  int changed = 0;
  const PmID ids[] = {kId};
  ASSERT_TRUE(p->Fetch(ids, nullptr, &r, &changed).ok());
  EXPECT_EQ(changed, kPmcdAddAgent | kPmcdLabelChange);
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, 7);
}

TEST(HostProtocol, FetchErrorIsPmcdsCode) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    if (TypeOf(req) != kPduHighResFetch) return {};
    return {EncodeError(0, kErrNoagent)};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Result r;
  const PmID ids[] = {kId};
  EXPECT_EQ(PcpCode(p->Fetch(ids, nullptr, &r, nullptr)), kErrNoagent);
  // The connection is still in step.
  EXPECT_FALSE(p->broken());
}

TEST(HostProtocol, ZeroErrorBeforeResultBreaksTheProtocol) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> {
    return {EncodeError(0, 0)};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Result r;
  const PmID ids[] = {kId};
  EXPECT_EQ(PcpCode(p->Fetch(ids, nullptr, &r, nullptr)), kErrIpc);
  EXPECT_TRUE(p->broken());
}

TEST(HostProtocol, ResultWithTheWrongNumberOfSetsIsIpc) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> {
    return {EncodeHighResResultPdu(0, OneValue(1))};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Result r;
  const PmID ids[] = {kId, kId};
  EXPECT_EQ(PcpCode(p->Fetch(ids, nullptr, &r, nullptr)), kErrIpc);
}

TEST(HostProtocol, WrongReplyTypeDropsTheConnection) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> {
    return {EncodeText(0, 0, "not a descriptor")};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrIpc);
  EXPECT_TRUE(p->broken());
  // Later calls fail at once, without asking pmcd.
  absl::Time start = absl::Now();
  EXPECT_EQ(PcpCode(p->LookupName("a.b").status()), kErrIpc);
  EXPECT_EQ(PcpCode(p->Text(ToPcp(kId), kTextOneline | kTextPmid).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(100));
  EXPECT_EQ(pmcd.requests().size(), 1u);
}

TEST(HostProtocol, LostConnectionIsIpcAndReconnectRestoresIt) {
  std::atomic<int> calls{0};
  FakePmcd pmcd([&](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    // The first request closes the connection; later ones are answered.
    if (calls++ == 0) return {{}};
    return FetchAnswer(req);
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  Profile profile;
  Result r;
  const PmID ids[] = {kId};
  EXPECT_EQ(PcpCode(p->Fetch(ids, &profile, &r, nullptr)), kErrIpc);
  EXPECT_TRUE(p->broken());
  EXPECT_EQ(PcpCode(p->Fetch(ids, &profile, &r, nullptr)), kErrIpc);
  ASSERT_TRUE(p->Reconnect().ok());
  EXPECT_FALSE(p->broken());
  ASSERT_TRUE(p->Fetch(ids, &profile, &r, nullptr).ok());
  EXPECT_EQ(pmcd.clients(), 2);
  // The profile went with the first fetch, and again after reconnecting.
  std::vector<int> want = {kPduProfile, kPduProfile, kPduHighResFetch};
  EXPECT_EQ(pmcd.requests(), want);
}

TEST(HostProtocol, ReconnectToAGoneServerFails) {
  std::string spec;
  std::unique_ptr<HostProtocol> p;
  {
    FakePmcd pmcd(FetchAnswer);
    spec = pmcd.spec();
    p = Open(pmcd);
    ASSERT_NE(p, nullptr);
  }
  EXPECT_EQ(PcpCode(p->Reconnect()), -ENOENT);
  EXPECT_TRUE(p->broken());
  EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrIpc);
}

TEST(HostProtocol, LookupNameStatuses) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    absl::StatusOr<NameList> names = DecodeNameList(req);
    const std::string& n = names->names[0];
    if (n == "found") {
      const PmID ids[] = {kId};
      return {EncodeIdList(kPduPmnsIds, 0, 1, ids)};
    }
    if (n == "missing") {
      const PmID ids[] = {kPmIDNull};
      return {EncodeIdList(kPduPmnsIds, 0, 0, ids)};
    }
    if (n == "inner") {
      const PmID ids[] = {kPmIDNull};
      return {EncodeIdList(kPduPmnsIds, 0, kErrNonleaf, ids)};
    }
    return {EncodeError(0, kErrNoagent)};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p->LookupName("found"), kId);
  EXPECT_EQ(PcpCode(p->LookupName("missing").status()), kErrName);
  EXPECT_EQ(PcpCode(p->LookupName("inner").status()), kErrNonleaf);
  EXPECT_EQ(PcpCode(p->LookupName("other").status()), kErrNoagent);
  EXPECT_FALSE(p->broken());
}

TEST(HostProtocol, NamesChildrenAndTraverse) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    const std::vector<std::string> names = {"a", "b"};
    const std::vector<int> status = {kPmnsLeafStatus, kPmnsNonLeafStatus};
    switch (TypeOf(req)) {
      case kPduPmnsIds:
        return {EncodeNameList(0, names, {})};
      case kPduPmnsChild:
        return {EncodeNameList(0, names, status)};
      case kPduPmnsTraverse:
        return {EncodeError(0, kErrName)};
    }
    return {};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p->NameAll(kId), (std::vector<std::string>{"a", "b"}));
  absl::StatusOr<HostNames> kids = p->Children("x");
  ASSERT_TRUE(kids.ok());
  EXPECT_EQ(kids->names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(kids->status, (std::vector<int>{kPmnsLeafStatus, kPmnsNonLeafStatus}));
  EXPECT_EQ(PcpCode(p->Traverse("nosuch").status()), kErrName);
}

TEST(HostProtocol, ChildrenWithoutStatusIsIpc) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> {
    const std::vector<std::string> names = {"a"};
    return {EncodeNameList(0, names, {})};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(PcpCode(p->Children("x").status()), kErrIpc);
}

TEST(HostProtocol, DescriptorsOneAndMany) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    if (TypeOf(req) == kPduDescReq) {
      return {EncodeDesc(0, Desc{kId, kType32, kInDomNull, kSemInstant, Units{}})};
    }
    absl::StatusOr<IdList> ids = DecodeIdList(req);
    std::vector<Desc> descs;
    for (PmID id : ids->ids) descs.push_back(Desc{id, kTypeU64, kInDom, kSemCounter, Units{}});
    return {EncodeDescs(0, descs)};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->has_descs());
  EXPECT_EQ(p->LookupDesc(kId)->type, kType32);
  const PmID ids[] = {kId, MakePmID(29, 0, 11)};
  absl::StatusOr<std::vector<Desc>> d = p->LookupDescs(ids);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[1].pmid, MakePmID(29, 0, 11));
  EXPECT_EQ(pmcd.requests(), (std::vector<int>{kPduDescReq, kPduDescIds}));
}

TEST(HostProtocol, InstancesTextAndLabels) {
  FakePmcd pmcd([](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    switch (TypeOf(req)) {
      case kPduInstanceReq:
        return {EncodeInstance(0, InstanceList{kInDom, {Inst{0}, Inst{1}}, {"red", "green"}})};
      case kPduTextReq:
        return {EncodeText(0, 0, "one line")};
      case kPduLabelReq: {
        LabelReply reply;
        reply.ident = ToPcp(kId);
        reply.type = kLabelItem;
        LabelSetWire set;
        set.inst = kInNull;
        set.nlabels = 1;
        set.json = R"({"a":1})";
        set.labels.push_back(LabelWire{2, 1, kLabelItem, 5, 1});
        reply.sets.push_back(set);
        return {EncodeLabel(0, reply)};
      }
    }
    return {};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  absl::StatusOr<HostInstances> insts = p->Instances(kInDom, kInNull, "");
  ASSERT_TRUE(insts.ok());
  EXPECT_EQ(insts->ids, (std::vector<Inst>{Inst{0}, Inst{1}}));
  EXPECT_EQ(insts->names, (std::vector<std::string>{"red", "green"}));
  EXPECT_EQ(*p->Text(ToPcp(kId), kTextOneline | kTextPmid), "one line");
  absl::StatusOr<std::vector<LabelSet>> labels = p->Labels(ToPcp(kId), kLabelItem);
  ASSERT_TRUE(labels.ok()) << labels.status();
  ASSERT_EQ(labels->size(), 1u);
  EXPECT_EQ((*labels)[0].json, R"({"a":1})");
  ASSERT_EQ((*labels)[0].labels.size(), 1u);
  EXPECT_EQ((*labels)[0].labels[0].value, 5);
  EXPECT_EQ((*labels)[0].labels[0].flags, kLabelItem);
}

TEST(HostProtocol, NoLabelsWithoutTheFeature) {
  FakePmcd pmcd(FetchAnswer, kFeatureHighRes);
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(PcpCode(p->Labels(ToPcp(kPmIDNull), kLabelContext).status()), kErrNolabels);
  EXPECT_TRUE(pmcd.requests().empty());
}

TEST(HostProtocol, StoreReplies) {
  std::atomic<int> calls{0};
  FakePmcd pmcd([&](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    if (TypeOf(req) != kPduResult) return {};
    switch (calls++) {
      case 0:
        return {EncodeError(0, 0)};
      case 1:
        return {EncodeError(0, kErrPermission)};
      default:
        return {EncodeError(0, kPmcdAddAgent)};
    }
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->Store(OneValue(3)).ok());
  EXPECT_EQ(PcpCode(p->Store(OneValue(3))), kErrPermission);
  EXPECT_EQ(PcpCode(p->Store(OneValue(3))), kErrIpc);
}

TEST(HostProtocol, SilentServerTimesOut) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> { return {}; });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrTimeout);
  EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrIpc);
}

TEST(HostProtocol, SpecHost) {
  FakePmcd pmcd(FetchAnswer);
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->SpecHost(), "");
  EXPECT_EQ(p->spec(), pmcd.spec());
}

TEST(HostSourceReconnect, BackoffListIsParsedAsLibpcpDoes) {
  EXPECT_EQ(ParseReconnectBackoff("1,2,3"), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(ParseReconnectBackoff("7"), (std::vector<int>{7}));
  EXPECT_EQ(ParseReconnectBackoff("7,"), (std::vector<int>{7}));
  for (const char* bad : {"", "0", "-1", "a", "5,,6", "5x", "5;6", "99999999999"}) {
    EXPECT_TRUE(ParseReconnectBackoff(bad).empty()) << bad;
  }
  EXPECT_TRUE(ParseReconnectBackoff(nullptr).empty());
}

// Makes a HostSource on `pmcd` with PMCD_RECONNECT_TIMEOUT set to `backoff`
// (unset when null) and a clock the test moves by hand.
std::unique_ptr<HostSource> SourceWithClock(const FakePmcd& pmcd, const char* backoff,
                                            absl::Time* now) {
  if (backoff != nullptr) setenv("PMCD_RECONNECT_TIMEOUT", backoff, 1);
  std::unique_ptr<HostSource> src = std::make_unique<HostSource>(Open(pmcd));
  unsetenv("PMCD_RECONNECT_TIMEOUT");
  src->set_clock([now] { return *now; });
  return src;
}

TEST(HostSourceReconnect, DefaultScheduleIsFiveToEighty) {
  FakePmcd pmcd(FetchAnswer);
  absl::Time now = absl::UnixEpoch();
  unsetenv("PMCD_RECONNECT_TIMEOUT");
  EXPECT_EQ(SourceWithClock(pmcd, nullptr, &now)->backoff_seconds(),
            (std::vector<int>{5, 10, 20, 40, 80}));
  EXPECT_EQ(SourceWithClock(pmcd, "0,3", &now)->backoff_seconds(),
            (std::vector<int>{5, 10, 20, 40, 80}));
  EXPECT_EQ(SourceWithClock(pmcd, "2,3", &now)->backoff_seconds(), (std::vector<int>{2, 3}));
}

// Answers descriptor requests and fetches.
std::vector<std::vector<uint8_t>> DescAndFetchAnswer(const std::vector<uint8_t>& req) {
  if (TypeOf(req) == kPduDescReq) {
    return {EncodeDesc(0, Desc{kId, kType32, kInDomNull, kSemInstant, Units{}})};
  }
  return FetchAnswer(req);
}

TEST(HostSourceReconnect, BackoffDelaysAttemptsAndKeepsProfileAndDescriptors) {
  const std::string path = "/tmp/host-reconnect-" + std::to_string(getpid());
  absl::Time now = absl::UnixEpoch();
  std::unique_ptr<HostSource> src;
  Profile profile;
  const PmID ids[] = {kId};
  {
    FakePmcd first(DescAndFetchAnswer, kAllFeatures, path);
    src = SourceWithClock(first, "2,3", &now);
    ASSERT_TRUE(src->LookupDesc(kId).ok());
    ASSERT_TRUE(src->Fetch(ids, profile, nullptr).ok());
  }
  // pmcd is gone: a prompt PM_ERR_IPC, and the first attempt fails.
  const absl::Time start = absl::Now();
  EXPECT_EQ(PcpCode(src->Fetch(ids, profile, nullptr).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(400));
  EXPECT_EQ(PcpCode(src->Reconnect()), -ETIMEDOUT);

  FakePmcd second(DescAndFetchAnswer, kAllFeatures, path);
  now += absl::Seconds(1);
  EXPECT_EQ(PcpCode(src->Reconnect()), -ETIMEDOUT);  // too soon: not tried
  EXPECT_EQ(second.clients(), 0);
  now += absl::Seconds(1);
  ASSERT_TRUE(src->Reconnect().ok());
  EXPECT_EQ(second.clients(), 1);

  // The descriptor is still cached; the profile goes again before the fetch.
  EXPECT_EQ(src->cached_descs(), 1u);
  ASSERT_TRUE(src->LookupDesc(kId).ok());
  absl::StatusOr<Result> r = src->Fetch(ids, profile, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->value(r->sets()[0], 0).lval, 42);
  EXPECT_EQ(second.requests(), (std::vector<int>{kPduProfile, kPduHighResFetch}));
}

TEST(HostSourceReconnect, LastDelayRepeatsAndSuccessResetsTheSchedule) {
  const std::string path = "/tmp/host-reconnect2-" + std::to_string(getpid());
  absl::Time now = absl::UnixEpoch();
  std::unique_ptr<HostSource> src;
  {
    FakePmcd pmcd(FetchAnswer, kAllFeatures, path);
    src = SourceWithClock(pmcd, "2,3", &now);
  }
  auto attempts_at = [&](int seconds_later) {
    now += absl::Seconds(seconds_later);
    return PcpCode(src->Reconnect());
  };
  // Fails at 0, 2 (+2), 5 (+3), 8 (+3 again); refused in between.
  EXPECT_EQ(attempts_at(0), -ETIMEDOUT);
  EXPECT_EQ(attempts_at(2), -ETIMEDOUT);
  {
    FakePmcd pmcd(FetchAnswer, kAllFeatures, path);
    EXPECT_EQ(attempts_at(2), -ETIMEDOUT);
    EXPECT_EQ(pmcd.clients(), 0);
    EXPECT_EQ(attempts_at(1), 0);
    EXPECT_EQ(pmcd.clients(), 1);
  }
  // After a success the first delay applies again.
  EXPECT_EQ(attempts_at(0), -ETIMEDOUT);
  FakePmcd pmcd(FetchAnswer, kAllFeatures, path);
  EXPECT_EQ(attempts_at(1), -ETIMEDOUT);
  EXPECT_EQ(attempts_at(1), 0);
}

TEST(HostSourceDescs, OneRequestForManyAndNullPmidsAskedAlone) {
  const PmID known = MakePmID(29, 0, 11);
  const PmID unknown = MakePmID(29, 0, 99);
  FakePmcd pmcd([&](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
    if (TypeOf(req) == kPduDescReq) return {EncodeError(0, kErrPmid)};
    absl::StatusOr<IdList> ids = DecodeIdList(req);
    std::vector<Desc> descs;
    for (PmID id : ids->ids) {
      descs.push_back(Desc{id == unknown ? kPmIDNull : id, kTypeU64, kInDom, kSemCounter, Units{}});
    }
    return {EncodeDescs(0, descs)};
  });
  HostSource src(Open(pmcd));
  const PmID both[] = {kId, known};
  absl::StatusOr<std::vector<Desc>> d = src.LookupDescs(both);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ((*d)[1].pmid, known);
  EXPECT_EQ(src.cached_descs(), 2u);
  // Cached ones are not asked again; the one pmcd cannot describe is asked
  // for alone and its error fails the call.
  const PmID three[] = {kId, unknown, known};
  EXPECT_EQ(PcpCode(src.LookupDescs(three).status()), kErrPmid);
  EXPECT_EQ(src.cached_descs(), 2u);
  EXPECT_EQ(pmcd.requests(), (std::vector<int>{kPduDescIds, kPduDescReq}));
}

// Replies that a decoder accepts or rejects, but that cannot answer the
// request sent: each drops the connection with PM_ERR_IPC, and the next
// call fails at once without a request reaching pmcd.
struct BadReply {
  const char* what;
  int request;  // the PDU type that gets the bad reply
  std::function<std::vector<uint8_t>()> reply;
};

std::vector<uint8_t> Truncated(std::vector<uint8_t> pdu, size_t keep_body) {
  pdu.resize(kPduHeaderBytes + keep_body);
  StoreBigEndian32(pdu.data(), static_cast<uint32_t>(pdu.size()));
  return pdu;
}

std::vector<BadReply> BadReplies() {
  const Desc d{kId, kTypeU64, kInDom, kSemCounter, Units{}};
  return {
      {"DESCS with fewer descriptors than asked", kPduDescIds,
       [d] { return EncodeDescs(0, std::vector<Desc>{d}); }},
      {"PMNS_IDS with fewer ids than names", kPduPmnsNames,
       [] { return EncodeIdList(kPduPmnsIds, 0, 1, std::vector<PmID>{kId}); }},
      {"DESC cut short", kPduDescReq,
       [d] { return Truncated(EncodeDesc(0, d), 8); }},
      {"INSTANCE whose name runs past the PDU", kPduInstanceReq,
       [] { return Truncated(EncodeInstance(0, InstanceList{kInDom, {Inst{1}}, {"a-long-name"}}), 14); }},
      {"TEXT whose length runs past the PDU", kPduTextReq,
       [] { return Truncated(EncodeText(0, ToPcp(kId), "some help text"), 10); }},
      {"HIGHRES_RESULT cut inside its value sets", kPduHighResFetch,
       [] { return Truncated(EncodeHighResResultPdu(0, OneValue(7)), 20); }},
  };
}

TEST(HostProtocol, InconsistentRepliesDropTheConnection) {
  for (const BadReply& bad : BadReplies()) {
    FakePmcd pmcd([&](const std::vector<uint8_t>& req) -> std::vector<std::vector<uint8_t>> {
      if (TypeOf(req) == kPduProfile) return {};
      if (TypeOf(req) == bad.request) return {bad.reply()};
      return {EncodeError(0, kErrGeneric)};
    });
    std::unique_ptr<HostProtocol> p = Open(pmcd);
    ASSERT_NE(p, nullptr) << bad.what;
    const PmID two[] = {kId, MakePmID(29, 0, 11)};
    const std::string names[] = {"a.b", "c.d"};
    Result r;
    absl::Status first;
    switch (bad.request) {
      case kPduDescIds: first = p->LookupDescs(two).status(); break;
      case kPduPmnsNames: first = p->LookupNames(names).status(); break;
      case kPduDescReq: first = p->LookupDesc(kId).status(); break;
      case kPduInstanceReq: first = p->Instances(kInDom, kInNull, "").status(); break;
      case kPduTextReq: first = p->Text(ToPcp(kId), kTextOneline | kTextPmid).status(); break;
      default: first = p->Fetch(std::span<const PmID>(two, 1), nullptr, &r, nullptr); break;
    }
    EXPECT_EQ(PcpCode(first), kErrIpc) << bad.what;
    EXPECT_TRUE(p->broken()) << bad.what;
    const size_t asked = pmcd.requests().size();
    EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrIpc) << bad.what;
    EXPECT_EQ(pmcd.requests().size(), asked) << bad.what;
  }
}

TEST(HostProtocol, OversizedReplyIsIpcWithoutReadingIt) {
  FakePmcd pmcd([](const std::vector<uint8_t>&) -> std::vector<std::vector<uint8_t>> {
    std::vector<uint8_t> header(kPduHeaderBytes);
    StoreBigEndian32(header.data(), 0x7fffffff);
    StoreBigEndian32(header.data() + 4, kPduDesc);
    return {header};
  });
  std::unique_ptr<HostProtocol> p = Open(pmcd);
  ASSERT_NE(p, nullptr);
  const absl::Time start = absl::Now();
  EXPECT_EQ(PcpCode(p->LookupDesc(kId).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(300));
  EXPECT_TRUE(p->broken());
}

}  // namespace
}  // namespace pmapi
