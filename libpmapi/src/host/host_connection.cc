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

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pdu_codec.h"
#include "pdu_counts.h"
#include "pmapi/errors.h"

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
constexpr uint16_t kSecurityFeatures =
    kFeatureSecure | kFeatureCompress | kFeatureAuth | kFeatureContainer | kFeatureCertReqd;

absl::Status Errno(int e) { return PcpError(-e); }

// Deadlines are nanoseconds of CLOCK_MONOTONIC; kNoDeadline means none.
constexpr int64_t kNoDeadline = INT64_MAX;

int64_t MonotonicNanos() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

int64_t DeadlineAfter(absl::Duration d) {
  if (d == absl::InfiniteDuration()) return kNoDeadline;
  const int64_t ns = absl::ToInt64Nanoseconds(d);
  const int64_t now = MonotonicNanos();
  return ns >= kNoDeadline - now ? kNoDeadline : now + ns;
}

// Returns the milliseconds left until `deadline` for poll(): -1 for no
// deadline, else at least 0, rounded up.
int PollMillis(int64_t deadline) {
  if (deadline == kNoDeadline) return -1;
  const int64_t left = deadline - MonotonicNanos();
  if (left <= 0) return 0;
  return static_cast<int>(std::min<int64_t>((left + 999999) / 1000000, 1 << 30));
}

// Waits until fd is ready for `events`. Returns 1 when ready, 0 when the
// deadline passes, -errno on failure.
int WaitFd(int fd, short events, int64_t deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    int n = poll(&p, 1, PollMillis(deadline));
    if (n > 0) return 1;
    if (n == 0) {
      if (MonotonicNanos() >= deadline) return 0;
      continue;  // poll's rounding woke us early
    }
    if (errno != EINTR) return -errno;
  }
}

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

absl::StatusOr<int> ConnectUnix(const std::string& path, absl::Duration timeout) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path) return Errno(ENAMETOOLONG);
  std::memcpy(addr.sun_path, path.data(), path.size());
  int fd = NewSocket(AF_UNIX);
  if (fd < 0) return Errno(errno);
  int rc = ConnectAddress(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr,
                          DeadlineAfter(timeout));
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
// connection.
absl::StatusOr<uint16_t> CredsFlags(uint16_t advertised, uint16_t demanded, bool local) {
  uint16_t flags = 0;
  if (advertised & kFeatureCredsReqd) flags |= kFeatureCredsReqd;
  if ((advertised & kFeatureCertReqd) && !local) {
    if (!(demanded & kFeatureSecure)) return PcpError(kErrNeedclientcert);
    flags |= kFeatureCertReqd;
  }
  for (uint16_t f : {kFeatureSecure, kFeatureCompress, kFeatureAuth, kFeatureContainer}) {
    if (!(demanded & f)) continue;
    if (!(advertised & f)) return Errno(EOPNOTSUPP);
    flags |= f;
  }
  return flags;
}

std::vector<int> ParsePorts(std::string_view list) {
  std::vector<int> ports;
  for (absl::string_view part : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    int p = 0;
    if (absl::SimpleAtoi(part, &p) && p > 0 && p < 65536) ports.push_back(p);
  }
  return ports;
}

// Reads a timeout in (fractional) seconds; 0 means no limit.
void ReadTimeout(const char* name, absl::Duration* out) {
  const char* v = std::getenv(name);
  if (v == nullptr) return;
  char* end = nullptr;
  double secs = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(secs >= 0) || !std::isfinite(secs)) return;
  *out = secs == 0 ? absl::InfiniteDuration() : absl::Seconds(secs);
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

absl::Status BadSpec(std::string_view spec) {
  return PcpError(kErrGeneric, "bad host specification \"" + std::string(spec) + "\"");
}

}  // namespace

ConnectOptions ConnectOptions::FromEnvironment() {
  ConnectOptions o;
  ReadTimeout("PMCD_CONNECT_TIMEOUT", &o.connect_timeout);
  ReadTimeout("PMCD_REQUEST_TIMEOUT", &o.request_timeout);
  if (const char* v = std::getenv("PMCD_PORT")) {
    std::vector<int> ports = ParsePorts(v);
    if (!ports.empty()) o.ports = ports;
  }
  if (const char* v = std::getenv("PMCD_SOCKET"); v != nullptr && *v != '\0') {
    o.unix_socket = v;
  } else if (const char* d = std::getenv("PCP_RUN_DIR"); d != nullptr && *d != '\0') {
    o.unix_socket = std::string(d) + "/pmcd.socket";
  }
  if (const char* v = std::getenv("PMCD_HOST"); v != nullptr && *v != '\0') o.default_host = v;
  if (const char* v = std::getenv("PCP_SECURE_SOCKETS")) o.secure_sockets = v;
  return o;
}

