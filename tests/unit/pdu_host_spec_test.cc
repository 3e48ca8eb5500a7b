// Tests for host specification parsing and the connection environment.
#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

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

TEST(HostSpec, BareIpv6LiteralIsNotAHostToLibpcp) {
  // The first ':' starts the ports, so "::1" names no host and "fe80::1"
  // has a port list that is not numbers.
  absl::StatusOr<HostSpec> s = ParseHostSpec("::1", Defaults());
  EXPECT_EQ(s.status().message(), "bad host specification\n::1\n^ -- unexpected terminal character\n");
  s = ParseHostSpec("fe80::1", Defaults());
  EXPECT_EQ(s.status().message(), "bad host specification\nfe80::1\n     ^ -- non-numeric port\n");
}

TEST(HostSpec, PortsAreKeptToSixteenBits) {
  EXPECT_EQ(ParseHostSpec("host:70000", Defaults())->ports, std::vector<int>{70000 - 65536});
  EXPECT_EQ(ParseHostSpec("host:0", Defaults())->ports, std::vector<int>{0});
}

TEST(HostSpec, ErrorsPointWhereLibpcpPoints) {
  struct Case {
    const char* spec;
    const char* message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"localhost:", "localhost:\n          ^ -- missing port\n"},
           {"localhost:1,", "localhost:1,\n            ^ -- missing port\n"},
           {"[::1", "[::1\n    ^ -- missing closing ']' for host spec\n"},
           {"[::1]x", "[::1]x\n     ^ -- extra characters after host spec\n"},
           {"a:1x", "a:1x\n   ^ -- non-numeric port\n"},
           {"@localhost", "@localhost\n^ -- unexpected terminal character\n"},
           {"local:/tmp/x:?user=a", "local:/tmp/x:?user=a\n            ^ -- unexpected terminal character\n"},
       }) {
    absl::StatusOr<HostSpec> s = ParseHostSpec(c.spec, Defaults());
    EXPECT_EQ(PcpCode(s.status()), kErrGeneric) << c.spec;
    EXPECT_EQ(s.status().message(), std::string("bad host specification\n") + c.message) << c.spec;
  }
}

TEST(HostSpec, OddListsAsLibpcpReadsThem) {
  // An empty name between '@'s joins the next; a trailing '@' adds a
  // nameless proxy; brackets with nothing inside leave "]".
  EXPECT_EQ(ParseHostSpec("a@@b", Defaults())->proxy_host, "@b");
  absl::StatusOr<HostSpec> s = ParseHostSpec("localhost:1@", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->via_proxy);
  EXPECT_EQ(s->proxy_host, "");
  EXPECT_EQ(ParseHostSpec("[]:1", Defaults())->host, "]");
  EXPECT_EQ(PcpCode(ParseHostSpec("pcp://", Defaults()).status()), kErrNothost);
  EXPECT_EQ(ParseHostSpec("pcp:localhost", Defaults())->host, "localhost");
  EXPECT_EQ(ParseHostSpec("unix:relative/path", Defaults())->socket_path, "/relative/path");
  EXPECT_EQ(ParseHostSpec("local://tmp/s", Defaults())->socket_path, "/tmp/s");
}

TEST(HostSpec, SecureWithoutValueLeavesTheEnvironmentToDecide) {
  EXPECT_EQ(ParseHostSpec("pcps://localhost?secure", Defaults())->demanded, 0);
  ConnectOptions o = Defaults();
  o.secure_sockets = "1";
  EXPECT_EQ(ParseHostSpec("pcps://localhost?secure", o)->demanded, kFeatureSecure);
  EXPECT_EQ(ParseHostSpec("pcps://localhost?secure=1", Defaults())->demanded, kFeatureSecure);
}

