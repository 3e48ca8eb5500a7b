// tls_client.h: the TLS side of a pmcd connection, as libpcp 6.0.3 makes
// it with OpenSSL.
//
// One client context serves the process. It is made on the first secure
// connection from the TLS settings file ($PCP_TLSCONF_PATH, else PCP's
// configuration's, usually /etc/pcp/tls.conf): TLS 1.2 at least; the
// server's certificate checked against the configured CA file or
// directory (else the system's) only when tls-verify-clients is "yes" or
// "true", as libpcp does; a client certificate and key when configured;
// the configured cipher lists. A setting that cannot be used is reported
// (a notice, in libpcp's words) and the connection fails with
// PM_ERR_NOTCONN; the next secure connection tries again.
//
// A session runs over a connected non-blocking socket. Its handshake and
// its reads and writes wait for the socket within a deadline; a failed
// handshake is PM_ERR_TLS (-ENOTCONN when the server closes it cleanly).
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::TlsSession>> s =
//       pmapi::TlsSession::Start(fd, "pmcd.example.com", deadline);
//   (*s)->Write(bytes, &done, deadline);
#ifndef PMAPI_SRC_HOST_TLS_CLIENT_H_
#define PMAPI_SRC_HOST_TLS_CLIENT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace pmapi {

class TlsSession {
 public:
  // Makes the TLS connection over `fd` (which stays the caller's), naming
  // `server` for SNI: the host name, or this machine's name for a unix
  // socket or "local" spec. `deadline` is CLOCK_MONOTONIC nanoseconds.
  static absl::StatusOr<std::unique_ptr<TlsSession>> Start(int fd, const std::string& server,
                                                           int64_t deadline);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  // The cipher's strength in bits (0 if unknown): SASL's external
  // security strength.
  int cipher_bits() const;
  // Reads what is available, at most `size` bytes, waiting for the socket
  // until the deadline. Returns the count (0: the peer closed), or
  // PM_ERR_TIMEOUT or PM_ERR_TLS.
  absl::StatusOr<size_t> Read(uint8_t* buffer, size_t size, int64_t deadline);
  // Writes all `size` bytes. PM_ERR_TIMEOUT, PM_ERR_TLS or PM_ERR_IPC.
  absl::Status Write(const uint8_t* data, size_t size, int64_t deadline);

 private:
  struct State;
  explicit TlsSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_TLS_CLIENT_H_
