// Checks the built-in Linux agent: its names, PMIDs and descriptors equal
// PCP's linux agent's (golden table tests/data/oracle/linux_desc.tsv, made
// by tests/oracle/linux_desc.sh from PCP's own local context); its values
// on this machine are sane; and it reads a made-up /proc tree (PCP's
// LINUX_STATSPATH and PROC_STATSPATH) with odd contents without failing.
#include <sys/stat.h>
#include <utmp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"
#include "pmdas/linux/proc_stats.h"

namespace pmapi {
namespace {

const std::string kConfig = PMAPI_TEST_PMCDCONF;

Context OpenOrDie() {
  LocalOptions opts;
  opts.config_path = kConfig;
  absl::StatusOr<Context> c = OpenLocalContext(opts);
  EXPECT_TRUE(c.ok()) << c.status();
  return *std::move(c);
}

std::string IdText(PmID id) {
  return std::to_string(PmIDDomain(id)) + "." + std::to_string(PmIDCluster(id)) + "." +
         std::to_string(PmIDItem(id));
}

TEST(LocalLinuxTest, DescriptorsMatchPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/linux_desc.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  Context ctx = OpenOrDie();
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string name, pmid, indom;
    int type, sem, u[6];
    f >> name >> pmid >> type >> indom >> sem >> u[0] >> u[1] >> u[2] >> u[3] >> u[4] >> u[5];
    ASSERT_TRUE(f) << line;
    absl::StatusOr<PmID> id = ctx.LookupName(name);
    ASSERT_TRUE(id.ok()) << name;
    EXPECT_EQ(IdText(*id), pmid) << name;
    absl::StatusOr<Desc> d = ctx.LookupDesc(*id);
    ASSERT_TRUE(d.ok()) << name;
    EXPECT_EQ(d->type, type) << name;
    EXPECT_EQ(d->sem, sem) << name;
    EXPECT_EQ(d->indom == kInDomNull ? std::string("null")
                                     : std::to_string(InDomDomain(d->indom)) + "." +
                                           std::to_string(InDomSerial(d->indom)),
              indom)
        << name;
    EXPECT_EQ(d->units, (Units{static_cast<int8_t>(u[0]), static_cast<int8_t>(u[1]), static_cast<int8_t>(u[2]),
                               static_cast<uint8_t>(u[3]), static_cast<uint8_t>(u[4]), static_cast<int8_t>(u[5])}))
        << name;
    ++rows;
  }
  EXPECT_GE(rows, 800);
  // and the agent has no names the table lacks
  int leaves = 0;
  for (const char* top : {"hinv", "kernel", "mem", "swap", "network", "disk", "filesys", "tty", "vfs", "zram", "rpc",
                          "nfs", "nfs3", "nfs4", "tape", "fchost"}) {
    ASSERT_TRUE(ctx.Traverse(top, [&](const std::string&) { ++leaves; }).ok());
  }
  EXPECT_EQ(leaves, rows);
}

// Returns the values of `name` by instance id.
std::map<Inst, ValueView> Values(Context& ctx, const std::string& name, Result* keep) {
  absl::StatusOr<PmID> id = ctx.LookupName(name);
  EXPECT_TRUE(id.ok()) << name;
  absl::StatusOr<Result> r = ctx.Fetch({&*id, 1});
  EXPECT_TRUE(r.ok()) << name;
  *keep = *std::move(r);
  std::map<Inst, ValueView> out;
  const ValueSet& vs = keep->sets()[0];
  for (int j = 0; j < vs.numval; ++j) out[keep->value(vs, j).inst] = keep->value(vs, j);
  return out;
}

uint64_t U64(const ValueView& v) {
  uint64_t x = 0;
  if (v.payload.size() == 8) std::memcpy(&x, v.payload.data(), 8);
  return x;
}

TEST(LocalLinuxTest, ValuesAreSane) {
  Context ctx = OpenOrDie();
  Result keep;
  const uint32_t ncpu = static_cast<uint32_t>(Values(ctx, "hinv.ncpu", &keep).at(kInNull).lval);
  EXPECT_GE(ncpu, 1u);
  std::map<Inst, ValueView> user = Values(ctx, "kernel.percpu.cpu.user", &keep);
  EXPECT_EQ(user.size(), ncpu);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 0), user.begin()->first), "cpu" + std::to_string(ToPcp(user.begin()->first)));
  const uint64_t physmem = U64(Values(ctx, "mem.physmem", &keep).at(kInNull));
  const uint64_t used = U64(Values(ctx, "mem.util.used", &keep).at(kInNull));
  EXPECT_GT(physmem, 0u);
  EXPECT_LE(used, physmem);
  EXPECT_EQ(static_cast<uint64_t>(static_cast<uint32_t>(Values(ctx, "hinv.physmem", &keep).at(kInNull).lval)),
            physmem / 1024);
  std::map<Inst, ValueView> load = Values(ctx, "kernel.all.load", &keep);
  ASSERT_EQ(load.size(), 3u);
  float one;
  std::memcpy(&one, load.at(Inst{1}).payload.data(), 4);
  EXPECT_GE(one, 0.0f);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 2), Inst{15}), "15 minute");
  EXPECT_EQ(*ctx.LookupInDom(MakeInDom(60, 2), "5"), Inst{5});
  ValueView sys = Values(ctx, "kernel.uname.sysname", &keep).at(kInNull);
  EXPECT_EQ(std::string(sys.payload.begin(), sys.payload.end()), std::string("Linux\0", 6));
  // counters do not go backwards
  const uint64_t p1 = U64(Values(ctx, "kernel.all.pswitch", &keep).at(kInNull));
  const uint64_t i1 = U64(Values(ctx, "kernel.all.cpu.idle", &keep).at(kInNull));
  EXPECT_GE(U64(Values(ctx, "kernel.all.pswitch", &keep).at(kInNull)), p1);
  EXPECT_GE(U64(Values(ctx, "kernel.all.cpu.idle", &keep).at(kInNull)), i1);
  // disk.all sums disk.dev
  uint64_t sum = 0;
  for (const auto& [inst, v] : Values(ctx, "disk.dev.read", &keep)) sum += U64(v);
  EXPECT_LE(sum, U64(Values(ctx, "disk.all.read", &keep).at(kInNull)));
  EXPECT_EQ(Values(ctx, "disk.dev.read", &keep).size(),
            static_cast<size_t>(Values(ctx, "hinv.ndisk", &keep).at(kInNull).lval));
  // file systems: used + free = capacity, within one fetch (the agent
  // reads each file system once per fetch; disks change between fetches)
  std::vector<PmID> fs_ids;
  for (const char* n : {"filesys.capacity", "filesys.used", "filesys.free"}) fs_ids.push_back(*ctx.LookupName(n));
  absl::StatusOr<Result> fs = ctx.Fetch(fs_ids);
  ASSERT_TRUE(fs.ok());
  std::map<Inst, uint64_t> by_inst[3];
  for (int m = 0; m < 3; ++m) {
    const ValueSet& vs = fs->sets()[m];
    for (int j = 0; j < vs.numval; ++j) by_inst[m][fs->value(vs, j).inst] = U64(fs->value(vs, j));
  }
  for (const auto& [inst, cap] : by_inst[0]) {
    if (by_inst[1].contains(inst) && by_inst[2].contains(inst)) {
      EXPECT_EQ(by_inst[1].at(inst) + by_inst[2].at(inst), cap);
    }
  }
  EXPECT_FALSE(ctx.GetInDom(MakeInDom(60, 3))->empty());  // at least lo
  EXPECT_EQ(*ctx.LookupText(*ctx.LookupName("kernel.all.load"), TextKind::kOneline), "1, 5 and 15 minute load average");
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class FakeProcTest : public testing::Test {
 protected:
  void SetUp() override {
    // One tree per test process: CTest runs these tests in parallel.
    std::string tmpl = testing::TempDir() + "/fakeproc.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    for (const char* d : {"", "/proc", "/proc/net", "/sys", "/sys/block", "/sys/block/sda", "/etc"})
      mkdir((root_ + d).c_str(), 0755);
    setenv("LINUX_STATSPATH", root_.c_str(), 1);
    setenv("PROC_STATSPATH", root_.c_str(), 1);  // the proc agent's root, as in PCP
  }
  void TearDown() override {
    unsetenv("LINUX_STATSPATH");
    unsetenv("PROC_STATSPATH");
    unsetenv("LINUX_NCPUS");
    unsetenv("LINUX_NNODES");
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::string root_;
};

TEST_F(FakeProcTest, ReadsTheMadeUpTree) {
  WriteFile(root_ + "/proc/stat",
            "cpu  100 2 30 400 5 6 7 8 0 0\ncpu0 60 1 20 200 3 4 5 6 0 0\ncpu3 40 1 10 200 2 2 2 2 0 0\n"
            "intr 12345 1 2 3\nctxt 999\nbogus line here\ncpuX nonsense\n");
  WriteFile(root_ + "/proc/meminfo", "MemTotal: 2048000 kB\nMemFree: 1024000 kB\nBuffers: 10 kB\nnot a line\n");
  WriteFile(root_ + "/proc/loadavg", "0.50 0.25 0.125 2/77 1234\n");
  WriteFile(root_ + "/proc/diskstats",
            "   8 0 sda 10 0 200 0 20 0 400 0 0 33 0\n   8 1 sda1 5 0 100 0 10 0 200 0 0 10 0\n"
            "   7 0 loop0 1 0 1 0 1 0 1 0 0 1 0\n short line\n");
  WriteFile(root_ + "/proc/net/dev",
            "Inter-|   Receive\n face |bytes\n  eth9: 1000 10 1 2 0 0 0 0 2000 20 3 4 0 0 0 0\n  bad: x y\n");
  WriteFile(root_ + "/proc/vmstat", "pswpin 7\npswpout 8\n");
  // without a node directory the processors are the configured ones (one
  // node0 holds them all); cpu3 is one of four here
  setenv("LINUX_NCPUS", "4", 1);  // unset by TearDown
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> user = Values(ctx, "kernel.percpu.cpu.user", &keep);
  ASSERT_EQ(user.size(), 2u);
  EXPECT_TRUE(user.contains(Inst{0}) && user.contains(Inst{3}));
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 0), Inst{3}), "cpu3");
  EXPECT_EQ(U64(Values(ctx, "kernel.all.intr", &keep).at(kInNull)), 12345u);
  EXPECT_EQ(U64(Values(ctx, "kernel.all.pswitch", &keep).at(kInNull)), 999u);
  EXPECT_EQ(U64(Values(ctx, "mem.util.used", &keep).at(kInNull)), 1024000u);
  EXPECT_EQ(Values(ctx, "hinv.physmem", &keep).at(kInNull).lval, 2000);
  EXPECT_EQ(Values(ctx, "kernel.all.nprocs", &keep).at(kInNull).lval, 77);
  std::map<Inst, ValueView> reads = Values(ctx, "disk.dev.read_bytes", &keep);
  ASSERT_EQ(reads.size(), 1u);  // sda only: sda1 is a partition, loop0 a loop device
  EXPECT_EQ(U64(reads.begin()->second), 100u);
  EXPECT_EQ(Values(ctx, "disk.dev.avactive", &keep).begin()->second.lval, 33);
  EXPECT_EQ(U64(Values(ctx, "network.interface.out.drops", &keep).at(Inst{0})), 4u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 3), Inst{0}), "eth9");
  EXPECT_EQ(Values(ctx, "swap.pagesin", &keep).at(kInNull).lval, 7);
  // what the files do not give is no value (as PCP's agent answers for a
  // missing /proc/meminfo line) or, for the old swap line, "not
  // supported": never a crash or a zero
  PmID avail = *ctx.LookupName("mem.util.available");
  EXPECT_EQ(ctx.Fetch({&avail, 1})->sets()[0].numval, 0);
  PmID swapin = *ctx.LookupName("swap.in");
  EXPECT_EQ(ctx.Fetch({&swapin, 1})->sets()[0].numval, kErrAppversion);
}

