// The built-in linux and proc agents under concurrent contexts: several
// threads, each with its own local context, fetch every metric of both
// agents (one fetch per family and one of everything) over and over, and
// every fetch must succeed with sane answers (values, "no values", or the
// agents' known errors).
#include <stdlib.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

const std::string kConfig = std::string(PMAPI_TEST_DATA_DIR) + "/../../pmdas/pmcd.conf";

std::vector<PmID> AllIds(Context& ctx) {
  std::vector<PmID> ids;
  for (const char* top : {"kernel", "mem", "swap", "disk", "network", "filesys", "hinv", "proc"}) {
    EXPECT_TRUE(ctx.Traverse(top, [&](const std::string& n) { ids.push_back(*ctx.LookupName(n)); }).ok());
  }
  return ids;
}

TEST(LocalAgentsThreads, ConcurrentContextsFetchEverything) {
  // the agents' own metrics only: the stock derived metrics of an
  // installed PCP name operands some machines lack
  setenv("PCP_DERIVED_CONFIG", "", 1);
  constexpr int kThreads = 4, kRounds = 5;
  std::atomic<int> failures{0}, values{0};
  std::atomic<int> last_error{0};
  std::atomic<PmID> last_pmid{PmID{0}};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      LocalOptions opts;
      opts.config_path = kConfig;
      absl::StatusOr<Context> ctx = OpenLocalContext(opts);
      if (!ctx.ok()) {
        ++failures;
        return;
      }
      std::vector<PmID> ids = AllIds(*ctx);
      if (ids.size() < 900) ++failures;
      for (int r = 0; r < kRounds; ++r) {
        absl::StatusOr<Result> all = ctx->Fetch(ids);
        if (!all.ok()) {
          ++failures;
          continue;
        }
        for (const ValueSet& vs : all->sets()) {
          if (vs.numval > 0) ++values;
          else if (vs.numval < 0 && vs.numval != kErrAppversion) {
            ++failures;
            last_error = vs.numval;
            last_pmid = vs.pmid;
          }
        }
        for (size_t i = 0; i < ids.size(); i += 97) {  // smaller fetches in between
          if (!ctx->Fetch(std::span<const PmID>(&ids[i], 1)).ok()) ++failures;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0) << "last: " << last_error.load() << " for "
                                << IDStr(last_pmid.load());
  EXPECT_GT(values.load(), kThreads * kRounds * 700);
}

}  // namespace
}  // namespace pmapi
