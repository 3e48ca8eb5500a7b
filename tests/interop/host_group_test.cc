// host_group_test: pmapi::HostGroup against the private pmcd, reached under
// two names (its unix socket and its TCP port), beside hosts that cannot
// be reached and one that never speaks: each host answers exactly once per
// round, with its own values or its own error, and the unreachable ones
// cost the others nothing. Many pmcds, killed and restarted: fleet_fault.
#include "pmapi/host_group.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "private_pmcd.h"

namespace pmapi {
namespace {

class HostGroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string env = ShellOutput(PmcdScript() + " env " + PMAPI_PMCD_DIR);
    port_ = EnvValue(env, "PMCD_PORT");
    ASSERT_FALSE(port_.empty()) << env;
    setenv("PMCD_SOCKET", EnvValue(env, "PMCD_SOCKET").c_str(), 1);
  }
  std::string port_;
};

// A TCP port that accepts connections (the kernel's backlog) and never
// answers; closed when the test ends.
class SilentPeer {
 public:
  SilentPeer() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(fd_, 8) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ADD_FAILURE() << "cannot listen";
    }
    port_ = ntohs(a.sin_port);
  }
  ~SilentPeer() { close(fd_); }
  std::string spec() const { return "localhost:" + std::to_string(port_); }

 private:
  int fd_;
  int port_ = 0;
};

int64_t Lval(const HostAnswer& a, size_t k) {
  const ValueSet& vs = a.result->sets()[k];
  if (vs.numval != 1) return -1;
  return a.result->value(vs, 0).lval;
}

TEST_F(HostGroupTest, EachHostAnswersOncePerRoundWithItsOwnValues) {
  std::vector<std::string> hosts = {"unix:", "localhost:" + port_, "localhost:1",
                                    "unix:/nonexistent/pmcd.socket"};
  absl::StatusOr<std::unique_ptr<HostGroup>> g =
      HostGroup::Open(hosts, {"sample.long.one", "sample.long.ten", "no.such.metric"});
  ASSERT_TRUE(g.ok()) << g.status();
  HostGroup& group = **g;
  EXPECT_TRUE(group.connected(0));
  EXPECT_TRUE(group.connected(1));
  EXPECT_FALSE(group.connected(2));
  EXPECT_EQ(PcpCode(group.last_error(2)), -ECONNREFUSED);
  EXPECT_EQ(PcpCode(group.last_error(3)), -ENOENT);
  // Both connections reach the same agents: one lookup.
  EXPECT_EQ(group.stats().lookups, 1u);
  EXPECT_EQ(group.stats().connects, 2u);
  for (int round = 0; round < 3; ++round) {
    std::vector<int> answers(hosts.size(), 0);
    group.Fetch([&](const HostAnswer& a) {
      ++answers[a.host];
      if (a.host >= 2) {
        EXPECT_EQ(PcpCode(a.status), kErrIpc) << a.host;
        EXPECT_EQ(a.result, nullptr);
        return;
      }
      ASSERT_TRUE(a.status.ok()) << a.host << ": " << a.status;
      ASSERT_EQ(a.result->numpmid(), 3);
      EXPECT_EQ(Lval(a, 0), 1);
      EXPECT_EQ(Lval(a, 1), 10);
      EXPECT_EQ(a.descs[0].type, kType32);
      EXPECT_EQ(a.ids[2], kPmIDNull);
      EXPECT_LT(a.result->sets()[2].numval, 0);
    });
    EXPECT_EQ(answers, std::vector<int>(hosts.size(), 1));
  }
  EXPECT_EQ(group.stats().rounds, 3u);
  EXPECT_EQ(group.stats().answers_ok, 6u);
  EXPECT_EQ(group.stats().answers_failed, 6u);
}

TEST_F(HostGroupTest, ASilentHostDoesNotDelayTheOthers) {
  SilentPeer silent;
  setenv("PMCD_REQUEST_TIMEOUT", "0.5", 1);
  absl::StatusOr<std::unique_ptr<HostGroup>> g =
      HostGroup::Open({silent.spec(), "unix:"}, {"sample.long.hundred"});
  unsetenv("PMCD_REQUEST_TIMEOUT");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(PcpCode((*g)->last_error(0)), kErrTimeout);
  const auto start = std::chrono::steady_clock::now();
  int ok = 0;
  (*g)->Fetch([&](const HostAnswer& a) {
    if (a.host == 0) {
      EXPECT_EQ(PcpCode(a.status), kErrIpc);
    } else {
      ASSERT_TRUE(a.status.ok()) << a.status;
      EXPECT_EQ(Lval(a, 0), 100);
      ++ok;
    }
  });
  EXPECT_EQ(ok, 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200));
}

TEST_F(HostGroupTest, RefusesEmptyListsAndBadDeadlines) {
  EXPECT_EQ(PcpCode(HostGroup::Open({}, {"sample.long.one"}).status()), kErrToosmall);
  EXPECT_EQ(PcpCode(HostGroup::Open({"unix:"}, {}).status()), kErrToosmall);
  HostGroupOptions o;
  o.deadline = absl::ZeroDuration();
  EXPECT_EQ(PcpCode(HostGroup::Open({"unix:"}, {"sample.long.one"}, o).status()), -EINVAL);
}

}  // namespace
}  // namespace pmapi
