// Tests for host specification parsing and the connection environment.
#include <cstdlib>

#include "gtest/gtest.h"
#include "host_connection.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

ConnectOptions Defaults() {
  ConnectOptions o;
  o.ports = {44321};
  o.unix_socket = "/run/pcp/pmcd.socket";
  return o;
}

TEST(HostSpec, PlainHostUsesDefaultPorts) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("example.org", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, HostSpec::Kind::kTcp);
  EXPECT_EQ(s->host, "example.org");
  EXPECT_EQ(s->ports, std::vector<int>{44321});
}

TEST(HostSpec, HostWithPorts) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("localhost:44999,45000", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "localhost");
  EXPECT_EQ(s->ports, (std::vector<int>{44999, 45000}));
}

TEST(HostSpec, Ipv4Literal) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("127.0.0.1:1234", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "127.0.0.1");
  EXPECT_EQ(s->ports, std::vector<int>{1234});
}

TEST(HostSpec, BareIpv6Literal) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("::1", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "::1");
  EXPECT_EQ(s->ports, std::vector<int>{44321});
}

TEST(HostSpec, BracketedIpv6WithPort) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("[fe80::1]:44999", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "fe80::1");
  EXPECT_EQ(s->ports, std::vector<int>{44999});
}

TEST(HostSpec, PcpUrl) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("pcp://localhost:44321", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "localhost");
  EXPECT_EQ(s->demanded, 0);
}

TEST(HostSpec, SecureUrlDemandsTls) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("pcps://localhost", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->demanded, kFeatureSecure);
}

TEST(HostSpec, UnixDefaultAndPath) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("unix:", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, HostSpec::Kind::kUnix);
  EXPECT_EQ(s->socket_path, "/run/pcp/pmcd.socket");
  s = ParseHostSpec("unix:/tmp/x.socket", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->socket_path, "/tmp/x.socket");
}

TEST(HostSpec, LocalKeepsPortsForFallback) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("local:", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, HostSpec::Kind::kLocal);
  EXPECT_EQ(s->ports, std::vector<int>{44321});
}

TEST(HostSpec, EmptyMeansDefaultHost) {
  ConnectOptions o = Defaults();
  o.default_host = "otherhost:7";
  absl::StatusOr<HostSpec> s = ParseHostSpec("", o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->host, "otherhost");
  EXPECT_EQ(s->ports, std::vector<int>{7});
}

TEST(HostSpec, MalformedSpecsAreErrors) {
  for (const char* bad : {"host:", "host:abc", "host:0", "host:70000", "[::1", "[::1]x", ":44321",
                          "host:1,x"}) {
    EXPECT_EQ(PcpCode(ParseHostSpec(bad, Defaults()).status()), kErrGeneric) << bad;
  }
}

TEST(HostSpec, ProxyIsNotImplemented) {
  EXPECT_EQ(PcpCode(ParseHostSpec("host@proxy", Defaults()).status()), kErrNyi);
}

TEST(ConnectEnvironment, ReadsEveryVariable) {
  setenv("PMCD_CONNECT_TIMEOUT", "1.5", 1);
  setenv("PMCD_REQUEST_TIMEOUT", "0.25", 1);
  setenv("PMCD_PORT", "44999,45000", 1);
  setenv("PMCD_SOCKET", "/tmp/s", 1);
  setenv("PMCD_HOST", "somewhere", 1);
  ConnectOptions o = ConnectOptions::FromEnvironment();
  EXPECT_EQ(o.connect_timeout, absl::Milliseconds(1500));
  EXPECT_EQ(o.request_timeout, absl::Milliseconds(250));
  EXPECT_EQ(o.ports, (std::vector<int>{44999, 45000}));
  EXPECT_EQ(o.unix_socket, "/tmp/s");
  EXPECT_EQ(o.default_host, "somewhere");
  for (const char* v : {"PMCD_CONNECT_TIMEOUT", "PMCD_REQUEST_TIMEOUT", "PMCD_PORT", "PMCD_SOCKET",
                        "PMCD_HOST"}) {
    unsetenv(v);
  }
}

TEST(ConnectEnvironment, IgnoresMalformedValues) {
  setenv("PMCD_CONNECT_TIMEOUT", "soon", 1);
  setenv("PMCD_REQUEST_TIMEOUT", "-3", 1);
  setenv("PMCD_PORT", "x", 1);
  ConnectOptions o = ConnectOptions::FromEnvironment();
  EXPECT_EQ(o.connect_timeout, absl::Seconds(5));
  EXPECT_EQ(o.request_timeout, absl::Seconds(10));
  EXPECT_EQ(o.ports, std::vector<int>{44321});
  unsetenv("PMCD_CONNECT_TIMEOUT");
  unsetenv("PMCD_REQUEST_TIMEOUT");
  unsetenv("PMCD_PORT");
}

TEST(ConnectEnvironment, RunDirGivesSocket) {
  unsetenv("PMCD_SOCKET");
  setenv("PCP_RUN_DIR", "/var/run/x", 1);
  EXPECT_EQ(ConnectOptions::FromEnvironment().unix_socket, "/var/run/x/pmcd.socket");
  unsetenv("PCP_RUN_DIR");
}

}  // namespace
}  // namespace pmapi
