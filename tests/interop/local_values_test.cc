// The Linux agent's values against PCP's own: `pminfo -L -d -f` with our
// in-process agent, then the same command with PCP's pminfo hosting PCP's
// linux DSO agent (under a name space made from ours, so both list the same
// metrics). The two fetches are moments apart, so values are compared within
// what that time explains: strings and instance lists exactly, counters
// never going backwards and growing by at most what the interval allows,
// instantaneous values within a band.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

struct Metric {
  std::string semantics;                     // "counter", "instant", "discrete"
  std::map<std::string, std::string> values;  // instance ("" for none) -> value text
};

// Reads `pminfo -d -f` output: a metric name at the line start, its
// "Semantics:" line, then "value V" or "inst [N or "NAME"] value V" lines.
std::map<std::string, Metric> ParsePminfo(const std::string& text) {
  std::map<std::string, Metric> out;
  std::istringstream lines(text);
  std::string line, name;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      name = line;
      out[name];
      continue;
    }
    const size_t sem = line.find("Semantics: ");
    if (sem != std::string::npos) {
      std::istringstream w(line.substr(sem + 11));
      w >> out[name].semantics;
      continue;
    }
    const size_t v = line.find("value ");
    if (v == std::string::npos) continue;
    std::string inst;
    const size_t q = line.find(" or \"");
    if (line.find("inst [") != std::string::npos && q != std::string::npos && q < v)
      inst = line.substr(q + 5, line.rfind("\"]", v) - q - 5);
    out[name].values[inst] = line.substr(v + 6);
  }
  return out;
}

bool AsNumber(const std::string& text, double* d) {
  char* end = nullptr;
  *d = std::strtod(text.c_str(), &end);
  return !text.empty() && end != nullptr && *end == '\0';
}

TEST(LinuxAgentValues, AgreeWithPcpsLinuxAgent) {
  const std::string args =
      " -L -d -f kernel.all kernel.percpu mem swap disk network.interface filesys hinv kernel.uname";
  const std::string dir = PcpLinuxLocalDir("linux-values");
  ASSERT_FALSE(dir.empty());
  const auto t0 = std::chrono::steady_clock::now();
  setenv("PCP_PMCDCONF_PATH", PMAPI_TEST_PMCDCONF, 1);
  ToolRun ours = RunOurs("pminfo" + args);
  ToolRun pcp = RunPcpLinuxLocal(dir, "pminfo" + args);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(ours.status, 0) << ours.err;
  ASSERT_EQ(pcp.status, 0) << pcp.err;

  std::map<std::string, Metric> mine = ParsePminfo(ours.out), theirs = ParsePminfo(pcp.out);
  ASSERT_GE(mine.size(), 60u);
  ASSERT_EQ(mine.size(), theirs.size());
  const double ncpu = std::atof(mine["hinv.ncpu"].values[""].c_str());
  ASSERT_GE(ncpu, 1);
  // A counter may grow by a CPU-second per CPU per second (milliseconds of
  // CPU time), or by 2% of its total for event counts and bytes.
  const double counter_slack = 1000 * ncpu * (seconds + 1);
  int compared = 0;
  for (const auto& [name, m] : mine) {
    ASSERT_TRUE(theirs.contains(name)) << name;
    const Metric& p = theirs.at(name);
    EXPECT_EQ(m.semantics, p.semantics) << name;
    ASSERT_EQ(m.values.size(), p.values.size()) << name << "\n" << ours.out << "---\n" << pcp.out;
    for (const auto& [inst, text] : m.values) {
      ASSERT_TRUE(p.values.contains(inst)) << name << " [" << inst << "]";
      const std::string& other = p.values.at(inst);
      double a = 0, b = 0;
      if (!AsNumber(text, &a) || !AsNumber(other, &b)) {
        EXPECT_EQ(text, other) << name << " [" << inst << "]";
      } else if (m.semantics == "counter") {
        EXPECT_GE(b, a) << name << " [" << inst << "] went backwards";
        EXPECT_LE(b - a, std::max(counter_slack, 0.02 * a)) << name << " [" << inst << "]";
      } else {
        EXPECT_LE(std::fabs(b - a), std::max(1.0, 0.25 * std::fabs(a))) << name << " [" << inst << "]";
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, 60);
}

}  // namespace
}  // namespace pmapi
