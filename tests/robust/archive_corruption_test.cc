// Corruption sweeps: small archives (v2 and v3; with event records, label
// sets, help text and delta instance domains) with one file damaged, run
// through an archive context (open, names, descriptors, FORW, BACK and
// INTERP fetches: fuzz::WalkArchive) and through our pmdumplog -a. Every
// case must end in a clean error or output: no crash, no hang, no sanitizer
// report.
//
// Damage: every truncation length of each file (in-process), a seeded
// sample of single-byte changes (in-process), and a spread-out subset of
// both through pmdumplog, which costs a process each.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "archive_walk.h"
#include "gtest/gtest.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One case may take this long in-process before it counts as a hang.
constexpr double kCaseSeconds = 5.0;
// pmdumplog gets this long before it is killed and counted as hung.
constexpr int kToolSeconds = 20;

struct SweepArchive {
  const char* dir;   // under tests/data/archives
  const char* base;  // file base name
  int byte_changes;  // seeded single-byte changes, in-process
  int tool_cases;    // pmdumplog runs (half truncations, half byte changes)
};

// Chosen for coverage at modest cost: v2 and v3, event records (eventrec,
// events-v3), v3 labels and help text (ok-foo_v3, events-v3), delta
// instance domains (sample-proc_v3), multiple volumes (ok-mv-foo).
const SweepArchive kArchives[] = {
    {"qa/ok-foo", "ok-foo", 2000, 60},
    {"qa/ok-foo_v3", "ok-foo_v3", 2000, 60},
    {"qa/eventrec", "eventrec", 2000, 60},
    {"reference/events-v3", "events-v3", 2000, 60},
    {"qa/sample-proc_v3", "sample-proc_v3", 2000, 60},
    {"qa/ok-mv-foo", "ok-mv-foo", 1000, 40},
};

std::vector<uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void WriteBytes(const fs::path& p, const std::vector<uint8_t>& bytes, size_t len) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(len));
}

// A private copy of one archive whose files can be damaged one at a time.
class ArchiveCopy {
 public:
  explicit ArchiveCopy(const SweepArchive& a) {
    dir_ = fs::path(testing::TempDir()) / ("pmapi-sweep-" + std::to_string(::getpid()) + "-" + a.base);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const fs::path src = fs::path(PMAPI_TEST_DATA_DIR) / "archives" / a.dir;
    for (const fs::directory_entry& e : fs::directory_iterator(src)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(std::string(a.base) + ".", 0) != 0) continue;
      fs::copy_file(e.path(), dir_ / name);
      files_.push_back({dir_ / name, ReadBytes(e.path())});
    }
    std::sort(files_.begin(), files_.end(), [](const File& x, const File& y) { return x.path < y.path; });
    base_ = (dir_ / a.base).string();
  }
  ~ArchiveCopy() { fs::remove_all(dir_); }

  struct File {
    fs::path path;
    std::vector<uint8_t> bytes;
  };
  const std::vector<File>& files() const { return files_; }
  const std::string& base() const { return base_; }

  void Truncate(size_t f, size_t len) { WriteBytes(files_[f].path, files_[f].bytes, len); }
  void ChangeByte(size_t f, size_t at, uint8_t x) {
    std::vector<uint8_t> b = files_[f].bytes;
    b[at] ^= x;
    WriteBytes(files_[f].path, b, b.size());
  }
  void Restore(size_t f) { WriteBytes(files_[f].path, files_[f].bytes, files_[f].bytes.size()); }

 private:
  fs::path dir_;
  std::string base_;
  std::vector<File> files_;
};

// Walks the archive in-process; fails the test on a slow case.
void WalkOnce(const ArchiveCopy& copy, const std::string& what) {
  fuzz::WalkLimits limits;
  limits.max_records = 120;
  limits.max_names = 200;
  limits.interp_steps = 4;
  const Clock::time_point start = Clock::now();
  fuzz::ArchiveWalk w = fuzz::WalkArchive(copy.base(), limits);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LT(took, kCaseSeconds) << what << " (opened " << w.opened << ")";
}

struct ToolRun {
  bool hung = false;
  int signal = 0;
  int exit_code = -1;
  std::string stderr_text;
};

