// Fault tests for host_connection against scripted fake servers (a TCP or
// unix listener in this process): refused connections, servers that close
// mid-PDU, stall, claim huge lengths or send garbage, and handshakes that
// demand what we cannot do. Each must end with PCP's error code within the
// timeout and without unbounded memory.
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "byte_reader.h"
#include "gtest/gtest.h"
#include "host_connection.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr uint16_t kPmcdFeatures = kFeatureLabels | kFeatureHighRes | kFeatureDescs;

void SendAll(int fd, const std::vector<uint8_t>& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

void SendText(int fd, const std::string& s) { SendAll(fd, std::vector<uint8_t>(s.begin(), s.end())); }

// Reads one PDU; empty on end of file or error.
std::vector<uint8_t> RecvPdu(int fd) {
  std::vector<uint8_t> pdu(kPduHeaderBytes);
  auto read_exact = [fd](uint8_t* p, size_t n) {
    while (n > 0) {
      ssize_t got = recv(fd, p, n, 0);
      if (got <= 0) return false;
      p += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  };
  if (!read_exact(pdu.data(), pdu.size())) return {};
  uint32_t len = LoadBigEndian32(pdu.data());
  if (len < kPduHeaderBytes || len > (1u << 20)) return {};
  pdu.resize(len);
  if (!read_exact(pdu.data() + kPduHeaderBytes, len - kPduHeaderBytes)) return {};
  return pdu;
}

// A listener that serves one client with a script, on its own thread.
class FakeServer {
 public:
  using Script = std::function<void(int fd, const std::atomic<bool>& stop)>;

  explicit FakeServer(Script script, bool unix_socket = false) {
    if (unix_socket) {
      path_ = "/tmp/pdu-fault-" + std::to_string(getpid()) + "-" + std::to_string(counter_++);
      unlink(path_.c_str());
      listen_fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
      bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    } else {
      listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
      socklen_t len = sizeof addr;
      getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
      port_ = ntohs(addr.sin_port);
    }
    listen(listen_fd_, 4);
    thread_ = std::thread([this, script] {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 10000) != 1) return;
      int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      script(fd, stop_);
      close(fd);
    });
  }

  ~FakeServer() {
    stop_ = true;
    thread_.join();
    close(listen_fd_);
    if (!path_.empty()) unlink(path_.c_str());
  }

  int port() const { return port_; }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  int listen_fd_ = -1;
  int port_ = 0;
  std::string path_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Keeps the connection open, reading and dropping input, until the client
// closes it or the test ends.
void Stall(int fd, const std::atomic<bool>& stop) {
  while (!stop) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 20) == 1) {
      char buf[256];
      if (recv(fd, buf, sizeof buf, 0) <= 0) return;
    }
  }
}

// Sends pmcd's greeting and returns the client's CREDS (empty if none).
std::vector<uint8_t> Greet(int fd, uint16_t features = kPmcdFeatures) {
  SendAll(fd, EncodeHandshake(0, HandshakeInfo{0, kPduVersion, 1, features}));
  return RecvPdu(fd);
}

ConnectOptions Quick() {
  ConnectOptions o;
  o.connect_timeout = absl::Seconds(2);
  o.request_timeout = absl::Milliseconds(300);
  return o;
}

absl::StatusOr<std::unique_ptr<HostConnection>> ConnectTo(const FakeServer& s,
                                                          const ConnectOptions& o = Quick()) {
  return HostConnection::Connect("127.0.0.1:" + std::to_string(s.port()), o);
}

int CodeOf(const absl::Status& s) { return PcpCode(s); }

TEST(ConnectionFault, RefusedConnection) {
  int port;
  {
    FakeServer s([](int, const std::atomic<bool>&) {});
    port = s.port();
    // Connect once so the server thread ends, then the listener closes.
    (void)ConnectTo(s);
  }
  absl::StatusOr<std::unique_ptr<HostConnection>> c =
      HostConnection::Connect("127.0.0.1:" + std::to_string(port), Quick());
  EXPECT_EQ(CodeOf(c.status()), -ECONNREFUSED);
}

