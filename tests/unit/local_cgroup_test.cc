// The proc agent's cgroup.* metrics over made-up control group trees
// (PROC_STATSPATH): the rules of PCP's agent that its QA trees do not all
// show (tests/interop/cgroup_trees_test.cc compares those with PCP's own
// agent): per-cpu usage, container ids, escaped names, blkio sums and
// units, and the values PCP's agent gives where its readers are odd.
#include <sys/stat.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "pmapi/extract.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

const std::string kId = std::string(64, 'a');  // a container id

class CgroupTreeTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = testing::TempDir() + "/cgroups.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    setenv("PROC_STATSPATH", root_.c_str(), 1);
    setenv("PROC_HERTZ", "100", 1);
    Write("/proc/diskstats", "   8  0 sda 1 0 0 0 0 0 0 0 0 0 0\n   7  0 loop0 1 0 0 0 0 0 0 0 0 0 0\n");
  }
  void TearDown() override {
    unsetenv("PROC_STATSPATH");
    unsetenv("PROC_HERTZ");
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  void Write(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root_ + path).parent_path());
    std::ofstream(root_ + path) << text;
  }
  // The values of `name` by instance name ("" for a singular metric), as text.
  std::map<std::string, std::string> Values(const std::string& name) {
    LocalOptions opts;
    opts.config_path = PMAPI_TEST_PMCDCONF;
    absl::StatusOr<Context> ctx = OpenLocalContext(opts);
    EXPECT_TRUE(ctx.ok()) << ctx.status();
    std::map<std::string, std::string> out;
    if (!ctx.ok()) return out;
    absl::StatusOr<PmID> id = ctx->LookupName(name);
    EXPECT_TRUE(id.ok()) << name;
    absl::StatusOr<Desc> desc = ctx->LookupDesc(*id);
    absl::StatusOr<Result> r = ctx->Fetch({&*id, 1});
    EXPECT_TRUE(r.ok() && desc.ok()) << name;
    if (!r.ok() || !desc.ok()) return out;
    std::map<Inst, std::string> names;
    if (desc->indom != kInDomNull) {
      for (const Instance& i : ctx->GetInDom(desc->indom).value_or(std::vector<Instance>{})) names[i.id] = i.name;
    }
    const ValueSet& vs = r->sets()[0];
    for (int j = 0; j < vs.numval; ++j) {
      const ValueView v = r->value(vs, j);
      absl::StatusOr<AtomValue> a = ExtractValue(vs.valfmt, v, desc->type, desc->type);
      EXPECT_TRUE(a.ok());
      std::string text;
      switch (desc->type) {
        case kTypeString: text = a->bytes; break;
        case kTypeU32: text = absl::StrCat(a->ul); break;
        case kType64: text = absl::StrCat(a->ll); break;
        case kTypeFloat: text = absl::StrCat(a->f); break;
        default: text = absl::StrCat(a->ull); break;
      }
      out[desc->indom == kInDomNull ? "" : names[v.inst]] = text;
    }
    return out;
  }
  std::string root_;
};

using Map = std::map<std::string, std::string>;

