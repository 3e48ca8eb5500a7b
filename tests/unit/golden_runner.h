// golden_runner.h: runs one of our tools for every command of a golden
// corpus (tests/data/archives/{reference,qa}-expected/COMMANDS*.txt: the
// outputs of PCP 6.0.3's own tools) and compares stdout, exit status and,
// where the corpus kept it, stderr, byte for byte. Commands that still
// differ must be listed as known differences with a reason; any other
// difference fails the test.
#ifndef PMAPI_TESTS_UNIT_GOLDEN_RUNNER_H_
#define PMAPI_TESTS_UNIT_GOLDEN_RUNNER_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "archive_file.h"
#include "gtest/gtest.h"

namespace pmapi::golden {

inline const std::string kArchives = PMAPI_TEST_DATA_DIR "/archives";

struct Case {
  std::string file;
  int status = 0;
  std::string command;
};

inline std::vector<Case> ReadCommands(const std::string& path) {
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
inline std::string SelfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  std::string path(buf, n);
  return path.substr(0, path.rfind('/'));
}

// Returns the contents of a file (xz-compressed ones inflated), or
// "<missing PATH>".
inline std::string FileContents(const std::string& path) {
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(path);
  if (!f.ok()) return "<missing " + path + ">";
  absl::StatusOr<std::string> all = f->ReadAll();
  return all.ok() ? *all : "<unreadable " + path + ">";
}

// The environment the golden corpora were made in: no derived metrics.
inline const std::string kNoDerived = "PCP_DERIVED_CONFIG=";
// Derived metrics on by default, from Debian's stock configuration
// (tests/data/derived, see its README).
inline const std::string kStockDerived = "PCP_VAR_DIR=" PMAPI_TEST_DATA_DIR "/derived/var";

// Runs `command` (whose first word is `tool`) in `dir` with PCP's golden
// environment and `env`; returns stdout, and sets *status and *err.
inline std::string Run(const std::string& tool, const std::string& dir,
                       const std::string& command, int* status, std::string* err,
                       const std::string& env = kNoDerived) {
  const std::string bin = SelfDir() + "/../tools/" + tool;
  char errfile[] = "/tmp/pmapi-golden-XXXXXX";
  int fd = mkstemp(errfile);
  if (fd >= 0) close(fd);
  const std::string shell = "cd '" + dir + "' && env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C '" +
                            env + "' HOME=/nonexistent '" + bin + "'" +
                            command.substr(tool.size()) + " 2>'" + errfile + "' </dev/null";
  FILE* p = popen(shell.c_str(), "r");
  std::string out;
  if (p != nullptr) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
    int raw = pclose(p);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
  *err = FileContents(errfile);
  unlink(errfile);
  return out;
}

// Runs every `tool` command of `corpus`'s list `list` and checks them
// against `expected` (default CORPUS-expected), in environment `env`.
inline void RunCorpus(const std::string& tool, const std::string& corpus, const std::string& list,
                      const std::map<std::string, std::string>& known_differences,
                      const std::string& env = kNoDerived, const std::string& expected = "") {
  const std::string expected_dir =
      kArchives + "/" + (expected.empty() ? corpus + "-expected" : expected);
  const std::vector<Case> cases = ReadCommands(expected_dir + "/" + list);
  ASSERT_FALSE(cases.empty());
  int identical = 0;
  int known = 0;
  std::vector<std::string> failing;
  for (const Case& c : cases) {
    int status = -1;
    std::string err;
    const std::string got = Run(tool, kArchives + "/" + corpus, c.command, &status, &err, env);
    std::string key = c.file;
    if (key.size() > 3 && key.compare(key.size() - 3, 3, ".xz") == 0) key.resize(key.size() - 3);
    const std::string err_path = expected_dir + "/" + key + ".err";
    const bool err_same = access(err_path.c_str(), R_OK) != 0 || FileContents(err_path) == err;
    const bool same = status == c.status && err_same &&
                      got == FileContents(expected_dir + "/" + c.file);
    const bool is_known = known_differences.count(key) > 0;
    if (same) {
      ++identical;
      if (is_known) printf("now identical (known difference fixed): %s\n", c.file.c_str());
    } else if (is_known) {
      ++known;
      printf("known difference: %s (%s)\n", c.command.c_str(), known_differences.at(key).c_str());
    } else {
      failing.push_back(c.command + "  [" + c.file + "]");
    }
  }
  printf("%s %s: identical %d / total %zu (%d known differences)\n", tool.c_str(), corpus.c_str(),
         identical, cases.size(), known);
  for (const std::string& f : failing) printf("FAILING: %s\n", f.c_str());
  EXPECT_TRUE(failing.empty()) << failing.size() << " commands differ from PCP";
  EXPECT_GT(identical, static_cast<int>(cases.size() * 8 / 10));
}

}  // namespace pmapi::golden

#endif  // PMAPI_TESTS_UNIT_GOLDEN_RUNNER_H_