TEST(ConnectionFault, UnknownHostIsUnreachable) {
  EXPECT_EQ(CodeOf(HostConnection::Connect("no-such-host.invalid", Quick()).status()),
            -EHOSTUNREACH);
}

TEST(ConnectionFault, CleanHandshakeSendsPlainCreds) {
  std::vector<uint8_t> creds;
  absl::StatusOr<std::unique_ptr<HostConnection>> c;
  {
    FakeServer s([&creds](int fd, const std::atomic<bool>& stop) {
      creds = Greet(fd);
      Stall(fd, stop);
    });
    c = ConnectTo(s);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ((*c)->features(), kPmcdFeatures);
    c->reset();
  }
  ASSERT_FALSE(creds.empty());
  EXPECT_EQ(*DecodeCreds(creds), 0);
  EXPECT_EQ(DecodePduHeader(creds)->from, static_cast<int32_t>(getpid()));
}

TEST(ConnectionFault, UnadvertisedFeaturesAreNotUsed) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    Greet(fd, kFeatureHighRes);
    Stall(fd, stop);
  });
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ((*c)->features(), kFeatureHighRes);
  EXPECT_FALSE((*c)->has_feature(kFeatureLabels));
}

TEST(ConnectionFault, CloseBeforeHandshakeIsIpc) {
  FakeServer s([](int, const std::atomic<bool>&) {});
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrIpc);
}

TEST(ConnectionFault, ShortErrorHandshakeIsIpc) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    SendAll(fd, EncodeError(0, 0));
    Stall(fd, stop);
  });
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrIpc);
}

TEST(ConnectionFault, WrongVersionIsIpc) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    SendAll(fd, EncodeHandshake(0, HandshakeInfo{0, 3, 1, kPmcdFeatures}));
    Stall(fd, stop);
  });
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrIpc);
}

TEST(ConnectionFault, RefusalCodeIsReturned) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    SendAll(fd, EncodeHandshake(0, HandshakeInfo{kErrPermission, 2, 1, kPmcdFeatures}));
    Stall(fd, stop);
  });
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrPermission);
}

TEST(ConnectionFault, GarbageInsteadOfHandshakeIsIpc) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    SendText(fd, "hello world garbage!!");
    Stall(fd, stop);
  });
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(250));
}

TEST(ConnectionFault, StalledHandshakeTimesOut) {
  FakeServer s(Stall);
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrTimeout);
  const absl::Duration took = absl::Now() - start;
  EXPECT_GE(took, absl::Milliseconds(290));
  EXPECT_LT(took, absl::Milliseconds(1500));
}

TEST(ConnectionFault, CertificateDemandFromNonLocalHost) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    Greet(fd, kPmcdFeatures | kFeatureCertReqd);
    Stall(fd, stop);
  });
  // 127.0.0.1 is not "localhost" by name, so libpcp's rule demands a cert.
  EXPECT_EQ(CodeOf(ConnectTo(s).status()), kErrNeedclientcert);
}

TEST(ConnectionFault, CertificateDemandWaivedForLocalhost) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    Greet(fd, kPmcdFeatures | kFeatureCertReqd);
    Stall(fd, stop);
  });
  ConnectOptions o = Quick();
  o.ports = {s.port()};
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect("localhost", o);
  // localhost may resolve to ::1 first, where nothing listens: the IPv4
  // address is tried next.
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE((*c)->is_local());
}

TEST(ConnectionFault, DemandedTlsWithoutServerSupportSendsNothing) {
  std::vector<uint8_t> creds = {1};
  {
    FakeServer s([&creds](int fd, const std::atomic<bool>&) { creds = Greet(fd); });
    ConnectOptions o = Quick();
    o.demanded = kFeatureSecure;
    EXPECT_EQ(CodeOf(ConnectTo(s, o).status()), -EOPNOTSUPP);
  }
  EXPECT_TRUE(creds.empty());
}

