// The -K spec parser (pmSpecLocalPMDA's) and Pmns::Trimmed
// (pmTrimNameSpace's view of a loaded name space). The C layer's answers
// for both are also compared with libpcp by tests/compat/surface.c.
#include "local_pmda_spec.h"

#include <gtest/gtest.h>

#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

std::string Why(std::string_view spec) {
  absl::StatusOr<LocalPmdaOp> op = ParseLocalPmdaSpec(spec);
  return op.ok() ? "ok" : std::string(op.status().message());
}

TEST(LocalPmdaSpecTest, AddNeedsDomainPathAndInit) {
  absl::StatusOr<LocalPmdaOp> op = ParseLocalPmdaSpec("add,29,/x/pmda_sample.so,sample_init");
  ASSERT_TRUE(op.ok());
  EXPECT_EQ(op->kind, LocalPmdaOp::kAdd);
  EXPECT_EQ(op->domain, 29);
  EXPECT_EQ(op->path, "/x/pmda_sample.so");
  EXPECT_EQ(op->init, "sample_init");
  EXPECT_EQ(Why("add,29"), "missing dso-path in spec");
  EXPECT_EQ(Why("add,29,x.so"), "missing init-routine in spec");
  EXPECT_EQ(Why("add,,x.so,i"), "missing domain in spec");
  EXPECT_EQ(Why("add,511,x.so,i"), "bad domain in spec");
  EXPECT_EQ(Why("add,2x,x.so,i"), "bad domain in spec");
}

TEST(LocalPmdaSpecTest, DelAndClear) {
  EXPECT_EQ(Why("del,29"), "ok");
  EXPECT_EQ(Why("del,,x.so"), "ok");
  EXPECT_EQ(Why("del,,"), "missing domain and dso-path in spec");
  EXPECT_EQ(Why("clear"), "ok");
  EXPECT_EQ(Why("clear,"), "unexpected text after clear op in spec");
  EXPECT_EQ(Why("remove,1"), "bad op in spec");
  EXPECT_EQ(Why("add"), "expected , after op in spec");
}

TEST(PmnsTrimTest, HidesNamesAndEmptyParents) {
  Pmns ns;
  ASSERT_TRUE(ns.AddName("a.x", MakePmID(1, 0, 1)).ok());
  ASSERT_TRUE(ns.AddName("a.y", MakePmID(1, 0, 2)).ok());
  ASSERT_TRUE(ns.AddName("b.z", MakePmID(2, 0, 1)).ok());
  Pmns trimmed = ns.Trimmed([](PmID id) { return id == MakePmID(1, 0, 2); });
  EXPECT_EQ(trimmed.NumNames(), 1u);
  EXPECT_EQ(PcpCode(trimmed.LookupName("a.x").status()), kErrName);
  EXPECT_EQ(*trimmed.LookupName("a.y"), MakePmID(1, 0, 2));
  EXPECT_EQ(PcpCode(trimmed.Children("b").status()), kErrName);
  std::vector<PmnsChild> top = *trimmed.Children("");
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].name, "a");
  EXPECT_EQ(PcpCode(trimmed.NameAll(MakePmID(2, 0, 1)).status()), kErrPmid);
  EXPECT_EQ(ns.NumNames(), 3u);  // the original is untouched
}

}  // namespace
}  // namespace pmapi
