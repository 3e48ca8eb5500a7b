// host_spec.h: what a host context connects to: the host specification
// (parsed as libpcp parses it) and the environment's connection settings.
//
// Host specifications, read as libpcp 6.0.3 reads them: an optional
// protocol ("pcp:" or "pcps:", then any '/'s), then a list of hosts joined
// by '@' (the pmcd, then its proxy; a third and later are not used), each
// a name or address, or one in brackets ("[::1]"), with ":port[,port...]";
// or "unix:PATH" (the unix socket only) or "local:PATH" (the unix socket,
// then TCP to localhost), PATH made absolute and empty for the default
// socket. A bare IPv6 address ("::1") is not a host to libpcp: its ':'
// starts the ports. An empty spec means $PMCD_HOST, else "local:". Ports
// default to $PMCD_PORT (a comma list), else 44321 (a port is taken modulo
// 65536, as libpcp stores it); the socket to $PMCD_SOCKET, else
// $PCP_RUN_DIR/pmcd.socket, else /run/pcp/pmcd.socket.
//
// The hosts may be followed by "?name[=value]&..." attributes (up to a
// '/', which ends the spec), values %-decoded ('+' a space), read as
// libpcp reads them: "compress" demands
// compression; "user"/"username", "pass"/"password", "method"/"authmeth",
// "realm" and "userauth"/"authorise"/"authorize" demand authentication;
// "container" demands a container; with pcps://, "secure=relaxed" (or any
// value but "enforce", "1" or empty) lifts the TLS demand. Unknown names
// and "exclusive", "uid", "gid", "pid" are ignored. $PCP_SECURE_SOCKETS
// ("", "1" or "enforce") demands TLS for a spec without pcps://.
//
// Example:
//   absl::StatusOr<pmapi::HostSpec> s =
//       pmapi::ParseHostSpec("pmcd1:44321@proxy?container=web", pmapi::ConnectOptions::FromEnvironment());
#ifndef PMAPI_SRC_HOST_SPEC_H_
#define PMAPI_SRC_HOST_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pdu_format.h"

namespace pmapi {

inline constexpr int kDefaultPmcdPort = 44321;
inline constexpr int kDefaultProxyPort = 44322;

struct ConnectOptions {
  // Limit for connect() of each address tried (PMCD_CONNECT_TIMEOUT).
  absl::Duration connect_timeout = absl::Seconds(5);
  // Limit for each whole reply, and for the handshake (PMCD_REQUEST_TIMEOUT).
  absl::Duration request_timeout = absl::Seconds(10);
  std::vector<int> ports = {kDefaultPmcdPort};
  std::string unix_socket = "/run/pcp/pmcd.socket";
  // Used when the host spec is empty.
  std::string default_host = "local:";
  // $PCP_SECURE_SOCKETS when set.
  std::optional<std::string> secure_sockets;
  // $PMPROXY_HOST when set: every connection goes through that pmproxy, on
  // the first of proxy_ports ($PMPROXY_PORT, a comma list, else 44322).
  std::optional<std::string> proxy_host;
  std::vector<int> proxy_ports = {kDefaultProxyPort};
  // $PCP_CONTAINER when set: the container for a spec that names none.
  std::optional<std::string> container;
  size_t max_pdu_bytes = kDefaultMaxPduBytes;
  size_t max_request_bytes = kDefaultMaxRequestBytes;
  // Connection features the caller insists on (kFeatureSecure,
  // kFeatureCompress, kFeatureAuth, kFeatureContainer).
  uint16_t demanded = 0;

  // Returns the defaults above overridden by PMCD_CONNECT_TIMEOUT,
  // PMCD_REQUEST_TIMEOUT, PMCD_PORT, PMCD_SOCKET (or PCP_RUN_DIR),
  // PMCD_HOST, PCP_SECURE_SOCKETS, PMPROXY_HOST, PMPROXY_PORT and
  // PCP_CONTAINER. Malformed values are ignored, as libpcp ignores them.
  static ConnectOptions FromEnvironment();
};

// The attribute values of a host spec that this client uses, %-decoded.
// A name given without "=value" leaves its value unset.
struct HostAttributes {
  std::optional<std::string> user, password, realm, method;
  bool secure_given = false;  // "secure" named, with or without a value
  std::optional<std::string> secure;
  bool container_given = false;  // "container" named (or $PCP_CONTAINER)
  std::optional<std::string> container;
};

// A parsed host specification.
struct HostSpec {
  enum class Kind { kTcp, kUnix, kLocal };
  Kind kind = Kind::kTcp;
  std::string host;        // for kTcp
  std::vector<int> ports;  // for kTcp and the TCP fallback of kLocal
  std::string socket_path; // for kUnix and kLocal
  uint16_t demanded = 0;   // features the spec demands (pcps://, attributes)
  HostAttributes attrs;
  // "relaxed" TLS ($PCP_SECURE_SOCKETS or secure=relaxed with pcps://):
  // secure when pmcd offers it, plain otherwise.
  bool tls_relaxed = false;
  // Through pmproxy: "host@proxy[:port]" (the proxy's first port, else
  // 44322), or $PMPROXY_HOST for any spec. Only TCP specs can be proxied.
  bool via_proxy = false;
  std::string proxy_host;
  int proxy_port = 0;
};

// Returns the parsed spec, with defaults from `options`. A malformed spec
// is PM_ERR_GENERIC with libpcp's report as the message ("bad host
// specification", the spec, and a line pointing at the fault); a bad
// %-escape in an attribute's value is -EINVAL; a spec naming no host at
// all ("pcp://") is PM_ERR_NOTHOST.
absl::StatusOr<HostSpec> ParseHostSpec(std::string_view spec, const ConnectOptions& options);

// The first line of a malformed spec's message: libpcp's pmNewContext
// reports it, prefixed "pmNewContext: ", before failing.
inline constexpr std::string_view kBadHostSpec = "bad host specification\n";

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_SPEC_H_