// Runs pmdumplog -a on `base`, killing it after kToolSeconds.
ToolRun RunDumplog(const std::string& base, const fs::path& scratch) {
  ToolRun run;
  const std::string err_path = (scratch / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::string tool = PMAPI_PMDUMPLOG;
  std::vector<char*> argv = {tool.data(), const_cast<char*>("-a"), const_cast<char*>(base.c_str()), nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    run.exit_code = -rc;
    return run;
  }
  int status = 0;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(kToolSeconds);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      run.hung = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  std::ifstream in(err_path);
  run.stderr_text.assign(std::istreambuf_iterator<char>(in), {});
  return run;
}

void ExpectCleanTool(const ArchiveCopy& copy, const std::string& what) {
  ToolRun run = RunDumplog(copy.base(), fs::path(copy.base()).parent_path());
  EXPECT_FALSE(run.hung) << what;
  EXPECT_EQ(run.signal, 0) << what << "\n" << run.stderr_text;
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << what << " exit " << run.exit_code;
  EXPECT_EQ(run.stderr_text.find("runtime error"), std::string::npos) << what << "\n" << run.stderr_text;
  EXPECT_EQ(run.stderr_text.find("Sanitizer"), std::string::npos) << what << "\n" << run.stderr_text;
}

std::string Describe(const ArchiveCopy& copy, size_t f, const std::string& damage) {
  return copy.files()[f].path.filename().string() + " " + damage;
}

class ArchiveCorruption : public testing::TestWithParam<SweepArchive> {};

TEST_P(ArchiveCorruption, EveryTruncationThroughContext) {
  ArchiveCopy copy(GetParam());
  ASSERT_FALSE(copy.files().empty());
  for (size_t f = 0; f < copy.files().size(); ++f) {
    for (size_t len = 0; len < copy.files()[f].bytes.size(); ++len) {
      copy.Truncate(f, len);
      WalkOnce(copy, Describe(copy, f, "truncated to " + std::to_string(len)));
      if (HasFailure()) return;
    }
    copy.Restore(f);
  }
}

// Sanitizer builds run every truncation but a quarter of the sampled
// changes, to keep the suite's time in bounds; the normal build runs all.
#ifdef __SANITIZE_ADDRESS__
constexpr int kSampleDivisor = 4;
#else
constexpr int kSampleDivisor = 1;
#endif

TEST_P(ArchiveCorruption, SampledByteChangesThroughContext) {
  ArchiveCopy copy(GetParam());
  ASSERT_FALSE(copy.files().empty());
  std::mt19937 rng(20261122);
  for (int n = 0; n < GetParam().byte_changes / kSampleDivisor; ++n) {
    const size_t f = rng() % copy.files().size();
    if (copy.files()[f].bytes.empty()) continue;
    const size_t at = rng() % copy.files()[f].bytes.size();
    const uint8_t x = static_cast<uint8_t>(1 + rng() % 255);
    copy.ChangeByte(f, at, x);
    WalkOnce(copy, Describe(copy, f, "byte " + std::to_string(at) + " ^= " + std::to_string(x)));
    copy.Restore(f);
    if (HasFailure()) return;
  }
}

TEST_P(ArchiveCorruption, SampledDamageThroughPmdumplog) {
  ArchiveCopy copy(GetParam());
  ASSERT_FALSE(copy.files().empty());
  std::mt19937 rng(7);
  const int cases = GetParam().tool_cases / kSampleDivisor;
  for (int n = 0; n < cases; ++n) {
    const size_t f = static_cast<size_t>(n) % copy.files().size();
    const size_t size = copy.files()[f].bytes.size();
    if (size == 0) continue;
    std::string what;
    if (n % 2 == 0) {
      // Truncations spread evenly over the file, the label included.
      const size_t len = size * static_cast<size_t>(n) / static_cast<size_t>(cases);
      copy.Truncate(f, len);
      what = Describe(copy, f, "truncated to " + std::to_string(len));
    } else {
      const size_t at = rng() % size;
      const uint8_t x = static_cast<uint8_t>(1 + rng() % 255);
      copy.ChangeByte(f, at, x);
      what = Describe(copy, f, "byte " + std::to_string(at) + " ^= " + std::to_string(x));
    }
    ExpectCleanTool(copy, what);
    copy.Restore(f);
    if (HasFailure()) return;
  }
}

// The undamaged archives must walk and dump cleanly too, and open.
TEST_P(ArchiveCorruption, IntactArchiveIsRead) {
  ArchiveCopy copy(GetParam());
  fuzz::ArchiveWalk w = fuzz::WalkArchive(copy.base());
  EXPECT_TRUE(w.opened) << w.open_code;
  EXPECT_GT(w.names, 0);
  EXPECT_GT(w.fetches, 0);
  ToolRun run = RunDumplog(copy.base(), fs::path(copy.base()).parent_path());
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
}

INSTANTIATE_TEST_SUITE_P(Archives, ArchiveCorruption, testing::ValuesIn(kArchives),
                         [](const testing::TestParamInfo<SweepArchive>& info) {
                           std::string name = info.param.base;
                           for (char& c : name) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
