// The linux and proc agents' values against PCP's own: `pminfo -L -d -f`
// of every metric they serve with our in-process agents, then the same
// command with PCP's pminfo hosting PCP's linux or proc DSO agent (under a
// name space made from ours, so both list the same metrics). The two fetches are moments apart, so values are compared within
// what that time explains: strings and instance lists exactly, counters
// never going backwards and growing by at most what the interval allows,
// instantaneous values within a band. Processes come and go between the
// two runs (each pminfo sees itself), so for proc.* only the processes both
// saw are compared, and instantaneous per-process values (which a busy
// build changes from one moment to the next) must agree for nearly all.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "golden_live_tools.h"
#include "pcp_agents_local.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

struct Metric {
  std::string semantics;                     // "counter", "instant", "discrete"
  std::map<std::string, std::string> values;  // instance ("" for none) -> value text
};

// The names one parse holds and the other does not, for a message.
std::string OnlyInOne(const std::map<std::string, Metric>& mine, const std::map<std::string, Metric>& theirs) {
  std::string text;
  for (const auto& [name, m] : mine) {
    if (!theirs.contains(name)) text += "ours only: " + name + "\n";
  }
  for (const auto& [name, m] : theirs) {
    if (!mine.contains(name)) text += "PCP's only: " + name + "\n";
  }
  return text;
}

bool AsNumber(const std::string& text, double* d) {
  char* end = nullptr;
  *d = std::strtod(text.c_str(), &end);
  return !text.empty() && end != nullptr && *end == '\0';
}

// The metric names of a `pminfo NAMES` listing.
std::set<std::string> ListedNames(const std::string& text) {
  std::set<std::string> names;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) names.insert(line);
  }
  return names;
}

// Reads `pminfo -d -f` output: one of `names` alone on a line, its
// "Semantics:" line, then "value V" or "inst [N or "NAME"] value V" lines.
// Other lines at the line start are diagnostics or the later lines of a
// string value that spans several (a process's memory map).
std::map<std::string, Metric> ParsePminfo(const std::string& text, const std::set<std::string>& names) {
  std::map<std::string, Metric> out;
  std::istringstream lines(text);
  std::string line, name;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      if (names.contains(line)) out[name = line];
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
    if (line.find("inst [") != std::string::npos && (q == std::string::npos || q > v)) continue;  // unnamed
    if (line.find("inst [") != std::string::npos && q != std::string::npos && q < v)
      inst = line.substr(q + 5, line.rfind("\"]", v) - q - 5);
    out[name].values[inst] = line.substr(v + 6);
  }
  return out;
}

// Makes a directory for PCP's pminfo with PCP's proc agent under a name
// space made from our root_proc (PROC standing for 3).
std::string PcpProcLocalDir(const std::string& name) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/" + name;
  const std::string setup =
      "mkdir -p '" + dir + "' && sed -e 's/PROC:/3:/g' -e '/^\\/\\*/,/\\*\\//d' '" + PMAPI_SOURCE_DIR +
      "/pmdas/proc/root_proc' > '" + dir +
      "/root' && printf 'proc\\t3\\tdso\\tproc_init\\t/var/lib/pcp/pmdas/proc/pmda_proc.so\\n' > '" + dir +
      "/pmcd.conf'";
  return std::system(setup.c_str()) == 0 ? dir : "";
}

// At most one instant in this many may fall outside the band. Under
// AddressSanitizer our pminfo holds several times the memory PCP's does
// (shadow memory, quarantine), and the machine's memory levels it reports
// (anonymous, mapped and committed pages, per zone and node) move with it,
// so a dozen such levels fall outside.
#ifdef __SANITIZE_ADDRESS__
constexpr int kOffBandRatio = 10;
#else
constexpr int kOffBandRatio = 50;
#endif

struct Tally {
  int compared = 0, instants = 0, off_band = 0, strings = 0, strings_differ = 0;
  std::string off;  // the instants out of band, for the message
};

