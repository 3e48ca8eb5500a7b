// The built-in linux and proc agents' descriptors against PCP's: `pminfo
// -L -m -d` of every metric PCP's linux agent (domain 60) serves below
// kernel, mem, disk, network, filesys, swap, hinv, vfs, zram, rpc, nfs*,
// tape and fchost, and PCP's proc agent (domain 3) below proc, each hosted in-process by PCP's own pminfo. Every
// metric we serve must have PCP's name, PMID, type, instance domain,
// semantics and units exactly, and help text of its own; the share of
// PCP's metrics we serve is reported and held above a floor.
#include <cstdio>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "pcp_agents_local.h"

namespace pmapi {
namespace {

struct Coverage {
  size_t pcp = 0, served = 0, identical = 0;
};

Coverage CompareAgent(PcpAgent agent, const std::string& tag) {
  Coverage c;
  const std::string dir = PcpAgentDir("desc-" + tag, agent);
  EXPECT_FALSE(dir.empty());
  const std::string args = " -L -m -d " + AgentNamespaces(agent);
  ToolRun pcp = RunPcpLinuxLocal(dir, "pminfo" + args);
  setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
  ToolRun ours = RunOurs("pminfo" + args);
  ToolRun help = RunOurs("pminfo -L -T " + AgentNamespaces(agent));
  ToolRun oneline = RunOurs("pminfo -L -t " + AgentNamespaces(agent));
  unsetenv("PCP_PMCDCONF_PATH");
  EXPECT_EQ(ours.status, 0) << ours.err;
  std::map<std::string, PminfoBlock> theirs = SplitPminfo(pcp.out), mine = SplitPminfo(ours.out);
  const std::string domain = agent == PcpAgent::kLinux ? "60." : "3.";
  for (const auto& [name, block] : theirs) {
    if (block.pmid.rfind(domain, 0) != 0) continue;  // derived metrics (domain 511) are not the agent's
    ++c.pcp;
    auto it = mine.find(name);
    if (it == mine.end()) continue;
    ++c.served;
    const bool same = it->second.pmid == block.pmid && it->second.lines == block.lines;
    c.identical += same;
    EXPECT_TRUE(same) << name << ": ours " << it->second.pmid << "\n"
                      << (it->second.lines.empty() ? "" : it->second.lines[0]) << "\nPCP's " << block.pmid;
  }
  for (const auto& [name, block] : mine) {
    EXPECT_TRUE(theirs.contains(name)) << name << " is not one of PCP's";
  }
  // help: every metric of ours has a one-line and a full text
  EXPECT_EQ(help.out.find("not available"), std::string::npos) << help.out.substr(0, 2000);
  std::istringstream lines(oneline.out);
  std::string line;
  size_t with_text = 0;
  while (std::getline(lines, line)) {
    const size_t open = line.find(" [");
    if (open == std::string::npos || line.size() < open + 4 || line.back() != ']') continue;
    EXPECT_TRUE(mine.contains(line.substr(0, open))) << line;
    ++with_text;
  }
  EXPECT_EQ(with_text, mine.size());
  return c;
}

TEST(LinuxAgentsDescriptors, IdenticalToPcpsForEveryServedMetric) {
  Coverage linux = CompareAgent(PcpAgent::kLinux, "linux");
  Coverage proc = CompareAgent(PcpAgent::kProc, "proc");
  const size_t pcp = linux.pcp + proc.pcp, served = linux.served + proc.served;
  const size_t identical = linux.identical + proc.identical;
  std::printf("linux agent: %zu of PCP's %zu metrics served, %zu identical\n", linux.served, linux.pcp,
              linux.identical);
  std::printf("proc agent: %zu of PCP's %zu metrics served, %zu identical\n", proc.served, proc.pcp,
              proc.identical);
  std::printf("together: %zu of %zu (%.1f%%) identical\n", identical, pcp, 100.0 * identical / pcp);
  EXPECT_GE(linux.pcp, 1000u);
  EXPECT_GE(proc.pcp, 100u);
  EXPECT_EQ(identical, served);
  // the families left out are listed in docs/conformance.md; this floor
  // only moves up
  EXPECT_GE(identical * 100, pcp * 90);
}

}  // namespace
}  // namespace pmapi
