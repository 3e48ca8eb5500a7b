// host_connection.h: one client connection to a pmcd: the socket, the
// connection handshake, and bounded, timed request/response exchanges.
//
// Host specifications, their attributes and the environment: host_spec.h.
//
// The handshake accepts protocol version 2 only and enables the features
// pmcd advertises that this client implements (HIGHRES, LABELS, DESCS). It
// fails rather than continue without a security feature that either side
// demands (-EOPNOTSUPP; compression, which PCP's clients no longer do,
// always). After the credentials come, as pmcd asked for them: TLS
// (tls_client.h), then authentication (sasl_auth.h), then the container.
// A container ("container=NAME", else $PCP_CONTAINER) is
// sent to pmcd as an ATTR PDU after the credentials; pmcd passes it to its
// agents, and the agents that resolve containers answer
// PM_ERR_NOCONTAINER for one they cannot find.
//
// Through pmproxy ("host@proxy", or $PMPROXY_HOST), each of the host's
// ports is tried in turn over a new connection to the proxy: the client
// sends "pmproxy-client 1\n", expects the line "pmproxy-server 1", sends
// "host port\n", and the pmcd handshake follows through the proxy. A
// failed connect to the proxy ends the attempt; a unix socket or "local:"
// spec cannot be proxied (-EPERM, as libpcp).
//
// Every receive has a deadline for the whole PDU (PMCD_REQUEST_TIMEOUT,
// default 10 s; PM_ERR_TIMEOUT when it passes) and a cap on the PDU size
// (PM_ERR_IPC above it); memory grows only with bytes actually received. A
// lost connection, a short PDU or a timeout leaves the connection broken:
// later calls fail with PM_ERR_IPC at once.
//
// An exchange costs three system calls when the reply comes whole: one
// send() of the request, one poll() that waits for the reply, and one
// recv() that reads it into a buffer the connection keeps (bytes of a
// following PDU stay there for the next receive). The wait is in poll()
// rather than in a blocking recv() because a task asleep in recv() on a
// unix socket is also woken when the peer takes the request off the
// socket, which would cost a second sleep per request.
//
// Example:
//   absl::StatusOr<pmapi::ConnectOptions> opts = pmapi::ConnectOptions::FromEnvironment();
//   absl::StatusOr<std::unique_ptr<pmapi::HostConnection>> c =
//       pmapi::HostConnection::Connect("localhost", *opts);
//   absl::StatusOr<std::vector<uint8_t>> reply = (*c)->Call(pmapi::EncodeDescReq(0, pmid));
#ifndef PMAPI_SRC_HOST_CONNECTION_H_
#define PMAPI_SRC_HOST_CONNECTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "host_spec.h"
#include "pdu_format.h"
#include "tls_client.h"

namespace pmapi {

// Ignores SIGPIPE for the process, once, unless the program installed a
// handler of its own, as libpcp does when it first sends a PDU: a client
// whose output pipe closes then sees write errors rather than dying.
void IgnoreSigpipeOnce();

// Looks for pmproxy's greeting line at the start of `bytes` (what the proxy
// has sent so far). Returns the bytes the line takes with its terminator
// ('\n' or '\r') when it is whole and reads "pmproxy-server 1"; 0 when more
// bytes are needed; PM_ERR_IPC for any other line, or none within libpcp's
// limit (74 bytes).
absl::StatusOr<size_t> ProxyGreetingLength(std::span<const uint8_t> bytes);

class HostConnection {
 public:
  // Connects and completes the handshake. Returns the connection, or the
  // error: -errno from the socket layer (-ECONNREFUSED, -ENOENT, -ETIMEDOUT,
  // -EHOSTUNREACH for an unknown host), pmcd's refusal code, PM_ERR_IPC for a
  // bad handshake, PM_ERR_TIMEOUT, -EOPNOTSUPP or PM_ERR_NEEDCLIENTCERT for
  // a security feature that cannot be provided.
  static absl::StatusOr<std::unique_ptr<HostConnection>> Connect(std::string_view host_spec,
                                                                 const ConnectOptions& options);
  // As Connect, over `fd`, a stream socket already connected to the pmcd
  // (or, for a proxied spec, to the proxy: the greeting asks for the spec's
  // host and its first port). Takes ownership of fd, which must be
  // non-blocking. Used to serve the client from a test's own peer.
  static absl::StatusOr<std::unique_ptr<HostConnection>> Adopt(int fd, std::string_view host_spec,
                                                               const ConnectOptions& options);
  ~HostConnection();
  HostConnection(const HostConnection&) = delete;
  HostConnection& operator=(const HostConnection&) = delete;