TEST_F(CgroupTreeTest, VersionOneHierarchies) {
  Write("/proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpu\t2\t3\t1\ncpuacct\t2\t3\t1\n"
                         "net_cls\t3\t1\t1\nblkio\t4\t1\t1\n");
  Write("/proc/mounts", "cgroup /cg/cpu cgroup rw,relatime,cpu,cpuacct 0 0\n"
                        "cgroup /cg/net cgroup rw,net_cls 0 0\ncgroup /cg/blk cgroup rw,blkio 0 0\n"
                        "cgroup /cg/none cgroup rw,name=systemd 0 0\ntmpfs /tmp tmpfs rw 0 0\n");
  const std::string docker = "/cg/cpu/docker/" + kId;
  Write("/cg/cpu/cpuacct.stat", "user 7\nsystem 8\n");
  Write("/cg/cpu/cpuacct.usage", "100\n");
  Write("/cg/cpu/cpuacct.usage_percpu", "10 20 30");  // no blank after the last
  Write("/cg/cpu/cpu.cfs_quota_us", "-1\n");
  Write("/cg/cpu/cpu.shares", "0x400\n");
  Write(docker + "/cpuacct.stat", "user 9\n");  // no system line
  Write(docker + "/cpuacct.usage_percpu", "5 6 \n");
  Write("/cg/net/net_cls.classid", "1048577\n");
  Write("/cg/blk/x\\x2dy.slice/blkio.io_serviced",
        "8:0 Read 3\n8:0 Write 4\n8:0 Sync 5\n8:0 Async 2\n8:0 Total 7\n7:0 Read 1\n7:0 Total 1\nTotal 7\n");
  Write("/cg/blk/x\\x2dy.slice/blkio.sectors", "8:0 10\n");
  Write("/cg/blk/x\\x2dy.slice/blkio.time", "8:0 50\n");

  EXPECT_EQ(Values("cgroup.subsys.count"), (Map{{"", "4"}}));
  EXPECT_EQ(Values("cgroup.mounts.subsys"),
            (Map{{"/cg/cpu", "cpu,cpuacct"}, {"/cg/net", "net_cls"}, {"/cg/blk", "blkio"}, {"/cg/none", "?"}}));
  EXPECT_EQ(Values("cgroup.cpuacct.usage_percpu"),
            (Map{{"/::cpu0", "10"}, {"/::cpu1", "20"}, {"/docker/" + kId + "::cpu0", "5"},
                 {"/docker/" + kId + "::cpu1", "6"}}));
  // a group whose cpuacct.stat lacks a line shows the last group's value
  // (a group without the file keeps what it had: nothing, for a new one)
  EXPECT_EQ(Values("cgroup.cpuacct.stat.system"), (Map{{"/", "8"}, {"/docker", "0"}, {"/docker/" + kId, "8"}}));
  EXPECT_EQ(Values("cgroup.cpuacct.id.container"), (Map{{"/", ""}, {"/docker", ""}, {"/docker/" + kId, kId}}));
  EXPECT_EQ(Values("cgroup.cpuacct.usage"), (Map{{"/", "100"}}));
  // -1 means no quota: no value; a missing file gives its error code
  EXPECT_EQ(Values("cgroup.cpusched.cfs_quota"), (Map{{"/docker", "-2"}, {"/docker/" + kId, "-2"}}));
  EXPECT_EQ(Values("cgroup.cpusched.shares"), (Map{{"/", "1024"}}));
  // PCP's agent looks for a "netcls" mount option, which the kernel never uses
  EXPECT_TRUE(Values("cgroup.netclass.classid").empty());
  EXPECT_EQ(Values("cgroup.blkio.dev.io_serviced.total"), (Map{{"/x-y.slice::sda", "7"}}));
  EXPECT_EQ(Values("cgroup.blkio.all.io_serviced.write"), (Map{{"/", "0"}, {"/x-y.slice", "4"}}));
  EXPECT_EQ(Values("cgroup.blkio.dev.sectors"), (Map{{"/x-y.slice::sda", "5"}}));
  EXPECT_EQ(Values("cgroup.blkio.all.time"), (Map{{"/", "0"}, {"/x-y.slice", "500"}}));
  EXPECT_TRUE(Values("cgroup.pressure.cpu.some.total").empty());  // version 2 only
}

TEST_F(CgroupTreeTest, VersionTwoHierarchy) {
  Write("/proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpu\t0\t2\t1\n");
  Write("/proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n");
  const std::string top = "/sys/fs/cgroup";
  Write(top + "/cpu.pressure", "some avg10=2.50 avg60=0.00 avg300=0.00 total=99\n");
  Write(top + "/io.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=5\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=6\n");
  Write(top + "/cpuset.cpus", "0-3\n");
  Write(top + "/a.slice/io.stat", "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n7:0 rbytes=9 wbytes=9 rios=9 wios=9 dbytes=9 dios=9\n");
  Write(top + "/a.slice/memory.stat", "anon 100\nfile 200\n");
  Write(top + "/a.slice/cpu.stat", "usage_usec 10\nuser_usec 6\nsystem_usec 4\n");

  EXPECT_EQ(Values("cgroup.mounts.subsys"), (Map{{"/sys/fs/cgroup", "?"}}));
  EXPECT_EQ(Values("cgroup.pressure.cpu.some.total"), (Map{{"/", "99"}}));
  // the average is stored through an integer: 2.50 shows as the float whose
  // bits are 2
  EXPECT_EQ(Values("cgroup.pressure.cpu.some.avg10sec"), (Map{{"/", absl::StrCat(std::bit_cast<float>(uint32_t{2}))}}));
  EXPECT_EQ(Values("cgroup.pressure.io.full.total"), (Map{{"/", "6"}}));
  // the cpuset reader is handed a file's path as the group's, so finds nothing
  EXPECT_EQ(Values("cgroup.cpuset.cpus"), (Map{{"/", ""}, {"/a.slice", ""}}));
  EXPECT_EQ(Values("cgroup.io.stat.wios"), (Map{{"/a.slice::sda", "4"}}));
  EXPECT_EQ(Values("cgroup.memory.stat.file"), (Map{{"/a.slice", "200"}}));
  EXPECT_TRUE(Values("cgroup.memory.stat.cache").empty());
  EXPECT_EQ(Values("cgroup.cpu.stat.user"), (Map{{"/a.slice", "6"}}));
}

}  // namespace
}  // namespace pmapi
