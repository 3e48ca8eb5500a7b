// Host specifications and connection settings; see host_spec.h.
#include "host_spec.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pointed_error.h"

namespace pmapi {
namespace {

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

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// libpcp's form decoding: '+' is a space, %XX a byte. All of the value is
// decoded (a bad escape anywhere fails), and it ends at its first NUL
// byte, as a C string would.
absl::StatusOr<std::string> UrlDecode(std::string_view in) {
  std::string out;
  bool ended = false;
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i] == '+' ? ' ' : in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return PcpError(-EINVAL);
      const int hi = HexDigit(in[i + 1]);
      const int lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return PcpError(-EINVAL);
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    ended = ended || c == '\0';
    if (!ended) out.push_back(c);
  }
  return out;
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

// The attribute names libpcp knows (their values are decoded, so a bad
// %-escape fails even where this client has no use for the value).
bool KnownAttribute(std::string_view name) {
  for (std::string_view n : {"compress", "userauth", "authorise", "authorize", "user", "username",
                             "realm", "authmeth", "method", "pass", "password", "unix", "unixsock",
                             "local", "uid", "userid", "gid", "groupid", "pid", "processid", "secure",
                             "container", "exclusive"}) {
    if (name == n) return true;
  }
  return false;
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
// the values this client uses; the last of a name counts. A value with a
// bad %-escape fails with -EINVAL, as libpcp's parser does.
absl::Status ReadAttributes(std::string_view attrs, HostSpec* out) {
  for (absl::string_view item : absl::StrSplit(absl::string_view(attrs.data(), attrs.size()), '&')) {
    const size_t eq = item.find('=');
    const std::string_view name(item.data(), eq == absl::string_view::npos ? item.size() : eq);
    if (!KnownAttribute(name)) continue;
    out->demanded |= AttributeDemand(name);
    if (name == "container") out->attrs.container_given = true;
    if (name == "secure") out->attrs.secure_given = true;
    std::optional<std::string> value;
    if (eq != absl::string_view::npos) {
      absl::StatusOr<std::string> decoded =
          UrlDecode(std::string_view(item.data() + eq + 1, item.size() - eq - 1));
      // libpcp reports no text for this failure: its message is "(null)".
      if (!decoded.ok()) return PcpErrorWithMessage(-EINVAL, std::string(kBadHostSpec) + "(null)");
      value = std::move(*decoded);
    }
    if (std::optional<std::string>* slot = AttributeSlot(name, &out->attrs)) *slot = std::move(value);
  }
  return absl::OkStatus();
}

bool DemandsTls(const std::string& value) {
  return value.empty() || value == "1" || value == "enforce";
}

// The spec as libpcp's scanner sees it: a C string, NUL past the end.
class SpecText {
 public:
  explicit SpecText(std::string_view text) : text_(text) {}
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  std::string_view text() const { return text_; }
  absl::Status Error(size_t point, std::string_view reason) const {
    return PcpErrorWithMessage(kErrGeneric, std::string(kBadHostSpec) + PointedErrorText(text_, point, reason));
  }

 private:
  std::string_view text_;
};

struct ScannedHost {
  std::string name;
  std::vector<int> ports;
};

bool EndsName(char c) { return c == ':' || c == '@' || c == '\0' || c == '/' || c == '?'; }

// A port's digits as libpcp's atoi reads them, kept to 16 bits as its
// socket address keeps them.
int PortValue(std::string_view digits) {
  uint32_t v = 0;
  for (char c : digits) v = v * 10 + static_cast<uint32_t>(c - '0');
  return static_cast<int>(v & 0xffff);
}

// Reads ":port[,port...]" from `at` (the ':') into *ports; returns where
// the list ended.
absl::StatusOr<size_t> ScanPorts(const SpecText& t, size_t at, std::vector<int>* ports) {
  size_t start = at + 1;
  for (size_t s = start;; ++s) {
    const char c = t.At(s);
    if (c == ',' || c == '@' || c == '\0' || c == '/' || c == '?') {
      if (s == start) return t.Error(s, "missing port");
      ports->push_back(PortValue(t.text().substr(start, s - start)));
      start = s + 1;
      if (c != ',') return s;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return t.Error(s, "non-numeric port");
  }
}

// Reads the '@'-joined hosts from *pos, as libpcp's parseHostSpec reads
// them, leaving *pos at the byte that ended them. Like libpcp, an empty
// name between two '@'s joins the next one ("a@@b" names "a" and "@b"),
// and an '@' at the end adds a host with no name.
absl::StatusOr<std::vector<ScannedHost>> ScanHosts(const SpecText& t, size_t* pos) {
  std::vector<ScannedHost> hosts;
  const size_t first = *pos;
  size_t start = first;
  size_t s = first;
  for (;; ++s) {
    size_t next = s;
    if (s == start && t.At(s) == '[') {
      do ++s; while (t.At(s) != ']' && t.At(s) != '\0');
      if (t.At(s) != ']') return t.Error(s, "missing closing ']' for host spec");
      next = s + 1;
      if (!EndsName(t.At(next))) return t.Error(next, "extra characters after host spec");
      ++start;
    }
    if (!EndsName(t.At(next))) continue;
    if (s == first) break;
    if (s == start) {
      if (s < t.text().size()) continue;
      hosts.push_back({});
      break;
    }
    hosts.push_back({std::string(t.text().substr(start, s - start)), {}});
    s = next;
    if (t.At(s) == ':') {
      absl::StatusOr<size_t> end = ScanPorts(t, s, &hosts.back().ports);
      if (!end.ok()) return end.status();
      s = *end;
    }
    if (t.At(s) != '@') break;
    start = s + 1;
  }
  *pos = s;
  return hosts;
}

// Reads a socket path from *pos up to ':', '?' or the end; an empty one
// (or, as libpcp has it, a one-byte one before a delimiter) is the
// default socket. The path is made absolute.
std::string ScanSocketPath(const SpecText& t, size_t* pos, const std::string& default_path) {
  const size_t start = *pos;
  size_t s = start;
  while (t.At(s) != '\0' && t.At(s) != ':' && t.At(s) != '?') ++s;
  const bool delimited = t.At(s) != '\0';
  *pos = s;
  if (s == start || (delimited && s == start + 1)) return default_path;
  std::string path(t.text().substr(start, std::min<size_t>(s - start, 4095)));
  if (path[0] != '/') path.insert(0, "/");
  return path;
}

// The TLS demand ("enforce" for pcps:, which a secure= attribute may
// change; else $PCP_SECURE_SOCKETS) and the container ($PCP_CONTAINER for
// a spec that names none).
void ApplyDemands(bool pcps, const ConnectOptions& options, HostSpec* out) {
  // A "secure" attribute without a value leaves $PCP_SECURE_SOCKETS to
  // decide, as in libpcp.
  std::optional<std::string> secure = options.secure_sockets;
  if (pcps && !out->attrs.secure_given) secure = "enforce";
  if (pcps && out->attrs.secure.has_value()) secure = out->attrs.secure;
  if (secure.has_value() && DemandsTls(*secure)) out->demanded |= kFeatureSecure;
  out->tls_relaxed = secure.has_value() && *secure == "relaxed";
  if (!out->attrs.container_given && options.container.has_value()) {
    out->attrs.container_given = true;
    out->attrs.container = options.container;
    out->demanded |= kFeatureContainer;
  }
}

}  // namespace

absl::StatusOr<HostSpec> ParseHostSpec(std::string_view spec, const ConnectOptions& options) {
  if (spec.empty()) spec = options.default_host;
  const SpecText t(spec);
  HostSpec out;
  // The protocol, then any '/'s.
  size_t pos = 0;
  bool pcps = false;
  for (auto [prefix, kind] : {std::pair{std::string_view("pcp:"), HostSpec::Kind::kTcp},
                              std::pair{std::string_view("pcps:"), HostSpec::Kind::kTcp},
                              std::pair{std::string_view("local:"), HostSpec::Kind::kLocal},
                              std::pair{std::string_view("unix:"), HostSpec::Kind::kUnix}}) {
    if (spec.substr(0, prefix.size()) != prefix) continue;
    out.kind = kind;
    pcps = prefix == "pcps:";
    pos = prefix.size();
    while (t.At(pos) == '/') ++pos;
    break;
  }
  std::vector<ScannedHost> hosts;
  if (out.kind == HostSpec::Kind::kTcp) {
    absl::StatusOr<std::vector<ScannedHost>> scanned = ScanHosts(t, &pos);
    if (!scanned.ok()) return scanned.status();
    hosts = std::move(*scanned);
  } else {
    out.socket_path = ScanSocketPath(t, &pos, options.unix_socket);
  }
  if (t.At(pos) == '?') {
    ++pos;
  } else if (t.At(pos) != '\0' && t.At(pos) != '/') {
    return t.Error(pos, "unexpected terminal character");
  }
  std::string_view attrs = spec.substr(std::min(pos, spec.size()));
  absl::Status read = ReadAttributes(attrs.substr(0, attrs.find('/')), &out);
  if (!read.ok()) return read;
  ApplyDemands(pcps, options, &out);
  out.ports = options.ports;
  out.via_proxy = options.proxy_host.has_value() || hosts.size() > 1;
  if (out.kind != HostSpec::Kind::kTcp) return out;
  if (hosts.empty()) return PcpError(kErrNothost);
  out.host = hosts[0].name;
  if (!hosts[0].ports.empty()) out.ports = hosts[0].ports;
  if (hosts.size() > 1) {
    out.proxy_host = hosts[1].name;
    out.proxy_port = hosts[1].ports.empty() ? kDefaultProxyPort : hosts[1].ports[0];
  } else if (options.proxy_host.has_value()) {
    out.proxy_host = *options.proxy_host;
    out.proxy_port = options.proxy_ports[0];
  }
  return out;
}

}  // namespace pmapi
