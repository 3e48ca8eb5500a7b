// Thread stress: many contexts on many threads at once, each thread using
// only its own contexts (the library's threading rule). Archive contexts
// must give every thread exactly what one thread alone gets; local
// contexts (the built-in test and Linux agents) must answer names,
// descriptors and fetches without errors or interference. The second test
// does the same through the C API, whose current context is per thread.
// Host contexts are in thread_stress_host_test.cc (they need a pmcd). Run
// under ThreadSanitizer by scripts/tsan.sh.
#include <pcp/pmapi.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "archive_walk.h"
#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "stress_walks.h"

namespace {

const std::string kData = PMAPI_TEST_DATA_DIR;
const std::string kLocalConfig = PMAPI_TEST_PMCDCONF;

const char* const kArchives[] = {
    "archives/qa/ok-foo/ok-foo",          "archives/qa/ok-foo_v3/ok-foo_v3",
    "archives/qa/eventrec/eventrec",      "archives/reference/events-v3/events-v3",
    "archives/qa/sample-proc_v3/sample-proc_v3", "archives/reference/multivol-v3/multivol-v3",
    "archives/reference/compressed/compressed",  "archives/qa/ok-mv-foo/ok-mv-foo",
};
constexpr int kNumArchives = sizeof(kArchives) / sizeof(kArchives[0]);

int Threads() { return stress::EnvCount("PMAPI_STRESS_THREADS", 12); }
int Rounds() { return stress::EnvCount("PMAPI_STRESS_ROUNDS", 6); }

// Names and descriptors of every metric of a local context, plus one fetch
// of each test-agent metric. Returns a digest of the deterministic part
// (names and descriptors); counts failures in *errors.
uint64_t WalkLocal(pmapi::Context& ctx, int* errors) {
  uint64_t digest = 0;
  std::vector<std::string> names;
  absl::Status s = ctx.Traverse("test", [&](const std::string& n) { names.push_back(n); });
  if (!s.ok()) ++*errors;
  std::vector<pmapi::PmID> ids;
  for (const std::string& n : names) {
    auto id = ctx.LookupName(n);
    if (!id.ok()) {
      ++*errors;
      continue;
    }
    auto d = ctx.LookupDesc(*id);
    if (!d.ok()) {
      ++*errors;
      continue;
    }
    digest = digest * 31 + pmapi::ToPcp(*id) + static_cast<uint64_t>(d->type) * 7 +
             pmapi::ToPcp(d->indom);
    ids.push_back(*id);
  }
  for (pmapi::PmID id : ids) {
    auto r = ctx.Fetch({&id, 1});
    if (!r.ok()) ++*errors;
  }
  // The Linux agent reads /proc; its values change, so only errors count.
  auto load = ctx.LookupName("kernel.all.load");
  if (load.ok() && !ctx.Fetch({&*load, 1}).ok()) ++*errors;
  return digest;
}

TEST(ThreadStress, ManyContextsOnManyThreads) {
  // What one thread alone sees.
  std::vector<fuzz::ArchiveWalk> expected;
  for (const char* a : kArchives) {
    expected.push_back(fuzz::WalkArchive(kData + "/" + a));
    ASSERT_TRUE(expected.back().opened) << a << ": " << expected.back().open_code;
  }
  pmapi::LocalOptions local;
  local.config_path = kLocalConfig;
  absl::StatusOr<pmapi::Context> solo = pmapi::OpenLocalContext(local);
  ASSERT_TRUE(solo.ok()) << solo.status();
  int solo_errors = 0;
  const uint64_t local_digest = WalkLocal(*solo, &solo_errors);
  ASSERT_EQ(solo_errors, 0);
  ASSERT_NE(local_digest, 0u);  // the test agent's names were found

  const int threads = Threads();
  const int rounds = Rounds();
  std::atomic<int> mismatches{0}, local_failures{0}, walks{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Each thread keeps one local context for all its rounds and opens
      // fresh archive contexts, so long-lived and short-lived contexts mix.
      absl::StatusOr<pmapi::Context> mine = pmapi::OpenLocalContext(local);
      if (!mine.ok()) {
        ++local_failures;
        return;
      }
      for (int r = 0; r < rounds; ++r) {
        const int a = (t + r) % kNumArchives;
        fuzz::ArchiveWalk w = fuzz::WalkArchive(kData + "/" + kArchives[a]);
        if (w.digest != expected[a].digest || w.fetches != expected[a].fetches ||
            w.errors != expected[a].errors) {
          ++mismatches;
        }
        int errors = 0;
        if (WalkLocal(*mine, &errors) != local_digest || errors != 0) ++local_failures;
        ++walks;
      }
    });
  }
  for (std::thread& th : pool) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(local_failures.load(), 0);
  EXPECT_EQ(walks.load(), threads * rounds);
}

// The C API from many threads at once: each thread keeps an archive and a
// local context per source and makes short-lived ones, switching with
// pmUseContext; every walk must equal the one-thread walk, and no thread
// may see another's current context or handle.
TEST(ThreadStress, CApiContextsOnManyThreads) {
  // PM_CONTEXT_LOCAL reads its agents from here; set before any thread.
  setenv("PCP_PMCDCONF_PATH", kLocalConfig.c_str(), 1);
  std::vector<stress::CSource> sources;
  for (const char* a : {"archives/qa/ok-foo/ok-foo", "archives/reference/events-v3/events-v3",
                        "archives/reference/compressed/compressed"}) {
    stress::WalkSpec spec;
    spec.archive = true;
    spec.fetches = 5;
    sources.push_back({PM_CONTEXT_ARCHIVE, kData + "/" + a, spec, {}});
  }
  stress::WalkSpec local;
  local.root = "test";
  sources.push_back({PM_CONTEXT_LOCAL, "", local, {}});
  for (stress::CSource& s : sources) {
    ASSERT_TRUE(stress::ExpectC(&s)) << s.name << ": " << s.expected.errors;
  }
  // The thread running this test has no current context left.
  EXPECT_EQ(pmWhichContext(), PM_ERR_NOCONTEXT);

  const int threads = Threads();
  const int rounds = Rounds();
  stress::CStress got = stress::RunCStress(sources, threads, rounds);
  EXPECT_EQ(got.mismatches, 0);
  EXPECT_EQ(got.handle_errors, 0);
  const int n = static_cast<int>(sources.size());
  EXPECT_EQ(got.walks, threads * rounds * (n + 1));
  EXPECT_EQ(got.contexts, threads * (n + rounds));
}

}  // namespace
