// Derived metrics through the C++ interface: per-context numbering and
// masking, the name space merged with derived names, help text, rate()
// history kept per context, and the parser's error positions. (The
// expression language against PCP is derive_oracle_test; the tools with
// Debian's configuration are the golden tests.)
#include <string>
#include <vector>

#include "expr.h"
#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/derived.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

const std::string kSmall = PMAPI_TEST_DATA_DIR "/archives/reference/small-v3/small-v3";

Context Open() {
  absl::StatusOr<Context> c = Context::OpenArchive(kSmall);
  EXPECT_TRUE(c.ok()) << c.status();
  return std::move(*c);
}

TEST(DeriveTest, PerContextMetricsCountDownAndMaskGlobals) {
  ASSERT_TRUE(RegisterDerived("derive_test.masked", "sample.drift").ok());
  Context c = Open();
  absl::StatusOr<PmID> global = c.LookupName("derive_test.masked");
  ASSERT_TRUE(global.ok());
  EXPECT_EQ(PmIDDomain(*global), 511u);
  EXPECT_EQ(PmIDCluster(*global), 0u);
  ASSERT_TRUE(c.AddDerived("derive_test.first", "sample.drift + 1").ok());
  ASSERT_TRUE(c.AddDerived("derive_test.masked", "sample.drift * 2").ok());
  absl::StatusOr<PmID> first = c.LookupName("derive_test.first");
  absl::StatusOr<PmID> masked = c.LookupName("derive_test.masked");
  ASSERT_TRUE(first.ok() && masked.ok());
  EXPECT_EQ(IDStr(*first), "511.2047.1023");
  EXPECT_EQ(IDStr(*masked), "511.2047.1022");
  EXPECT_NE(*masked, *global);
  // Another context sees only the global one.
  Context other = Open();
  EXPECT_EQ(*other.LookupName("derive_test.masked"), *global);
  EXPECT_EQ(PcpCode(other.LookupName("derive_test.first").status()), kErrName);
  absl::Status dup = c.AddDerived("derive_test.first", "1");
  EXPECT_EQ(PcpCode(dup), kErrBadderive);
  EXPECT_EQ(std::string(dup.message()),
            "Error: pmAddDerivedMetric(\"derive_test.first\", ...): returns -12409\n"
            "Duplicate per-context derived metric name\n");
}

TEST(DeriveTest, NameSpaceMergesDerivedNames) {
  ASSERT_TRUE(RegisterDerived("sample.zz_derive_test.leaf", "sample.drift").ok());
  Context c = Open();
  absl::StatusOr<std::vector<PmnsChild>> kids = c.Children("sample");
  ASSERT_TRUE(kids.ok());
  ASSERT_FALSE(kids->empty());
  EXPECT_EQ(kids->back().name, "zz_derive_test");
  EXPECT_EQ(kids->back().status, kPmnsNonLeafStatus);
  absl::StatusOr<std::vector<PmnsChild>> leaf = c.Children("sample.zz_derive_test.leaf");
  ASSERT_TRUE(leaf.ok());
  EXPECT_TRUE(leaf->empty());
  std::vector<std::string> names;
  ASSERT_TRUE(c.Traverse("sample", [&](const std::string& n) { names.push_back(n); }).ok());
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "sample.seconds");
  EXPECT_EQ(names.back(), "sample.zz_derive_test.leaf");
  absl::StatusOr<PmID> id = c.LookupName("sample.zz_derive_test.leaf");
  ASSERT_TRUE(id.ok());
  absl::StatusOr<std::vector<std::string>> all = c.NameAll(*id);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, std::vector<std::string>{"sample.zz_derive_test.leaf"});
}

TEST(DeriveTest, HelpTextComesFromTheConfiguration) {
  Context c = Open();
  absl::StatusOr<PmID> flags = c.LookupName("event.flags");
  ASSERT_TRUE(flags.ok());
  EXPECT_EQ(*c.LookupText(*flags, TextKind::kOneline), "Flags for event records");
  ASSERT_TRUE(c.AddDerived("derive_test.nohelp", "sample.drift").ok());
  absl::StatusOr<std::string> none = c.LookupText(*c.LookupName("derive_test.nohelp"), TextKind::kHelp);
  EXPECT_EQ(PcpCode(none.status()), kErrPmid);
}

TEST(DeriveTest, RateKeepsHistoryPerContext) {
  Context a = Open();
  Context b = Open();
  for (Context* c : {&a, &b}) {
    ASSERT_TRUE(c->AddDerived("derive_test.rate", "rate(sample.seconds)").ok());
  }
  const PmID id = *a.LookupName("derive_test.rate");
  absl::StatusOr<Result> a1 = a.Fetch(std::vector<PmID>{id});
  absl::StatusOr<Result> a2 = a.Fetch(std::vector<PmID>{id});
  absl::StatusOr<Result> b1 = b.Fetch(std::vector<PmID>{id});
  ASSERT_TRUE(a1.ok() && a2.ok() && b1.ok());
  EXPECT_EQ(a1->sets()[0].numval, 0);  // no previous sample yet
  EXPECT_EQ(a2->sets()[0].numval, 1);
  EXPECT_EQ(b1->sets()[0].numval, 0);  // b's first fetch, whatever a did
}

TEST(DeriveTest, ParserReportsPcpPositions) {
  derive::ParseResult ok = derive::Parse("a + b * c");
  ASSERT_NE(ok.tree, nullptr);
  EXPECT_EQ(ok.tree->type, derive::kNPlus);
  EXPECT_EQ(ok.tree->right->type, derive::kNStar);
  derive::ParseResult bad = derive::Parse("a + + b");
  EXPECT_EQ(bad.tree, nullptr);
  EXPECT_EQ(bad.error_offset, 4);
  EXPECT_EQ(*bad.error, "Arithmetic expression expected to follow PLUS");
  derive::ParseResult silent = derive::Parse("a : b");
  EXPECT_EQ(silent.error_offset, 2);
  EXPECT_FALSE(silent.error.has_value());
  derive::ParseResult empty = derive::Parse("");
  EXPECT_EQ(empty.error_offset, -1);
  absl::Status s = RegisterDerived("derive_test.bad", "avg(3)");
  EXPECT_EQ(std::string(s.message()),
            "Error: pmRegisterDerivedMetric(\"derive_test.bad\", ...)\navg(3)\n    ^\n"
            "Metric name expected to follow avg(\n");
}

TEST(DeriveTest, VeryDeepExpressionsFailCleanly) {
  const std::string parens = std::string(20000, '(') + "a" + std::string(20000, ')');
  EXPECT_EQ(derive::Parse(parens).tree, nullptr);
  std::string sum = "a";
  for (int i = 0; i < 20000; i++) sum += "+a";
  EXPECT_EQ(derive::Parse(sum).tree, nullptr);
  std::string fine = "a";
  for (int i = 0; i < 500; i++) fine = "(" + fine + "+1)";
  EXPECT_NE(derive::Parse(fine).tree, nullptr);
}

}  // namespace
}  // namespace pmapi
