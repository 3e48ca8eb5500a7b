// TLS for pmcd connections with OpenSSL; see tls_client.h.
#include "tls_client.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <syslog.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <mutex>
#include <optional>

#include "config_lookup.h"
#include "notice.h"
#include "pmapi/errors.h"
#include "socket_wait.h"
#include "tls_config.h"

namespace pmapi {
namespace {

// The process's client context, made once it can be (libpcp keeps one).
std::mutex context_mu;
SSL_CTX* client_context = nullptr;

// Reports a setting that cannot be used, in libpcp's words.
bool Refuse(const std::string& text) {
  Notice(LOG_ERR, text);
  return false;
}

bool LoadTrust(SSL_CTX* ctx, const TlsSettings& s) {
  if (s.ca_cert_file || s.ca_cert_dir) {
    const char* file = s.ca_cert_file ? s.ca_cert_file->c_str() : nullptr;
    const char* dir = s.ca_cert_dir ? s.ca_cert_dir->c_str() : nullptr;
    if (SSL_CTX_load_verify_locations(ctx, file, dir) != 1) {
      return Refuse("Cannot load the CA Certificate list from " + (file ? *s.ca_cert_file : *s.ca_cert_dir));
    }
    return true;
  }
  if (SSL_CTX_set_default_verify_paths(ctx) != 1) return Refuse("Cannot set default CA paths");
  return true;
}

// The client's own certificate and key: the client-specific settings,
// else the shared ones.
bool LoadIdentity(SSL_CTX* ctx, const TlsSettings& s) {
  if (s.client_cert_file) {
    if (SSL_CTX_use_certificate_chain_file(ctx, s.client_cert_file->c_str()) != 1) {
      return Refuse("Cannot load client certificate chain from " + *s.client_cert_file);
    }
  } else if (s.cert_file && SSL_CTX_use_certificate_chain_file(ctx, s.cert_file->c_str()) != 1) {
    return Refuse("Cannot load certificate chain from " + *s.cert_file);
  }
  if (s.client_cert_file && s.client_key_file) {
    if (SSL_CTX_use_PrivateKey_file(ctx, s.client_key_file->c_str(), SSL_FILETYPE_PEM) != 1) {
      return Refuse("Cannot load client private key from " + *s.client_key_file);
    }
  } else if (s.cert_file && s.key_file &&
             SSL_CTX_use_PrivateKey_file(ctx, s.key_file->c_str(), SSL_FILETYPE_PEM) != 1) {
    return Refuse("Cannot load private key from " + *s.key_file);
  }
  return true;
}

bool LoadCiphers(SSL_CTX* ctx, const TlsSettings& s) {
  if (s.ciphers && SSL_CTX_set_cipher_list(ctx, s.ciphers->c_str()) != 1) {
    return Refuse("Cannot set the cipher list from " + *s.ciphers);
  }
  if (s.ciphersuites && SSL_CTX_set_ciphersuites(ctx, s.ciphersuites->c_str()) != 1) {
    return Refuse("Cannot set the cipher suites from " + *s.ciphersuites);
  }
  return true;
}

SSL_CTX* MakeContext() {
  TlsSettings settings;
  if (std::optional<std::string> path = ConfigValue("PCP_TLSCONF_PATH")) {
    if (std::optional<TlsSettings> s = LoadTlsSettings(*path)) settings = *s;
  }
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) {
    Refuse("Cannot create initial secure client context");
    return nullptr;
  }
  SSL_CTX_set_options(ctx, SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1);
  const bool verify = settings.verify_clients &&
                      (*settings.verify_clients == "yes" || *settings.verify_clients == "true");
  SSL_CTX_set_verify(ctx, verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  // A record (a whole reply, usually) in one read() rather than two.
  SSL_CTX_set_read_ahead(ctx, 1);
  if (!LoadTrust(ctx, settings) || !LoadIdentity(ctx, settings) || !LoadCiphers(ctx, settings)) {
    SSL_CTX_free(ctx);
    return nullptr;
  }
  return ctx;
}

// Returns the process's context (SSL objects hold their own reference),
// or nullptr if it cannot be made now.
SSL_CTX* ClientContext() {
  std::lock_guard<std::mutex> lock(context_mu);
  if (client_context == nullptr) client_context = MakeContext();
  return client_context;
}

// Waits for what an SSL call asked for. Returns OK to retry, or the error.
absl::Status WaitFor(int fd, int ssl_error, int64_t deadline) {
  const short events = ssl_error == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN;
  const int w = WaitFd(fd, events, deadline);
  if (w == 0) return PcpError(kErrTimeout);
  if (w < 0) return PcpError(kErrIpc);
  return absl::OkStatus();
}

bool WantsIo(int ssl_error) {
  return ssl_error == SSL_ERROR_WANT_READ || ssl_error == SSL_ERROR_WANT_WRITE;
}

}  // namespace

struct TlsSession::State {
  SSL* ssl = nullptr;
  int fd = -1;
  ~State() {
    if (ssl != nullptr) SSL_free(ssl);
  }
};

TlsSession::TlsSession(std::unique_ptr<State> state) : state_(std::move(state)) {}
TlsSession::~TlsSession() = default;

absl::StatusOr<std::unique_ptr<TlsSession>> TlsSession::Start(int fd, const std::string& server,
                                                              int64_t deadline) {
  SSL_CTX* ctx = ClientContext();
  if (ctx == nullptr) return PcpError(kErrNotconn);
  auto state = std::make_unique<State>();
  state->fd = fd;
  state->ssl = SSL_new(ctx);
  if (state->ssl == nullptr) return PcpError(kErrNotconn);
  if (SSL_set_tlsext_host_name(state->ssl, server.c_str()) != 1) {
    Notice(LOG_ERR, "__pmSecureClientIPCFlags: setting TLS hostname: " + server);
  }
  SSL_set_mode(state->ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_set_fd(state->ssl, fd);
  SSL_set_connect_state(state->ssl);
  ERR_clear_error();
  while (true) {
    const int rc = SSL_connect(state->ssl);
    if (rc == 1) break;
    const int err = SSL_get_error(state->ssl, rc);
    if (WantsIo(err)) {
      absl::Status s = WaitFor(fd, err, deadline);
      if (!s.ok()) return s;
      continue;
    }
    ERR_clear_error();
    return PcpError(err == SSL_ERROR_ZERO_RETURN ? -ENOTCONN : kErrTls);
  }
  return std::unique_ptr<TlsSession>(new TlsSession(std::move(state)));
}

int TlsSession::cipher_bits() const {
  int bits = 0;
  return SSL_get_cipher_bits(state_->ssl, &bits) == 0 ? 0 : bits;
}

absl::StatusOr<size_t> TlsSession::Read(uint8_t* buffer, size_t size, int64_t deadline) {
  const int want = static_cast<int>(std::min<size_t>(size, INT_MAX));
  // With nothing buffered, wait for the socket first: a read that would
  // block costs a system call for nothing.
  if (SSL_has_pending(state_->ssl) == 0) {
    absl::Status s = WaitFor(state_->fd, SSL_ERROR_WANT_READ, deadline);
    if (!s.ok()) return s;
  }
  while (true) {
    const int n = SSL_read(state_->ssl, buffer, want);
    if (n > 0) return static_cast<size_t>(n);
    const int err = SSL_get_error(state_->ssl, n);
    if (err == SSL_ERROR_ZERO_RETURN) return size_t{0};
    if (!WantsIo(err)) {
      ERR_clear_error();
      // A peer that just closes the socket ends the stream too.
      return err == SSL_ERROR_SYSCALL && n == 0 ? absl::StatusOr<size_t>(size_t{0}) : PcpError(kErrTls);
    }
    absl::Status s = WaitFor(state_->fd, err, deadline);
    if (!s.ok()) return s;
  }
}

absl::Status TlsSession::Write(const uint8_t* data, size_t size, int64_t deadline) {
  size_t off = 0;
  while (off < size) {
    const int chunk = static_cast<int>(std::min<size_t>(size - off, INT_MAX));
    const int n = SSL_write(state_->ssl, data + off, chunk);
    if (n > 0) {
      off += static_cast<size_t>(n);
      continue;
    }
    const int err = SSL_get_error(state_->ssl, n);
    if (!WantsIo(err)) {
      ERR_clear_error();
      return PcpError(kErrTls);
    }
    absl::Status s = WaitFor(state_->fd, err, deadline);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace pmapi