// vfs.*: numbers read as scanf's %d reads them (a bad field ends the file,
// a number beyond a long is cut to an int as glibc stores it), locks
// counted by kind and access; a missing file gives zeros.
TEST_F(FakeProcTest, VfsTablesAndLocks) {
  mkdir((root_ + "/proc/sys").c_str(), 0755);
  mkdir((root_ + "/proc/sys/fs").c_str(), 0755);
  WriteFile(root_ + "/proc/sys/fs/file-nr", "812\t0\t9223372036854775807\n");
  WriteFile(root_ + "/proc/sys/fs/inode-state", "335814 17 0 0 0 0 0\n");
  WriteFile(root_ + "/proc/sys/fs/dentry-state", "764837 x 45\n");
  WriteFile(root_ + "/proc/sys/fs/aio-nr", "-3\n");
  WriteFile(root_ + "/proc/sys/fs/aio-max-nr", "65536\n");
  WriteFile(root_ + "/proc/locks",
            "1: POSIX  ADVISORY  WRITE 543 fd:01:1234 0 EOF\n"
            "1: -> POSIX  ADVISORY  READ 544 fd:01:1234 0 EOF\n"
            "2: OFDLCK ADVISORY  READ -1 00:0e:1 0 EOF\n"
            "3: FLOCK  ADVISORY  RW 600 00:0e:2 0 EOF\n"
            "4: LEASE  ACTIVE    READ 700 00:0e:3 0 EOF\n"
            "5: WEIRD  ADVISORY  WRITE 1 00:00:1 0 EOF\nnot a lock\n");
  Context ctx = OpenOrDie();
  Result keep;
  auto value = [&](const char* name) { return Values(ctx, name, &keep).at(kInNull).lval; };
  EXPECT_EQ(value("vfs.files.count"), 812);
  EXPECT_EQ(value("vfs.files.max"), -1);
  EXPECT_EQ(value("vfs.inodes.free"), 17);
  EXPECT_EQ(value("vfs.dentry.count"), 764837);
  EXPECT_EQ(value("vfs.dentry.free"), 0);
  EXPECT_EQ(value("vfs.aio.count"), -3);
  EXPECT_EQ(value("vfs.aio.max"), 65536);
  EXPECT_EQ(value("vfs.locks.posix.count"), 2);
  EXPECT_EQ(value("vfs.locks.posix.read"), 1);
  EXPECT_EQ(value("vfs.locks.posix.write"), 1);
  EXPECT_EQ(value("vfs.locks.flock.read"), 1);
  EXPECT_EQ(value("vfs.locks.flock.write"), 1);
  EXPECT_EQ(value("vfs.locks.lease.count"), 1);
  std::remove((root_ + "/proc/sys/fs/aio-nr").c_str());
  EXPECT_EQ(value("vfs.files.count"), 0);
  EXPECT_EQ(value("vfs.aio.max"), 0);
}

