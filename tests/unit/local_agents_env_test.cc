// Checks the environment settings the built-in agents take from PCP's for
// tests: PROC_STATSPATH, PROC_PAGESIZE, PROC_HERTZ and PROC_THREADS (proc
// agent), LINUX_HERTZ, LINUX_PAGESIZE and LINUX_ACCESS (Linux agent), over
// a small made-up tree; the proc agent's answers for files it cannot read,
// its proc.id.container, its own names below a subtree the name space
// leaves to it (3:*:*), and the Linux agent's tty.serial metrics.
#include <sys/stat.h>
#include <unistd.h>

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

namespace pmapi {
namespace {

const std::string kConfig = PMAPI_TEST_PMCDCONF;
const char* const kVars[] = {"PROC_STATSPATH", "PROC_PAGESIZE", "PROC_HERTZ", "PROC_THREADS",
                             "LINUX_STATSPATH", "LINUX_HERTZ", "LINUX_PAGESIZE", "LINUX_ACCESS"};
const std::string kContainer(64, 'c');

void WriteFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// /proc/PID/stat with utime (field 14) `utime` and the rest small.
std::string Stat(int pid, const std::string& comm, int utime) {
  std::ostringstream s;
  s << pid << " (" << comm << ") S 1 " << pid << " " << pid << " 0 -1 4194560 10 0 0 0 " << utime
    << " 3 0 0 20 0 1 0 100 1000000 50 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
  return s.str();
}

class AgentsEnvTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = testing::TempDir() + "/agentsenv.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    // process 100 with a second task 101; the task's own stat differs
    // from the process's, to show which one is read
    WriteFile(root_ + "/proc/100/stat", Stat(100, "main", 10));
    WriteFile(root_ + "/proc/100/statm", "10 5 1 1 0 2 0\n");
    WriteFile(root_ + "/proc/100/cmdline", std::string("main\0--flag\0", 12));
    WriteFile(root_ + "/proc/100/cgroup",
              "2:memory:/x\n1:cpuset:/system.slice/docker-" + kContainer + ".scope\n");
    WriteFile(root_ + "/proc/100/task/100/stat", Stat(100, "main", 40));
    WriteFile(root_ + "/proc/100/task/101/stat", Stat(101, "worker", 20));
    WriteFile(root_ + "/proc/101/task/101/stat", Stat(101, "worker", 20));
    WriteFile(root_ + "/proc/101/task/101/statm", "4 2 1 1 0 1 0\n");
    WriteFile(root_ + "/proc/tty/driver/serial",
              "serinfo:1.0 driver revision:\n"
              "0: uart:16550A port:000003F8 irq:4 tx:6 rx:0 fe:1 pe:2 brk:3 oe:5 RTS|CTS|DTR\n"
              "1: uart:unknown port:000002F8 irq:3\n"
              "4: uart:16550A port:000003E8 irq:7 tx:34 rx:12\n"
              "-2: uart:16550A port:000003E8 irq:9 tx:1\n"
              "garbage without the marker\n");
    setenv("PROC_STATSPATH", root_.c_str(), 1);
    setenv("LINUX_STATSPATH", root_.c_str(), 1);
  }
  void TearDown() override {
    for (const char* v : kVars) unsetenv(v);
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  Context Open(const std::string& config = kConfig) {
    LocalOptions opts;
    opts.config_path = config;
    absl::StatusOr<Context> c = OpenLocalContext(opts);
    EXPECT_TRUE(c.ok()) << c.status();
    return *std::move(c);
  }

  // The values of `name` by instance name (numval's error as "" => code).
  std::map<std::string, int64_t> Numbers(Context& ctx, const std::string& name, int* numval = nullptr) {
    std::map<std::string, int64_t> out;
    absl::StatusOr<PmID> id = ctx.LookupName(name);
    EXPECT_TRUE(id.ok()) << name;
    if (!id.ok()) return out;
    absl::StatusOr<Desc> d = ctx.LookupDesc(*id);
    absl::StatusOr<Result> r = ctx.Fetch({&*id, 1});
    EXPECT_TRUE(r.ok() && d.ok()) << name;
    if (!r.ok() || !d.ok()) return out;
    const ValueSet& vs = r->sets()[0];
    if (numval) *numval = vs.numval;
    for (int j = 0; j < vs.numval; ++j) {
      ValueView v = r->value(vs, j);
      std::string inst = v.inst == kInNull ? "" : ctx.NameInDom(d->indom, v.inst).value_or("?");
      if (d->type == kTypeString) {
        out[inst] = static_cast<int64_t>(v.payload.size());
        strings_[name + "/" + inst] = std::string(v.payload.begin(), v.payload.end());
        if (!strings_[name + "/" + inst].empty() && strings_[name + "/" + inst].back() == '\0')
          strings_[name + "/" + inst].pop_back();
      } else if (d->type == kType64 || d->type == kTypeU64) {
        int64_t x = 0;
        if (v.payload.size() == sizeof x) std::memcpy(&x, v.payload.data(), sizeof x);
        out[inst] = x;
      } else {
        out[inst] = v.lval;
      }
    }
    return out;
  }

  std::string root_;
  std::map<std::string, std::string> strings_;
};

TEST_F(AgentsEnvTest, ProcSettingsAndThreads) {
  setenv("PROC_PAGESIZE", "8192", 1);
  setenv("PROC_HERTZ", "50", 1);
  setenv("PROC_THREADS", "1", 1);
  Context ctx = Open();
  EXPECT_EQ(Numbers(ctx, "proc.nprocs").at(""), 2);
  EXPECT_EQ(Numbers(ctx, "proc.control.all.threads").at(""), 1);
  std::map<std::string, int64_t> pids = Numbers(ctx, "proc.psinfo.pid");
  // the task is named from /proc/101, which this tree gives no command line
  EXPECT_EQ(pids, (std::map<std::string, int64_t>{{"000100 main", 100}, {"000101 <exiting>", 101}}));
  // utime in milliseconds at 50 ticks a second, from the task's own stat
  std::map<std::string, int64_t> utime = Numbers(ctx, "proc.psinfo.utime");
  EXPECT_EQ(utime.at("000100 main"), 40 * 1000 / 50);
  EXPECT_EQ(utime.at("000101 <exiting>"), 20 * 1000 / 50);
  // statm pages of 8192 bytes, in kilobytes
  std::map<std::string, int64_t> size = Numbers(ctx, "proc.memory.size");
  EXPECT_EQ(size.at("000100 main"), 10 * 8);
  EXPECT_EQ(size.at("000101 <exiting>"), 4 * 8);
}

TEST_F(AgentsEnvTest, ProcWithoutThreadsAndUnreadableFiles) {
  Context ctx = Open();
  EXPECT_EQ(Numbers(ctx, "proc.nprocs").at(""), 2);  // /proc/100 and /proc/101, no tasks
  EXPECT_EQ(Numbers(ctx, "proc.control.all.threads").at(""), 0);
  // without threads the process's own stat is read
  EXPECT_GT(Numbers(ctx, "proc.psinfo.utime").at("000100 main"), 0);
  // no /proc/PID/io anywhere: "not supported", as PCP's agent says
  int numval = 0;
  EXPECT_TRUE(Numbers(ctx, "proc.io.rchar", &numval).empty());
  EXPECT_EQ(numval, kErrAppversion);
  // the container id from the cpuset line, "" for a process without one
  std::map<std::string, int64_t> c = Numbers(ctx, "proc.id.container");
  ASSERT_TRUE(c.contains("000100 main"));
  EXPECT_EQ(strings_["proc.id.container/000100 main"], kContainer);
}

TEST_F(AgentsEnvTest, LinuxStatspathIsNotTheProcAgentsRoot) {
  unsetenv("PROC_STATSPATH");
  Context ctx = Open();
  // the system's /proc: this process is there, the tree's process is not
  bool self = false;
  for (const auto& [name, pid] : Numbers(ctx, "proc.psinfo.pid")) {
    self = self || pid == getpid();
    EXPECT_NE(name, "000100 main");
  }
  EXPECT_TRUE(self);
}

TEST_F(AgentsEnvTest, LinuxSettings) {
  setenv("LINUX_HERTZ", "250", 1);
  setenv("LINUX_PAGESIZE", "16384", 1);
  Context ctx = Open();
  EXPECT_EQ(Numbers(ctx, "kernel.all.hz").at(""), 250);
  EXPECT_EQ(Numbers(ctx, "hinv.pagesize").at(""), 16384);
}

TEST_F(AgentsEnvTest, SerialPortsForTheSuperUserOrWithAccess) {
  if (getuid() != 0) {
    Context ctx = Open();
    int numval = -1;
    EXPECT_TRUE(Numbers(ctx, "tty.serial.tx", &numval).empty());
    EXPECT_EQ(numval, 0);
  }
  setenv("LINUX_ACCESS", "1", 1);
  Context ctx = Open();
  // unknown UARTs, negative port numbers and other lines are left out
  EXPECT_EQ(Numbers(ctx, "tty.serial.tx"), (std::map<std::string, int64_t>{{"0", 6}, {"4", 34}}));
  EXPECT_EQ(Numbers(ctx, "tty.serial.overrun"), (std::map<std::string, int64_t>{{"0", 5}, {"4", 0}}));
  EXPECT_EQ(Numbers(ctx, "tty.serial.irq"), (std::map<std::string, int64_t>{{"0", 4}, {"4", 7}}));
  PmID tx = *ctx.LookupName("tty.serial.tx");
  const InDom indom = ctx.LookupDesc(tx)->indom;
  EXPECT_EQ(InDomSerial(indom), 35u);
  EXPECT_EQ(*ctx.NameInDom(indom, Inst{1}), "4");  // numbered in order of discovery
}

// The proc agent's names below a node the name space marks as its own
// (3:*:*), as in PCP's default name space.
TEST_F(AgentsEnvTest, ProcNamesBelowAnAgentSubtree) {
  std::ifstream in(kConfig);
  std::string line, conf;
  while (std::getline(in, line)) {
    if (line.rfind("proc", 0) != 0) continue;
    conf = line.substr(0, line.find("pmns=")) + "pmns=" + root_ + "/root_dyn\n";
  }
  ASSERT_FALSE(conf.empty());
  WriteFile(root_ + "/pmcd.conf", conf);
  WriteFile(root_ + "/root_dyn", "root {\n\tproc\n}\nproc {\n\tnprocs\t3:8:99\n\tpsinfo\t3:*:*\n\tid\t3:*:*\n}\n");
  Context ctx = Open(root_ + "/pmcd.conf");
  absl::StatusOr<PmID> pid = ctx.LookupName("proc.psinfo.pid");
  ASSERT_TRUE(pid.ok()) << pid.status();
  EXPECT_EQ(PmIDCluster(*pid), 8u);
  EXPECT_EQ(PmIDItem(*pid), 0u);
  EXPECT_EQ(*ctx.NameAll(*pid), std::vector<std::string>{"proc.psinfo.pid"});
  absl::StatusOr<PmID> container = ctx.LookupName("proc.id.container");
  ASSERT_TRUE(container.ok());
  EXPECT_EQ(PmIDCluster(*container), 11u);
  std::vector<std::string> leaves;
  ASSERT_TRUE(ctx.Traverse("proc.psinfo.pid", [&](const std::string& n) { leaves.push_back(n); }).ok());
  EXPECT_EQ(leaves, std::vector<std::string>{"proc.psinfo.pid"});
  leaves.clear();
  ASSERT_TRUE(ctx.Traverse("proc.id", [&](const std::string& n) { leaves.push_back(n); }).ok());
  EXPECT_GE(leaves.size(), 17u);
  EXPECT_FALSE(ctx.LookupName("proc.psinfo.nosuch").ok());
  EXPECT_FALSE(ctx.Traverse("proc.psinfo.nosuch", [](const std::string&) {}).ok());
}

}  // namespace
}  // namespace pmapi
