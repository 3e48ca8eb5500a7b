// Fuzz target: a client connecting to a hostile peer. The input's first
// byte chooses the host spec (direct, through a proxy, with a container,
// both, or with a user and password for pmcd's authentication exchange,
// the mechanism chosen from pmcd's offer or named); the rest is everything the peer sends (a proxy's greeting, the
// pmcd handshake, then replies) before it closes. The client completes the
// connection over one end of a socket pair (HostConnection::Adopt) and,
// when that succeeds, makes one request and reads its reply.
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>

#include "fuzz_support.h"
#include "host_connection.h"
#include "notice.h"
#include "pmapi/errors.h"
#include "pdu_codec.h"

namespace {

constexpr const char* kSpecs[] = {
    "localhost:44321",
    "localhost:44321@localhost:44322",
    "localhost:44321?container=fuzz",
    "localhost:44321@proxy:1?container=fuzz",
    "localhost:44321?username=fuzz&password=secret",
    "localhost:44321?username=fuzz&password=secret&method=plain&container=c",
};
constexpr size_t kSpecCount = sizeof kSpecs / sizeof kSpecs[0];

uint64_t RunOne(uint8_t choice, std::span<const uint8_t> peer) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0) return 0;
  // Everything the peer says is in the socket before the client reads: the
  // socket buffer takes far more than the fuzzer's inputs.
  size_t off = 0;
  while (off < peer.size()) {
    ssize_t n = write(sv[1], peer.data() + off, peer.size() - off);
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
  shutdown(sv[1], SHUT_WR);
  pmapi::ConnectOptions opts;
  opts.request_timeout = absl::Milliseconds(200);
  uint64_t h = 0;
  absl::StatusOr<std::unique_ptr<pmapi::HostConnection>> c =
      pmapi::HostConnection::Adopt(sv[0], kSpecs[choice % kSpecCount], opts);
  if (c.ok()) {
    h += (*c)->features();
    absl::StatusOr<std::span<const uint8_t>> reply =
        (*c)->CallView(pmapi::EncodeDescReq(0, pmapi::PmID{1}));
    if (reply.ok()) h += reply->size();
  } else {
    h += static_cast<uint64_t>(pmapi::PcpCode(c.status()));
  }
  close(sv[1]);
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 65536) return 0;
  // The warnings about bad greetings would flood the fuzzer's output, and
  // nobody is at a console to answer SASL's questions.
  pmapi::SetNoticeHandler(nullptr);
  setenv("PCP_CONSOLE", "none", 1);
  fuzz::Consume(RunOne(data[0], std::span<const uint8_t>(data + 1, size - 1)));
  return 0;
}
