// Checks the shared command-line layer against PCP 6.0.3's pminfo: usage
// layout and getopt-style diagnostics (texts taken from the real tool).
#include "options.h"

#include <stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"

namespace pmtools {
namespace {

OptionTable Table() {
  return {"pminfo", "[options] [metricname | pmid | indom]...",
          {{"General options", {StdArchive(), StdHost(), StdContainer(), StdAlign(), StdFinish()}},
           {"Protocol options", {{'b', "batch", "N", "fetch N metrics at a time for -f and -v [128]"},
                                 {'d', "desc", "", "get and print metric description"},
                                 {'f', "fetch", "", "fetch and print values for all instances"},
                                 StdOrigin()}}}};
}

CommandLine Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "pminfo");
  return ParseCommandLine(Table(), static_cast<int>(args.size()), args.data());
}

// Parses `args`, and returns what the parser wrote to stderr.
std::string ParseErrors(std::vector<const char*> args, CommandLine* cl) {
  testing::internal::CaptureStderr();
  *cl = Parse(std::move(args));
  return testing::internal::GetCapturedStderr();
}

std::string UsageText(const OptionTable& table) {
  testing::internal::CaptureStderr();
  PrintUsage(table);
  return testing::internal::GetCapturedStderr();
}

TEST(ToolOptionsTest, UsageLayoutMatchesPcp) {
  pmSetProgname("pminfo");
  EXPECT_EQ(UsageText(Table()),
            "Usage: pminfo [options] [metricname | pmid | indom]...\n"
            "\n"
            "General options:\n"
            "  -a FILE, --archive=FILE\n"
            "                        metrics source is a PCP log archive\n"
            "  -h HOST, --host=HOST  metrics source is PMCD on host\n"
            "  --container=NAME      specify an individual container to be queried\n"
            "  -A TIME, --align=TIME align sample times on natural boundaries\n"
            "  -T TIME, --finish=TIME\n"
            "                        end of the time window\n"
            "\n"
            "Protocol options:\n"
            "  -b N, --batch=N       fetch N metrics at a time for -f and -v [128]\n"
            "  -d, --desc            get and print metric description\n"
            "  -f, --fetch           fetch and print values for all instances\n"
            "  -O TIME, --origin=TIME\n"
            "                        initial sample time within the time window\n");
}

TEST(ToolOptionsTest, OrderedOptionsAndOperands) {
  CommandLine cl = Parse({"-fd", "-a", "x", "m1", "--origin=+3", "-O", "-0", "m2", "--container", "c"});
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& o : cl.options) got.emplace_back(o.key, o.value);
  std::vector<std::pair<std::string, std::string>> want = {
      {"f", ""}, {"d", ""}, {"a", "x"}, {"O", "+3"}, {"O", "-0"}, {"container", "c"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(cl.operands, (std::vector<std::string>{"m1", "m2"}));
}

// Each mistake is reported in getopt's words, comes back as "?", and the
// options after it are still read, as PCP's tools read them.
TEST(ToolOptionsTest, GetoptDiagnostics) {
  pmSetProgname("pminfo");
  auto says = [](std::vector<const char*> args, const std::string& want) {
    CommandLine cl;
    EXPECT_EQ(ParseErrors(std::move(args), &cl), want);
    ASSERT_FALSE(cl.options.empty());
    EXPECT_EQ(cl.options.front().key, "?");
  };
  says({"-Q"}, "pminfo: invalid option -- 'Q'\n");
  says({"-a"}, "pminfo: option requires an argument -- 'a'\n");
  says({"--archive"}, "pminfo: option '--archive' requires an argument\n");
  says({"--foo"}, "pminfo: unrecognized option '--foo'\n");
  CommandLine cl;
  EXPECT_EQ(ParseErrors({"-Q", "-X", "-d", "m"}, &cl),
            "pminfo: invalid option -- 'Q'\npminfo: invalid option -- 'X'\n");
  std::vector<std::string> keys;
  for (const ParsedOption& o : cl.options) keys.push_back(o.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"?", "?", "d"}));
  EXPECT_EQ(cl.operands, std::vector<std::string>{"m"});
}

// PCP_* variables stand for options before the command line's, in the
// environment's order; those for options the tool lacks (here -t) or for
// another option of the same letter (pmdumplog's -a) are not applied.
TEST(ToolOptionsTest, EnvironmentOptionsComeFirst) {
  setenv("PCP_HOST", "somehost", 1);
  setenv("PCP_INTERVAL", "2", 1);
  setenv("PCP_ARCHIVE_LIST", "a1,a2", 1);
  CommandLine cl = Parse({"-d", "m"});
  unsetenv("PCP_HOST");
  unsetenv("PCP_INTERVAL");
  unsetenv("PCP_ARCHIVE_LIST");
  std::vector<std::string> keys;
  for (const ParsedOption& o : cl.options) keys.push_back(o.key + "=" + o.value);
  ASSERT_EQ(keys.size(), 4u);
  EXPECT_EQ(keys.back(), "d=");
  std::sort(keys.begin(), keys.end() - 1);
  EXPECT_EQ(keys[0], "a=a1");
  EXPECT_EQ(keys[1], "a=a2");
  EXPECT_EQ(keys[2], "h=somehost");

  OptionTable dumplog{"pmdumplog", "[options] archive", {{"Options", {{'a', "all", "", "everything"}}}}};
  setenv("PCP_ARCHIVE", "x", 1);
  EXPECT_TRUE(EnvironmentOptions(dumplog).empty());
  unsetenv("PCP_ARCHIVE");
}

}  // namespace
}  // namespace pmtools