TEST(ConnectionFault, OfferedTlsAgainstAServerThatSpeaksNoTls) {
  std::vector<uint8_t> creds;
  {
    // pmcd's acknowledgement comes, then no TLS: the server closes.
    FakeServer s([&creds](int fd, const std::atomic<bool>&) {
      creds = Greet(fd, kPmcdFeatures | kFeatureSecure | kFeatureSecureAck);
      SendAll(fd, EncodeError(0, 0));
    });
    ConnectOptions o = Quick();
    o.demanded = kFeatureSecure;
    EXPECT_EQ(CodeOf(ConnectTo(s, o).status()), kErrTls);
  }
  EXPECT_EQ(*DecodeCreds(creds), kFeatureSecure | kFeatureSecureAck);
}

TEST(ConnectionFault, SecureAcknowledgementCarriesPmcdsRefusal) {
  FakeServer s([](int fd, const std::atomic<bool>&) {
    Greet(fd, kPmcdFeatures | kFeatureSecure | kFeatureSecureAck);
    SendAll(fd, EncodeError(0, kErrPermission));
  });
  ConnectOptions o = Quick();
  o.demanded = kFeatureSecure;
  EXPECT_EQ(CodeOf(ConnectTo(s, o).status()), kErrPermission);
}

TEST(ConnectionFault, RequiredCredentialsOverTcpGoThroughSasl) {
  std::vector<uint8_t> creds, answer;
  {
    FakeServer s([&](int fd, const std::atomic<bool>& stop) {
      creds = Greet(fd, kPmcdFeatures | kFeatureCredsReqd | kFeatureAuth);
      SendAll(fd, EncodeAttr(0, 0, "PLAIN"));
      answer = RecvPdu(fd);
      Stall(fd, stop);
    });
    absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect(
        "127.0.0.1:" + std::to_string(s.port()) + "?username=someone&password=secret", Quick());
    ASSERT_TRUE(c.ok()) << c.status();
    c->reset();
  }
  EXPECT_EQ(*DecodeCreds(creds), kFeatureCredsReqd | kFeatureAuth);
  absl::StatusOr<AttrRequest> auth = DecodeAttr(answer);
  ASSERT_TRUE(auth.ok());
  // The mechanism, a NUL, then PLAIN's message: authzid NUL user NUL password.
  EXPECT_EQ(auth->value, std::string("PLAIN\0someone\0someone\0secret", 28));
}

TEST(ConnectionFault, AuthenticationRefusedByPmcd) {
  FakeServer s([](int fd, const std::atomic<bool>&) {
    Greet(fd, kPmcdFeatures | kFeatureAuth);
    SendAll(fd, EncodeError(0, kErrPermission));
  });
  EXPECT_EQ(CodeOf(HostConnection::Connect("127.0.0.1:" + std::to_string(s.port()) +
                                               "?username=u&password=p",
                                           Quick())
                       .status()),
            kErrPermission);
}

TEST(ConnectionFault, RequiredCredentialsOverUnixSocketAreSent) {
  std::vector<uint8_t> creds;
  {
    FakeServer s(
        [&creds](int fd, const std::atomic<bool>& stop) {
          creds = Greet(fd, kPmcdFeatures | kFeatureCredsReqd);
          Stall(fd, stop);
        },
        true);
    absl::StatusOr<std::unique_ptr<HostConnection>> c =
        HostConnection::Connect("unix:" + s.path(), Quick());
    ASSERT_TRUE(c.ok()) << c.status();
    c->reset();
  }
  EXPECT_EQ(*DecodeCreds(creds), kFeatureCredsReqd);
}

// A server that completes the handshake, reads one request, then runs
// `reply` on the connection.
FakeServer::Script AfterRequest(std::function<void(int)> reply) {
  return [reply](int fd, const std::atomic<bool>& stop) {
    Greet(fd);
    if (RecvPdu(fd).empty()) return;
    reply(fd);
    Stall(fd, stop);
  };
}

