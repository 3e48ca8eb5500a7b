// pmdaRoot*: the pmdaroot messages (pmda_root_pdu.h) and the C calls over
// a socket pair whose other end plays pmdaroot. The real pmdaroot is the
// oracle in tests/compat/pmda/root_test.sh.
#include <gtest/gtest.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "pmda_root_pdu.h"

namespace pmapi::rootpdu {
namespace {

std::vector<uint8_t> Words(std::initializer_list<int32_t> w) {
  std::vector<uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), std::data(w), b.size());
  return b;
}

int32_t WordAt(const std::vector<uint8_t>& b, int i) {
  int32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}

TEST(RootPdu, ContainerRequestLayout) {
  int err = 1;
  std::vector<uint8_t> b = EncodeContainer(kHostNameReq, 7, "abcdef", 3, &err);
  ASSERT_EQ(err, 0);
  ASSERT_EQ(b.size(), 27u);
  EXPECT_EQ(WordAt(b, 0), kHostNameReq);
  EXPECT_EQ(WordAt(b, 1), 27);
  EXPECT_EQ(WordAt(b, 2), 0);
  EXPECT_EQ(WordAt(b, 3), 2);
  EXPECT_EQ(WordAt(b, 4), 7);
  EXPECT_EQ(WordAt(b, 5), 3);
  EXPECT_EQ(std::string(b.begin() + 24, b.end()), "abc");
  EncodeContainer(kHostNameReq, 0, "x", -1, &err);
  EXPECT_EQ(err, -EINVAL);
  EncodeContainer(kHostNameReq, 0, "x", 4096, &err);
  EXPECT_EQ(err, -E2BIG);
}

TEST(RootPdu, StartAndStopRequests) {
  int err = 1;
  std::vector<uint8_t> b = EncodeStart(2, "lbl", 3, "/bin/cat -u", 11, &err);
  ASSERT_EQ(err, 0);
  ASSERT_EQ(b.size(), 115u);
  EXPECT_EQ(WordAt(b, 0), kStartReq);
  EXPECT_EQ(WordAt(b, 7), 2);
  EXPECT_EQ(WordAt(b, 8), 3);
  EXPECT_EQ(WordAt(b, 9), 11);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(b.data()) + 40), "lbl");
  EXPECT_EQ(std::string(b.begin() + 104, b.end()), "/bin/cat -u");
  EncodeStart(2, "", 0, "a", 1, &err);
  EXPECT_EQ(err, -EINVAL);
  EncodeStart(2, "l", 64, "a", 1, &err);
  EXPECT_EQ(err, -E2BIG);
  b = EncodeStop(99, 0, 1);
  ASSERT_EQ(b.size(), 32u);
  EXPECT_EQ(WordAt(b, 0), kStopReq);
  EXPECT_EQ(WordAt(b, 4), 99);
  EXPECT_EQ(WordAt(b, 6), 1);
}

TEST(RootPdu, InfoChecks) {
  int version = 0, features = 0;
  EXPECT_EQ(CheckInfo(Words({kInfo, 24, 0, 2, 7, 0}), &version, &features), 0);
  EXPECT_EQ(version, 2);
  EXPECT_EQ(features, 7);
  EXPECT_EQ(CheckInfo(Words({kInfo, 24, 0, 2, 7}), &version, &features), -EINVAL);
  EXPECT_EQ(CheckInfo(Words({kHostName, 24, 0, 2, 7, 0}), &version, &features), -ESRCH);
  EXPECT_EQ(CheckInfo(Words({kInfo, 24, 0, 3, 7, 0}), &version, &features), -ENOTSUP);
  EXPECT_EQ(CheckInfo(Words({kInfo, 24, PM_ERR_IPC, 2, 7, 0}), &version, &features), PM_ERR_IPC);
  EXPECT_EQ(CheckInfo(Words({kInfo, 28, 0, 2, 7, 0}), &version, &features), -E2BIG);
}

TEST(RootPdu, ContainerReplies) {
  std::vector<uint8_t> ok = Words({kHostName, 28, 0, 2, 42, 4});
  for (char c : std::string("host")) ok.push_back(static_cast<uint8_t>(c));
  EXPECT_EQ(CheckContainer(ok, kHostName), 0);
  char buf[8];
  int pid = 0;
  EXPECT_EQ(DecodeContainer(ok, &pid, buf, sizeof buf), 4);
  EXPECT_EQ(pid, 42);
  EXPECT_STREQ(buf, "host");
  EXPECT_EQ(DecodeContainer(ok, &pid, buf, 4), -E2BIG);
  EXPECT_EQ(DecodeContainer(ok, &pid, nullptr, 0), 4);
  EXPECT_EQ(CheckContainer(Words({kHostName, 24, 0, 2, 42}), kHostName), -EINVAL);
  EXPECT_EQ(CheckContainer(ok, kCGroupName), -ESRCH);
  EXPECT_EQ(CheckContainer(Words({kHostName, 24, PM_ERR_NOCONTAINER, 2, 0, 0}), kHostName), PM_ERR_NOCONTAINER);
  EXPECT_EQ(CheckContainer(Words({kHostName, 24, 0, 2, 0, 4}), kHostName), -E2BIG);
  // A name longer than what arrived, or negative, is refused.
  EXPECT_EQ(DecodeContainer(Words({kHostName, 9999, 0, 2, 0, 9}), &pid, buf, sizeof buf), -EINVAL);
  EXPECT_EQ(DecodeContainer(Words({kHostName, 24, 0, 2, 0, -5}), &pid, buf, sizeof buf), -EINVAL);
}

