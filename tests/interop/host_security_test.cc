// host_security_test: host specs that demand connection features (TLS,
// compression, authentication, containers) against the private pmcd, which
// offers none of them. Where PCP's pminfo refuses, ours refuses with the
// same message; where PCP's carries on in plain text (an attribute it
// ignores, secure=relaxed), ours does too. (TLS, authentication and
// containers against pmcds that provide them: tests/hostside.)
#include <cstdlib>
#include <string>
#include <vector>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

std::string Port() {
  const std::string& env = PmcdEnv();
  size_t at = env.find("PMCD_PORT=");
  return env.substr(at + 10, env.find(' ', at) - at - 10);
}

std::string Pminfo(const std::string& prefix, const std::string& host) {
  return prefix + "pminfo -h '" + host + "' -f sample.long.one";
}

TEST(HostSecurity, SameOutcomeAsPcp) {
  const std::vector<std::string> hosts = {
      "pcps://localhost",
      "pcps://localhost?secure=enforce",
      "pcps://localhost?secure=relaxed",
      "pcp://localhost?compress",
      "localhost?compress",
      "localhost?compress/",
      "localhost?secure=enforce",
      "localhost?exclusive&bogus=1",
      "localhost:" + Port() + "?exclusive",
      "localhost:" + Port() + "/?compress",
      "localhost/anything",
  };
  int refused = 0;
  for (const std::string& host : hosts) {
    ToolRun ours = RunOurs(Pminfo("", host));
    ToolRun pcp = RunPcp(Pminfo("", host));
    EXPECT_EQ(ours.status, pcp.status) << host;
    EXPECT_EQ(ours.out, pcp.out) << host;
    EXPECT_EQ(ours.err, pcp.err) << host;
    if (pcp.status != 0) {
      ++refused;
      EXPECT_NE(pcp.err.find("Operation not supported"), std::string::npos) << host;
    }
  }
  EXPECT_EQ(refused, 5);
}

TEST(HostSecurity, SecureSocketsVariable) {
  // The tools inherit the variable from this process.
  for (const char* value : {"1", "enforce", "", "relaxed"}) {
    setenv("PCP_SECURE_SOCKETS", value, 1);
    ToolRun ours = RunOurs(Pminfo("", "localhost"));
    ToolRun pcp = RunPcp(Pminfo("", "localhost"));
    unsetenv("PCP_SECURE_SOCKETS");
    EXPECT_EQ(ours.status, pcp.status) << value;
    EXPECT_EQ(ours.out, pcp.out) << value;
    EXPECT_EQ(ours.err, pcp.err) << value;
    EXPECT_EQ(ours.status, std::string(value) == "relaxed" ? 0 : 1) << value;
  }
}

TEST(HostSecurity, AuthenticationAgainstAPmcdWithoutUsers) {
  // The private pmcd offers authentication with SASL's default
  // configuration, which knows no user: both tools fail the same way.
  for (const std::string host :
       {"localhost?username=someone&password=x", "localhost?method=plain&username=u&password=p"}) {
    setenv("PCP_CONSOLE", "none", 1);
    ToolRun ours = RunOurs(Pminfo("", host));
    ToolRun pcp = RunPcp(Pminfo("", host));
    unsetenv("PCP_CONSOLE");
    EXPECT_EQ(ours.status, pcp.status) << host;
    EXPECT_EQ(ours.out, pcp.out) << host;
    EXPECT_EQ(ours.err, pcp.err) << host;
    EXPECT_EQ(ours.status, 1) << host;
  }
}

}  // namespace
}  // namespace pmapi