TEST(ConnectionFault, ReplyRoundTrip) {
  FakeServer s(AfterRequest([](int fd) {
    SendAll(fd, EncodeDesc(0, Desc{PmID{42}, 1, InDom{2}, 3, {}}));
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<uint8_t>> r = (*c)->Call(EncodeDescReq(0, PmID{42}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeDescPdu(*r)->pmid, PmID{42});
}

TEST(ConnectionFault, ServerClosingMidPduIsIpc) {
  FakeServer s([](int fd, const std::atomic<bool>&) {
    Greet(fd);
    RecvPdu(fd);
    std::vector<uint8_t> desc = EncodeDesc(0, Desc{});
    desc.resize(20);
    SendAll(fd, desc);  // then close
  });
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
  EXPECT_TRUE((*c)->broken());
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(50));
}

TEST(ConnectionFault, StalledReplyTimesOut) {
  FakeServer s(AfterRequest([](int) {}));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrTimeout);
  const absl::Duration took = absl::Now() - start;
  EXPECT_GE(took, absl::Milliseconds(290));
  EXPECT_LT(took, absl::Milliseconds(1500));
  EXPECT_TRUE((*c)->broken());
}

TEST(ConnectionFault, TricklingReplyObeysTheWholePduDeadline) {
  FakeServer s(AfterRequest([](int fd) {
    std::vector<uint8_t> desc = EncodeDesc(0, Desc{});
    for (uint8_t b : desc) {
      SendAll(fd, {b});
      usleep(40000);  // 32 bytes over 1.3 s: each byte is in time, the PDU is not
    }
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrTimeout);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(1000));
}

TEST(ConnectionFault, HugeLengthClaimIsIpcAtOnce) {
  FakeServer s(AfterRequest([](int fd) { SendAll(fd, {0x7f, 0xff, 0xff, 0xff, 0, 0, 0x70, 5, 0, 0, 0, 0}); }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(250));
}

long MaxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(ConnectionFault, LargeClaimUnderTheCapCostsOnlyWhatArrives) {
  // 60 MiB claimed, 100 bytes sent, then silence: the read times out and
  // memory grows by the bytes received (one read chunk), not by the claim.
  FakeServer s(AfterRequest([](int fd) {
    std::vector<uint8_t> head = {0x03, 0xc0, 0, 0, 0, 0, 0x70, 1, 0, 0, 0, 0};
    head.resize(100, 0);
    SendAll(fd, head);
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  const long before = MaxRssKb();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrTimeout);
  EXPECT_LT(MaxRssKb() - before, 8 * 1024);
}

TEST(ConnectionFault, LengthBelowHeaderIsIpc) {
  FakeServer s(AfterRequest([](int fd) { SendAll(fd, {0, 0, 0, 8, 0, 0, 0x70, 5, 0, 0, 0, 0}); }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
}

TEST(ConnectionFault, GarbageAfterHandshakeIsIpc) {
  FakeServer s(AfterRequest([](int fd) { SendText(fd, "hello world garbage!!"); }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(250));
}

TEST(ConnectionFault, ServerGoneBeforeRequestIsIpc) {
  FakeServer s([](int fd, const std::atomic<bool>&) { Greet(fd); });
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  usleep(50000);
  // The send may succeed into the socket buffer; the reply then sees EOF.
  EXPECT_EQ(CodeOf((*c)->Call(EncodeDescReq(0, PmID{1})).status()), kErrIpc);
}

TEST(ConnectionFault, OversizedRequestIsToobig) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    Greet(fd);
    Stall(fd, stop);
  });
  ConnectOptions o = Quick();
  o.max_request_bytes = 64;
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s, o);
  ASSERT_TRUE(c.ok()) << c.status();
  std::vector<PmID> ids(20, PmID{1});
  EXPECT_EQ(CodeOf((*c)->Send(EncodeFetch(kPduFetch, 0, 0, ids))), kErrToobig);
  EXPECT_FALSE((*c)->broken());
}

TEST(ConnectionFault, TwoPdusInOneSegmentAreReturnedInTurn) {
  FakeServer s(AfterRequest([](int fd) {
    std::vector<uint8_t> both = EncodeDesc(0, Desc{PmID{41}, 1, InDom{2}, 3, {}});
    std::vector<uint8_t> second = EncodeDesc(0, Desc{PmID{42}, 1, InDom{2}, 3, {}});
    both.insert(both.end(), second.begin(), second.end());
    SendAll(fd, both);
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::span<const uint8_t>> first = (*c)->CallView(EncodeDescReq(0, PmID{41}));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(DecodeDescPdu(*first)->pmid, PmID{41});
  // The second PDU came with the first; the server sends nothing more.
  absl::StatusOr<std::vector<uint8_t>> second = (*c)->Receive();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(DecodeDescPdu(*second)->pmid, PmID{42});
  EXPECT_EQ(CodeOf((*c)->Receive().status()), kErrTimeout);
}

TEST(ConnectionFault, HeaderInPiecesWithinTheDeadline) {
  FakeServer s(AfterRequest([](int fd) {
    std::vector<uint8_t> desc = EncodeDesc(0, Desc{PmID{7}, 1, InDom{2}, 3, {}});
    SendAll(fd, std::vector<uint8_t>(desc.begin(), desc.begin() + 5));
    usleep(50000);
    SendAll(fd, std::vector<uint8_t>(desc.begin() + 5, desc.end()));
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<uint8_t>> r = (*c)->Call(EncodeDescReq(0, PmID{7}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeDescPdu(*r)->pmid, PmID{7});
}

TEST(ConnectionFault, LargeReplyInPiecesArrivesWhole) {
  // 300,000 bytes of text in 10,000-byte pieces: several reads, past the
  // first buffer and past one read chunk, all within the deadline.
  std::string text(300000, 'x');
  for (size_t i = 0; i < text.size(); i += 997) text[i] = static_cast<char>('a' + i % 26);
  FakeServer s(AfterRequest([&text](int fd) {
    std::vector<uint8_t> pdu = EncodeText(0, 5, text);
    for (size_t off = 0; off < pdu.size(); off += 10000) {
      const size_t end = std::min(pdu.size(), off + 10000);
      SendAll(fd, std::vector<uint8_t>(pdu.begin() + off, pdu.begin() + end));
      usleep(1000);
    }
  }));
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::span<const uint8_t>> r = (*c)->CallView(EncodeTextReq(0, 5, 0));
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<TextReply> t = DecodeTextPdu(*r);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->text, text);
  EXPECT_FALSE((*c)->broken());
}

TEST(ConnectionFault, NoRequestTimeoutWaitsForTheReply) {
  FakeServer s(AfterRequest([](int fd) {
    usleep(400000);
    SendAll(fd, EncodeDesc(0, Desc{PmID{9}, 1, InDom{2}, 3, {}}));
  }));
  ConnectOptions o = Quick();
  o.request_timeout = absl::InfiniteDuration();  // PMCD_REQUEST_TIMEOUT=0
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s, o);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<uint8_t>> r = (*c)->Call(EncodeDescReq(0, PmID{9}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DecodeDescPdu(*r)->pmid, PmID{9});
}

TEST(ConnectionFault, ServerNotReadingMakesSendTimeOut) {
  FakeServer s([](int fd, const std::atomic<bool>& stop) {
    Greet(fd);
    while (!stop) usleep(10000);  // never reads again
  });
  absl::StatusOr<std::unique_ptr<HostConnection>> c = ConnectTo(s);
  ASSERT_TRUE(c.ok()) << c.status();
  // Requests of 64 KiB until the socket buffers are full: the send that
  // finds no room waits for the request timeout, then the connection goes.
  const std::vector<uint8_t> request =
      EncodeFetch(kPduFetch, 0, 0, std::vector<PmID>(16000, PmID{1}));
  absl::Status sent;
  absl::Duration last;
  for (int i = 0; i < 4000 && sent.ok(); ++i) {
    const absl::Time start = absl::Now();
    sent = (*c)->Send(request);
    last = absl::Now() - start;
  }
  EXPECT_EQ(CodeOf(sent), kErrTimeout);
  EXPECT_GE(last, absl::Milliseconds(290));
  EXPECT_LT(last, absl::Milliseconds(1500));
  EXPECT_TRUE((*c)->broken());
}

}  // namespace
}  // namespace pmapi
