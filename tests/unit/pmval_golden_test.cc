// Our pmval against PCP 6.0.3's pmval on the copied golden corpora: every
// pmval command of tests/data/archives/{reference,qa}-expected/
// COMMANDS-pmval.txt, stdout, stderr and exit status byte for byte.
#include <map>
#include <string>

#include "golden_runner.h"

namespace pmapi {
namespace {

const std::map<std::string, std::string>& KnownDifferences() {
  static const auto* known = new std::map<std::string, std::string>{
      {"value-test/pmval-kernel.uname.release.txt",
       "a DISCRETE string value interpolated at 00:00:19: the archive engine picks a different record than PCP"},
      {"value-test/pmval-r-kernel.uname.release.txt",
       "a DISCRETE string value interpolated at 00:00:19: the archive engine picks a different record than PCP"},
      {"bad/badlog-3/pmval-sample.seconds.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-t-sample.seconds.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-r-sample.seconds.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-U-sample.seconds.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-sample.colour.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-t-sample.colour.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-r-sample.colour.txt",
       "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmval-U-sample.colour.txt",
       "PCP stops at a record whose timestamp goes backwards"},
  };
  return *known;
}

TEST(PmvalGoldenTest, ReferenceCorpus) {
  golden::RunCorpus("pmval", "reference", "COMMANDS-pmval.txt", KnownDifferences());
}

// Derived metrics on by default (PCP_DERIVED_CONFIG unset) with Debian's
// stock configuration: tests/data/archives/make-derived-expected.sh.
TEST(PmvalGoldenTest, ReferenceStockDerived) {
  golden::RunCorpus("pmval", "reference", "COMMANDS-pmval.txt", KnownDifferences(),
                    golden::kStockDerived, "reference-derived-expected");
}

TEST(PmvalGoldenTest, QaStockDerived) {
  golden::RunCorpus("pmval", "qa", "COMMANDS-pmval.txt", KnownDifferences(), golden::kStockDerived,
                    "qa-derived-expected");
}

TEST(PmvalGoldenTest, QaCorpus) {
  golden::RunCorpus("pmval", "qa", "COMMANDS-pmval.txt", KnownDifferences());
}

}  // namespace
}  // namespace pmapi
