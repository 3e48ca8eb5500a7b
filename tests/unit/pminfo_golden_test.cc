// Our pminfo against PCP 6.0.3's pminfo on the copied golden corpora: every
// pminfo command of tests/data/archives/{reference,qa}-expected/
// COMMANDS-pminfo.txt, stdout, stderr and exit status byte for byte.
#include <map>
#include <string>

#include "golden_runner.h"

namespace pmapi {
namespace {

const std::map<std::string, std::string>& KnownDifferences() {
  static const auto* known = new std::map<std::string, std::string>{
      {"bad/badlog-4/pminfo-dmTtl.txt",
       "records dated before the label: PCP's positioning not reproduced"},
      {"bad/badlog-4/pminfo-f.txt",
       "records dated before the label: PCP's positioning not reproduced"},
      {"bad/badti-2/pminfo-dmTtl.txt",
       "corrupt temporal index: PCP positions by the index, we read the data"},
      {"bad/badti-2/pminfo-f.txt",
       "corrupt temporal index: PCP positions by the index, we read the data"},
  };
  return *known;
}

TEST(PminfoGoldenTest, ReferenceCorpus) {
  golden::RunCorpus("pminfo", "reference", "COMMANDS-pminfo.txt", KnownDifferences());
}

// Derived metrics on by default (PCP_DERIVED_CONFIG unset) with Debian's
// stock configuration: tests/data/archives/make-derived-expected.sh.
TEST(PminfoGoldenTest, ReferenceStockDerived) {
  golden::RunCorpus("pminfo", "reference", "COMMANDS-pminfo.txt", KnownDifferences(),
                    golden::kStockDerived, "reference-derived-expected");
}

TEST(PminfoGoldenTest, QaStockDerived) {
  golden::RunCorpus("pminfo", "qa", "COMMANDS-pminfo.txt", KnownDifferences(), golden::kStockDerived,
                    "qa-derived-expected");
}

TEST(PminfoGoldenTest, QaCorpus) {
  golden::RunCorpus("pminfo", "qa", "COMMANDS-pminfo.txt", KnownDifferences());
}

}  // namespace
}  // namespace pmapi