namespace {

// The feature an attribute name demands, 0 for none (libpcp's names).
uint16_t AttributeDemand(std::string_view name) {
  for (std::string_view n : {"userauth", "authorise", "authorize", "user", "username", "realm",
                             "authmeth", "method", "pass", "password"}) {
    if (name == n) return kFeatureAuth;
  }
  if (name == "compress") return kFeatureCompress;
  if (name == "container") return kFeatureContainer;
  return 0;
}

// Reads the attributes after '?' into *out; `secure` becomes the value of
// a "secure" attribute when there is one.
void ReadAttributes(std::string_view attrs, HostSpec* out, std::optional<std::string>* secure) {
  for (absl::string_view item : absl::StrSplit(absl::string_view(attrs.data(), attrs.size()), '&')) {
    const size_t eq = item.find('=');
    const std::string_view name(item.data(), eq == absl::string_view::npos ? item.size() : eq);
    if (name == "secure") {
      *secure = eq == absl::string_view::npos ? "" : std::string(item.substr(eq + 1));
    }
    out->demanded |= AttributeDemand(name);
  }
}

bool DemandsTls(const std::string& value) {
  return value.empty() || value == "1" || value == "enforce";
}

}  // namespace

absl::StatusOr<HostSpec> ParseHostSpec(std::string_view spec, const ConnectOptions& options) {
  const std::string_view original = spec;
  HostSpec out;
  if (spec.empty()) spec = options.default_host;
  // The TLS demand: "enforce" for pcps:// (a secure= attribute may change
  // it), else $PCP_SECURE_SOCKETS.
  std::optional<std::string> secure = options.secure_sockets;
  const bool pcps = StartsWith(spec, "pcps://");
  if (pcps) {
    secure = "enforce";
    spec.remove_prefix(7);
  } else if (StartsWith(spec, "pcp://")) {
    spec.remove_prefix(6);
  }
  if (secure.has_value() && DemandsTls(*secure)) out.demanded |= kFeatureSecure;
  for (auto [prefix, kind] : {std::pair{std::string_view("unix:"), HostSpec::Kind::kUnix},
                              std::pair{std::string_view("local:"), HostSpec::Kind::kLocal}}) {
    if (!StartsWith(spec, prefix)) continue;
    out.kind = kind;
    spec.remove_prefix(prefix.size());
    out.socket_path = spec.empty() ? options.unix_socket : std::string(spec);
    out.ports = options.ports;
    return out;
  }
  if (size_t end = spec.find_first_of("?/"); end != std::string_view::npos) {
    if (spec[end] == '?') {
      std::string_view attrs = spec.substr(end + 1);
      std::optional<std::string> secure_attr;
      ReadAttributes(attrs.substr(0, attrs.find('/')), &out, &secure_attr);
      if (pcps && secure_attr.has_value() && !DemandsTls(*secure_attr)) {
        out.demanded &= static_cast<uint16_t>(~kFeatureSecure);
      }
    }
    spec = spec.substr(0, end);
  }
  if (spec.find('@') != std::string_view::npos) return PcpError(kErrNyi, "pmproxy connections");
  std::string_view ports;
  if (StartsWith(spec, "[")) {
    size_t close = spec.find(']');
    if (close == std::string_view::npos) return BadSpec(original);
    out.host = std::string(spec.substr(1, close - 1));
    std::string_view rest = spec.substr(close + 1);
    if (!rest.empty() && (rest[0] != ':' || rest.size() == 1)) return BadSpec(original);
    if (!rest.empty()) ports = rest.substr(1);
  } else if (std::count(spec.begin(), spec.end(), ':') >= 2) {
    out.host = std::string(spec);  // a bare IPv6 literal has no port
  } else if (size_t colon = spec.find(':'); colon != std::string_view::npos) {
    out.host = std::string(spec.substr(0, colon));
    ports = spec.substr(colon + 1);
    if (ports.empty()) return BadSpec(original);
  } else {
    out.host = std::string(spec);
  }
  if (out.host.empty()) return BadSpec(original);
  if (!ports.empty()) {
    out.ports = ParsePorts(ports);
    if (out.ports.size() != static_cast<size_t>(std::count(ports.begin(), ports.end(), ',') + 1)) {
      return BadSpec(original);
    }
  } else {
    out.ports = options.ports;
  }
  return out;
}

