// golden_live_test: our pminfo and pmstore against the private pmcd, for
// every live pminfo and pmstore command of the reference set
// (tests/data/live/COMMANDS.txt: file, exit status, command), compared byte
// for byte with PCP 6.0.3's recorded stdout, stderr and exit status.
//
// The reference ran against a pmcd with the same sample agents, and its
// commands avoid the sample metrics whose values change, so the private
// pmcd gives the same output. The pmstore commands run in file order,
// after the *.write_me metrics are set to their starting values, and the
// values are restored afterwards (as the reference's mkref.sh does).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "golden_live_tools.h"

namespace pmapi {
namespace {

struct GoldenCommand {
  std::string file;
  int status = 0;
  std::string command;
};

// Names the command by its reference file in test listings.
void PrintTo(const GoldenCommand& c, std::ostream* os) { *os << c.file; }

std::vector<GoldenCommand> LoadCommands() {
  std::vector<GoldenCommand> out;
  std::ifstream in(std::string(PMAPI_SOURCE_DIR) + "/tests/data/live/COMMANDS.txt");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    GoldenCommand c;
    std::string status;
    if (!std::getline(fields, c.file, '\t') || !std::getline(fields, status, '\t') ||
        !std::getline(fields, c.command)) {
      continue;
    }
    c.status = std::atoi(status.c_str());
    out.push_back(c);
  }
  return out;
}

// Reference commands this test leaves out, and why: the four pminfo -L
// commands need PCP's sample agent loaded into the local context as a
// shared object (from the reference machine's pmcd.conf, or with -K).
// That object is PCP's code, built for libpcp_pmda, which this library
// never loads; the local context hosts only this project's agents, which
// have no sample or sampledso metrics (see docs/conformance.md).
bool LeftOut(const std::string& file) {
  static const char* const kLeftOut[] = {
      "pminfo-L-f-sampledso.txt", "pminfo-L-dTtml-sampledso.txt", "pminfo-L-sample-nodso.txt",
      "pminfo-L-K-sample.txt"};
  for (const char* f : kLeftOut) {
    if (file == f) return true;
  }
  return false;
}

std::vector<GoldenCommand> Commands(bool pmstore_sequence) {
  std::vector<GoldenCommand> out;
  for (const GoldenCommand& c : LoadCommands()) {
    if (LeftOut(c.file)) continue;
    if ((c.file.rfind("pmstore-", 0) == 0) == pmstore_sequence) out.push_back(c);
  }
  return out;
}

std::string Golden(const std::string& name) {
  return ReadFile(std::string(PMAPI_SOURCE_DIR) + "/tests/data/live/" + name);
}

// Runs one reference command with our tool and compares all three outputs.
void Check(const GoldenCommand& c) {
  ToolRun run = RunOurs(c.command);
  EXPECT_EQ(run.status, c.status) << c.command;
  EXPECT_EQ(run.out, Golden(c.file)) << c.command;
  EXPECT_EQ(run.err, Golden(c.file + ".err")) << c.command;
}

TEST(GoldenLive, CommandsAreThere) {
  EXPECT_EQ(LoadCommands().size(), 37u);
  EXPECT_EQ(Commands(false).size(), 16u);
  EXPECT_EQ(Commands(true).size(), 17u);
}

class GoldenPminfo : public testing::TestWithParam<GoldenCommand> {};

TEST_P(GoldenPminfo, MatchesPcp) { Check(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Live, GoldenPminfo, testing::ValuesIn(Commands(false)),
                         [](const testing::TestParamInfo<GoldenCommand>& info) {
                           std::string name;
                           for (char ch : info.param.file) {
                             name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           }
                           return name;
                         });

// The pmstore sequence changes pmcd's state step by step, so it is one test.
TEST(GoldenPmstore, SequenceMatchesPcp) {
  ASSERT_TRUE(ResetWriteMe());
  for (const GoldenCommand& c : Commands(true)) Check(c);
  EXPECT_TRUE(ResetWriteMe());
}

}  // namespace
}  // namespace pmapi
