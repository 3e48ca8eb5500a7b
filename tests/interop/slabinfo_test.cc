// mem.slabinfo.* of the built-in linux agent against PCP's linux agent on
// the /proc/slabinfo files of PCP's QA suite (pcp-testsuite's
// linux/meminfo-root-00N.tgz, read below LINUX_STATSPATH), and on made-up
// files of every format version and some odd lines: `pminfo -L -f
// mem.slabinfo` of ours and of PCP's pminfo hosting PCP's agent must be the
// same byte for byte, instance numbers included. LINUX_ACCESS gives the
// values whoever runs the test, as the super-user would see them.
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "pcp_agents_local.h"

namespace pmapi {
namespace {

constexpr char kTrees[] = "/var/lib/pcp/testsuite/linux";

std::string Scratch(const std::string& name) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/slabinfo-" + name;
  const std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "/proc'";
  return std::system(cmd.c_str()) == 0 ? dir : "";
}

// PCP's and our pminfo on the tree below `root`; returns PCP's output.
std::string ExpectSameAsPcp(const std::string& root) {
  const std::string pcp_dir = PcpAgentDir("slabinfo-pcp", PcpAgent::kLinux);
  EXPECT_FALSE(pcp_dir.empty());
  setenv("LINUX_STATSPATH", root.c_str(), 1);
  setenv("LINUX_PAGESIZE", "4096", 1);
  setenv("LINUX_ACCESS", "1", 1);
  const std::string args = "pminfo -L -f mem.slabinfo";
  ToolRun pcp = RunPcpLinuxLocal(pcp_dir, args);
  setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
  ToolRun ours = RunOurs(args);
  unsetenv("PCP_PMCDCONF_PATH");
  for (const char* v : {"LINUX_STATSPATH", "LINUX_PAGESIZE", "LINUX_ACCESS"}) unsetenv(v);
  EXPECT_EQ(pcp.status, 0) << pcp.err;
  EXPECT_EQ(ours.status, pcp.status) << ours.err;
  EXPECT_EQ(ours.out, pcp.out) << root;
  EXPECT_EQ(ours.err, pcp.err) << root;
  return pcp.out;
}

class QaSlabinfo : public ::testing::TestWithParam<int> {};

TEST_P(QaSlabinfo, SameAsPcpAgent) {
  const std::string dir = Scratch("qa" + std::to_string(GetParam()));
  ASSERT_FALSE(dir.empty());
  const std::string cmd = "tar xzf " + std::string(kTrees) + "/meminfo-root-00" + std::to_string(GetParam()) +
                          ".tgz -C '" + dir + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << "pcp-testsuite's meminfo trees are needed (scripts/install-deps.sh --pcp)";
  EXPECT_GT(ExpectSameAsPcp(dir).size(), 5000u);
}

INSTANTIATE_TEST_SUITE_P(QaTrees, QaSlabinfo, ::testing::Values(1, 2, 3, 4, 5, 6, 7));

// Made-up files: each format version, blanks in names, lines that end the
// read, a version PCP's agent does not know, headers without a version.
class OddSlabinfo : public ::testing::TestWithParam<const char*> {};

TEST_P(OddSlabinfo, SameAsPcpAgent) {
  const std::string dir = Scratch("odd");
  ASSERT_FALSE(dir.empty());
  std::ofstream(dir + "/proc/slabinfo", std::ios::binary) << GetParam();
  ExpectSameAsPcp(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Files, OddSlabinfo,
    ::testing::Values("slabinfo - version: 1.0\nkmem_cache 42 50\nfoo bar 3 4\nfoo  baz 5 6\nx-y -z 7 8\n",
                      "slabinfo - version: 1.1\nkmem_cache 42 50 128 2 3 1\n"
                      "big 18446744073709551615 99999999999999999999999 4294967297 -1 7 2\nshort 1 2 3\n"
                      "after 1 2 3 4 5 6\n",
                      "slabinfo - version: 2.0\n# comment\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n"
                      "beta 10 20 64 5 1:tunables 0 0 0:slabdata 2 4 0\n",
                      "slabinfo - version: 2.1\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n"
                      "gamma 10 20 64 5 1 : tunables 0 0 : slabdata 2 4 0\nlost 1 1 1 1 1 : tunables 0 0 0 : slabdata 1 1 1\n",
                      "slabinfo - version: 3.0\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n",
                      "no header here 2.1\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n",
                      "xx 1.1 slabinfo - version: 7\nalpha 1 2 3 4 5 6\n", "slabinfo - version:2. 1\nalpha 1 2\n",
                      "", "slabinfo - version: 2.1\n"));

}  // namespace
}  // namespace pmapi
