// host_fault_test: a host context when its pmcd fails. A second private
// pmcd (its own directory and port) is stopped, frozen and restarted under
// a live Context: a lost pmcd gives PM_ERR_IPC at once, Reconnect follows
// the back-off and, once pmcd is back, restores fetching with the same
// instance profile and descriptors; a pmcd that stops answering gives
// PM_ERR_TIMEOUT within PMCD_REQUEST_TIMEOUT; a server that accepts the
// connection and never speaks gives PM_ERR_TIMEOUT when the context is
// opened. (Malformed PDUs from a fake server are covered by the unit tests
// pdu_connection_fault_test, host_protocol_test and pdu_codec_test.)
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "golden_live_tools.h"
#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"

namespace pmapi {
namespace {

// A pmcd of this test's own, so stopping it disturbs no other test.
class FaultPmcd : public testing::Test {
 protected:
  static std::string Dir() { return std::string(PMAPI_PMCD_DIR) + "-fault"; }

  // Starts pmcd. The tests reach it by its unix socket, which lives in its
  // directory: a TCP port could be taken by another pmcd while this one is
  // down.
  static void Start() {
    std::string env = ShellOutput(PmcdScript() + " start " + Dir());
    socket_ = EnvValue(env, "PMCD_SOCKET");
  }
  static void Stop() { ShellOutput(PmcdScript() + " stop " + Dir() + " >/dev/null 2>&1"); }
  static int Pid() { return std::atoi(ReadFile(Dir() + "/run/pmcd.pid").c_str()); }

  static void SetUpTestSuite() { Start(); }
  static void TearDownTestSuite() { Stop(); }

  void SetUp() override {
    if (ShellOutput(PmcdScript() + " status " + Dir() + " && echo up") != "up\n") Start();
    ASSERT_FALSE(socket_.empty());
  }

  // Opens a context on the pmcd, with the environment `vars`
  // (NAME=value pairs) in force while it is made.
  static absl::StatusOr<Context> Open(const std::vector<std::pair<const char*, const char*>>& vars) {
    for (const auto& [name, value] : vars) setenv(name, value, 1);
    absl::StatusOr<Context> ctx = OpenHostContext("unix:" + socket_);
    for (const auto& [name, value] : vars) unsetenv(name);
    return ctx;
  }

  static inline std::string socket_;
};

// Returns the number of values of the one metric fetched, or the error.
absl::StatusOr<int> CountValues(Context& ctx, PmID id) {
  const PmID ids[] = {id};
  absl::StatusOr<Result> r = ctx.Fetch(ids);
  if (!r.ok()) return r.status();
  return r->sets()[0].numval;
}

TEST_F(FaultPmcd, KilledPmcdIsIpcAndReconnectAfterRestartRestoresFetching) {
  absl::StatusOr<Context> ctx = Open({{"PMCD_RECONNECT_TIMEOUT", "3"}});
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> colour = ctx->LookupName("sample.colour");
  ASSERT_TRUE(colour.ok()) << colour.status();
  absl::StatusOr<Desc> desc = ctx->LookupDesc(*colour);
  ASSERT_TRUE(desc.ok());
  // Only instance 1 of the three colours.
  ASSERT_TRUE(ctx->DelProfile(desc->indom, {}).ok());
  const Inst one[] = {Inst{1}};
  ASSERT_TRUE(ctx->AddProfile(desc->indom, one).ok());
  EXPECT_EQ(CountValues(*ctx, *colour).value_or(-1), 1);

  Stop();
  const absl::Time lost = absl::Now();
  EXPECT_EQ(PcpCode(CountValues(*ctx, *colour).status()), kErrIpc);
  EXPECT_LT(absl::Now() - lost, absl::Seconds(1));
  EXPECT_EQ(PcpCode(ctx->LookupName("sample.long.one").status()), kErrIpc);
  // pmcd is down: the attempt fails, and the next one is held back for
  // the 3 s delay even though pmcd is back.
  EXPECT_EQ(PcpCode(ctx->Reconnect()), -ETIMEDOUT);
  const absl::Time failed = absl::Now();

  Start();
  if (absl::Now() - failed < absl::Milliseconds(2800)) {
    EXPECT_EQ(PcpCode(ctx->Reconnect()), -ETIMEDOUT);
  }
  absl::SleepFor(failed + absl::Milliseconds(3100) - absl::Now());
  absl::Status again = ctx->Reconnect();
  ASSERT_TRUE(again.ok()) << again;
  // The profile survived: still one colour.
  EXPECT_EQ(CountValues(*ctx, *colour).value_or(-1), 1);
  absl::StatusOr<PmID> one_name = ctx->LookupName("sample.long.one");
  ASSERT_TRUE(one_name.ok());
  absl::StatusOr<Result> r = ctx->Fetch(std::vector<PmID>{*one_name});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value(r->sets()[0], 0).lval, 1);
}

TEST_F(FaultPmcd, ReconnectOfAConnectedContextMakesANewConnection) {
  absl::StatusOr<Context> ctx = Open({});
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> id = ctx->LookupName("sample.long.one");
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(ctx->Reconnect().ok());
  EXPECT_EQ(CountValues(*ctx, *id).value_or(-1), 1);
}

TEST_F(FaultPmcd, FrozenPmcdTimesOutWithinTheRequestTimeout) {
  absl::StatusOr<Context> ctx = Open({{"PMCD_REQUEST_TIMEOUT", "1"}});
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> id = ctx->LookupName("sample.long.one");
  ASSERT_TRUE(id.ok());
  const int pid = Pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  const absl::Time start = absl::Now();
  absl::StatusOr<int> n = CountValues(*ctx, *id);
  const absl::Duration took = absl::Now() - start;
  kill(pid, SIGCONT);
  EXPECT_EQ(PcpCode(n.status()), kErrTimeout);
  EXPECT_GE(took, absl::Milliseconds(900));
  EXPECT_LT(took, absl::Seconds(3));
  // The stream is out of step after a timeout: the connection is dropped,
  // and a reconnect brings the context back.
  EXPECT_EQ(PcpCode(CountValues(*ctx, *id).status()), kErrIpc);
  ASSERT_TRUE(ctx->Reconnect().ok());
  EXPECT_EQ(CountValues(*ctx, *id).value_or(-1), 1);
}

TEST(Reconnect, ArchiveContextIsLeftAsItIs) {
  absl::StatusOr<Context> ctx = Context::OpenArchive(
      std::string(PMAPI_SOURCE_DIR) + "/tests/data/archives/reference/small-v3/small-v3");
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<Result> first = ctx->FetchArchive();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(ctx->Reconnect().ok());
  // Still positioned after the first record.
  absl::StatusOr<Result> second = ctx->FetchArchive();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_GT(second->timestamp_ns(), first->timestamp_ns());
}

// A TCP socket that is listening (the kernel completes connections) but
// never read or written.
class SilentServer {
 public:
  SilentServer() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(fd_, 4);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~SilentServer() { close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(SilentServer, OpeningTimesOutWithinTheRequestTimeout) {
  SilentServer server;
  setenv("PMCD_REQUEST_TIMEOUT", "1", 1);
  const absl::Time start = absl::Now();
  absl::StatusOr<Context> ctx = OpenHostContext("localhost:" + std::to_string(server.port()));
  const absl::Duration took = absl::Now() - start;
  unsetenv("PMCD_REQUEST_TIMEOUT");
  EXPECT_EQ(PcpCode(ctx.status()), kErrTimeout);
  EXPECT_GE(took, absl::Milliseconds(900));
  EXPECT_LT(took, absl::Seconds(3));
}

}  // namespace
}  // namespace pmapi
