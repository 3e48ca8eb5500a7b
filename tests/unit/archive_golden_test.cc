// Runs our pmdumplog for every pmdumplog command of the golden corpora in
// tests/data/archives/{reference,qa}-expected/COMMANDS.txt (outputs of PCP
// 6.0.3's own pmdumplog, copied by tests/data/archives/copy-expected.sh)
// and compares stdout and exit status byte for byte. Cases that still
// differ are listed below with the reason; any other difference fails.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../../archive/src/archive_file.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

const std::string kArchives = PMAPI_TEST_DATA_DIR "/archives";

// Known differences: expected-output file -> why it still differs.
const std::map<std::string, std::string>& KnownDifferences() {
  static const auto* known = new std::map<std::string, std::string>{
      {"bad/badlog-1/pmdumplog-a.txt", "second end-of-archive lookup after a failed one: PCP's cached answer"},
      {"bad/badlog-1/pmdumplog-l.txt", "second end-of-archive lookup after a failed one: PCP's cached answer"},
      {"bad/badlog-1/pmdumplog-L.txt", "second end-of-archive lookup after a failed one: PCP's cached answer"},
      {"bad/badlog-3/pmdumplog-a.txt", "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-3/pmdumplog-m.txt", "PCP stops at a record whose timestamp goes backwards"},
      {"bad/badlog-4/pmdumplog-a.txt", "records before the label time: PCP's handling not reproduced"},
      {"bad/badlog-4/pmdumplog-m.txt", "records before the label time: PCP's handling not reproduced"},
      {"bad/badmeta-1/pmdumplog-a.txt", "truncated .meta: PCP's partial-record handling not reproduced"},
      {"bad/badmeta-1/pmdumplog-m.txt", "truncated .meta: PCP's partial-record handling not reproduced"},
      {"bad/badti-4/pmdumplog-a.txt", "index offsets inside the label: PCP seeks by the index"},
      {"bad/badti-4/pmdumplog-m.txt", "index offsets inside the label: PCP seeks by the index"},
      {"bad/logsummary-bug/pmdumplog-a.txt", "value block type disagrees with the descriptor"},
      {"bad/logsummary-bug/pmdumplog-m.txt", "value block type disagrees with the descriptor"},
  };
  return *known;
}

struct Case {
  std::string file;
  int status = 0;
  std::string command;
};

std::vector<Case> ReadCommands(const std::string& path) {
  std::vector<Case> cases;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Case c;
    std::string status;
    if (!std::getline(fields, c.file, '\t') || !std::getline(fields, status, '\t') ||
        !std::getline(fields, c.command)) {
      continue;
    }
    c.status = std::stoi(status);
    cases.push_back(c);
  }
  return cases;
}

// Returns the directory holding this test binary.
std::string SelfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  std::string path(buf, n);
  return path.substr(0, path.rfind('/'));
}

// Runs `command` (whose first word is "pmdumplog") in `dir`; returns its
// stdout and sets *status to its exit status.
std::string Run(const std::string& dir, const std::string& command, int* status) {
  const std::string bin = SelfDir() + "/../tools/pmdumplog";
  const std::string shell = "cd '" + dir + "' && env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C " +
                            "PCP_DERIVED_CONFIG= HOME=/nonexistent '" + bin + "'" +
                            command.substr(std::string("pmdumplog").size()) + " 2>/dev/null";
  FILE* p = popen(shell.c_str(), "r");
  std::string out;
  if (p == nullptr) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int raw = pclose(p);
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

std::string Expected(const std::string& path) {
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(path);
  if (!f.ok()) return "<missing " + path + ">";
  return std::string(reinterpret_cast<const char*>(f->bytes().data()), f->bytes().size());
}

void RunCorpus(const std::string& corpus) {
  const std::string expected_dir = kArchives + "/" + corpus + "-expected";
  const std::vector<Case> cases = ReadCommands(expected_dir + "/COMMANDS.txt");
  ASSERT_FALSE(cases.empty());
  int identical = 0;
  int known = 0;
  std::vector<std::string> failing;
  for (const Case& c : cases) {
    int status = -1;
    const std::string got = Run(kArchives + "/" + corpus, c.command, &status);
    const bool same = status == c.status && got == Expected(expected_dir + "/" + c.file);
    std::string key = c.file;
    if (key.size() > 3 && key.compare(key.size() - 3, 3, ".xz") == 0) key.resize(key.size() - 3);
    const bool is_known = KnownDifferences().count(key) > 0;
    if (same) {
      ++identical;
      if (is_known) printf("now identical (known difference fixed): %s\n", c.file.c_str());
    } else if (is_known) {
      ++known;
      printf("known difference: %s (%s)\n", c.command.c_str(), KnownDifferences().at(key).c_str());
    } else {
      failing.push_back(c.command + "  [" + c.file + "]");
    }
  }
  printf("%s: identical %d / total %zu (%d known differences)\n", corpus.c_str(), identical,
         cases.size(), known);
  for (const std::string& f : failing) printf("FAILING: %s\n", f.c_str());
  EXPECT_TRUE(failing.empty()) << failing.size() << " commands differ from PCP";
  EXPECT_GT(identical, static_cast<int>(cases.size() * 9 / 10));
}

TEST(ArchiveGoldenTest, ReferenceCorpus) { RunCorpus("reference"); }
TEST(ArchiveGoldenTest, QaCorpus) { RunCorpus("qa"); }

}  // namespace
}  // namespace pmapi
