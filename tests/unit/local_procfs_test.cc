// The Linux agent keeps its /proc statistics files open between fetches:
// every fetch must still read fresh text, and a descriptor the program
// closed (its number now naming another file) must be noticed, not read.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

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

TEST(LocalProcfsTest, ClosedDescriptorIsReopened) {
  Context ctx = Open();
  ASSERT_EQ(Fetch(ctx, "kernel.all.load").sets()[0].numval, 3);
  const int kept = DescriptorOf("/proc/loadavg");
  ASSERT_GE(kept, 0) << "the agent no longer keeps /proc/loadavg open";
  // The program closes it and the number comes to name another file.
  const int other = open("/dev/zero", O_RDONLY);
  ASSERT_GE(other, 0);
  ASSERT_EQ(dup2(other, kept), kept);
  close(other);
  Result r = Fetch(ctx, "kernel.all.load");
  ASSERT_EQ(r.sets()[0].numval, 3);
  std::ifstream in("/proc/loadavg");
  double one = -1;
  in >> one;
  EXPECT_NEAR(Value(r, 0, kTypeFloat), one, 0.5);
  // the descriptor that is now the program's is left alone
  EXPECT_NE(fcntl(kept, F_GETFD), -1);
  EXPECT_EQ(DescriptorOf("/dev/zero"), kept);
  close(kept);
}

}  // namespace
}  // namespace pmapi
