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

#include <syslog.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pdu_codec.h"
#include "notice.h"
#include "pdu_counts.h"
#include "socket_wait.h"
#include "sasl_auth.h"
#include "tls_client.h"
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
// A "relaxed" TLS request takes TLS when pmcd offers it, and goes on
// without it otherwise.
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

// libpcp's warning for a proxy that does not greet as pmproxy: the line as
// far as it was read (up to its terminator, or 73 bytes).
void NoteBadGreeting(std::span<const uint8_t> got) {
  std::string line(got.begin(), got.end());
  line = line.substr(0, std::min(line.find_first_of("\r\n"), size_t{73}));
  line = line.substr(0, line.find('\0'));
  Notice(LOG_WARNING, "__pmConnectPMCD: bad version string from pmproxy: \"" + line + "\"");
}

// PCP's rule for a local connection (client certificates are waived).
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// libpcp's form decoding: '+' is a space, %XX a byte; the value ends at a
// NUL byte, as a C string would.
absl::StatusOr<std::string> UrlDecode(std::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i] == '+' ? ' ' : in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return Errno(EINVAL);
      const int hi = HexDigit(in[i + 1]);
      const int lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return Errno(EINVAL);
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') break;
    out.push_back(c);
  }
  return out;
}

bool IsLocalName(const std::string& host) { return host.find("localhost") != std::string::npos; }

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
  if (const char* v = std::getenv("PMPROXY_HOST")) o.proxy_host = v;
  if (const char* v = std::getenv("PCP_CONTAINER")) o.container = v;
  if (const char* v = std::getenv("PMPROXY_PORT")) {
    std::vector<int> ports = ParsePorts(v);
    if (!ports.empty()) o.proxy_ports = ports;
  }
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

// The attribute value slot of HostAttributes that a name fills, if any.
std::optional<std::string>* AttributeSlot(std::string_view name, HostAttributes* a) {
  if (name == "user" || name == "username") return &a->user;
  if (name == "pass" || name == "password") return &a->password;
  if (name == "realm") return &a->realm;
  if (name == "authmeth" || name == "method") return &a->method;
  if (name == "container") return &a->container;
  if (name == "secure") return &a->secure;
  return nullptr;
}

// Reads the attributes after '?' into *out: the features they demand and
// the values this client uses. A value with a bad %-escape fails with
// -EINVAL, as libpcp's parser does.
absl::Status ReadAttributes(std::string_view attrs, HostSpec* out) {
  for (absl::string_view item : absl::StrSplit(absl::string_view(attrs.data(), attrs.size()), '&')) {
    const size_t eq = item.find('=');
    const std::string_view name(item.data(), eq == absl::string_view::npos ? item.size() : eq);
    out->demanded |= AttributeDemand(name);
    if (name == "container") out->attrs.container_given = true;
    std::optional<std::string>* slot = AttributeSlot(name, &out->attrs);
    if (slot == nullptr) continue;
    if (eq == absl::string_view::npos) {
      slot->reset();
      continue;
    }
    absl::StatusOr<std::string> value = UrlDecode(std::string_view(item.data() + eq + 1, item.size() - eq - 1));
    if (!value.ok()) return value.status();
    *slot = *value;
  }
  return absl::OkStatus();
}

bool DemandsTls(const std::string& value) {
  return value.empty() || value == "1" || value == "enforce";
}

// Reads "host", "host:port[,port...]", "[v6]" or "[v6]:ports", or a bare
// IPv6 literal (no port) into *host and *ports (empty when none is given).
absl::Status ParseHostPorts(std::string_view spec, std::string_view original, std::string* host,
                            std::vector<int>* ports) {
  std::string_view port_list;
  if (StartsWith(spec, "[")) {
    size_t close = spec.find(']');
    if (close == std::string_view::npos) return BadSpec(original);
    *host = std::string(spec.substr(1, close - 1));
    std::string_view rest = spec.substr(close + 1);
    if (!rest.empty() && (rest[0] != ':' || rest.size() == 1)) return BadSpec(original);
    if (!rest.empty()) port_list = rest.substr(1);
  } else if (std::count(spec.begin(), spec.end(), ':') >= 2) {
    *host = std::string(spec);  // a bare IPv6 literal has no port
  } else if (size_t colon = spec.find(':'); colon != std::string_view::npos) {
    *host = std::string(spec.substr(0, colon));
    port_list = spec.substr(colon + 1);
    if (port_list.empty()) return BadSpec(original);
  } else {
    *host = std::string(spec);
  }
  if (host->empty()) return BadSpec(original);
  ports->clear();
  if (port_list.empty()) return absl::OkStatus();
  *ports = ParsePorts(port_list);
  const size_t commas = static_cast<size_t>(std::count(port_list.begin(), port_list.end(), ','));
  if (ports->size() != commas + 1) return BadSpec(original);
  return absl::OkStatus();
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
  // Attributes follow a '?' (up to a '/' after a host).
  const bool socket_spec = StartsWith(spec, "unix:") || StartsWith(spec, "local:");
  if (size_t end = spec.find_first_of(socket_spec ? "?" : "?/"); end != std::string_view::npos) {
    if (spec[end] == '?') {
      std::string_view attrs = spec.substr(end + 1);
      absl::Status s = ReadAttributes(attrs.substr(0, attrs.find('/')), &out);
      if (!s.ok()) return s;
      if (pcps && out.attrs.secure.has_value()) secure = out.attrs.secure;
    }
    spec = spec.substr(0, end);
  }
  if (secure.has_value() && DemandsTls(*secure)) out.demanded |= kFeatureSecure;
  out.tls_relaxed = secure.has_value() && *secure == "relaxed";
  if (!out.attrs.container_given && options.container.has_value()) {
    out.attrs.container_given = true;
    out.attrs.container = options.container;
    out.demanded |= kFeatureContainer;
  }
  for (auto [prefix, kind] : {std::pair{std::string_view("unix:"), HostSpec::Kind::kUnix},
                              std::pair{std::string_view("local:"), HostSpec::Kind::kLocal}}) {
    if (!StartsWith(spec, prefix)) continue;
    out.kind = kind;
    spec.remove_prefix(prefix.size());
    // "local:/path:?attrs": a ':' also ends the path.
    spec = spec.substr(0, spec.find(':'));
    out.socket_path = spec.empty() ? options.unix_socket : std::string(spec);
    out.ports = options.ports;
    out.via_proxy = options.proxy_host.has_value();
    return out;
  }
  // "host@proxy": the first two hosts of an '@' list (libpcp uses no more).
  const size_t at = spec.find('@');
  absl::Status host = ParseHostPorts(spec.substr(0, at), original, &out.host, &out.ports);
  if (!host.ok()) return host;
  if (out.ports.empty()) out.ports = options.ports;
  if (at != std::string_view::npos) {
    std::string_view proxy = spec.substr(at + 1);
    proxy = proxy.substr(0, proxy.find('@'));
    std::vector<int> proxy_ports;
    absl::Status s = ParseHostPorts(proxy, original, &out.proxy_host, &proxy_ports);
    if (!s.ok()) return s;
    out.proxy_port = proxy_ports.empty() ? kDefaultProxyPort : proxy_ports[0];
  } else if (options.proxy_host.has_value()) {
    out.proxy_host = *options.proxy_host;
    out.proxy_port = options.proxy_ports[0];
  }
  out.via_proxy = at != std::string_view::npos || options.proxy_host.has_value();
  return out;
}

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