HostConnection::HostConnection(int fd, const ConnectOptions& options, bool is_local,
                               bool is_unix)
    : fd_(fd), options_(options), is_local_(is_local), is_unix_(is_unix) {}

HostConnection::~HostConnection() { Break(); }

void HostConnection::Break() {
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
  absl::Status last = Errno(ECONNREFUSED);
  if (spec->kind != HostSpec::Kind::kTcp) {
    absl::StatusOr<int> fd = ConnectUnix(spec->socket_path, opts.connect_timeout);
    if (fd.ok()) {
      std::unique_ptr<HostConnection> c(new HostConnection(*fd, opts, true, true));
      last = c->Handshake();
      if (last.ok()) return c;
    } else {
      last = fd.status();
    }
    if (spec->kind == HostSpec::Kind::kUnix) return last;
    // "local:" falls back to TCP on the loopback host.
    spec->host = "localhost";
  }
  const bool local = spec->host.find("localhost") != std::string::npos;
  for (int port : spec->ports) {
    absl::StatusOr<int> fd = ConnectTcp(spec->host, port, opts.connect_timeout);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    std::unique_ptr<HostConnection> c(new HostConnection(*fd, opts, local, false));
    last = c->Handshake();
    if (last.ok()) return c;
  }
  return last;
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
  absl::StatusOr<uint16_t> flags = CredsFlags(info->features, options_.demanded, is_local_);
  if (!flags.ok()) return flags.status();
  // TLS, compression, SASL and containers are not implemented: fail rather
  // than carry on without them. Over a unix socket pmcd takes the required
  // credentials from the socket itself; elsewhere they need SASL.
  if ((*flags & kSecurityFeatures) || ((*flags & kFeatureCredsReqd) && !is_unix_)) {
    return Errno(EOPNOTSUPP);
  }
  absl::Status sent = Send(EncodeCreds(static_cast<int32_t>(getpid()), *flags));
  if (!sent.ok()) return sent;
  features_ = info->features & kUsableFeatures;
  return absl::OkStatus();
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
  IgnoreSigpipeOnce();
  if (pdu.size() > options_.max_request_bytes) return PcpError(kErrToobig);
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
  if (absl::StatusOr<PduHeader> h = DecodePduHeader(pdu); h.ok()) CountPdu(h->type, true);
  return absl::OkStatus();
}

absl::Status HostConnection::Fill(size_t want, int64_t deadline) {
  while (in_end_ < want) {
    if (in_.size() < want) {
      // Room for the whole PDU if it is small, else one more chunk.
      const size_t grow = std::min(std::max(want, kMinBuffer), in_end_ + kReadChunk);
      if (grow > in_.size()) in_.resize(grow);
    }
    // poll() first: a recv() asleep on the socket would also be woken when
    // pmcd takes the request off it (write space), costing a second switch.
    int w = WaitFd(fd_, POLLIN, deadline);
    if (w == 0) return PcpError(kErrTimeout);
    if (w < 0) return PcpError(kErrIpc);
    ssize_t got = recv(fd_, in_.data() + in_end_, in_.size() - in_end_, MSG_DONTWAIT);
    if (got == 0) return PcpError(kErrIpc);
    if (got < 0) {
      if (errno == EINTR || WouldBlock(errno)) continue;
      return PcpError(kErrIpc);
    }
    in_end_ += static_cast<size_t>(got);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::span<const uint8_t>> HostConnection::ReceiveView() {
  if (fd_ < 0) return PcpError(kErrIpc);
  // Drop the PDU returned last time: what follows it moves to the front.
  if (in_begin_ == in_end_) {
    in_begin_ = in_end_ = 0;
    if (in_.size() > kKeepBytes) in_ = std::vector<uint8_t>();
  } else if (in_begin_ > 0) {
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
  }
  const int64_t deadline = DeadlineAfter(options_.request_timeout);
  size_t len = 0;
  absl::Status s = Fill(kPduHeaderBytes, deadline);
  if (s.ok()) {
    absl::StatusOr<PduHeader> h = DecodePduHeader({in_.data(), kPduHeaderBytes});
    if (!h.ok() || h->len > options_.max_pdu_bytes) {
      s = PcpError(kErrIpc);
    } else {
      len = h->len;
      s = Fill(len, deadline);
    }
  }
  if (!s.ok()) {
    // The stream cannot be resynchronised after a partial or late PDU.
    Break();
    return s;
  }
  in_begin_ = len;
  if (absl::StatusOr<PduHeader> h = DecodePduHeader({in_.data(), len}); h.ok()) CountPdu(h->type, false);
  return std::span<const uint8_t>(in_.data(), len);
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