// network.softnet: one line per processor of /proc/stat; a line's column
// count says which metrics the kernel has (9 columns: no received_rps or
// flow_limit_count); without the file every metric is "not supported".
TEST_F(FakeProcTest, SoftnetColumnsByKernel) {
  WriteFile(root_ + "/proc/stat", "cpu  1 1 1 1 0 0 0 0 0 0\ncpu0 1 1 1 1 0 0 0 0 0 0\ncpu1 1 1 1 1 0 0 0 0 0 0\n");
  WriteFile(root_ + "/proc/net/softnet_stat",
            "00001904 00000002 00000003 00000001 00000001 00000001 00000001 00000001 00000004\n"
            "00000534 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n");
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(U64(Values(ctx, "network.softnet.processed", &keep).at(kInNull)), 0x1904u + 0x534u);
  EXPECT_EQ(U64(Values(ctx, "network.softnet.cpu_collision", &keep).at(kInNull)), 4u);
  EXPECT_EQ(U64(Values(ctx, "network.softnet.percpu.processed", &keep).at(Inst{1})), 0x534u);
  PmID rps = *ctx.LookupName("network.softnet.received_rps");
  EXPECT_EQ(ctx.Fetch({&rps, 1})->sets()[0].numval, kErrAppversion);
  std::remove((root_ + "/proc/net/softnet_stat").c_str());
  PmID processed = *ctx.LookupName("network.softnet.processed");
  EXPECT_EQ(ctx.Fetch({&processed, 1})->sets()[0].numval, kErrAppversion);
}

TEST_F(FakeProcTest, EmptyAndGarbageFilesGiveNoValues) {
  WriteFile(root_ + "/proc/stat", std::string("\0\0\xff\n cpu", 9));
  WriteFile(root_ + "/proc/meminfo", "");
  WriteFile(root_ + "/proc/loadavg", "nan");
  WriteFile(root_ + "/proc/diskstats", std::string(100000, 'x'));
  WriteFile(root_ + "/proc/net/dev", ":::::\n");
  Context ctx = OpenOrDie();
  std::vector<PmID> ids;
  ASSERT_TRUE(ctx.Traverse("", [&](const std::string& n) {
    if (n.rfind("test.", 0) != 0) ids.push_back(*ctx.LookupName(n));
  }).ok());
  absl::StatusOr<Result> r = ctx.Fetch(ids);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sets()[0].pmid, ids[0]);
  // IPv4 addresses come from the running system's ioctls, as in PCP's agent
  const PmID inet = *ctx.LookupName("network.interface.inet_addr");
  for (const ValueSet& vs : r->sets()) {
    if (vs.pmid != inet) {
      EXPECT_LE(vs.numval, 1) << IDStr(vs.pmid);
    }
  }
}

