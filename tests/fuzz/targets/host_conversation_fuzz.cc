// Fuzz target: whole conversations with a hostile pmcd. A fake pmcd listens
// on a loopback TCP port and, to each connection in turn, sends one of the
// input's streams (everything a real pmcd said in a recorded conversation,
// as the fuzzer mutated it), then closes its side. The client stack runs a
// whole scenario against it:
//
//   byte 0 % 2 == 0: a host context (Context over HostSource): the
//       handshake, names, descriptors, an instance domain, a fetch, labels
//       and help text, as a monitoring tool would;
//   byte 0 % 2 == 1: a HostGroup of three hosts (connections 0, 1, 2 get
//       streams 0, 1, 2): the handshake, the agent-set probe and lookups,
//       then three fetch rounds.
//
// The streams follow byte 0, separated by the four bytes "\xffNXT". Each
// failure must carry a PCP error code (a clear error), every host of every
// round must answer exactly once, and nothing may hang (request timeout
// 200 ms; the fake pmcd closes its side, so most inputs end at once).
//
// With $FUZZ_CONVERSATION_PEER set to a host spec, the scenario runs
// against that instead of the fake pmcd: pointed at a recording relay in
// front of a real pmcd, this records the seeds (tests/fuzz/record_conversations.sh).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_support.h"
#include "notice.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"
#include "pmapi/host_group.h"

namespace {

constexpr uint8_t kSeparator[] = {0xff, 'N', 'X', 'T'};

std::vector<std::vector<uint8_t>> SplitStreams(std::span<const uint8_t> in) {
  std::vector<std::vector<uint8_t>> out(1);
  for (size_t i = 0; i < in.size(); ++i) {
    if (i + 4 <= in.size() && std::equal(kSeparator, kSeparator + 4, in.begin() + i)) {
      out.emplace_back();
      i += 3;
      continue;
    }
    out.back().push_back(in[i]);
  }
  return out;
}

// The fake pmcd: one listening socket for the whole run, served by a
// thread that hands connection k the current input's stream k (mod count).
class FakePmcd {
 public:
  FakePmcd() {
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(listener_, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(listener_, 64) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      std::abort();
    }
    spec_ = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    std::thread([this] { Serve(); }).detach();
  }
  const std::string& spec() const { return spec_; }

  void Begin(std::vector<std::vector<uint8_t>> streams) {
    std::lock_guard<std::mutex> lock(mu_);
    streams_ = std::move(streams);
    next_ = 0;
  }
  // Closes the connections of the conversation that ended.
  void End() {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : open_) close(fd);
    open_.clear();
  }

 private:
  void Serve() {
    while (true) {
      int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      std::lock_guard<std::mutex> lock(mu_);
      const std::vector<uint8_t>& s = streams_[next_++ % streams_.size()];
      // The socket buffer takes far more than the fuzzer's inputs.
      size_t off = 0;
      while (off < s.size()) {
        ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) break;
        off += static_cast<size_t>(n);
      }
      shutdown(fd, SHUT_WR);
      open_.push_back(fd);
    }
  }

  int listener_ = -1;
  std::string spec_;
  std::mutex mu_;
  std::vector<std::vector<uint8_t>> streams_ = {{}};
  size_t next_ = 0;
  std::vector<int> open_;
};

// A failure must be one of PCP's codes. $FUZZ_CONVERSATION_VERBOSE
// prints every outcome (to see what a seed reaches).
void Check(const absl::Status& s) {
  static const bool verbose = std::getenv("FUZZ_CONVERSATION_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "  %s\n", s.ok() ? "ok" : std::string(s.message()).c_str());
  if (!s.ok() && pmapi::PcpCode(s) >= 0) std::abort();
  fuzz::Consume(fuzz::Digest(s));
}

template <typename T>
bool Good(const absl::StatusOr<T>& v) {
  Check(v.status());
  return v.ok();
}

const char* const kNames[] = {"sample.long.one", "sample.bin", "sample.string.hullo",
                              "sampledso.double.ten", "pmcd.hostname"};

void RunContext(const std::string& spec) {
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext(spec);
  if (!Good(ctx)) return;
  std::vector<std::string> names(std::begin(kNames), std::end(kNames));
  std::vector<pmapi::PmID> ids;
  for (absl::StatusOr<pmapi::PmID>& id : ctx->LookupNames(names)) {
    if (Good(id)) ids.push_back(*id);
  }
  if (ids.empty()) return;
  absl::StatusOr<std::vector<pmapi::Desc>> descs = ctx->LookupDescs(ids);
  if (Good(descs)) {
    for (const pmapi::Desc& d : *descs) {
      if (d.indom != pmapi::kInDomNull) Good(ctx->GetInDom(d.indom));
    }
  }
  absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
  if (Good(r)) fuzz::Consume(fuzz::Digest(*r));
  Good(ctx->LookupLabels(pmapi::LabelLevel::kItem, ids[0]));
  Good(ctx->LookupText(ids[0], pmapi::TextKind::kOneline));
  Check(ctx->Traverse("sample.long", [](const std::string& n) { fuzz::Consume(n.size()); }));
}

void RunGroup(const std::string& spec) {
  pmapi::HostGroupOptions options;
  options.deadline = absl::Milliseconds(200);
  options.connect_threads = 1;
  absl::StatusOr<std::unique_ptr<pmapi::HostGroup>> g = pmapi::HostGroup::Open(
      {spec, spec, spec}, std::vector<std::string>(std::begin(kNames), std::end(kNames)), options);
  if (!Good(g)) return;
  for (int round = 0; round < 3; ++round) {
    int answers[3] = {0, 0, 0};
    (*g)->Fetch([&](const pmapi::HostAnswer& a) {
      ++answers[a.host];
      Check(a.status);
      if (a.status.ok()) fuzz::Consume(fuzz::Digest(*a.result) + a.ids.size() + a.descs.size());
    });
    if (answers[0] != 1 || answers[1] != 1 || answers[2] != 1) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 65536) return 0;
  pmapi::SetNoticeHandler(nullptr);
  setenv("PMCD_REQUEST_TIMEOUT", "0.2", 1);
  setenv("PMCD_RECONNECT_TIMEOUT", "1", 1);
  if (const char* peer = std::getenv("FUZZ_CONVERSATION_PEER")) {
    (data[0] % 2 == 0 ? RunContext : RunGroup)(peer);
    return 0;
  }
  static FakePmcd* fake = new FakePmcd();
  fake->Begin(SplitStreams({data + 1, size - 1}));
  (data[0] % 2 == 0 ? RunContext : RunGroup)(fake->spec());
  fake->End();
  return 0;
}
