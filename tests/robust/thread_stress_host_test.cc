// Thread stress with host contexts: many contexts on many threads at once
// against the private pmcd (scripts/pmcd-private.sh, the sample PMDA as
// domain 29), over its unix socket and over TCP. Names, descriptors, the
// instances of the fixed instance domains and the values of the metrics
// that never change must equal what one thread alone sees; every fetch of
// all of sample.* must succeed. The second test mixes host, archive and
// local contexts through the C API. Run by CTest with the private_pmcd
// fixture (label interop) and under ThreadSanitizer by scripts/tsan.sh.
// The third makes a process's first contexts on many threads at once (the
// library then loads pcp.conf into the environment while the threads read
// it), in many fresh processes.
#include <pcp/pmapi.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/host.h"
#include "private_pmcd.h"
#include "stress_walks.h"

namespace {

const std::string kData = PMAPI_TEST_DATA_DIR;

// The sample metrics whose values and instances stay the same from one
// fetch to the next (most of the others count, drift or reshuffle).
const std::vector<std::string> kStable = {
    "sample.long.one",   "sample.long.ten",     "sample.long.hundred", "sample.long.million",
    "sample.ulong.one",  "sample.ulong.million", "sample.longlong.one", "sample.double.ten",
    "sample.float.hundred", "sample.string.hullo", "sample.bin",       "sample.part_bin",
};

// Points PMCD_PORT and PMCD_SOCKET at the private pmcd (PMAPI_STRESS_PMCD_DIR
// overrides the build tree's). Called before any thread starts.
bool UsePrivatePmcd() {
  const char* dir = std::getenv("PMAPI_STRESS_PMCD_DIR");
  std::string env = pmapi::ShellOutput(pmapi::PmcdScript() + " env " + (dir != nullptr ? dir : PMAPI_PMCD_DIR));
  std::string port = pmapi::EnvValue(env, "PMCD_PORT");
  std::string socket = pmapi::EnvValue(env, "PMCD_SOCKET");
  if (port.empty() || socket.empty()) return false;
  setenv("PMCD_PORT", port.c_str(), 1);
  setenv("PMCD_SOCKET", socket.c_str(), 1);
  return true;
}

stress::WalkSpec SampleSpec() {
  stress::WalkSpec spec;
  spec.root = "sample";
  spec.stable = kStable;
  spec.fetches = 2;
  return spec;
}

std::string Describe(const stress::Walk& w) {
  return "{names " + std::to_string(w.names) + ", fetched " + std::to_string(w.fetched) +
         ", errors " + std::to_string(w.errors) + ", digests " + std::to_string(w.names_digest) +
         " " + std::to_string(w.extras_digest) + " " + std::to_string(w.values_digest) + " " +
         std::to_string(w.indoms_digest) + "}";
}

// Unix socket and TCP.
const char* const kSpecs[] = {"unix:", "localhost"};

TEST(ThreadStressHost, HostContextsOnManyThreads) {
  ASSERT_TRUE(UsePrivatePmcd());
  const stress::WalkSpec spec = SampleSpec();
  std::vector<stress::Walk> expected;
  for (const char* h : kSpecs) {
    absl::StatusOr<pmapi::Context> solo = pmapi::OpenHostContext(h);
    ASSERT_TRUE(solo.ok()) << h << ": " << solo.status();
    expected.push_back(stress::WalkContext(*solo, spec));
    // Every fetch succeeds; the one failing lookup is sample.bad.unknown,
    // which has no descriptor (PCP's pmLookupDesc fails on it too).
    ASSERT_EQ(expected.back().fetched, spec.fetches) << h;
    ASSERT_EQ(expected.back().errors, 1) << h;
    ASSERT_GT(expected.back().names, 100) << h;
  }
  // The same pmcd, whichever way it is reached.
  ASSERT_EQ(expected[0], expected[1]);

  const int threads = stress::EnvCount("PMAPI_STRESS_THREADS", 6);
  const int rounds = stress::EnvCount("PMAPI_STRESS_ROUNDS", 2);
  std::atomic<int> mismatches{0}, open_failures{0}, walks{0}, contexts{0};
  std::mutex mu;
  std::string first_mismatch;
  auto check = [&](const stress::Walk& got, int i) {
    if (got == expected[i]) return;
    std::lock_guard<std::mutex> lock(mu);
    if (mismatches++ == 0) first_mismatch = Describe(got) + " instead of " + Describe(expected[i]);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Two long-lived contexts (socket and TCP) and a fresh one per round.
      std::vector<pmapi::Context> kept;
      for (const char* h : kSpecs) {
        absl::StatusOr<pmapi::Context> c = pmapi::OpenHostContext(h);
        if (!c.ok()) {
          ++open_failures;
          return;
        }
        ++contexts;
        kept.push_back(std::move(*c));
      }
      for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < 2; ++k) {
          const int i = (t + r + k) % 2;
          check(stress::WalkContext(kept[i], spec), i);
          ++walks;
        }
        const int i = (t + r) % 2;
        absl::StatusOr<pmapi::Context> fresh = pmapi::OpenHostContext(kSpecs[i]);
        if (!fresh.ok()) {
          ++open_failures;
          continue;
        }
        ++contexts;
        check(stress::WalkContext(*fresh, spec), i);
        ++walks;
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(mismatches.load(), 0) << first_mismatch;
  EXPECT_EQ(open_failures.load(), 0);
  EXPECT_EQ(walks.load(), threads * rounds * 3);
  EXPECT_EQ(contexts.load(), threads * (2 + rounds));
}

TEST(ThreadStressHost, CApiHostArchiveAndLocalContexts) {
  ASSERT_TRUE(UsePrivatePmcd());
  setenv("PCP_PMCDCONF_PATH", PMAPI_TEST_PMCDCONF, 1);
  std::vector<stress::CSource> sources;
  sources.push_back({PM_CONTEXT_HOST, "unix:", SampleSpec(), {}});
  sources.push_back({PM_CONTEXT_HOST, "localhost", SampleSpec(), {}});
  stress::WalkSpec archive;
  archive.archive = true;
  archive.fetches = 5;
  sources.push_back({PM_CONTEXT_ARCHIVE, kData + "/archives/qa/ok-foo_v3/ok-foo_v3", archive, {}});
  stress::WalkSpec local;
  local.root = "test";
  sources.push_back({PM_CONTEXT_LOCAL, "", local, {}});
  for (stress::CSource& s : sources) {
    ASSERT_TRUE(stress::ExpectC(&s)) << s.name << ": " << s.expected.errors;
  }
  // (The socket and TCP walks differ here, as in PCP: pmLookupLabels
  // includes the context labels, which over the unix socket also carry the
  // client's userid and groupid.)

  const int threads = stress::EnvCount("PMAPI_STRESS_THREADS", 6);
  const int rounds = stress::EnvCount("PMAPI_STRESS_ROUNDS", 2);
  stress::CStress got = stress::RunCStress(sources, threads, rounds);
  EXPECT_EQ(got.mismatches, 0);
  EXPECT_EQ(got.handle_errors, 0);
  const int n = static_cast<int>(sources.size());
  EXPECT_EQ(got.walks, threads * rounds * (n + 1));
  EXPECT_EQ(got.contexts, threads * (n + rounds));
}

// In a fresh process: 32 threads released together, each opening its
// first host context. Returns the process's exit status.
int FirstContextsTogether() {
  const pid_t pid = fork();
  if (pid == 0) {
    constexpr int kThreads = 32;
    std::latch ready(kThreads);
    std::atomic<int> failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        ready.arrive_and_wait();
        const int ctx = pmNewContext(PM_CONTEXT_HOST, "unix:");
        if (ctx < 0) {
          ++failed;
          std::fprintf(stderr, "pmNewContext: %s\n", pmErrStr(ctx));
        }
      });
    }
    for (std::thread& t : threads) t.join();
    _exit(failed.load() == 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(ThreadStressHost, FirstContextsOnManyThreadsAtOnce) {
  ASSERT_TRUE(UsePrivatePmcd());
  for (int run = 0; run < 40; ++run) {
    const int status = FirstContextsTogether();
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "run " << run << ": status " << status;
  }
}

}  // namespace
