// local_fixture.h: a test fixture holding a local context that runs the
// build tree's agents (PMAPI_TEST_PMCDCONF), with lookups and one-metric
// fetches that report failures through GoogleTest.
#ifndef PMAPI_TESTS_UNIT_LOCAL_FIXTURE_H_
#define PMAPI_TESTS_UNIT_LOCAL_FIXTURE_H_

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/local.h"

namespace pmapi {

inline const std::string kLocalTestConfig = PMAPI_TEST_PMCDCONF;

class LocalFixture : public testing::Test {
 protected:
  void SetUp() override {
    LocalOptions opts;
    opts.config_path = kLocalTestConfig;
    opts.warnings = &warnings_;
    absl::StatusOr<Context> c = OpenLocalContext(opts);
    ASSERT_TRUE(c.ok()) << c.status();
    ctx_ = std::make_unique<Context>(*std::move(c));
  }
  // Returns the PMID of `name`, or PM_ID_NULL after a test failure.
  PmID Id(const std::string& name) {
    absl::StatusOr<PmID> id = ctx_->LookupName(name);
    EXPECT_TRUE(id.ok()) << name << ": " << id.status();
    return id.value_or(kPmIDNull);
  }
  // Returns the result of fetching `name` alone (empty after a failure).
  Result FetchOne(const std::string& name) {
    PmID id = Id(name);
    absl::StatusOr<Result> r = ctx_->Fetch({&id, 1});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *std::move(r) : Result();
  }
  std::vector<std::string> warnings_;
  std::unique_ptr<Context> ctx_;
};

}  // namespace pmapi

#endif  // PMAPI_TESTS_UNIT_LOCAL_FIXTURE_H_
