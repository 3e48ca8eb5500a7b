// Thread stress: many contexts on many threads at once, each thread using
// only its own contexts (the library's threading rule). Archive contexts
// must give every thread exactly what one thread alone gets; local
// contexts (the built-in test and Linux agents) must answer names,
// descriptors and fetches without errors or interference. Run under
// ThreadSanitizer by scripts/tsan.sh.
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

namespace {

const std::string kData = PMAPI_TEST_DATA_DIR;
const std::string kLocalConfig = kData + "/../../pmdas/pmcd.conf";

const char* const kArchives[] = {
    "archives/qa/ok-foo/ok-foo",          "archives/qa/ok-foo_v3/ok-foo_v3",
    "archives/qa/eventrec/eventrec",      "archives/reference/events-v3/events-v3",
    "archives/qa/sample-proc_v3/sample-proc_v3", "archives/reference/multivol-v3/multivol-v3",
    "archives/reference/compressed/compressed",  "archives/qa/ok-mv-foo/ok-mv-foo",
};
constexpr int kNumArchives = sizeof(kArchives) / sizeof(kArchives[0]);

int Threads() {
  const char* env = std::getenv("PMAPI_STRESS_THREADS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : 12;
}
int Rounds() {
  const char* env = std::getenv("PMAPI_STRESS_ROUNDS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : 6;
}

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
    digest = digest * 31 + *id + static_cast<uint64_t>(d->type) * 7 + d->indom;
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

}  // namespace