TEST(HostSpec, BadEscapeIsInvalidArgument) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("localhost?container=%zz", Defaults());
  EXPECT_EQ(PcpCode(s.status()), -EINVAL);
  EXPECT_EQ(s.status().message(), "bad host specification\n(null)");
  EXPECT_EQ(PcpCode(ParseHostSpec("localhost?compress=%4", Defaults()).status()), -EINVAL);
  EXPECT_TRUE(ParseHostSpec("localhost?unknown=%zz", Defaults()).ok());
  EXPECT_EQ(ParseHostSpec("localhost?container=a%2fb+c", Defaults())->attrs.container, "a/b c");
  // The value ends at a NUL, but all of it is decoded first.
  EXPECT_EQ(ParseHostSpec("localhost?container=ab%00cd", Defaults())->attrs.container, "ab");
  EXPECT_EQ(PcpCode(ParseHostSpec("localhost?container=ab%00%zz", Defaults()).status()), -EINVAL);
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
  for (const char* bad : {"host:", "host:abc", "[::1", "[::1]x", ":44321", "host:1,x"}) {
    EXPECT_EQ(PcpCode(ParseHostSpec(bad, Defaults()).status()), kErrGeneric) << bad;
  }
}

TEST(HostSpec, AttributesDemandTheFeaturesLibpcpAttachesToThem) {
  struct Case {
    const char* spec;
    uint16_t demanded;
  };
  for (const Case& c : std::vector<Case>{
           {"localhost?compress", kFeatureCompress},
           {"pcp://localhost:44321?compress", kFeatureCompress},
           {"localhost?user=a&pass=b", kFeatureAuth},
           {"localhost?username=a", kFeatureAuth},
           {"localhost?method=plain", kFeatureAuth},
           {"localhost?authmeth=plain", kFeatureAuth},
           {"localhost?realm=r", kFeatureAuth},
           {"localhost?userauth", kFeatureAuth},
           {"localhost?authorise", kFeatureAuth},
           {"localhost?container=c", kFeatureContainer},
           {"localhost?compress&container=c", kFeatureCompress | kFeatureContainer},
           {"localhost?exclusive&uid=1&gid=2&pid=3&bogus", 0},
           {"localhost?secure=enforce", 0},  // without pcps:// it is ignored
           {"pcps://localhost?secure=enforce", kFeatureSecure},
           {"pcps://localhost?secure=1", kFeatureSecure},
           {"pcps://localhost?secure", 0},  // no value: $PCP_SECURE_SOCKETS decides
           {"pcps://localhost?secure=relaxed", 0},
           {"pcps://localhost?secure=other", 0},
           {"localhost:44321/?compress", 0},  // '/' ends the spec
           {"localhost?compress/?user=x", kFeatureCompress},
       }) {
    absl::StatusOr<HostSpec> s = ParseHostSpec(c.spec, Defaults());
    ASSERT_TRUE(s.ok()) << c.spec << ": " << s.status();
    EXPECT_EQ(s->demanded, c.demanded) << c.spec;
    EXPECT_EQ(s->host, "localhost") << c.spec;
  }
  absl::StatusOr<HostSpec> s = ParseHostSpec("localhost:44999,45000?compress", Defaults());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->ports, (std::vector<int>{44999, 45000}));
}

TEST(HostSpec, SecureSocketsVariableDemandsTls) {
  for (const char* value : {"", "1", "enforce"}) {
    ConnectOptions o = Defaults();
    o.secure_sockets = value;
    EXPECT_EQ(ParseHostSpec("localhost", o)->demanded, kFeatureSecure) << value;
  }
  ConnectOptions o = Defaults();
  o.secure_sockets = "relaxed";
  EXPECT_EQ(ParseHostSpec("localhost", o)->demanded, 0);
}

TEST(HostSpec, ProxyTakesTheSecondHostAndItsFirstPort) {
  absl::StatusOr<HostSpec> s = ParseHostSpec("pmcdhost:44999,45000@proxy:45300,7@third", Defaults());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->via_proxy);
  EXPECT_EQ(s->host, "pmcdhost");
  EXPECT_EQ(s->ports, (std::vector<int>{44999, 45000}));
  EXPECT_EQ(s->proxy_host, "proxy");
  EXPECT_EQ(s->proxy_port, 45300);
}