// A string value's text (without the payload's closing NUL).
std::string Text(const ValueView& v) {
  std::string s(v.payload.begin(), v.payload.end());
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

float Float(const ValueView& v) {
  float f = 0;
  if (v.payload.size() == sizeof f) std::memcpy(&f, v.payload.data(), sizeof f);
  return f;
}

TEST_F(FakeProcTest, CpuinfoPerProcessor) {
  WriteFile(root_ + "/proc/stat", "cpu  1 1 1 1 0 0 0 0 0 0\ncpu0 1 1 1 1 0 0 0 0 0 0\ncpu1 1 1 1 1 0 0 0 0 0 0\n");
  WriteFile(root_ + "/proc/cpuinfo",
            "processor\t: 0\nvendor_id\t: GenuineTest\nmodel\t\t: 85\nmodel name\t: Test CPU @ 2.00GHz\n"
            "stepping\t: 7\ncpu MHz\t\t: 1999.998\ncache size\t: 16384 KB\nflags\t\t: fpu  vme\n"
            "bogomips\t: 3999.99\ncache_alignment\t: 64\npower management:\n\n"
            "processor\t: 1\nvendor_id\t: OtherTest\nmodel name\t: Second\ncpu MHz\t\t: 1200.5\n\n"
            "processor\t: 2\nvendor_id\t: NotInStat\n");
  for (const char* d : {"/sys/devices", "/sys/devices/system", "/sys/devices/system/cpu", "/sys/devices/system/cpu/cpu1",
                        "/sys/devices/system/cpu/cpu1/cpufreq", "/sys/devices/system/cpu/cpu1/cpufreq/stats",
                        "/sys/devices/system/cpu/cpu1/thermal_throttle"})
    mkdir((root_ + d).c_str(), 0755);
  WriteFile(root_ + "/sys/devices/system/cpu/cpu1/online", "0\n");
  WriteFile(root_ + "/sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count", "42\n");
  WriteFile(root_ + "/sys/devices/system/cpu/cpu1/cpufreq/stats/time_in_state", "2000000 10\n1000000 30\n");
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> vendor = Values(ctx, "hinv.cpu.vendor", &keep);
  ASSERT_EQ(vendor.size(), 2u);
  EXPECT_EQ(Text(vendor.at(Inst{0})), "GenuineTest");
  EXPECT_EQ(Text(vendor.at(Inst{1})), "OtherTest");
  EXPECT_EQ(Text(Values(ctx, "hinv.cpu.model", &keep).at(Inst{0})), "85");
  // cpu1 has no "model" line: its model is its model name
  EXPECT_EQ(Text(Values(ctx, "hinv.cpu.model", &keep).at(Inst{1})), "Second");
  EXPECT_EQ(Text(Values(ctx, "hinv.cpu.model_name", &keep).at(Inst{0})), "Test CPU @ 2.00GHz");
  EXPECT_EQ(Text(Values(ctx, "hinv.cpu.stepping", &keep).at(Inst{1})), "unknown");
  EXPECT_EQ(Text(Values(ctx, "hinv.cpu.flags", &keep).at(Inst{0})), "fpu  vme");
  EXPECT_EQ(Float(Values(ctx, "hinv.cpu.clock", &keep).at(Inst{1})), 1200.5f);
  EXPECT_EQ(Float(Values(ctx, "hinv.cpu.bogomips", &keep).at(Inst{0})), 3999.99f);
  std::map<Inst, ValueView> cache = Values(ctx, "hinv.cpu.cache", &keep);
  EXPECT_EQ(cache.size(), 1u);  // none for cpu1, which has no "cache size" line
  EXPECT_EQ(cache.at(Inst{0}).lval, 16384);
  EXPECT_EQ(Values(ctx, "hinv.cpu.cache_alignment", &keep).at(Inst{0}).lval, 64);
  std::map<Inst, ValueView> online = Values(ctx, "hinv.cpu.online", &keep);
  EXPECT_EQ(online.at(Inst{0}).lval, 1);  // no file: online
  EXPECT_EQ(online.at(Inst{1}).lval, 0);
  EXPECT_EQ(U64(Values(ctx, "hinv.cpu.thermal_throttle.core.count", &keep).at(Inst{1})), 42u);
  EXPECT_EQ(U64(Values(ctx, "hinv.cpu.thermal_throttle.core.count", &keep).at(Inst{0})), 0u);
  std::map<Inst, ValueView> count = Values(ctx, "hinv.cpu.frequency_scaling.count", &keep);
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(U64(count.at(Inst{1})), 2000u * 10 + 1000u * 30);
  EXPECT_EQ(U64(Values(ctx, "hinv.cpu.frequency_scaling.time", &keep).at(Inst{1})), 40u);
  EXPECT_EQ(Values(ctx, "hinv.cpu.frequency_scaling.max", &keep).at(Inst{1}).lval, 2000);
  EXPECT_EQ(Values(ctx, "hinv.cpu.frequency_scaling.min", &keep).at(Inst{1}).lval, 1000);
}

TEST_F(FakeProcTest, CpuinfoDescriptionAfterTheProcessorLines) {
  // arm64 kernels list the processors first and one description after;
  // older ones start with a "Processor" line, which is not a processor
  WriteFile(root_ + "/proc/stat", "cpu  1 1 1 1 0 0 0 0 0 0\ncpu0 1 1 1 1 0 0 0 0 0 0\ncpu1 1 1 1 1 0 0 0 0 0 0\n");
  WriteFile(root_ + "/proc/cpuinfo",
            "Processor\t: AArch64 Processor rev 0 (aarch64)\nprocessor\t: 0\nprocessor\t: 1\nFeatures\t: fp asimd  \nCPU implementer\t: 0x41\n"
            "CPU variant\t: 0x3\nCPU revision\t: 1\nBogoMIPS\t: 50.00\n");
  Context ctx = OpenOrDie();
  Result keep;
  for (Inst cpu : {Inst{0}, Inst{1}}) {
    EXPECT_EQ(Text(Values(ctx, "hinv.cpu.vendor", &keep).at(cpu)), "0x41");
    EXPECT_EQ(Text(Values(ctx, "hinv.cpu.model", &keep).at(cpu)), "0x3");
    EXPECT_EQ(Text(Values(ctx, "hinv.cpu.stepping", &keep).at(cpu)), "1");
    EXPECT_EQ(Text(Values(ctx, "hinv.cpu.flags", &keep).at(cpu)), "fp asimd");
    EXPECT_EQ(Float(Values(ctx, "hinv.cpu.bogomips", &keep).at(cpu)), 50.0f);
  }
  EXPECT_TRUE(Values(ctx, "hinv.cpu.clock", &keep).empty());
}

// hinv.map.scsi_id: a disk's WWID file with its prefix in numeric form,
// the last byte dropped and the text cut at its last newline, as PCP's
// agent reads it; "unknown" without a file.
TEST_F(FakeProcTest, ScsiIdFromWwidFiles) {
  WriteFile(root_ + "/proc/diskstats",
            "   8 0 sda 10 0 200 0 20 0 400 0 0 33 0\n   8 16 sdb 1 0 1 0 1 0 1 0 0 1 0\n"
            " 259 0 nvme0n1 1 0 1 0 1 0 1 0 0 1 0\n   8 32 sdc 1 0 1 0 1 0 1 0 0 1 0\n");
  for (const char* d : {"/sys/block/sda/device", "/sys/block/sdb", "/sys/block/nvme0n1"})
    std::filesystem::create_directories(root_ + d);
  WriteFile(root_ + "/sys/block/sda/device/wwid", "naa.600508b1001c4d\n");
  WriteFile(root_ + "/sys/block/sdb/wwid", "t10.ATA     QEMU HARDDISK");
  WriteFile(root_ + "/sys/block/nvme0n1/wwid", "eui.0025388b71b1\nextra\n");
  Context ctx = OpenOrDie();
  Result keep;
  std::map<std::string, std::string> ids;
  for (const auto& [inst, v] : Values(ctx, "hinv.map.scsi_id", &keep))
    ids[*ctx.NameInDom(MakeInDom(60, 1), inst)] = Text(v);
  EXPECT_EQ(ids, (std::map<std::string, std::string>{{"sda", "3600508b1001c4d"},
                                                      {"sdb", "1ATA     QEMU HARDDIS"},
                                                      {"nvme0n1", "20025388b71b1"},
                                                      {"sdc", "unknown"}}));
}

// zram devices: their own instance domain, the partition statistics of
// /proc/diskstats, the capacity from disksize, and the stat files in
// kilobytes (mm_stat bytes shifted down, page counts shifted up); a stat
// file short of its numbers gives no value.
TEST_F(FakeProcTest, ZramDevices) {
  WriteFile(root_ + "/proc/diskstats",
            " 252 0 zram0 4 0 32 0 10 0 80 0 0 4 0\n   8 0 sda 10 0 200 0 20 0 400 0 0 33 0\n");
  std::filesystem::create_directories(root_ + "/sys/block/zram0");
  WriteFile(root_ + "/sys/block/zram0/disksize", "1073741824\n");
  WriteFile(root_ + "/sys/block/zram0/mm_stat", "8192 4096 12288 0 12288 3 1 2\n");
  WriteFile(root_ + "/sys/block/zram0/io_stat", "1 2 3\n");
  WriteFile(root_ + "/sys/block/zram0/bd_stat", "5 6 7\n");
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 38), Inst{0}), "zram0");
  EXPECT_EQ(U64(Values(ctx, "zram.write", &keep).at(Inst{0})), 10u);
  EXPECT_EQ(U64(Values(ctx, "zram.write_bytes", &keep).at(Inst{0})), 40u);
  EXPECT_EQ(U64(Values(ctx, "zram.capacity", &keep).at(Inst{0})), 1048576u);
  EXPECT_EQ(U64(Values(ctx, "zram.mm_stat.data_size.original", &keep).at(Inst{0})), 8u);
  EXPECT_EQ(U64(Values(ctx, "zram.mm_stat.pages.same", &keep).at(Inst{0})), 12u);
  EXPECT_EQ(U64(Values(ctx, "zram.bd_stat.writes", &keep).at(Inst{0})), 28u);
  EXPECT_TRUE(Values(ctx, "zram.io_stat.invalid", &keep).empty());
  EXPECT_EQ(Values(ctx, "disk.dev.write", &keep).size(), 1u);  // sda only
}

