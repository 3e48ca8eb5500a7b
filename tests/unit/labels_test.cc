// Label sets: parsing into PCP's compact sorted form with pair offsets (the
// offsets checked against pmdumplog -e output of a real archive), and
// merging across the hierarchy.
#include "pmapi/labels.h"

#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

TEST(LabelsTest, OffsetsMatchPcp) {
  // From pmdumplog -e on a PCP 6.0.3 archive:
  //   {"domainname":"localdomain","groupid":0,"hostname":"vm",...}
  //   [0] name(2,10) : value(14,13)   [1] name(29,7) : value(38,1)
  auto set = ParseLabelSet(
      R"({ "hostname" : "vm", "groupid":0, "domainname":"localdomain",
          "machineid":"3d1219c7c4c5404aaa1f6d2a48adfda4","userid":0})",
      kLabelContext);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->json,
            R"({"domainname":"localdomain","groupid":0,"hostname":"vm",)"
            R"("machineid":"3d1219c7c4c5404aaa1f6d2a48adfda4","userid":0})");
  ASSERT_EQ(set->labels.size(), 5u);
  EXPECT_EQ(set->labels[0].name, 2);
  EXPECT_EQ(set->labels[0].namelen, 10);
  EXPECT_EQ(set->labels[0].value, 14);
  EXPECT_EQ(set->labels[0].valuelen, 13);
  EXPECT_EQ(set->labels[1].name, 29);
  EXPECT_EQ(set->labels[1].value, 38);
  EXPECT_EQ(set->labels[3].name, 57);
  EXPECT_EQ(set->labels[3].value, 68);
  EXPECT_EQ(set->labels[3].valuelen, 34);
  EXPECT_EQ(LabelName(*set, set->labels[2]), "hostname");
  EXPECT_EQ(LabelValue(*set, set->labels[2]), "\"vm\"");
  EXPECT_EQ(set->labels[4].flags, kLabelContext);
}

TEST(LabelsTest, NestedValuesAndEmpty) {
  auto set = ParseLabelSet(R"({"device_type":["numa_node", "memory"],"x":{"a" : 1}})");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->json, R"({"device_type":["numa_node","memory"],"x":{"a":1}})");
  auto empty = ParseLabelSet(" { } ");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->json, "{}");
  EXPECT_TRUE(empty->labels.empty());
}

TEST(LabelsTest, Rejects) {
  for (const char* bad : {"", "{", "[]", R"({"a":})", R"({"a":1,})", R"({"a":1}x)",
                          R"({"a":1,"a":2})", R"({"1a":1})", R"({"a-b":1})", R"({"a":tru})",
                          R"({"a":"unterminated})"}) {
    EXPECT_EQ(PcpCode(ParseLabelSet(bad).status()), kErrGeneric) << bad;
  }
}

TEST(LabelsTest, MergeHigherLevelWins) {
  auto ctx = ParseLabelSet(R"({"hostname":"vm","role":"none"})");
  auto dom = ParseLabelSet(R"({"agent":"sample","role":"testing"})");
  auto indom = ParseLabelSet(R"({"model":"RGB"})");
  EXPECT_EQ(MergeLabelSets({&*ctx, &*dom, nullptr, &*indom}),
            R"({"agent":"sample","hostname":"vm","model":"RGB","role":"testing"})");
  EXPECT_EQ(MergeLabelSets({}), "{}");
}

}  // namespace
}  // namespace pmapi
