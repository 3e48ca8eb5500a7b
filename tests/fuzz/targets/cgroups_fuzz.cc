// Fuzz target: the proc agent's control group readers. The first byte
// chooses the hierarchy (even: version 1 mounts carrying every subsystem,
// odd: one version 2 mount); the rest is split at 0x01 bytes into
// /proc/cgroups, /proc/diskstats and the files of two groups (the top and
// "/a\x2dz/<container id>", an escaped and a container name): cpuset,
// cpuacct, cpu, memory, net_cls, blkio, pressure and io.stat files. A local
// context then lists every cgroup instance domain and fetches every cgroup
// metric twice, the second time with the files gone (kept and inactive
// entries).
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "pmapi/context.h"
#include "pmapi/local.h"

namespace {

constexpr const char* kGroupFiles[] = {
    "cpuset.cpus", "cpuacct.stat", "cpuacct.usage", "cpuacct.usage_percpu", "cpu.stat", "cpu.shares",
    "cpu.cfs_period_us", "cpu.cfs_quota_us", "memory.stat", "memory.limit_in_bytes", "net_cls.classid",
    "blkio.io_serviced", "blkio.io_merged", "blkio.sectors", "blkio.time", "cpu.pressure", "io.pressure",
    "memory.pressure", "irq.pressure", "io.stat",
};

const std::string& Root() {
  static const std::string root = [] {
    const std::string r = fuzz::ScratchDir() + "/root";
    const std::string src = PMAPI_SOURCE_DIR;
    const std::string conf = "proc 3 builtin proc_init " + src + "/pmdas/proc pmns=" + src + "/pmdas/proc/root_proc\n";
    fuzz::WriteFile(fuzz::ScratchDir() + "/pmcd.conf", {reinterpret_cast<const uint8_t*>(conf.data()), conf.size()});
    setenv("PROC_STATSPATH", r.c_str(), 1);
    return r;
  }();
  return root;
}

void Put(const std::string& path, const uint8_t* data, size_t size, size_t* start) {
  size_t end = *start;
  while (end < size && data[end] != 0x01) ++end;
  const size_t from = std::min(*start, size);
  fuzz::WriteFile(path, {data + from, std::min(end, size) - from});
  *start = end + 1;
}

void Text(const std::string& path, const std::string& text) {
  fuzz::WriteFile(path, {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

uint64_t FetchAll(pmapi::Context& ctx) {
  std::vector<pmapi::PmID> ids;
  (void)ctx.Traverse("cgroup", [&](const std::string& n) {
    absl::StatusOr<pmapi::PmID> id = ctx.LookupName(n);
    if (id.ok()) ids.push_back(*id);
  });
  uint64_t h = 0;
  absl::StatusOr<pmapi::Result> r = ctx.Fetch(ids);
  if (r.ok()) h += fuzz::Digest(*r);
  std::set<pmapi::InDom> indoms;
  for (pmapi::PmID id : ids) {
    absl::StatusOr<pmapi::Desc> d = ctx.LookupDesc(id);
    if (d.ok() && d->indom != pmapi::kInDomNull) indoms.insert(d->indom);
  }
  for (pmapi::InDom indom : indoms) {
    absl::StatusOr<std::vector<pmapi::Instance>> insts = ctx.GetInDom(indom);
    if (insts.ok()) {
      for (const pmapi::Instance& i : *insts) h += fuzz::Digest(i.name);
    }
  }
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& root = Root();
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  const bool v2 = size > 0 && (data[0] & 1) != 0;
  const std::string top = root + (v2 ? "/sys/fs/cgroup" : "/cg");
  const std::string group = top + "/a\\x2dz/" + std::string(64, 'f');
  std::filesystem::create_directories(root + "/proc", ec);
  std::filesystem::create_directories(group, ec);
  Text(root + "/proc/mounts", v2 ? "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"
                                 : "cgroup /cg cgroup rw,cpuset,cpu,cpuacct,memory,netcls,net_cls,blkio 0 0\n");
  size_t start = 1;
  Put(root + "/proc/cgroups", data, size, &start);
  Put(root + "/proc/diskstats", data, size, &start);
  for (const std::string& dir : {top, group}) {
    for (const char* f : kGroupFiles) Put(dir + "/" + f, data, size, &start);
  }
  pmapi::LocalOptions opts;
  opts.config_path = fuzz::ScratchDir() + "/pmcd.conf";
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenLocalContext(opts);
  if (!ctx.ok()) return 0;
  uint64_t h = FetchAll(*ctx);
  std::filesystem::remove_all(group, ec);
  h += FetchAll(*ctx);
  fuzz::Consume(h);
  return 0;
}
