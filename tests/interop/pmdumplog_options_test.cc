// pmdumplog_options_test: our pmdumplog and PCP's, run side by side on
// command lines: -S and -T time windows (offsets from either end, @ctime
// forms, dates, bad times) over reference archives of both versions, in
// the process's zone and with -z and -Z; and bad options, usage, -V and
// the -z/-Z conflict; non-leaf names. Output, errors and exit status must
// be identical.
//
// Forms whose meaning depends on the current date ("@22", a bare hour,
// "@Sun") are left out: PCP resolves them through getdate against today
// (docs/time.md).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "same_as_pcp.h"

namespace pmapi {
namespace {

const std::vector<std::string> kArchives = {"small-v3/small-v3", "small-v2/small-v2",
                                            "multivol-v3/multivol-v3", "events/events"};

const std::vector<std::string> kWindows = {
    "-S @01:43:30",
    "-S +5 -T +10",
    "-S '@Sun Nov 22 01:43:30 2026'",
    "-T @01:43:30",
    "-S junk",
    "-T @junk",
    "-S -5",
    "-S -0",
    "-S +100",
    "-T -3",
    "-S @01:43:30.5 -T @01:43:33",
    "-S '2026-11-22 01:43:25'",
    "-S +5 -r",
    "-T +2min",
    "-S @01:43:30 -z",
    "-S @01:43:30 -Z EST5EDT",
    "-S 3sec -T 10sec",
    "-S +0.5",
    "-S '@Nov 22'",
    "-S @2026",
};

TEST(PmdumplogWindow, SameAsPcp) {
  int compared = 0;
  int with_records = 0;  // windows in which PCP printed records
  for (const std::string& archive : kArchives) {
    for (const std::string& window : kWindows) {
      const std::string command = "pmdumplog " + window + " " + PMAPI_TEST_DATA_DIR +
                                  "/archives/reference/" + archive + " sample.long.one";
      ToolRun pcp = ExpectSameAsPcp(command);
      if (pcp.out.find(" metric\n") != std::string::npos) ++with_records;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 80);
  EXPECT_GE(with_records, 40);
}

// Option errors and usage, as PCP's option parser reports them (PCP's
// pmdumplog lists -V in its usage but accepts only --version; what
// --version prints is our own version, docs/conformance.md).
TEST(PmdumplogOptions, SameAsPcp) {
  const std::string archive = std::string(PMAPI_TEST_DATA_DIR) + "/archives/reference/small-v3/small-v3";
  const std::vector<std::string> lines = {
      "--bogus", "-q", "-S", "-Z", "--start", "-?", "--help", "-V",
      "-z -Z UTC x", "-Z UTC -z x", "", "-v", "-v a b", "-v " + archive + ".index",
      "-xxx -m " + archive + " sample.long.one sample.colour",
      archive + " -d sample.long.one", "-L -t " + archive, "--all --reverse " + archive,
  };
  for (const std::string& line : lines) {
    ExpectSameAsPcp("pmdumplog " + line);
  }
}

// A non-leaf name stands for the metrics below it in the order PCP's
// pmTraversePMNS walks the archive's name space, which is the order their
// value sets are printed in.
TEST(PmdumplogNonLeaf, SameAsPcp) {
  for (const char* archive : {"small-v3/small-v3", "multivol-v3/multivol-v3"}) {
    for (const char* names : {"sample", "sample.long", "sample.dupnames", "sample.colour sample", "kernel"}) {
      ExpectSameAsPcp(absl::StrCat("pmdumplog -z ", PMAPI_TEST_DATA_DIR, "/archives/reference/", archive, " ",
                                   names));
    }
  }
}

}  // namespace
}  // namespace pmapi