TEST(HostSpec, ProxyWithoutPortUsesPmproxysDefaultNotTheEnvironments) {
  ConnectOptions o = Defaults();
  o.proxy_ports = {45300};
  absl::StatusOr<HostSpec> s = ParseHostSpec("[::1]@proxy?container=x", o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->host, "::1");
  EXPECT_EQ(s->ports, (std::vector<int>{44321}));
  EXPECT_EQ(s->proxy_port, kDefaultProxyPort);
  EXPECT_EQ(s->demanded, kFeatureContainer);
}

TEST(HostSpec, ProxyHostFromTheEnvironmentAppliesToEverySpec) {
  ConnectOptions o = Defaults();
  o.proxy_host = "gateway";
  o.proxy_ports = {45300, 1};
  absl::StatusOr<HostSpec> s = ParseHostSpec("pmcdhost", o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->via_proxy);
  EXPECT_EQ(s->proxy_host, "gateway");
  EXPECT_EQ(s->proxy_port, 45300);
  EXPECT_TRUE(ParseHostSpec("local:", o)->via_proxy);
  EXPECT_FALSE(ParseHostSpec("local:", Defaults())->via_proxy);
}

TEST(HostSpec, BadProxySpecs) {
  for (const char* spec : {"host@proxy:", "host@proxy:x", "@proxy"}) {
    EXPECT_EQ(PcpCode(ParseHostSpec(spec, Defaults()).status()), kErrGeneric) << spec;
  }
}

TEST(ProxyGreeting, WholeLineAcceptedWithEitherTerminator) {
  const std::string ok = "pmproxy-server 1\nrest";
  auto bytes = [](const std::string& s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  EXPECT_EQ(*ProxyGreetingLength(bytes(ok)), 17u);
  EXPECT_EQ(*ProxyGreetingLength(bytes("pmproxy-server 1\r")), 17u);
  EXPECT_EQ(*ProxyGreetingLength(bytes("pmproxy-ser")), 0u);
  EXPECT_EQ(PcpCode(ProxyGreetingLength(bytes("pmproxy-server 2\n")).status()), kErrIpc);
  EXPECT_EQ(PcpCode(ProxyGreetingLength(bytes(std::string(74, 'x'))).status()), kErrIpc);
  EXPECT_EQ(*ProxyGreetingLength(bytes(std::string(73, 'x'))), 0u);
}

TEST(ConnectEnvironment, ReadsEveryVariable) {
  setenv("PMCD_CONNECT_TIMEOUT", "1.5", 1);
  setenv("PMCD_REQUEST_TIMEOUT", "0.25", 1);
  setenv("PMCD_PORT", "44999,45000", 1);
  setenv("PMCD_SOCKET", "/tmp/s", 1);
  setenv("PMCD_HOST", "somewhere", 1);
  setenv("PCP_SECURE_SOCKETS", "relaxed", 1);
  setenv("PMPROXY_HOST", "gateway", 1);
  setenv("PMPROXY_PORT", "45300,45301", 1);
  ConnectOptions o = ConnectOptions::FromEnvironment();
  EXPECT_EQ(o.proxy_host, "gateway");
  EXPECT_EQ(o.proxy_ports, (std::vector<int>{45300, 45301}));
  unsetenv("PMPROXY_HOST");
  unsetenv("PMPROXY_PORT");
  EXPECT_EQ(o.secure_sockets, "relaxed");
  EXPECT_EQ(o.connect_timeout, absl::Milliseconds(1500));
  EXPECT_EQ(o.request_timeout, absl::Milliseconds(250));
  EXPECT_EQ(o.ports, (std::vector<int>{44999, 45000}));
  EXPECT_EQ(o.unix_socket, "/tmp/s");
  EXPECT_EQ(o.default_host, "somewhere");
  for (const char* v : {"PMCD_CONNECT_TIMEOUT", "PMCD_REQUEST_TIMEOUT", "PMCD_PORT", "PMCD_SOCKET",
                        "PMCD_HOST", "PCP_SECURE_SOCKETS"}) {
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
