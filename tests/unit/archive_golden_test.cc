// Runs our pmdumplog for every pmdumplog command of the golden corpora in
// tests/data/archives/{reference,qa}-expected/COMMANDS.txt (outputs of PCP
// 6.0.3's own pmdumplog, copied by tests/data/archives/copy-expected.sh)
// and compares stdout and exit status byte for byte. Cases that still
// differ are listed below with the reason; any other difference fails.
#include <map>
#include <string>

#include "golden_runner.h"

namespace pmapi {
namespace {

// Known differences: expected-output file -> why it still differs.
const std::map<std::string, std::string>& KnownDifferences() {
  static const auto* known = new std::map<std::string, std::string>{
      {"bad/badlog-4/pmdumplog-a.txt", "records before the label time: PCP's handling not reproduced"},
      {"bad/badlog-4/pmdumplog-m.txt", "records before the label time: PCP's handling not reproduced"},
      {"bad/badmeta-1/pmdumplog-a.txt", "truncated .meta: PCP's partial-record handling not reproduced"},
      {"bad/badmeta-1/pmdumplog-m.txt", "truncated .meta: PCP's partial-record handling not reproduced"},
  };
  return *known;
}

TEST(ArchiveGoldenTest, ReferenceCorpus) {
  golden::RunCorpus("pmdumplog", "reference", "COMMANDS.txt", KnownDifferences());
}
TEST(ArchiveGoldenTest, QaCorpus) {
  golden::RunCorpus("pmdumplog", "qa", "COMMANDS.txt", KnownDifferences());
}

}  // namespace
}  // namespace pmapi
