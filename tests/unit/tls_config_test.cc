// Tests for reading the TLS settings file as libpcp 6.0.3 reads it.
#include "tls_config.h"

#include "gtest/gtest.h"

namespace pmapi {
namespace {

TEST(TlsSettings, KeywordsWithEqualsOrColon) {
  TlsSettings s = ParseTlsSettings(
      "# comment\n"
      "tls-cert-file = /a/cert.pem\n"
      "  tls-key-file:/a/key.pem\n"
      "tls-ca-cert-file=/a/ca.pem # trailing comment\n"
      "tls-verify-clients = true\n");
  EXPECT_EQ(s.cert_file, "/a/cert.pem");
  EXPECT_EQ(s.key_file, "/a/key.pem");
  EXPECT_EQ(s.ca_cert_file, "/a/ca.pem");
  EXPECT_EQ(s.verify_clients, "true");
  EXPECT_FALSE(s.ca_cert_dir.has_value());
}

TEST(TlsSettings, ValueEndsAtTheFirstBlankAndNeedsSomethingAfterIt) {
  EXPECT_EQ(ParseTlsSettings("tls-ciphers = A B\n").ciphers, "A");
  // The last line's value counts only when a newline, blank or '#' follows.
  EXPECT_FALSE(ParseTlsSettings("tls-ciphers = ABC").ciphers.has_value());
  EXPECT_EQ(ParseTlsSettings("tls-ciphers = ABC ").ciphers, "ABC");
  EXPECT_EQ(ParseTlsSettings("tls-ciphers = A\n").ciphers, "A");
}

TEST(TlsSettings, KeywordNamesTheFirstSettingItBegins) {
  TlsSettings s = ParseTlsSettings("tls-ca = /x\ntls-ciphers = C\ntls-cipher = D\n");
  EXPECT_EQ(s.ca_cert_file, "/x");
  // "tls-cipher" begins tls-ciphers (listed before tls-ciphersuites).
  EXPECT_EQ(s.ciphers, "D");
  EXPECT_FALSE(s.ciphersuites.has_value());
  EXPECT_EQ(ParseTlsSettings("= /y\n").cert_file, "/y");
  EXPECT_FALSE(ParseTlsSettings("tls-cert-files = /z\n").cert_file.has_value());
}

TEST(TlsSettings, WithoutSeparatorOrValueNothingIsSet) {
  TlsSettings s = ParseTlsSettings("tls-cert-file /a\ntls-key-file =\ntls-ca-cert-file = # none\n");
  EXPECT_FALSE(s.cert_file.has_value());
  EXPECT_FALSE(s.key_file.has_value());
  EXPECT_FALSE(s.ca_cert_file.has_value());
}

TEST(TlsSettings, LaterLinesReplaceEarlierOnes) {
  EXPECT_EQ(ParseTlsSettings("tls-cert-file = /1\ntls-cert-file = /2\n").cert_file, "/2");
}

TEST(TlsSettings, MissingFileIsNoSettings) {
  EXPECT_FALSE(LoadTlsSettings("/nonexistent/tls.conf").has_value());
}

}  // namespace
}  // namespace pmapi