TEST(RootPdu, StartAndStopReplies) {
  std::vector<uint8_t> start(104, 0);
  std::memcpy(start.data(), Words({kStart, 104, 0, 2, 1234}).data(), 20);
  EXPECT_EQ(CheckStart(start), 0);
  EXPECT_EQ(StartPid(start), 1234);
  EXPECT_EQ(CheckStart(Words({kStart, 104, PM_ERR_GENERIC, 2})), PM_ERR_GENERIC);
  EXPECT_EQ(CheckStart(Words({kStart, 104, 0, 2})), -EINVAL);
  EXPECT_EQ(CheckStart({}), -ESRCH);
  EXPECT_EQ(CheckStop(Words({kStop, 32, 0, 2, 5, 9, 0, 0})), 0);
  int pid = 0, code = 0;
  DecodeStop(Words({kStop, 32, 0, 2, 5, 9, 0, 0}), &pid, &code);
  EXPECT_EQ(pid, 5);
  EXPECT_EQ(code, 9);
  EXPECT_EQ(CheckStop(Words({kStop, 32, -ESRCH, 2, 5, 9, 0, 0})), -ESRCH);
  EXPECT_EQ(CheckStop(Words({kStop, 32, 0, 2})), -EINVAL);
}

// The C calls against a scripted server on the other end of a socket pair.
class RootCalls : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  void TearDown() override {
    close(fds_[0]);
    close(fds_[1]);
  }
  // The server side: reads one request, answers `reply`.
  std::vector<uint8_t> Serve(const std::vector<uint8_t>& reply) {
    std::vector<uint8_t> req(8192);
    ssize_t n = recv(fds_[1], req.data(), req.size(), 0);
    req.resize(n > 0 ? static_cast<size_t>(n) : 0);
    if (!reply.empty()) (void)send(fds_[1], reply.data(), reply.size(), 0);
    return req;
  }
  int fds_[2];
};

TEST_F(RootCalls, HostNameByPidAndByName) {
  std::vector<uint8_t> reply = Words({kHostName, 28, 0, 2, 77, 4});
  for (char c : std::string("box1")) reply.push_back(static_cast<uint8_t>(c));
  std::vector<uint8_t> req;
  std::thread server([&] { req = Serve(reply); });
  char buf[64];
  EXPECT_EQ(pmdaRootContainerHostName(fds_[0], nullptr, 77, buf, sizeof buf), 4);
  server.join();
  EXPECT_STREQ(buf, "box1");
  ASSERT_EQ(req.size(), 24u);  // by pid: the pid, an empty name
  EXPECT_EQ(WordAt(req, 4), 77);
  EXPECT_EQ(WordAt(req, 5), 0);

  std::thread named([&] { req = Serve(Words({kProcessId, 24, PM_ERR_NOCONTAINER, 2, 0, 0})); });
  EXPECT_EQ(pmdaRootContainerProcessID(fds_[0], "web", 3), PM_ERR_NOCONTAINER);
  named.join();
  EXPECT_EQ(std::string(req.begin() + 24, req.end()), "web");
  EXPECT_EQ(pmdaRootContainerCGroupName(-1, "web", 3, buf, sizeof buf), -ENOTCONN);
}

TEST_F(RootCalls, ClosedServerAndStop) {
  std::thread server([&] {
    Serve({});
    shutdown(fds_[1], SHUT_WR);
  });
  char buf[16];
  EXPECT_EQ(pmdaRootContainerCGroupName(fds_[0], "x", 1, buf, sizeof buf), -EINVAL);
  server.join();
}

TEST_F(RootCalls, WaitAndTerminate) {
  std::vector<uint8_t> req;
  std::thread server([&] { req = Serve(Words({kStop, 32, 0, 2, 321, 256, 0, 0})); });
  int status = 0;
  EXPECT_EQ(pmdaRootProcessWait(fds_[0], 0, &status), 321);
  server.join();
  EXPECT_EQ(status, 256);
  EXPECT_EQ(WordAt(req, 6), 0);
  std::thread term([&] { req = Serve(Words({kStop, 32, 0, 2, 321, 0, 0, 0})); });
  EXPECT_EQ(pmdaRootProcessTerminate(fds_[0], 321), 0);
  term.join();
  EXPECT_EQ(WordAt(req, 4), 321);
  EXPECT_EQ(WordAt(req, 6), 1);
}

TEST(RootConnect, NoServerIsMinusOneAsPcp) {
  EXPECT_EQ(pmdaRootConnect("/nonexistent/dir/root.socket"), -1);
}

TEST(RootConnect, VersionExchange) {
  std::string path = ::testing::TempDir() + "/root_test.socket." + std::to_string(getpid());
  unlink(path.c_str());
  int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(lfd, 2), 0);
  std::thread server([&] {
    for (int32_t version : {2, 3}) {
      int c = accept(lfd, nullptr, nullptr);
      std::vector<uint8_t> info = Words({kInfo, 24, 0, version, 7, 0});
      (void)send(c, info.data(), info.size(), 0);
      close(c);
    }
  });
  int fd = pmdaRootConnect(path.c_str());
  EXPECT_GE(fd, 0);
  pmdaRootShutdown(fd);
  close(fd);
  EXPECT_EQ(pmdaRootConnect(path.c_str()), -ENOTSUP);  // a newer server
  server.join();
  close(lfd);
  unlink(path.c_str());
}

}  // namespace
}  // namespace pmapi::rootpdu
