// The pmcd client connection; see host_connection.h.
#include "host_connection.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <syslog.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include "notice.h"
#include "pdu_codec.h"
#include "pdu_counts.h"
#include "pmapi/errors.h"
#include "sasl_auth.h"
#include "socket_wait.h"
#include "tls_client.h"

namespace pmapi {
namespace {

// Largest piece of a PDU read (and allocated) at once.
constexpr size_t kReadChunk = 65536;
// The receive buffer's first size: room for most replies in one read.
constexpr size_t kMinBuffer = 16384;
// A receive buffer grown above this by a large reply is given back before
// the next receive.
constexpr size_t kKeepBytes = 1 << 20;

// Connection features this client can carry out. All others that are
// demanded make the connection fail.
constexpr uint16_t kUsableFeatures = kFeatureHighRes | kFeatureLabels | kFeatureDescs;

absl::Status Errno(int e) { return PcpError(-e); }

bool WouldBlock(int e) { return e == EAGAIN || e == EWOULDBLOCK; }

int NewSocket(int family) {
  return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

// Connects a non-blocking socket to one address within the deadline.
// Returns 0 or -errno.
int ConnectAddress(int fd, const sockaddr* addr, socklen_t len, int64_t deadline) {
  if (connect(fd, addr, len) == 0) return 0;
  if (errno != EINPROGRESS && errno != EAGAIN) return -errno;
  int w = WaitFd(fd, POLLOUT, deadline);
  if (w == 0) return -ETIMEDOUT;
  if (w < 0) return w;
  int err = 0;
  socklen_t errlen = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen) != 0) return -errno;
  return -err;
}

// A unix socket whose listener's backlog is full refuses a non-blocking
// connect (EAGAIN) instead of completing it later, so it is tried again
// blocking, which sleeps until the listener makes room, bounded by the
// deadline (SO_SNDTIMEO bounds a unix connect). Returns 0 or -errno.
int ConnectUnixWaiting(int fd, const sockaddr_un& addr, int64_t deadline) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return -errno;
  int rc = -ETIMEDOUT;
  while (true) {
    const int64_t left = deadline - MonotonicNanos();
    if (left <= 0) break;
    timeval tv{static_cast<time_t>(left / 1000000000), static_cast<suseconds_t>(left % 1000000000 / 1000)};
    if (tv.tv_sec == 0 && tv.tv_usec == 0) tv.tv_usec = 1;
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) {
      rc = 0;
      break;
    }
    if (errno != EINTR && errno != EAGAIN) {
      rc = -errno;
      break;
    }
  }
  const timeval none{0, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof none);
  if (fcntl(fd, F_SETFL, flags) != 0 && rc == 0) rc = -errno;
  return rc;
}

absl::StatusOr<int> ConnectUnix(const std::string& path, absl::Duration timeout) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path) return Errno(ENAMETOOLONG);
  std::memcpy(addr.sun_path, path.data(), path.size());
  int fd = NewSocket(AF_UNIX);
  if (fd < 0) return Errno(errno);
  int rc = 0;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    rc = errno == EAGAIN ? ConnectUnixWaiting(fd, addr, DeadlineAfter(timeout)) : -errno;
  }
  if (rc != 0) {
    close(fd);
    return PcpError(rc);
  }
  return fd;
}