// tape.dev and fchost: drives stN and Fibre Channel hosts with a statistics
// directory, one counter per file (a file whose name begins a known one's
// is taken for it); fchost numbers in C notation, word counts times four,
// and the items PCP's agent serves them as (fchost.out.frames carries
// rx_words, fchost.in.bytes tx_frames). A device keeps its instance number
// while it is gone, and the hinv counts are the devices found now.
TEST_F(FakeProcTest, TapeAndFchostStatistics) {
  const std::string tape = root_ + "/sys/class/scsi_tape";
  for (const char* d : {"/st0/stats", "/nst0/stats", "/st0a/stats", "/st1", "/st2/stats"})
    std::filesystem::create_directories(tape + d);
  WriteFile(tape + "/st0/stats/read_cnt", "12\n");
  WriteFile(tape + "/st0/stats/write_byte_cnt", "4096\n");
  WriteFile(tape + "/st0/stats/in_f", "3\n");  // begins in_flight
  WriteFile(tape + "/st0/stats/resid_cnt", "-1\n");
  WriteFile(tape + "/nst0/stats/read_cnt", "99\n");
  WriteFile(tape + "/st2/stats/read_cnt", "5\n");
  const std::string fc = root_ + "/sys/class/fc_host";
  for (const char* d : {"/host3/statistics", "/host5"}) std::filesystem::create_directories(fc + d);
  const std::string stats = fc + "/host3/statistics/";
  WriteFile(stats + "rx_frames", "0x10\n");
  WriteFile(stats + "rx_words", "0x4\n");
  WriteFile(stats + "tx_frames", "7\n");
  WriteFile(stats + "tx_words", "0x100\n");
  WriteFile(stats + "lip_count", "010\n");  // octal
  WriteFile(stats + "error_frames", "0xffffffffffffffff\n");
  WriteFile(stats + "seconds_since_last_reset", "0x5\n");

  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(Values(ctx, "hinv.ntape", &keep).at(kInNull).lval, 2);
  std::map<Inst, ValueView> reads = Values(ctx, "tape.dev.read_cnt", &keep);
  ASSERT_EQ(reads.size(), 2u);
  std::map<std::string, uint64_t> by_name;
  for (const auto& [inst, v] : reads) by_name[*ctx.NameInDom(MakeInDom(60, 34), inst)] = U64(v);
  EXPECT_EQ(by_name, (std::map<std::string, uint64_t>{{"st0", 12}, {"st2", 5}}));
  const Inst st0 = *ctx.LookupInDom(MakeInDom(60, 34), "st0");
  EXPECT_EQ(U64(Values(ctx, "tape.dev.write_byte_cnt", &keep).at(st0)), 4096u);
  EXPECT_EQ(U64(Values(ctx, "tape.dev.in_flight", &keep).at(st0)), 3u);
  EXPECT_EQ(U64(Values(ctx, "tape.dev.resid_cnt", &keep).at(st0)), ~uint64_t{0});
  EXPECT_EQ(U64(Values(ctx, "tape.dev.io_ns", &keep).at(st0)), 0u);

  EXPECT_EQ(Values(ctx, "hinv.nfchost", &keep).at(kInNull).lval, 1);
  const Inst host = *ctx.LookupInDom(MakeInDom(60, 39), "host3");
  EXPECT_EQ(U64(Values(ctx, "fchost.in.frames", &keep).at(host)), 16u);
  EXPECT_EQ(U64(Values(ctx, "fchost.out.frames", &keep).at(host)), 16u);
  EXPECT_EQ(U64(Values(ctx, "fchost.in.bytes", &keep).at(host)), 7u);
  EXPECT_EQ(U64(Values(ctx, "fchost.out.bytes", &keep).at(host)), 1024u);
  EXPECT_EQ(U64(Values(ctx, "fchost.lip_count", &keep).at(host)), 8u);
  EXPECT_EQ(U64(Values(ctx, "fchost.error_frames", &keep).at(host)), 0u);
  EXPECT_EQ(Values(ctx, "fchost.dumped_frames", &keep).size(), 1u);

  // st0 goes away and st3 comes: st2 keeps its number, st3 gets a new one
  const Inst st2 = *ctx.LookupInDom(MakeInDom(60, 34), "st2");
  std::filesystem::remove_all(tape + "/st0");
  std::filesystem::create_directories(tape + "/st3/stats");
  EXPECT_EQ(Values(ctx, "hinv.ntape", &keep).at(kInNull).lval, 2);
  std::map<Inst, ValueView> after = Values(ctx, "tape.dev.read_cnt", &keep);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(U64(after.at(st2)), 5u);
  EXPECT_FALSE(after.contains(st0));
  EXPECT_EQ(*ctx.LookupInDom(MakeInDom(60, 34), "st3"), Inst{std::max(ToPcp(st0), ToPcp(st2)) + 1});
}

// disk.md.status: the wait status of $LINUX_MDADM for each md device the
// last read of /proc/diskstats found; alone in a fresh context it has no
// instances yet, as with PCP's agent.
TEST_F(FakeProcTest, MdStatusRunsMdadm) {
  WriteFile(root_ + "/proc/diskstats", "   9 0 md0 5 0 10 0 1 0 2 0 0 1 0\n");
  setenv("LINUX_MDADM", "/bin/false", 1);
  Context ctx = OpenOrDie();
  unsetenv("LINUX_MDADM");
  Result keep;
  EXPECT_TRUE(Values(ctx, "disk.md.status", &keep).empty());
  EXPECT_EQ(U64(Values(ctx, "disk.md.read", &keep).at(Inst{0})), 5u);
  EXPECT_EQ(Values(ctx, "disk.md.status", &keep).at(Inst{0}).lval, 256);  // exit status 1
}

