// golden_live_tools.h: running command lines of our tools and of PCP's
// against the private pmcd, for the live interop tests.
//
// A command is the text of a reference command line ("pminfo -f x",
// "pmstore m 'a b'"); its first word names the tool, which is replaced by
// our binary (RunOurs) or PCP's (RunPcp), and the rest is run by /bin/sh
// with the private pmcd's PMCD_PORT and PMCD_SOCKET and the reference
// environment (TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=, no PMCD_HOST).
//
// Example:
//   pmapi::ToolRun r = pmapi::RunOurs("pminfo -f sample.long.one");
//   EXPECT_EQ(r.status, 0);
#ifndef PMAPI_TESTS_INTEROP_GOLDEN_LIVE_TOOLS_H_
#define PMAPI_TESTS_INTEROP_GOLDEN_LIVE_TOOLS_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "private_pmcd.h"

namespace pmapi {

struct ToolRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Returns the whole file, or "" if it cannot be read.
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `command` with `binary` in place of its first word.
inline ToolRun RunTool(const std::string& binary, const std::string& command) {
  static int counter = 0;
  const std::string base = std::string(PMAPI_PMCD_DIR) + "/tool-run-" + std::to_string(getpid()) +
                           "-" + std::to_string(counter++);
  const size_t space = command.find(' ');
  const std::string rest = space == std::string::npos ? "" : command.substr(space);
  const std::string shell = "cd /tmp && env -u PMCD_HOST " + PmcdEnv() +
                            "TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= " + binary + rest + " >" + base +
                            ".out 2>" + base + ".err";
  ToolRun run;
  int rc = std::system(shell.c_str());
  run.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  run.out = ReadFile(base + ".out");
  run.err = ReadFile(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return run;
}

inline std::string ToolName(const std::string& command) { return command.substr(0, command.find(' ')); }

inline ToolRun RunOurs(const std::string& command) {
  const std::string tool = ToolName(command);
  if (tool == "pminfo") return RunTool(PMAPI_PMINFO, command);
  if (tool == "pmstore") return RunTool(PMAPI_PMSTORE, command);
  if (tool == "pmval") return RunTool(PMAPI_PMVAL, command);
  if (tool == "pmdumplog") return RunTool(PMAPI_PMDUMPLOG, command);
  return ToolRun{};
}

inline ToolRun RunPcp(const std::string& command) {
  return RunTool("/usr/bin/" + ToolName(command), command);
}

// Makes DIR (under the private pmcd's directory) hold a pmcd.conf that
// loads PCP's own linux agent as a shared object and a name space made from
// ours (the PMIDs are PCP's), so PCP's tools can run the linux agent in a
// local context as the oracle for ours; returns DIR.
inline std::string PcpLinuxLocalDir(const std::string& name) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/" + name;
  const std::string setup =
      "mkdir -p '" + dir + "' && sed -e 's/LINUX:/60:/g' -e '/^\\/\\*/,/\\*\\//d' '" +
      PMAPI_SOURCE_DIR + "/pmdas/linux/root_linux' > '" + dir +
      "/root' && printf 'linux\\t60\\tdso\\tlinux_init\\t/var/lib/pcp/pmdas/linux/pmda_linux.so\\n' > '" +
      dir + "/pmcd.conf'";
  return std::system(setup.c_str()) == 0 ? dir : "";
}

// Runs PCP's `command` in a local context set up by PcpLinuxLocalDir.
// PCP_VAR_DIR is DIR too, so PCP's agents neither read nor write the
// system's saved instance caches ($PCP_VAR_DIR/config/pmda): their
// instance numbers then start afresh, as ours do.
inline ToolRun RunPcpLinuxLocal(const std::string& dir, const std::string& command) {
  setenv("PCP_PMCDCONF_PATH", (dir + "/pmcd.conf").c_str(), 1);
  setenv("PMNS_DEFAULT", (dir + "/root").c_str(), 1);
  setenv("PCP_VAR_DIR", dir.c_str(), 1);
  ToolRun r = RunPcp(command);
  unsetenv("PCP_PMCDCONF_PATH");
  unsetenv("PMNS_DEFAULT");
  unsetenv("PCP_VAR_DIR");
  return r;
}

// Sets the sample metrics the pmstore commands change back to 13 with PCP's
// pmstore; returns true if every store worked.
inline bool ResetWriteMe() {
  bool ok = true;
  for (const char* m : {"long", "float", "double", "string", "ulonglong"}) {
    ok = RunPcp(std::string("pmstore sample.") + m + ".write_me 13").status == 0 && ok;
  }
  return ok;
}

}  // namespace pmapi

#endif  // PMAPI_TESTS_INTEROP_GOLDEN_LIVE_TOOLS_H_