// Compares the two parses; `partial` (proc) compares the instances both
// saw and counts instants out of band instead of failing on each.
void Compare(const std::map<std::string, Metric>& mine, const std::map<std::string, Metric>& theirs,
             double seconds, double ncpu, bool partial, Tally* t) {
  const double cpu_ms = 1000 * ncpu * (seconds + 1);
  for (const auto& [name, m] : mine) {
    ASSERT_TRUE(theirs.contains(name)) << name;
    const Metric& p = theirs.at(name);
    EXPECT_EQ(m.semantics, p.semantics) << name;
    // PCP's agent now and then lists fewer zones than /proc/zoneinfo has
    // (it reads the file stepping back over each zone's first line with
    // fseek): a zone it lacks is not a difference of ours
    const bool some_zones = name.rfind("mem.zoneinfo.", 0) == 0;
    if (!partial && !some_zones) {
      EXPECT_EQ(m.values.size(), p.values.size()) << name;
    } else if (p.values.contains("")) {
      EXPECT_TRUE(m.values.contains("")) << name << " has a value in PCP's agent only";
    }
    for (const auto& [inst, text] : m.values) {
      auto other_it = p.values.find(inst);
      if (other_it == p.values.end()) {
        EXPECT_TRUE(partial || some_zones) << name << " [" << inst << "] missing from PCP's";
        continue;
      }
      const std::string& other = other_it->second;
      ++t->compared;
      double a = 0, b = 0;
      if (!AsNumber(text, &a) || !AsNumber(other, &b)) {
        if (!partial) {
          EXPECT_EQ(text, other) << name << " [" << inst << "]";
        } else if (text != other) {
          ++t->strings_differ;  // a live process's signal masks and the like
          t->off += name + " [" + inst + "] " + text + " vs " + other + "\n";
        }
        ++t->strings;
      } else if (m.semantics == "counter") {
        // (a few of PCP's mem.vmstat "counters", workingset_nodes among them,
        // are levels that may fall)
        const double fall = name.rfind("mem.vmstat.", 0) == 0 ? 0.02 * a + 16 : 0;
        EXPECT_GE(b, a - fall) << name << " [" << inst << "] went backwards";
        // a process may move a lot of bytes in a second; CPU time is bounded
        // (proc.schedstat counts nanoseconds)
        const double ns = name.find("schedstat") != std::string::npos ? 1e6 : 1;
        const double bound = partial && name.find("time") == std::string::npos
                                 ? 4e9 * (seconds + 1)
                                 : std::max(cpu_ms * ns, 0.02 * a + 64 * (seconds + 1));
        EXPECT_LE(b - a, bound) << name << " [" << inst << "]";
      } else {
        ++t->instants;
        const double band = std::max(16.0, 0.3 * std::max(std::fabs(a), std::fabs(b)));
        if (std::fabs(b - a) > band) {
          ++t->off_band;
          t->off += name + " [" + inst + "] " + text + " vs " + other + "\n";
        }
      }
    }
  }
}

TEST(LinuxAgentValues, AgreeWithPcpsLinuxAgent) {
  const std::string args = " -L -d -f kernel mem swap disk network filesys hinv vfs zram rpc nfs nfs3 nfs4 tape fchost";
  const std::string dir = PcpLinuxLocalDir("linux-values");
  ASSERT_FALSE(dir.empty());
  const auto t0 = std::chrono::steady_clock::now();
  setenv("PCP_PMCDCONF_PATH", PMAPI_TEST_PMCDCONF, 1);
  ToolRun ours = RunOurs("pminfo" + args);
  ToolRun listing = RunOurs("pminfo -L" + args.substr(args.find(" -f") + 3));
  ToolRun pcp = RunPcpLinuxLocal(dir, "pminfo" + args);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(ours.status, 0) << ours.err;
  ASSERT_EQ(pcp.status, 0) << pcp.err;
  ASSERT_EQ(listing.status, 0) << listing.err;
  const std::set<std::string> names = ListedNames(listing.out);
  std::map<std::string, Metric> mine = ParsePminfo(ours.out, names), theirs = ParsePminfo(pcp.out, names);
  ASSERT_GE(mine.size(), 800u);
  ASSERT_EQ(mine.size(), theirs.size()) << OnlyInOne(mine, theirs);
  const double ncpu = std::atof(mine["hinv.ncpu"].values[""].c_str());
  ASSERT_GE(ncpu, 1);
  Tally t;
  Compare(mine, theirs, seconds, ncpu, false, &t);
  std::printf("linux: %d values compared, %d instants, %d out of band\n", t.compared, t.instants, t.off_band);
  EXPECT_GE(t.compared, 800);
  // instants that swing by more than the band between two moments (dirty
  // pages, run queue) are few
  EXPECT_LE(t.off_band * kOffBandRatio, t.instants) << t.off;
}

TEST(LinuxAgentValues, AgreeWithPcpsProcAgent) {
  const std::string args = " -L -d -f proc";
  const std::string dir = PcpProcLocalDir("proc-values");
  ASSERT_FALSE(dir.empty());
  const auto t0 = std::chrono::steady_clock::now();
  setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
  ToolRun ours = RunOurs("pminfo" + args);
  ToolRun listing = RunOurs("pminfo -L" + args.substr(args.find(" -f") + 3));
  ToolRun pcp = RunPcpLinuxLocal(dir, "pminfo" + args);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(ours.status, 0) << ours.err;
  ASSERT_EQ(pcp.status, 0) << pcp.err;
  ASSERT_EQ(listing.status, 0) << listing.err;
  const std::set<std::string> names = ListedNames(listing.out);
  std::map<std::string, Metric> mine = ParsePminfo(ours.out, names), theirs = ParsePminfo(pcp.out, names);
  ASSERT_GE(mine.size(), 90u);
  ASSERT_EQ(mine.size(), theirs.size()) << OnlyInOne(mine, theirs);
  // the processes both runs saw are most of them
  const auto& pids = mine["proc.psinfo.pid"].values;
  size_t both = 0;
  for (const auto& [inst, v] : pids) both += theirs["proc.psinfo.pid"].values.contains(inst);
  ASSERT_GE(pids.size(), 2u);
  EXPECT_GE(both * 10, pids.size() * 8) << both << " of " << pids.size();
  Tally t;
  Compare(mine, theirs, seconds, 64, true, &t);
  std::printf("proc: %d values compared, %d instants, %d out of band, %d strings, %d differ\n", t.compared,
              t.instants, t.off_band, t.strings, t.strings_differ);
  EXPECT_GE(t.compared, 1000);
  EXPECT_LE(t.off_band * 20, t.instants) << t.off;
  EXPECT_LE(t.strings_differ * 20, t.strings) << t.off;
}

}  // namespace
}  // namespace pmapi