// disk.wwid: one instance per WWID the disks report, its values summed
// over the disks that are paths to it; the capacity only when the fetch
// also asks for a disk.dev capacity (PCP's agent reads the sizes then).
TEST_F(FakeProcTest, WwidSumsItsPaths) {
  WriteFile(root_ + "/proc/diskstats",
            "   8 0 sda 10 0 200 0 20 0 400 0 0 33 0\n   8 16 sdb 1 0 8 0 2 0 16 0 0 3 0\n"
            "   8 32 sdc 4 0 6 0 5 0 10 0 0 7 0\n");
  WriteFile(root_ + "/proc/partitions", "major minor  #blocks  name\n\n   8 16 100 sdb\n   8 32 100 sdc\n");
  for (const char* d : {"/sys/block/sdb/device", "/sys/block/sdc/device"}) std::filesystem::create_directories(root_ + d);
  WriteFile(root_ + "/sys/block/sdb/device/wwid", "naa.33333330000007d1\n");
  WriteFile(root_ + "/sys/block/sdc/device/wwid", "naa.33333330000007d1\n");
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> reads = Values(ctx, "disk.wwid.read", &keep);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 42), reads.begin()->first), "333333330000007d1");
  EXPECT_EQ(U64(reads.begin()->second), 5u);
  EXPECT_EQ(Text(Values(ctx, "disk.wwid.scsi_paths", &keep).begin()->second), "sdb sdc");
  EXPECT_TRUE(Values(ctx, "disk.wwid.capacity", &keep).empty());
  std::vector<PmID> both = {*ctx.LookupName("disk.wwid.capacity"), *ctx.LookupName("disk.dev.capacity")};
  absl::StatusOr<Result> r = ctx.Fetch(both);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  EXPECT_EQ(U64(r->value(r->sets()[0], 0)), 200u);
}

// The processors listed are those of some node directory, read once per
// agent; /proc/stat lines for others are passed over (hinv.ncpu counts the
// listed ones), as in PCP's agent.
TEST_F(FakeProcTest, ProcessorsComeFromTheNodes) {
  WriteFile(root_ + "/proc/stat", "cpu  4 0 4 4 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n"
                                  "cpu2 1 0 1 1 0 0 0 0 0 0\ncpu3 1 0 1 1 0 0 0 0 0 0\n");
  for (const char* d : {"/sys/devices/system/node/node0/cpu0", "/sys/devices/system/node/node0/cpu1",
                        "/sys/devices/system/node/node3/cpu3"})
    std::filesystem::create_directories(root_ + d);
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> user = Values(ctx, "kernel.percpu.cpu.user", &keep);
  EXPECT_EQ(user.size(), 3u);
  EXPECT_FALSE(user.contains(Inst{2}));
  EXPECT_EQ(Values(ctx, "hinv.ncpu", &keep).at(kInNull).lval, 3);
  EXPECT_EQ(Values(ctx, "hinv.nnode", &keep).at(kInNull).lval, 2);
  EXPECT_EQ(U64(Values(ctx, "kernel.pernode.cpu.user", &keep).at(Inst{3})), 10u);  // one tick is 10 ms
}

// LINUX_NNODES (PCP's test setting, any value) puts the configured
// processors (LINUX_NCPUS) in one node0, whatever the node directory holds
// (QA test 910's tree has node0 without processor entries).
TEST_F(FakeProcTest, NnodesPutsEveryProcessorInNodeZero) {
  WriteFile(root_ + "/proc/stat", "cpu  4 0 4 4 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n"
                                  "cpu2 1 0 1 1 0 0 0 0 0 0\n");
  std::filesystem::create_directories(root_ + "/sys/devices/system/node/node0");
  std::filesystem::create_directories(root_ + "/sys/devices/system/node/node2/cpu1");
  setenv("LINUX_NCPUS", "3", 1);  // unset by TearDown
  setenv("LINUX_NNODES", "5", 1);  // unset by TearDown
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(Values(ctx, "kernel.percpu.cpu.user", &keep).size(), 3u);
  EXPECT_EQ(Values(ctx, "hinv.ncpu", &keep).at(kInNull).lval, 3);
  EXPECT_EQ(Values(ctx, "hinv.nnode", &keep).at(kInNull).lval, 1);
}

// mem.ksm.*: 0 without /sys/kernel/mm/ksm, as PCP's agent gives; each
// file's first number when there is one.
TEST_F(FakeProcTest, KsmValuesDefaultToZero) {
  {
    Context ctx = OpenOrDie();
    Result keep;
    EXPECT_EQ(U64(Values(ctx, "mem.ksm.full_scans", &keep).at(kInNull)), 0u);
    EXPECT_EQ(U64(Values(ctx, "mem.ksm.run_state", &keep).at(kInNull)), 0u);
  }
  std::filesystem::create_directories(root_ + "/sys/kernel/mm/ksm");
  WriteFile(root_ + "/sys/kernel/mm/ksm/full_scans", "3\n");
  WriteFile(root_ + "/sys/kernel/mm/ksm/run", "1\n");
  WriteFile(root_ + "/sys/kernel/mm/ksm/sleep_millisecs", "20\n");
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(U64(Values(ctx, "mem.ksm.full_scans", &keep).at(kInNull)), 3u);
  EXPECT_EQ(U64(Values(ctx, "mem.ksm.run_state", &keep).at(kInNull)), 1u);
  EXPECT_EQ(U64(Values(ctx, "mem.ksm.sleep_time", &keep).at(kInNull)), 20u);
  EXPECT_EQ(U64(Values(ctx, "mem.ksm.pages_shared", &keep).at(kInNull)), 0u);
}

// mem.buddyinfo.*: the orders come from the first line (its words less
// five: a trailing blank counts the newline as a word, so "1 2 3 \n" is
// three orders); a node name loses its first blank, and one without a blank
// its last character, as in PCP's agent; total is in kilobytes.
TEST_F(FakeProcTest, BuddyinfoAsPcpReadsIt) {
  WriteFile(root_ + "/proc/buddyinfo",
            "Node 0, zone      DMA      1      2      3 \nNode 0, zone   Normal     10     20     30\n"
            "Node1, zone Normal 5 6 7 \n");
  setenv("LINUX_PAGESIZE", "4096", 1);
  Context ctx = OpenOrDie();
  unsetenv("LINUX_PAGESIZE");
  Result keep;
  std::map<Inst, ValueView> pages = Values(ctx, "mem.buddyinfo.pages", &keep);
  ASSERT_EQ(pages.size(), 9u);
  EXPECT_EQ(U64(pages.at(Inst{2})), 3u);
  EXPECT_EQ(U64(pages.at(Inst{5})), 30u);
  std::map<Inst, ValueView> total = Values(ctx, "mem.buddyinfo.total", &keep);
  EXPECT_EQ(U64(total.at(Inst{5})), 30u * 4 * 4);  // order 2: four pages of 4 KB
  absl::StatusOr<PmID> id = ctx.LookupName("mem.buddyinfo.pages");
  ASSERT_TRUE(id.ok());
  absl::StatusOr<Desc> d = ctx.LookupDesc(*id);
  ASSERT_TRUE(d.ok());
  absl::StatusOr<std::string> name = ctx.NameInDom(d->indom, Inst{7});
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(*name, "Normal::order1::node");
}

