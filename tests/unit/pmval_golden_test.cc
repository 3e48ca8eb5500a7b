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
  };
  return *known;
}

TEST(PmvalGoldenTest, ReferenceCorpus) {
  golden::RunCorpus("pmval", "reference", "COMMANDS-pmval.txt", KnownDifferences());
}

TEST(PmvalGoldenTest, QaCorpus) {
  golden::RunCorpus("pmval", "qa", "COMMANDS-pmval.txt", KnownDifferences());
}

}  // namespace
}  // namespace pmapi
