// Helpers for comparing the built-in linux and proc agents with PCP's own,
// both run in a local context (pminfo -L): PCP's agents are loaded as
// shared objects under PCP's complete name space of that agent (run
// through pmcpp into a scratch directory).
//
// Example:
//   std::string dir = pmapi::PcpAgentDir("desc-linux", pmapi::PcpAgent::kLinux);
//   pmapi::ToolRun r = pmapi::RunPcpLinuxLocal(dir, "pminfo -L -m -d kernel");
#ifndef PMAPI_TESTS_INTEROP_PCP_AGENTS_LOCAL_H_
#define PMAPI_TESTS_INTEROP_PCP_AGENTS_LOCAL_H_

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "golden_live_tools.h"

namespace pmapi {

enum class PcpAgent { kLinux, kProc };

// The top-level names compared, per agent.
inline std::string AgentNamespaces(PcpAgent a) {
  return a == PcpAgent::kLinux ? "kernel mem disk network filesys swap hinv vfs zram rpc nfs nfs3 nfs4 tape fchost" : "proc cgroup";
}

// Makes a directory holding PCP's name space and a pmcd.conf loading PCP's
// agent `a` as a shared object; returns "" on failure.
inline std::string PcpAgentDir(const std::string& name, PcpAgent a) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/" + name;
  const bool linux = a == PcpAgent::kLinux;
  const std::string setup =
      "mkdir -p '" + dir + "' && /usr/lib/pcp/bin/pmcpp " + (linux ? "-D LINUX=60" : "-D PROC=3") +
      " /var/lib/pcp/pmns/" + (linux ? "root_linux" : "root_proc") + " 2>/dev/null | grep -v '^#' > '" + dir +
      "/root' && printf '" + (linux ? "linux\\t60" : "proc\\t3") + "\\tdso\\t" + (linux ? "linux" : "proc") +
      "_init\\t/var/lib/pcp/pmdas/" + (linux ? "linux/pmda_linux.so" : "proc/pmda_proc.so") + "\\n' > '" + dir +
      "/pmcd.conf'";
  return std::system(setup.c_str()) == 0 ? dir : "";
}

// pminfo -d / -m -d / -f output split into blocks: name -> the block's
// lines after the name line (with "PMID: ..." on the name line kept apart).
struct PminfoBlock {
  std::string pmid;
  std::vector<std::string> lines;
};
inline std::map<std::string, PminfoBlock> SplitPminfo(const std::string& text) {
  std::map<std::string, PminfoBlock> out;
  std::istringstream in(text);
  std::string line, name;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      name = line.substr(0, line.find(' '));
      const size_t p = line.find(" PMID: ");
      out[name].pmid = p == std::string::npos ? "" : line.substr(p + 7);
      continue;
    }
    if (!name.empty()) out[name].lines.push_back(line);
  }
  return out;
}

}  // namespace pmapi

#endif  // PMAPI_TESTS_INTEROP_PCP_AGENTS_LOCAL_H_