// network.interface.*_addr: hardware addresses from each /sys/class/net
// entry's address file (none for a blank one), IPv6 ones from
// /proc/net/if_inet6 (an interface's last line winning), one instance per
// interface name; IPv4 ones come from the running system's ioctls.
TEST_F(FakeProcTest, InterfaceAddresses) {
  for (const char* d : {"/sys/class", "/sys/class/net", "/sys/class/net/eth9", "/sys/class/net/dummy0"})
    mkdir((root_ + d).c_str(), 0755);
  WriteFile(root_ + "/sys/class/net/eth9/address", "02:00:00:00:00:09\n");
  WriteFile(root_ + "/sys/class/net/dummy0/address", "  \n");
  WriteFile(root_ + "/proc/net/if_inet6",
            "fe8000000000000000fc00fffe000001 04 40 20 80     eth9\n"
            "fe8000000000000000fc00fffe000002 04 40 40 80     eth9\n"
            "00000000000000000000000000000001 01 80 10 80       lo\n");
  Context ctx = OpenOrDie();
  Result keep;
  std::map<std::string, std::string> hw, ipv6, scope;
  auto by_name = [&](const std::string& metric, std::map<std::string, std::string>* out) {
    for (const auto& [inst, v] : Values(ctx, metric, &keep)) (*out)[*ctx.NameInDom(MakeInDom(60, 17), inst)] = Text(v);
  };
  by_name("network.interface.hw_addr", &hw);
  by_name("network.interface.ipv6_addr", &ipv6);
  by_name("network.interface.ipv6_scope", &scope);
  EXPECT_EQ(hw, (std::map<std::string, std::string>{{"eth9", "02:00:00:00:00:09"}}));
  EXPECT_EQ(ipv6, (std::map<std::string, std::string>{{"eth9", "fe80::fc:ff:fe00:2/64"}, {"lo", "::1/128"}}));
  EXPECT_EQ(scope, (std::map<std::string, std::string>{{"eth9", "Site"}, {"lo", "Host"}}));
  // an instance request reads every part: dummy0 (a hardware entry without
  // an address) is listed too
  absl::StatusOr<std::vector<Instance>> all = ctx.GetInDom(MakeInDom(60, 17));
  ASSERT_TRUE(all.ok());
  std::vector<std::string> names;
  for (const Instance& i : *all) names.push_back(i.name);
  for (const char* n : {"eth9", "dummy0", "lo"}) EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

// A context whose linux agent gives slab values whoever runs the test
// (LINUX_ACCESS), with 4 KB pages.
Context OpenWithSlabAccess() {
  setenv("LINUX_ACCESS", "1", 1);
  setenv("LINUX_PAGESIZE", "4096", 1);
  Context ctx = OpenOrDie();
  unsetenv("LINUX_PAGESIZE");
  unsetenv("LINUX_ACCESS");
  return ctx;
}

// mem.slabinfo.*: the 2.1 format, comment lines skipped, the last blank
// before a letter in a name made an underscore, and the read ended by the
// first line that does not fit (its caches and those after it have no
// instance); total_size is the active objects' pages in bytes.
TEST_F(FakeProcTest, SlabinfoAsPcpReadsIt) {
  WriteFile(root_ + "/proc/slabinfo",
            "slabinfo - version: 2.1\n# name <active_objs> ...\n"
            "kmalloc-64 300 320 64 64 1 : tunables 0 0 0 : slabdata 5 5 0\n"
            "foo bar 10 12 256 16 2 : tunables 0 0 0 : slabdata 1 1 0\n"
            "broken 1 2 3 4 5 : tunables 0 0 : slabdata 1 1 0\n"
            "after 1 2 3 4 5 : tunables 0 0 0 : slabdata 1 1 0\n");
  Context ctx = OpenWithSlabAccess();
  Result keep;
  std::map<Inst, ValueView> active = Values(ctx, "mem.slabinfo.objects.active", &keep);
  ASSERT_EQ(active.size(), 2u);
  EXPECT_EQ(U64(active.at(Inst{0})), 300u);
  EXPECT_EQ(U64(active.at(Inst{1})), 10u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 12), Inst{1}), "foo_bar");
  EXPECT_EQ(Values(ctx, "mem.slabinfo.slabs.objects_per_slab", &keep).at(Inst{1}).lval, 16);
  EXPECT_EQ(Values(ctx, "mem.slabinfo.slabs.total", &keep).at(Inst{0}).lval, 5);
  // 10 objects of 16 to a 2-page slab: 10 * 2 * 4096 / 16 bytes
  EXPECT_EQ(U64(Values(ctx, "mem.slabinfo.slabs.total_size", &keep).at(Inst{1})), 10u * 2 * 4096 / 16);
}

// Version 1.1 has no objects per slab and, as PCP's agent has it, no
// total slabs; its total_size is the active slabs' pages in bytes.
TEST_F(FakeProcTest, SlabinfoVersionOneOne) {
  WriteFile(root_ + "/proc/slabinfo", "slabinfo - version: 1.1\nkmem_cache 42 50 128 2 3 1\n");
  Context ctx = OpenWithSlabAccess();
  Result keep;
  EXPECT_EQ(Values(ctx, "mem.slabinfo.objects.size", &keep).at(Inst{0}).lval, 128);
  EXPECT_TRUE(Values(ctx, "mem.slabinfo.slabs.objects_per_slab", &keep).empty());
  EXPECT_TRUE(Values(ctx, "mem.slabinfo.slabs.total", &keep).empty());
  EXPECT_EQ(U64(Values(ctx, "mem.slabinfo.slabs.total_size", &keep).at(Inst{0})), 2u * 1 * 4096);
}

// Without LINUX_ACCESS only the super-user sees slab values.
TEST_F(FakeProcTest, SlabinfoOnlyForTheSuperUser) {
  WriteFile(root_ + "/proc/slabinfo", "slabinfo - version: 2.1\nkmalloc-8 1 2 8 512 1 : tunables 0 0 0 : slabdata 1 1 0\n");
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(Values(ctx, "mem.slabinfo.objects.active", &keep).size(), getuid() == 0 ? 1u : 0u);
}

// mem.numa.max_bandwidth: the figures of $PCP_PMDAS_DIR/linux/bandwidth.conf,
// read up to the first line in error (here an unknown node).
TEST_F(FakeProcTest, BandwidthConfPerNode) {
  for (const char* d : {"/sys/devices/system/node/node0/cpu0", "/sys/devices/system/node/node1/cpu1",
                        "/pmdas/linux"})
    std::filesystem::create_directories(root_ + d);
  WriteFile(root_ + "/proc/stat", "cpu  2 0 2 2 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n");
  WriteFile(root_ + "/pmdas/linux/bandwidth.conf", "# figures\nVersion:1.0\nnode1:2048.5\nnode7:1\nnode0:99\n");
  setenv("PCP_PMDAS_DIR", (root_ + "/pmdas").c_str(), 1);
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> bw = Values(ctx, "mem.numa.max_bandwidth", &keep);
  unsetenv("PCP_PMDAS_DIR");
  ASSERT_EQ(bw.size(), 1u);
  double v = 0;
  std::memcpy(&v, bw.at(Inst{1}).payload.data(), sizeof v);
  EXPECT_EQ(v, 2048.5);
}

