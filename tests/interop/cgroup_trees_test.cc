// The proc agent's cgroup.* metrics against PCP's proc agent on the four
// canned control group trees of PCP's QA suite (pcp-testsuite's
// linux/cgroups-root-00N.tgz: version 1 hierarchies of two layouts, a
// large systemd one, and a version 2 one with containers), read below
// PROC_STATSPATH: `pminfo -L -d -f cgroup` of ours and of PCP's pminfo
// hosting PCP's agent must be the same byte for byte, instance numbers
// included, both with all names in a few fetches and with one name a
// fetch (-b 1), which reuses what earlier fetches kept.
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "pcp_agents_local.h"

namespace pmapi {
namespace {

constexpr char kTrees[] = "/var/lib/pcp/testsuite/linux";

// Unpacks tree N into a directory of its own; returns it ("" on failure).
std::string Unpack(int n) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/cgroup-tree-" + std::to_string(n);
  const std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "' && tar xzf " + kTrees +
                          "/cgroups-root-00" + std::to_string(n) + ".tgz -C '" + dir + "'";
  return std::system(cmd.c_str()) == 0 ? dir : "";
}

class CgroupTrees : public ::testing::TestWithParam<int> {};

TEST_P(CgroupTrees, SameAsPcpAgent) {
  const std::string tree = Unpack(GetParam());
  ASSERT_FALSE(tree.empty()) << "pcp-testsuite's cgroup trees are needed (scripts/install-deps.sh --pcp)";
  const std::string pcp_dir = PcpAgentDir("cgroup-pcp", PcpAgent::kProc);
  ASSERT_FALSE(pcp_dir.empty());
  setenv("PROC_STATSPATH", tree.c_str(), 1);
  setenv("PROC_HERTZ", "100", 1);
  for (const std::string args : {"pminfo -L -d -f cgroup", "pminfo -L -b 1 -f cgroup"}) {
    ToolRun pcp = RunPcpLinuxLocal(pcp_dir, args);
    setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
    ToolRun ours = RunOurs(args);
    unsetenv("PCP_PMCDCONF_PATH");
    ASSERT_EQ(pcp.status, 0) << pcp.err;
    EXPECT_GT(pcp.out.size(), 10000u) << args;
    EXPECT_EQ(ours.status, pcp.status) << ours.err;
    EXPECT_EQ(ours.out, pcp.out) << args;
    EXPECT_EQ(ours.err, pcp.err) << args;
  }
  unsetenv("PROC_STATSPATH");
  unsetenv("PROC_HERTZ");
}

INSTANTIATE_TEST_SUITE_P(QaTrees, CgroupTrees, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace pmapi
