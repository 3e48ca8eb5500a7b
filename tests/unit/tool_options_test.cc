// Checks the shared command-line layer against PCP 6.0.3's pminfo: usage
// layout and getopt-style diagnostics (texts taken from the real tool).
#include "options.h"

#include <stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
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

absl::StatusOr<CommandLine> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "pminfo");
  return ParseCommandLine(Table(), static_cast<int>(args.size()), args.data());
}

TEST(ToolOptionsTest, UsageLayoutMatchesPcp) {
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
  auto cl = Parse({"-fd", "-a", "x", "m1", "--origin=+3", "-O", "-0", "m2", "--container", "c"});
  ASSERT_TRUE(cl.ok()) << cl.status();
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& o : cl->options) got.emplace_back(o.key, o.value);
  std::vector<std::pair<std::string, std::string>> want = {
      {"f", ""}, {"d", ""}, {"a", "x"}, {"O", "+3"}, {"O", "-0"}, {"container", "c"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(cl->operands, (std::vector<std::string>{"m1", "m2"}));
}

TEST(ToolOptionsTest, GetoptDiagnostics) {
  auto starts = [](const absl::StatusOr<CommandLine>& cl, const std::string& first) {
    EXPECT_FALSE(cl.ok());
    std::string msg(cl.status().message());
    EXPECT_EQ(msg.substr(0, msg.find('\n') + 1), first);
    EXPECT_NE(msg.find("Usage: pminfo "), std::string::npos);
  };
  starts(Parse({"-Q"}), "pminfo: invalid option -- 'Q'\n");
  starts(Parse({"-a"}), "pminfo: option requires an argument -- 'a'\n");
  starts(Parse({"--archive"}), "pminfo: option '--archive' requires an argument\n");
  starts(Parse({"--foo"}), "pminfo: unrecognized option '--foo'\n");
}

// PCP_* variables stand for options before the command line's, in the
// environment's order; those for options the tool lacks (here -t) or for
// another option of the same letter (pmdumplog's -a) are not applied.
TEST(ToolOptionsTest, EnvironmentOptionsComeFirst) {
  setenv("PCP_HOST", "somehost", 1);
  setenv("PCP_INTERVAL", "2", 1);
  setenv("PCP_ARCHIVE_LIST", "a1,a2", 1);
  absl::StatusOr<CommandLine> cl = Parse({"-d", "m"});
  unsetenv("PCP_HOST");
  unsetenv("PCP_INTERVAL");
  unsetenv("PCP_ARCHIVE_LIST");
  ASSERT_TRUE(cl.ok()) << cl.status();
  std::vector<std::string> keys;
  for (const ParsedOption& o : cl->options) keys.push_back(o.key + "=" + o.value);
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