// rpc and nfs: the client's and server's files read by line kind, the
// operation counts into their instance domains (NFSv4 server operations
// numbered from 1), nfsd's thread pools summed; a missing client file
// leaves the client's metrics without values.
TEST_F(FakeProcTest, RpcAndNfsCounts) {
  for (const char* d : {"/proc/net/rpc", "/proc/fs/nfsd"}) std::filesystem::create_directories(root_ + d);
  WriteFile(root_ + "/proc/net/rpc/nfsd",
            "rc 1 2 3\nfh 4 5 6 7 8\nth 8 9\nnet 10 11 12 13\nrpc 14 15 16 17 18\n"
            "proc3 22 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22\n"
            "proc4 2 7 8\nproc4ops 71 0 0 0 5\n");
  WriteFile(root_ + "/proc/fs/nfsd/pool_threads", "8\n");
  WriteFile(root_ + "/proc/fs/nfsd/pool_stats", "# pool packets-arrived\n0 49 4 45 0\n1 1 1 1 1\n");
  Context ctx = OpenOrDie();
  Result keep;
  auto one = [&](const char* name) { return Values(ctx, name, &keep).at(kInNull).lval; };
  EXPECT_EQ(one("rpc.server.fh_stale"), 4);
  EXPECT_EQ(one("rpc.server.nettcpconn"), 12);  // nettcpcnt, as PCP's agent gives it
  EXPECT_EQ(one("nfs3.server.calls"), 253);
  EXPECT_EQ(Values(ctx, "nfs3.server.reqs", &keep).at(Inst{21}).lval, 22);
  EXPECT_EQ(Values(ctx, "nfs4.server.reqs", &keep).at(Inst{4}).lval, 5);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 15), Inst{4}), "access");
  EXPECT_EQ(one("nfs.server.threads.pools"), 2);
  EXPECT_EQ(U64(Values(ctx, "nfs.server.threads.requests", &keep).at(kInNull)), 50u);
  EXPECT_TRUE(Values(ctx, "rpc.client.rpccnt", &keep).empty());
  EXPECT_TRUE(Values(ctx, "nfs.client.reqs", &keep).empty());
}

TEST_F(FakeProcTest, LoginRecords) {
  std::string records;
  auto add = [&records](short type, const char* user) {
    struct utmp ut {};
    ut.ut_type = type;
    std::strncpy(ut.ut_user, user, sizeof ut.ut_user);
    records.append(reinterpret_cast<const char*>(&ut), sizeof ut);
  };
  add(BOOT_TIME, "reboot");
  add(USER_PROCESS, "root");
  add(USER_PROCESS, "alice");
  add(USER_PROCESS, "");  // no user: neither a user nor a session
  add(LOGIN_PROCESS, "LOGIN");
  records += "partial";   // a record cut short is not read
  for (const char* d : {"/var", "/var/run"}) mkdir((root_ + d).c_str(), 0755);
  WriteFile(root_ + "/var/run/utmp", records);
  Context ctx = OpenOrDie();
  Result keep;
  EXPECT_EQ(Values(ctx, "kernel.all.nusers", &keep).at(kInNull).lval, 2);
  EXPECT_EQ(Values(ctx, "kernel.all.nroots", &keep).at(kInNull).lval, 1);
  EXPECT_EQ(Values(ctx, "kernel.all.nsessions", &keep).at(kInNull).lval, 4);
}

TEST_F(FakeProcTest, InterruptsAndSoftirqs) {
  WriteFile(root_ + "/proc/stat", "cpu  1 1 1 1 0 0 0 0 0 0\ncpu0 1 1 1 1 0 0 0 0 0 0\ncpu1 1 1 1 1 0 0 0 0 0 0\n");
  WriteFile(root_ + "/proc/interrupts",
            "           CPU0       CPU1\n  0:         10          5   IO-APIC   2-edge      timer\n"
            "LOC:       100        200   Local timer interrupts\nERR:          3\nMIS:          4\n");
  WriteFile(root_ + "/proc/softirqs", "                    CPU0       CPU1\n          HI:          1          2\n"
                                      "       TIMER:         30         40\n");
  setenv("LINUX_NCPUS", "2", 1);  // the files' two processors, whatever this machine has
  Context ctx = OpenOrDie();
  Result keep;
  std::map<Inst, ValueView> total = Values(ctx, "kernel.all.interrupts.total", &keep);
  ASSERT_EQ(total.size(), 2u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 4), Inst{0}), "0");
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 4), Inst{1}), "LOC");
  EXPECT_EQ(U64(total.at(Inst{0})), 15u);
  EXPECT_EQ(U64(total.at(Inst{1})), 300u);
  std::map<Inst, ValueView> percpu = Values(ctx, "kernel.percpu.interrupts", &keep);
  ASSERT_EQ(percpu.size(), 4u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 40), Inst{3}), "LOC::cpu1");
  EXPECT_EQ(percpu.at(Inst{3}).lval, 200);
  std::map<Inst, ValueView> intr = Values(ctx, "kernel.percpu.intr", &keep);
  EXPECT_EQ(U64(intr.at(Inst{0})), 110u);
  EXPECT_EQ(U64(intr.at(Inst{1})), 205u);
  EXPECT_EQ(Values(ctx, "kernel.all.interrupts.errors", &keep).at(kInNull).lval, 3);
  EXPECT_EQ(Values(ctx, "kernel.all.interrupts.missed", &keep).at(kInNull).lval, 4);
  std::map<Inst, ValueView> soft = Values(ctx, "kernel.all.softirqs.total", &keep);
  ASSERT_EQ(soft.size(), 2u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 36), Inst{1}), "TIMER");
  EXPECT_EQ(U64(soft.at(Inst{1})), 70u);
  EXPECT_EQ(*ctx.NameInDom(MakeInDom(60, 41), Inst{0}), "HI::cpu0");
  EXPECT_EQ(Values(ctx, "kernel.percpu.softirqs", &keep).at(Inst{1}).lval, 2);
  EXPECT_EQ(U64(Values(ctx, "kernel.percpu.sirq", &keep).at(Inst{1})), 42u);
  unsetenv("LINUX_NCPUS");
}

TEST(ProcStatsTest, ParsersTolerateOddInput) {
  EXPECT_FALSE(linux_stats::ParseLoadavg("").has_value());
  EXPECT_TRUE(linux_stats::ParseDiskstats("1 2 sda 1 2").empty());
  EXPECT_TRUE(linux_stats::ParseNetDev("eth0: 1 2 3").empty());
  linux_stats::StatInfo st = linux_stats::ParseStat("cpu 1\ncpu-1 5\nintr\n");
  EXPECT_TRUE(st.have_all);
  EXPECT_EQ(st.all.user, 1u);
  EXPECT_EQ(st.all.nice, 0u);
  EXPECT_TRUE(st.cpus.empty());
  EXPECT_FALSE(st.intr.has_value());
  EXPECT_FALSE(linux_stats::ReadProcFile("/nonexistent", "/proc/stat").has_value());
}

}  // namespace
}  // namespace pmapi
