// host_pminfo_all_test: our pminfo and PCP's, run in the same test against
// the private pmcd over every metric it exports: the same names, PMIDs,
// descriptors and help text, and `pminfo -f` reports the same errors and
// "no value" lines for the same metrics (values themselves change between
// the two runs, so value lines are not compared), and the same labels,
// series identifiers and -v report.
#include <functional>
#include <sstream>
#include <string>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

// Drops the instance lines of the metrics whose instances differ from one
// run to the next, even between two runs of PCP's pminfo: pmcd.client.*
// (the instance is the client's own connection), *.scramble.* (the agent
// shuffles them on every fetch) and *.proc.* (emulated processes that
// come and go).
std::string WithoutVolatileInstances(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  bool drop = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ') {
      drop = line.rfind("pmcd.client.", 0) == 0 || line.find(".scramble.") != std::string::npos ||
             line.find(".proc.") != std::string::npos;
    } else if (drop && line.rfind("    inst [", 0) == 0) {
      continue;
    }
    out += line + "\n";
  }
  return out;
}

// Drops the lines that hold values (and their instances). The sample
// agents' emulated process instances (indom 12) come and go between one
// fetch and the instance lookup after it, so lines naming them vanished
// are dropped too.
std::string WithoutValues(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("    value ", 0) == 0 || line.rfind("    inst [", 0) == 0) continue;
    if (line.rfind("pmNameIndom: indom=29.12 ", 0) == 0) continue;
    if (line.rfind("pmNameIndom: indom=30.12 ", 0) == 0) continue;
    out += line + "\n";
  }
  return out;
}

void ExpectSame(const std::string& command, const std::function<std::string(std::string)>& cut) {
  ToolRun ours = RunOurs(command);
  ToolRun pcp = RunPcp(command);
  ASSERT_FALSE(pcp.out.empty()) << command;
  EXPECT_EQ(ours.status, pcp.status) << command;
  EXPECT_EQ(cut(ours.out), cut(pcp.out)) << command;
  EXPECT_EQ(ours.err, pcp.err) << command;
}

std::string Same(std::string s) { return s; }

TEST(HostPminfoAll, Names) { ExpectSame("pminfo", Same); }

TEST(HostPminfoAll, PmidsAndOneLineHelp) { ExpectSame("pminfo -m -t", Same); }

TEST(HostPminfoAll, HelpText) { ExpectSame("pminfo -T", Same); }

TEST(HostPminfoAll, Descriptors) { ExpectSame("pminfo -d -M", Same); }

TEST(HostPminfoAll, FullInDoms) { ExpectSame("pminfo -I", Same); }

TEST(HostPminfoAll, Labels) { ExpectSame("pminfo -l", WithoutVolatileInstances); }

TEST(HostPminfoAll, SeriesIdentifiers) { ExpectSame("pminfo -s", WithoutVolatileInstances); }

TEST(HostPminfoAll, VerifyReportsTheSameMetrics) { ExpectSame("pminfo -v", Same); }

TEST(HostPminfoAll, ForcedFetchReportsTheSameErrors) {
  ExpectSame("pminfo -F", [](std::string s) { return WithoutValues(s); });
}

TEST(HostPminfoAll, SmallBatches) {
  ExpectSame("pminfo -b 3 -d -f -t sample", [](std::string s) { return WithoutValues(s); });
}

TEST(HostPminfoAll, FetchReportsTheSameErrors) {
  ExpectSame("pminfo -f", [](std::string s) { return WithoutValues(s); });
}

TEST(HostPminfoAll, OverTcpToo) {
  ExpectSame("pminfo -h localhost -f sample sampledso",
             [](std::string s) { return WithoutValues(s); });
}

}  // namespace
}  // namespace pmapi
