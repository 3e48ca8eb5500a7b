// The Linux agent keeps its /proc statistics files open between fetches,
// and the proc agent each process's /proc/PID/stat: every fetch must still
// read fresh text, and a descriptor the program closed (its number now
// naming another file) must be noticed, not read. kernel.all.load comes
// from sysinfo(2) and must be what /proc/loadavg says; the process list is
// listed again only when /proc/loadavg says tasks came or went.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/extract.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

const std::string kConfig = PMAPI_TEST_PMCDCONF;

Context Open() {
  LocalOptions opts;
  opts.config_path = kConfig;
  absl::StatusOr<Context> c = OpenLocalContext(opts);
  EXPECT_TRUE(c.ok()) << c.status();
  return *std::move(c);
}

Result Fetch(Context& ctx, const char* name) {
  absl::StatusOr<PmID> id = ctx.LookupName(name);
  EXPECT_TRUE(id.ok()) << name;
  const PmID ids[] = {*id};
  absl::StatusOr<Result> r = ctx.Fetch(ids);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : Result();
}

double Value(const Result& r, int j, int type) {
  const ValueSet& vs = r.sets()[0];
  absl::StatusOr<AtomValue> a = ExtractValue(vs.valfmt, r.value(vs, j), type, kTypeDouble);
  EXPECT_TRUE(a.ok());
  return a.ok() ? a->d : -1;
}

// Returns the descriptor of this process open on `path`, or -1.
int DescriptorOf(const std::string& path) {
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  int found = -1;
  while (dirent* e = readdir(d)) {
    char target[256] = {};
    const std::string link = std::string("/proc/self/fd/") + e->d_name;
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    if (n > 0 && path == std::string(target, static_cast<size_t>(n))) found = std::atoi(e->d_name);
  }
  closedir(d);
  return found;
}

TEST(LocalProcfsTest, KeptFilesReadFreshText) {
  Context ctx = Open();
  const double first = Value(Fetch(ctx, "kernel.all.pswitch"), 0, kTypeU64);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double second = Value(Fetch(ctx, "kernel.all.pswitch"), 0, kTypeU64);
  EXPECT_GT(second, first);
}

// The "N/TOTAL" field of /proc/loadavg: TOTAL.
double LoadavgTotal() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c, rt;
  in >> a >> b >> c >> rt;
  return std::atof(rt.substr(rt.find('/') + 1).c_str());
}

TEST(LocalProcfsTest, ClosedDescriptorIsReopened) {
  Context ctx = Open();
  ASSERT_EQ(Fetch(ctx, "kernel.all.nprocs").sets()[0].numval, 1);
  const int kept = DescriptorOf("/proc/loadavg");
  ASSERT_GE(kept, 0) << "the agent no longer keeps /proc/loadavg open";
  // The program closes it and the number comes to name another file.
  const int other = open("/dev/zero", O_RDONLY);
  ASSERT_GE(other, 0);
  ASSERT_EQ(dup2(other, kept), kept);
  close(other);
  Result r = Fetch(ctx, "kernel.all.nprocs");
  ASSERT_EQ(r.sets()[0].numval, 1);
  EXPECT_NEAR(Value(r, 0, kTypeU32), LoadavgTotal(), 100);
  // the descriptor that is now the program's is left alone
  EXPECT_NE(fcntl(kept, F_GETFD), -1);
  EXPECT_EQ(DescriptorOf("/dev/zero"), kept);
  close(kept);
}

// The three load averages as /proc/loadavg prints them ("0.52").
std::vector<std::string> LoadavgText() {
  std::ifstream in("/proc/loadavg");
  std::vector<std::string> out(3);
  in >> out[0] >> out[1] >> out[2];
  return out;
}

TEST(LocalProcfsTest, LoadAveragesAreTheFilesText) {
  Context ctx = Open();
  // the averages move every 5 seconds: a fetch between two equal reads
  // of the file must give the file's values
  for (int attempt = 0; attempt < 20; ++attempt) {
    const std::vector<std::string> before = LoadavgText();
    Result r = Fetch(ctx, "kernel.all.load");
    const std::vector<std::string> after = LoadavgText();
    if (before != after) continue;
    ASSERT_EQ(r.sets()[0].numval, 3);
    for (int j = 0; j < 3; ++j) {
      const float expect = std::strtof(before[static_cast<size_t>(j)].c_str(), nullptr);
      EXPECT_EQ(static_cast<float>(Value(r, j, kTypeFloat)), expect) << before[static_cast<size_t>(j)];
    }
    return;
  }
  FAIL() << "/proc/loadavg changed under every fetch";
}

// The process ids of a proc.psinfo.pid fetch.
std::vector<int> Pids(Context& ctx) {
  Result r = Fetch(ctx, "proc.psinfo.pid");
  std::vector<int> out;
  const ValueSet& vs = r.sets()[0];
  for (int j = 0; j < vs.numval; ++j) out.push_back(ToPcp(r.value(vs, j).inst));
  return out;
}

bool Has(const std::vector<int>& pids, int pid) { return std::find(pids.begin(), pids.end(), pid) != pids.end(); }

TEST(LocalProcfsTest, ProcessesComeAndGoBetweenFetches) {
  Context ctx = Open();
  ASSERT_TRUE(Has(Pids(ctx), getpid()));
  for (int round = 0; round < 3; ++round) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      pause();
      _exit(0);
    }
    EXPECT_TRUE(Has(Pids(ctx), child)) << "round " << round;
    EXPECT_TRUE(Has(Pids(ctx), child)) << "round " << round << ", fetched again";
    kill(child, SIGKILL);
    ASSERT_EQ(waitpid(child, nullptr, 0), child);
    EXPECT_FALSE(Has(Pids(ctx), child)) << "round " << round;
  }
}

TEST(LocalProcfsTest, ClosedProcessDescriptorIsReopened) {
  Context ctx = Open();
  const std::string stat = "/proc/" + std::to_string(getpid()) + "/stat";
  ASSERT_TRUE(Has(Pids(ctx), getpid()));
  Result r = Fetch(ctx, "proc.psinfo.ppid");  // read from stat
  const int kept = DescriptorOf(stat);
  ASSERT_GE(kept, 0) << "the agent no longer keeps " << stat << " open";
  const int other = open("/dev/zero", O_RDONLY);
  ASSERT_GE(other, 0);
  ASSERT_EQ(dup2(other, kept), kept);
  close(other);
  r = Fetch(ctx, "proc.psinfo.ppid");
  const ValueSet& vs = r.sets()[0];
  bool seen = false;
  for (int j = 0; j < vs.numval; ++j) {
    if (r.value(vs, j).inst != Inst{getpid()}) continue;
    seen = true;
    EXPECT_EQ(Value(r, j, kTypeU32), getppid());
  }
  EXPECT_TRUE(seen);
  EXPECT_NE(fcntl(kept, F_GETFD), -1);
  EXPECT_EQ(DescriptorOf("/dev/zero"), kept);
  close(kept);
}

}  // namespace
}  // namespace pmapi
