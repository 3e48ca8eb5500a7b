// Fuzz target: what an agent receives from pmdaroot. The input is checked
// and decoded as each kind of reply (pmda_root_pdu.h), and then handed, as
// what pmdaroot sends back, to each C call of <pcp/pmda.h> that reads one
// (over a socket pair; the requests they send are read and dropped), and
// to libpcp_pmda's receive-and-decode calls for each message
// (__pmdaRecvRootPDU*, then __pmdaDecodeRootPDU* on what was received).
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_support.h"
#include "pcp_internal.h"
#include "pmda_root_pdu.h"

namespace {

namespace rp = pmapi::rootpdu;

uint64_t Decoders(std::span<const uint8_t> in) {
  uint64_t d = 0;
  int version = 0, features = 0, pid = 0, code = 0;
  if (in.size() >= rp::kHeaderBytes && rp::CheckInfo(in, &version, &features) == 0) d += static_cast<uint64_t>(version) + static_cast<uint64_t>(features);
  for (int type : {rp::kHostName, rp::kProcessId, rp::kCGroupName}) {
    if (rp::CheckContainer(in, type) != 0) continue;
    char buf[64];
    int n = rp::DecodeContainer(in, &pid, buf, sizeof buf);
    if (n > 0) d += fuzz::Digest(std::string_view(buf, static_cast<size_t>(n)));
    d += static_cast<uint64_t>(n) + pid;
  }
  if (rp::CheckStart(in) == 0) d += rp::StartPid(in);
  if (rp::CheckStop(in) == 0) {
    rp::DecodeStop(in, &pid, &code);
    d += static_cast<uint64_t>(pid) + static_cast<uint64_t>(code);
  }
  return d;
}

// One C call with `in` as the reply waiting for it.
int CallWithReply(std::span<const uint8_t> in, int which) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) < 0) return 0;
  if (!in.empty()) (void)send(fds[1], in.data(), in.size(), MSG_NOSIGNAL);
  shutdown(fds[1], SHUT_WR);
  char buf[128];
  int status = 0, pid = 0, infd = -1, outfd = -1, sts = 0;
  switch (which) {
    case 0: sts = pmdaRootContainerHostName(fds[0], "name", 4, buf, sizeof buf); break;
    case 1: sts = pmdaRootContainerProcessID(fds[0], nullptr, 1); break;
    case 2: sts = pmdaRootContainerCGroupName(fds[0], "name", 4, buf, sizeof buf); break;
    case 3: sts = pmdaRootProcessWait(fds[0], 0, &status); break;
    case 4: sts = pmdaRootProcessTerminate(fds[0], 1); break;
    default: sts = pmdaRootProcessStart(fds[0], 2, "l", 1, "a", 1, &pid, &infd, &outfd); break;
  }
  close(fds[0]);
  close(fds[1]);
  return static_cast<int>(static_cast<unsigned>(sts) + static_cast<unsigned>(status) + static_cast<unsigned>(pid));
}

// One of libpcp_pmda's receive calls over `in`, then its decoder over the
// message received (into a buffer as large as the largest message).
int ReceiveAndDecode(std::span<const uint8_t> in, int which) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) < 0) return 0;
  if (!in.empty()) (void)send(fds[1], in.data(), in.size(), MSG_NOSIGNAL);
  shutdown(fds[1], SHUT_WR);
  static std::vector<char> buf(static_cast<size_t>(rp::kStartBytes + rp::kMaxPath + 64));
  char name[rp::kMaxPath + 1], args[rp::kMaxPath + 1];
  const int blen = static_cast<int>(buf.size());
  int a = 0, b = 0, c = 0, d = 0, e = 0, sts = 0;
  switch (which) {
    case 0:
      sts = __pmdaRecvRootPDUInfo(fds[0], &a, &b);
      break;
    case 1:
      if ((sts = __pmdaRecvRootPDUContainer(fds[0], rp::kHostName, buf.data(), blen)) >= 0)
        sts = __pmdaDecodeRootPDUContainer(buf.data(), sts, &a, name, sizeof name);
      break;
    case 2:
      if ((sts = __pmdaRecvRootPDUStartReq(fds[0], buf.data(), blen)) >= 0)
        sts = __pmdaDecodeRootPDUStart(buf.data(), sts, &a, &b, &c, &d, name, sizeof name, args, sizeof args);
      break;
    case 3:
      // (no descriptor comes with a fuzzed message, and the decoded ones
      // are the message's own words: nothing is closed)
      if ((sts = __pmdaRecvRootPDUStart(fds[0], buf.data(), blen)) >= 0)
        sts = __pmdaDecodeRootPDUStart(buf.data(), sts, &a, &b, &c, &d, name, sizeof name, nullptr, 0);
      break;
    default:
      if ((sts = __pmdaRecvRootPDUStop(fds[0], rp::kStop, buf.data(), blen)) >= 0)
        sts = __pmdaDecodeRootPDUStop(buf.data(), sts, &a, &d, &e);
      break;
  }
  close(fds[0]);
  close(fds[1]);
  return static_cast<int>(static_cast<unsigned>(sts) + static_cast<unsigned>(a) + static_cast<unsigned>(d) +
                          static_cast<unsigned>(e));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  std::span<const uint8_t> in(data, size);
  uint64_t d = Decoders(in);
  for (int which = 0; which < 6; which++) d += static_cast<uint64_t>(CallWithReply(in, which));
  for (int which = 0; which < 5; which++) d += static_cast<uint64_t>(ReceiveAndDecode(in, which));
  fuzz::Consume(d);
  return 0;
}
