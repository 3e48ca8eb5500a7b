// tls_config.h: the TLS settings file PCP's clients and servers share
// ($PCP_TLSCONF_PATH; Debian: /etc/pcp/tls.conf), read as libpcp 6.0.3
// reads it.
//
// Each line is "keyword = value" (or "keyword: value"). A keyword names the
// first setting it begins (so "tls-ca" names tls-ca-cert-file); a value
// ends at the first blank or '#', and counts only when something (a
// newline, a blank, a '#') follows it on its line. Lines starting with '#'
// are comments. A later line for the same setting replaces an earlier one.
//
// Example:
//   std::optional<pmapi::TlsSettings> s = pmapi::LoadTlsSettings("/etc/pcp/tls.conf");
//   if (s && s->ca_cert_file) UseCa(*s->ca_cert_file);
#ifndef PMAPI_SRC_HOST_TLS_CONFIG_H_
#define PMAPI_SRC_HOST_TLS_CONFIG_H_

#include <optional>
#include <string>
#include <string_view>

namespace pmapi {

struct TlsSettings {
  std::optional<std::string> cert_file;         // tls-cert-file
  std::optional<std::string> key_file;          // tls-key-file
  std::optional<std::string> ciphers;           // tls-ciphers (TLS 1.2 and earlier)
  std::optional<std::string> ciphersuites;      // tls-ciphersuites (TLS 1.3)
  std::optional<std::string> ca_cert_file;      // tls-ca-cert-file
  std::optional<std::string> ca_cert_dir;       // tls-ca-cert-dir
  std::optional<std::string> client_cert_file;  // tls-client-cert-file
  std::optional<std::string> client_key_file;   // tls-client-key-file
  std::optional<std::string> verify_clients;    // tls-verify-clients
};

// Returns the settings in `text` (the file's contents).
TlsSettings ParseTlsSettings(std::string_view text);

// Returns the settings of the file at `path`, or nullopt if it cannot be
// read (then no setting applies).
std::optional<TlsSettings> LoadTlsSettings(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_TLS_CONFIG_H_