  // Returns the features pmcd advertised in the handshake.
  uint16_t server_features() const { return server_features_; }
  // Returns the advertised features this connection uses.
  uint16_t features() const { return features_; }
  bool has_feature(uint16_t f) const { return (features_ & f) == f; }
  // Returns true for a unix socket or a host named like localhost (PCP's
  // rule for waiving client certificates).
  bool is_local() const { return is_local_; }
  bool broken() const { return fd_ < 0; }

  // Sends one whole PDU. Fails with PM_ERR_TOOBIG above max_request_bytes
  // (pmcd would drop the connection), PM_ERR_IPC if the connection is lost,
  // PM_ERR_TIMEOUT if the peer does not take it in time.
  absl::Status Send(std::span<const uint8_t> pdu);
  // Returns the next whole PDU (header included), read within the request
  // timeout. Fails with PM_ERR_TIMEOUT or PM_ERR_IPC.
  absl::StatusOr<std::vector<uint8_t>> Receive();
  // As Receive, but the PDU is returned in place, in the connection's
  // buffer: it stays valid until the next call on this connection.
  absl::StatusOr<std::span<const uint8_t>> ReceiveView();
  // As ReceiveView, without waiting: reads what has arrived and returns
  // the next PDU once it is whole, or an empty span while more is to come.
  // For a caller that waits on many connections itself (poll on fd()).
  absl::StatusOr<std::span<const uint8_t>> ReceiveReady();
  // The socket, for poll(); -1 once the connection is broken.
  int fd() const { return fd_; }
  // Send, then Receive.
  absl::StatusOr<std::vector<uint8_t>> Call(std::span<const uint8_t> request);
  // Send, then ReceiveView.
  absl::StatusOr<std::span<const uint8_t>> CallView(std::span<const uint8_t> request);

 private:
  // `peer` is the name the connection was made to: the host, the proxy,
  // or the socket path.
  HostConnection(int fd, const ConnectOptions& options, const HostSpec& spec, std::string peer,
                 bool is_unix);
  static absl::StatusOr<std::unique_ptr<HostConnection>> ConnectThroughProxy(
      const HostSpec& spec, const ConnectOptions& options);
  absl::Status Handshake();
  // pmproxy's greeting, then the pmcd to reach: "host port".
  absl::Status GreetProxy(const std::string& host, int port);
  // The TLS handshake, after pmcd's acknowledgement when it sends one.
  absl::Status StartTls(bool ack);
  // The SASL exchange pmcd asks for (the "auth" feature, or credentials
  // over TCP), after TLS when there is TLS.
  absl::Status Authenticate();
  // One authentication PDU's payload from pmcd, or the error it sent.
  absl::StatusOr<std::string> ReceiveAuth();
  absl::Status SendAuth(const std::string& payload);
  // The container attribute, after the connection's credentials.
  absl::Status SendContainer();
  // Sends bytes as they are (no PDU accounting).
  absl::Status SendBytes(std::span<const uint8_t> bytes);
  // Closes the socket; every later call fails with PM_ERR_IPC.
  void Break();
  // Reads until the buffer holds `want` bytes (in_begin_ is 0), within
  // `deadline` (monotonic nanoseconds; kNow reads only what has arrived,
  // PM_ERR_TIMEOUT when that is not enough).
  absl::Status Fill(size_t want, int64_t deadline);
  // Moves the bytes not yet returned to the front of the buffer.
  void Compact();
  // Fills the buffer with the whole PDU at its front; returns its length.
  absl::StatusOr<size_t> FillPdu(int64_t deadline);
  // Returns the PDU of `len` bytes at the front; the next call drops it.
  std::span<const uint8_t> TakePdu(size_t len);

  int fd_;
  // Received bytes: [in_begin_, in_end_) are not yet returned. The size of
  // in_ is the room for reading; it grows by at most one read chunk (64 KiB)
  // beyond the bytes held, so never by a length only claimed.
  std::vector<uint8_t> in_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
  ConnectOptions options_;
  HostAttributes attrs_;
  bool tls_relaxed_;
  std::string peer_;
  // Set once the connection is secure: every byte then goes through it.
  std::unique_ptr<TlsSession> tls_;
  bool is_local_;
  bool is_unix_;
  uint16_t server_features_ = 0;
  uint16_t features_ = 0;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_CONNECTION_H_