// Tries every address of host:port in turn. An unknown host gives
// -EHOSTUNREACH, as libpcp reports it.
absl::StatusOr<int> ConnectTcp(const std::string& host, int port, absl::Duration timeout) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  if (getaddrinfo(host.c_str(), service.c_str(), &hints, &list) != 0 || list == nullptr) {
    return Errno(EHOSTUNREACH);
  }
  int last = -ECONNREFUSED;
  int fd = -1;
  for (addrinfo* a = list; a != nullptr; a = a->ai_next) {
    fd = NewSocket(a->ai_family);
    if (fd < 0) {
      last = -errno;
      continue;
    }
    last = ConnectAddress(fd, a->ai_addr, a->ai_addrlen, DeadlineAfter(timeout));
    if (last == 0) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(list);
  if (fd < 0) return PcpError(last);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// Returns the CVERSION flags to send for the features pmcd advertised and
// the caller demands, following libpcp's rules, or the error that ends the
// connection. A "relaxed" TLS request takes TLS when pmcd offers it, and
// goes on without it otherwise.
absl::StatusOr<uint16_t> CredsFlags(uint16_t advertised, uint16_t demanded, bool relaxed,
                                    bool local) {
  uint16_t flags = 0;
  if (advertised & kFeatureCredsReqd) flags |= kFeatureCredsReqd;
  if ((advertised & kFeatureCertReqd) && !local) {
    if (!(demanded & kFeatureSecure)) return PcpError(kErrNeedclientcert);
    flags |= kFeatureCertReqd;
  }
  if ((demanded & kFeatureSecure) || relaxed) {
    if (advertised & kFeatureSecure) {
      flags |= kFeatureSecure | (advertised & kFeatureSecureAck);
    } else if (demanded & kFeatureSecure) {
      return Errno(EOPNOTSUPP);
    }
  }
  // Compression is no longer carried out by PCP's clients either.
  if (demanded & kFeatureCompress) return Errno(EOPNOTSUPP);
  for (uint16_t f : {kFeatureAuth, kFeatureContainer}) {
    if (!(demanded & f)) continue;
    if (!(advertised & f)) return Errno(EOPNOTSUPP);
    flags |= f;
  }
  return flags;
}

// The name TLS gives the server (SNI): the host, or this machine's name
// for a socket path or a "local" name, as libpcp does.
std::string TlsServerName(const std::string& peer) {
  if (!peer.empty() && peer[0] != '/' && peer.rfind("local", 0) != 0) return peer;
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// libpcp's warning for a proxy that does not greet as pmproxy: the line as
// far as it was read (up to its terminator, or 73 bytes).
void NoteBadGreeting(std::span<const uint8_t> got) {
  std::string line(got.begin(), got.end());
  line = line.substr(0, std::min(line.find_first_of("\r\n"), size_t{73}));
  line = line.substr(0, line.find('\0'));
  Notice(LOG_WARNING, "__pmConnectPMCD: bad version string from pmproxy: \"" + line + "\"");
}

// PCP's rule for a local connection (client certificates are waived).
bool IsLocalName(const std::string& host) { return host.find("localhost") != std::string::npos; }

}  // namespace

HostConnection::HostConnection(int fd, const ConnectOptions& options, const HostSpec& spec,
                               std::string peer, bool is_unix)
    : fd_(fd),
      options_(options),
      attrs_(spec.attrs),
      tls_relaxed_(spec.tls_relaxed),
      peer_(std::move(peer)),
      is_local_(is_unix || spec.kind != HostSpec::Kind::kTcp || IsLocalName(peer_)),
      is_unix_(is_unix) {}

HostConnection::~HostConnection() { Break(); }

void HostConnection::Break() {
  tls_.reset();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  in_ = std::vector<uint8_t>();
  in_begin_ = in_end_ = 0;
}

absl::StatusOr<std::unique_ptr<HostConnection>> HostConnection::Connect(
    std::string_view host_spec, const ConnectOptions& options) {
  absl::StatusOr<HostSpec> spec = ParseHostSpec(host_spec, options);
  if (!spec.ok()) return spec.status();
  ConnectOptions opts = options;
  opts.demanded |= spec->demanded;
  if (spec->via_proxy) return ConnectThroughProxy(*spec, opts);
  absl::Status last = Errno(ECONNREFUSED);
  if (spec->kind != HostSpec::Kind::kTcp) {
    absl::StatusOr<int> fd = ConnectUnix(spec->socket_path, opts.connect_timeout);
    if (fd.ok()) {
      std::unique_ptr<HostConnection> c(new HostConnection(*fd, opts, *spec, spec->socket_path, true));
      last = c->Handshake();
      if (last.ok()) return c;
    } else {
      last = fd.status();
    }
    if (spec->kind == HostSpec::Kind::kUnix) return last;
    // "local:" falls back to TCP on the loopback host.
    spec->host = "localhost";
  }
  for (int port : spec->ports) {
    absl::StatusOr<int> fd = ConnectTcp(spec->host, port, opts.connect_timeout);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    std::unique_ptr<HostConnection> c(new HostConnection(*fd, opts, *spec, spec->host, false));
    last = c->Handshake();
    if (last.ok()) return c;
  }
  return last;
}

absl::StatusOr<std::unique_ptr<HostConnection>> HostConnection::Adopt(
    int fd, std::string_view host_spec, const ConnectOptions& options) {
  absl::StatusOr<HostSpec> spec = ParseHostSpec(host_spec, options);
  if (!spec.ok()) {
    close(fd);
    return spec.status();
  }
  ConnectOptions opts = options;
  opts.demanded |= spec->demanded;
  const bool unix_socket = spec->kind != HostSpec::Kind::kTcp;
  const std::string& name =
      unix_socket ? spec->socket_path : spec->via_proxy ? spec->proxy_host : spec->host;
  std::unique_ptr<HostConnection> c(new HostConnection(fd, opts, *spec, name, unix_socket));
  absl::Status s = absl::OkStatus();
  if (spec->via_proxy && !unix_socket) s = c->GreetProxy(spec->host, spec->ports[0]);
  if (s.ok()) s = c->Handshake();
  if (!s.ok()) return s;
  return c;
}

absl::StatusOr<std::unique_ptr<HostConnection>> HostConnection::ConnectThroughProxy(
    const HostSpec& spec, const ConnectOptions& opts) {
  // libpcp tries no port at all for a socket spec, and fails with -1.
  if (spec.kind != HostSpec::Kind::kTcp) return Errno(EPERM);
  absl::Status last = Errno(EPERM);
  for (int port : spec.ports) {
    absl::StatusOr<int> fd = ConnectTcp(spec.proxy_host, spec.proxy_port, opts.connect_timeout);
    if (!fd.ok()) return fd.status();
    // The proxy's name stands for the peer (locality, TLS server name).
    std::unique_ptr<HostConnection> c(new HostConnection(*fd, opts, spec, spec.proxy_host, false));
    last = c->GreetProxy(spec.host, port);
    if (last.ok()) last = c->Handshake();
    if (last.ok()) return c;
  }
  return last;
}

absl::Status HostConnection::GreetProxy(const std::string& host, int port) {
  constexpr std::string_view kHello = "pmproxy-client 1\n";
  absl::Status s = SendBytes({reinterpret_cast<const uint8_t*>(kHello.data()), kHello.size()});
  if (!s.ok()) return PcpError(kErrIpc);
  const int64_t deadline = DeadlineAfter(options_.request_timeout);
  while (true) {
    absl::StatusOr<size_t> line = ProxyGreetingLength({in_.data(), in_end_});
    if (!line.ok()) {
      NoteBadGreeting({in_.data(), in_end_});
      return line.status();
    }
    if (*line > 0) {
      in_begin_ = *line;  // what follows is the start of pmcd's handshake
      break;
    }
    s = Fill(in_end_ + 1, deadline);
    if (!s.ok()) {
      NoteBadGreeting({in_.data(), in_end_});
      return PcpCode(s) == kErrTimeout ? s : PcpError(kErrIpc);
    }
  }
  const std::string target = host + " " + std::to_string(port) + "\n";
  s = SendBytes({reinterpret_cast<const uint8_t*>(target.data()), target.size()});
  return s.ok() ? s : PcpError(kErrIpc);
}

absl::Status HostConnection::Handshake() {
  absl::StatusOr<std::span<const uint8_t>> first = ReceiveView();
  if (!first.ok()) {
    return PcpCode(first.status()) == kErrTimeout ? first.status() : PcpError(kErrIpc);
  }
  absl::StatusOr<HandshakeInfo> info = DecodeHandshake(*first);
  if (!info.ok()) return info.status();
  if (info->code < 0) return PcpError(info->code);
  if (info->version != kPduVersion) return PcpError(kErrIpc);
  server_features_ = info->features;
  absl::StatusOr<uint16_t> flags =
      CredsFlags(info->features, options_.demanded, tls_relaxed_, is_local_);
  if (!flags.ok()) return flags.status();
  absl::Status sent = Send(EncodeCreds(static_cast<int32_t>(getpid()), *flags));
  if (!sent.ok()) return sent;
  if (*flags & kFeatureSecure) {
    sent = StartTls(*flags & kFeatureSecureAck);
    if (!sent.ok()) return sent;
  }
  // Over a unix socket pmcd takes the credentials it requires from the
  // socket itself; elsewhere they are authenticated.
  const bool creds_by_sasl = (*flags & kFeatureCredsReqd) && !is_unix_;
  if ((*flags & kFeatureAuth) || creds_by_sasl) {
    sent = Authenticate();
    if (!sent.ok()) return sent;
  }
  if (*flags & kFeatureContainer) {
    sent = SendContainer();
    if (!sent.ok()) return sent;
  }
  features_ = info->features & kUsableFeatures;
  return absl::OkStatus();
}

absl::Status HostConnection::StartTls(bool ack) {
  if (ack) {
    // pmcd says whether it can go on securely before the TLS handshake.
    absl::StatusOr<std::span<const uint8_t>> reply = ReceiveView();
    if (!reply.ok()) return reply.status();
    absl::StatusOr<PduHeader> h = DecodePduHeader(*reply);
    if (!h.ok() || h->type != kPduError) return PcpError(kErrIpc);
    absl::StatusOr<int> code = DecodeError(*reply);
    if (!code.ok()) return code.status();
    if (*code < 0) return PcpError(*code);
  }
  // Plain bytes after the acknowledgement would be lost to TLS.
  if (in_begin_ != in_end_) return PcpError(kErrIpc);
  absl::StatusOr<std::unique_ptr<TlsSession>> tls =
      TlsSession::Start(fd_, TlsServerName(peer_), DeadlineAfter(options_.request_timeout));
  if (!tls.ok()) return tls.status();
  tls_ = std::move(*tls);
  return absl::OkStatus();
}

absl::StatusOr<std::string> HostConnection::ReceiveAuth() {
  absl::StatusOr<std::span<const uint8_t>> pdu = ReceiveView();
  if (!pdu.ok()) return PcpCode(pdu.status()) == kErrTimeout ? pdu.status() : PcpError(kErrIpc);
  absl::StatusOr<PduHeader> h = DecodePduHeader(*pdu);
  if (h.ok() && h->type == kPduError) {
    absl::StatusOr<int> code = DecodeError(*pdu);
    if (!code.ok()) return code.status();
    return PcpError(*code < 0 ? *code : kErrIpc);
  }
  if (!h.ok() || h->type != kPduAttr) return PcpError(kErrIpc);
  absl::StatusOr<AttrRequest> auth = DecodeAttr(*pdu);
  if (!auth.ok() || auth->value.size() >= kMaxAuthBytes) return PcpError(kErrIpc);
  return std::move(auth->value);
}

absl::Status HostConnection::SendAuth(const std::string& payload) {
  if (payload.size() >= kMaxAuthBytes) return PcpError(kErrIpc);
  return Send(EncodeAttr(0, 0, payload));
}

absl::Status HostConnection::Authenticate() {
  absl::StatusOr<std::unique_ptr<SaslExchange>> sasl =
      SaslExchange::Begin(TlsServerName(peer_), &attrs_, tls_ != nullptr ? tls_->cipher_bits() : 0);
  if (!sasl.ok()) return sasl.status();
  // pmcd first offers its mechanisms.
  absl::StatusOr<std::string> offered = ReceiveAuth();
  if (!offered.ok()) return offered.status();
  absl::StatusOr<std::string> message = (*sasl)->Start(*offered);
  if (!message.ok()) return message.status();
  absl::Status s = SendAuth(*message);
  while (s.ok() && (*sasl)->needs_more()) {
    absl::StatusOr<std::string> challenge = ReceiveAuth();
    if (!challenge.ok()) return challenge.status();
    message = (*sasl)->Step(*challenge);
    if (!message.ok()) return message.status();
    s = SendAuth(*message);
  }
  return s;
}

absl::Status HostConnection::SendContainer() {
  // "container" without a value: libpcp has no name to send.
  if (!attrs_.container.has_value()) return Errno(ESRCH);
  const std::string& name = *attrs_.container;
  if (name.size() >= kMaxAttrBytes) return PcpError(kErrIpc);
  return Send(EncodeAttr(0, kAttrContainer, name));
}

absl::StatusOr<size_t> ProxyGreetingLength(std::span<const uint8_t> bytes) {
  // libpcp reads at most MAXHOSTNAMELEN + 10 bytes looking for the end.
  constexpr size_t kMaxLine = 74;
  constexpr std::string_view kServer = "pmproxy-server 1";
  const size_t n = std::min(bytes.size(), kMaxLine);
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] != '\n' && bytes[i] != '\r') continue;
    const std::string_view line(reinterpret_cast<const char*>(bytes.data()), i);
    if (line != kServer) return PcpError(kErrIpc);
    return i + 1;
  }
  if (bytes.size() >= kMaxLine) return PcpError(kErrIpc);
  return size_t{0};
}

void IgnoreSigpipeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    void (*previous)(int) = std::signal(SIGPIPE, SIG_IGN);
    if (previous != SIG_DFL) std::signal(SIGPIPE, previous);
  });
}

absl::Status HostConnection::Send(std::span<const uint8_t> pdu) {
  if (fd_ < 0) return PcpError(kErrIpc);
  if (pdu.size() > options_.max_request_bytes) return PcpError(kErrToobig);
  absl::Status s = SendBytes(pdu);
  if (!s.ok()) return s;
  if (absl::StatusOr<PduHeader> h = DecodePduHeader(pdu); h.ok()) CountPdu(h->type, true);
  return absl::OkStatus();
}

absl::Status HostConnection::SendBytes(std::span<const uint8_t> pdu) {
  if (fd_ < 0) return PcpError(kErrIpc);
  IgnoreSigpipeOnce();
  if (tls_ != nullptr) {
    absl::Status s = tls_->Write(pdu.data(), pdu.size(), DeadlineAfter(options_.request_timeout));
    if (!s.ok()) Break();
    return PcpCode(s) == kErrTimeout || s.ok() ? s : PcpError(kErrIpc);
  }
  // A request normally fits in the socket buffer: one send(). The deadline
  // is set (and poll() used) only when the socket cannot take it all.
  int64_t deadline = 0;
  size_t off = 0;
  while (off < pdu.size()) {
    ssize_t n = send(fd_, pdu.data() + off, pdu.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      off += static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    int w = -errno;
    if (WouldBlock(errno)) {
      if (deadline == 0) deadline = DeadlineAfter(options_.request_timeout);
      w = WaitFd(fd_, POLLOUT, deadline);
      if (w > 0) continue;
    }
    Break();
    return PcpError(w == 0 ? kErrTimeout : kErrIpc);
  }
  return absl::OkStatus();
}

absl::Status HostConnection::Fill(size_t want, int64_t deadline) {
  while (in_end_ < want) {
    if (in_.size() < want) {
      // Room for the whole PDU if it is small, else one more chunk.
      const size_t grow = std::min(std::max(want, kMinBuffer), in_end_ + kReadChunk);
      if (grow > in_.size()) in_.resize(grow);
    }
    if (tls_ != nullptr) {
      absl::StatusOr<size_t> got = tls_->Read(in_.data() + in_end_, in_.size() - in_end_, deadline);
      if (!got.ok()) return PcpCode(got.status()) == kErrTimeout ? got.status() : PcpError(kErrIpc);
      if (*got == 0) return PcpError(kErrIpc);
      in_end_ += *got;
      continue;
    }
    // poll() first: a recv() asleep on the socket would also be woken when
    // pmcd takes the request off it (write space), costing a second switch.
    // With no time to wait (kNow), the socket is read at once.
    if (deadline != kNow) {
      int w = WaitFd(fd_, POLLIN, deadline);
      if (w == 0) return PcpError(kErrTimeout);
      if (w < 0) return PcpError(kErrIpc);
    }
    ssize_t got = recv(fd_, in_.data() + in_end_, in_.size() - in_end_, MSG_DONTWAIT);
    if (got == 0) return PcpError(kErrIpc);
    if (got < 0) {
      if (WouldBlock(errno) && deadline == kNow) return PcpError(kErrTimeout);
      if (errno == EINTR || WouldBlock(errno)) continue;
      return PcpError(kErrIpc);
    }
    in_end_ += static_cast<size_t>(got);
  }
  return absl::OkStatus();
}

void HostConnection::Compact() {
  // Drop the PDU returned last time: what follows it moves to the front.
  if (in_begin_ == in_end_) {
    in_begin_ = in_end_ = 0;
    if (in_.size() > kKeepBytes) in_ = std::vector<uint8_t>();
  } else if (in_begin_ > 0) {
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
  }
}

absl::StatusOr<size_t> HostConnection::FillPdu(int64_t deadline) {
  absl::Status s = Fill(kPduHeaderBytes, deadline);
  if (!s.ok()) return s;
  absl::StatusOr<PduHeader> h = DecodePduHeader({in_.data(), kPduHeaderBytes});
  if (!h.ok() || h->len > options_.max_pdu_bytes) return PcpError(kErrIpc);
  s = Fill(h->len, deadline);
  if (!s.ok()) return s;
  return static_cast<size_t>(h->len);
}

std::span<const uint8_t> HostConnection::TakePdu(size_t len) {
  in_begin_ = len;
  if (absl::StatusOr<PduHeader> h = DecodePduHeader({in_.data(), len}); h.ok()) CountPdu(h->type, false);
  return std::span<const uint8_t>(in_.data(), len);
}

absl::StatusOr<std::span<const uint8_t>> HostConnection::ReceiveView() {
  if (fd_ < 0) return PcpError(kErrIpc);
  Compact();
  absl::StatusOr<size_t> len = FillPdu(DeadlineAfter(options_.request_timeout));
  if (!len.ok()) {
    // The stream cannot be resynchronised after a partial or late PDU.
    Break();
    return len.status();
  }
  return TakePdu(*len);
}

absl::StatusOr<std::span<const uint8_t>> HostConnection::ReceiveReady() {
  if (fd_ < 0) return PcpError(kErrIpc);
  Compact();
  absl::StatusOr<size_t> len = FillPdu(kNow);
  if (!len.ok()) {
    if (PcpCode(len.status()) == kErrTimeout) return std::span<const uint8_t>();
    Break();
    return len.status();
  }
  return TakePdu(*len);
}

absl::StatusOr<std::vector<uint8_t>> HostConnection::Receive() {
  absl::StatusOr<std::span<const uint8_t>> pdu = ReceiveView();
  if (!pdu.ok()) return pdu.status();
  return std::vector<uint8_t>(pdu->begin(), pdu->end());
}

absl::StatusOr<std::vector<uint8_t>> HostConnection::Call(std::span<const uint8_t> request) {
  absl::Status s = Send(request);
  if (!s.ok()) return s;
  return Receive();
}

absl::StatusOr<std::span<const uint8_t>> HostConnection::CallView(
    std::span<const uint8_t> request) {
  absl::Status s = Send(request);
  if (!s.ok()) return s;
  return ReceiveView();
}

}  // namespace pmapi
