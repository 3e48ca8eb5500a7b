// Finding and reading the control groups: /proc/cgroups, the cgroup mounts
// of /proc/mounts, the disks of /proc/diskstats (blkio and io.stat name
// devices by number), and the walk of each hierarchy, in the order and
// with the rules of PCP's agent.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "pmdas/proc/cgroup.h"
#include "pmdas/proc/cgroup_data.h"

namespace pmapi::proc_agent {
namespace {

using Visit = std::function<void(const std::string& dir, const std::string& name)>;

// %u: a number at the start of `field` (what follows it is not read).
bool Number(std::string_view field, uint32_t* value) {
  size_t pos = 0;
  uint64_t v = 0;
  if (!ScanUnsigned(field, &pos, &v)) return false;
  *value = static_cast<uint32_t>(v);
  return true;
}

// Whether `options` (a mount's comma list, first 255 bytes) holds `word`.
bool HasOption(const std::string& options, std::string_view word) {
  for (std::string_view o : Fields(std::string_view(options).substr(0, 255), ",")) {
    if (o == word) return true;
  }
  return false;
}

void ReadSubsystems(CgroupData& d) {
  d.subsys.DeactivateAll();
  std::vector<std::string> lines;
  if (!ReadLines(d.root + "/proc/cgroups", &lines)) return;
  for (const std::string& line : lines) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string_view> f = Fields(line, " \t");
    uint32_t v[3];
    if (f.size() < 4 || !Number(f[1], &v[0]) || !Number(f[2], &v[1]) || !Number(f[3], &v[2])) continue;
    d.subsys.Activate(f[0]).data = CgroupSubsys{v[0], v[1], v[2]};
  }
}

// The cgroup and cgroup2 mounts; sets the version: 2 when every cgroup
// mount is a version 2 one, else 1.
void ReadMounts(CgroupData& d) {
  d.mounts.DeactivateAll();
  std::vector<std::string> lines;
  if (!ReadLines(d.root + "/proc/mounts", &lines)) return;
  int v1 = 0, v2 = 0;
  for (const std::string& line : lines) {
    std::vector<std::string_view> f = Fields(line, " ");
    if (f.size() < 3) continue;
    int version = f[2] == "cgroup2" ? 2 : f[2] == "cgroup" ? 1 : 0;
    if (version == 0) continue;
    (version == 2 ? v2 : v1)++;
    auto* e = d.mounts.Find(f[1]);
    if (e != nullptr && e->active) continue;  // a repeated line
    CgroupMount& m = d.mounts.Activate(f[1]).data;
    if (version == 1) {
      m.options = f.size() > 3 ? std::string(f[3]) : "";
      m.has_options = true;
    } else if (e == nullptr) {
      m.has_options = false;
    }
    m.version = version;
  }
  d.version = v2 > 0 && v1 == 0 ? 2 : 1;
}

void ReadDevices(CgroupData& d) {
  d.devices.clear();
  std::vector<std::string> lines;
  if (!ReadLines(d.root + "/proc/diskstats", &lines)) return;
  for (const std::string& line : lines) {
    std::vector<std::string_view> f = Fields(line, " \t");
    uint32_t major, minor, first;
    if (f.size() < 4 || !Number(f[0], &major) || !Number(f[1], &minor) || !Number(f[3], &first)) continue;
    if (f[2].starts_with("loop") || f[2].starts_with("ram")) continue;
    d.devices[absl::StrCat(major, ":", minor)] = std::string(f[2]);
  }
}

bool IsDirectory(const std::string& dir, const struct dirent* e) {
  if (e->d_type == DT_DIR) return true;
  if (e->d_type != DT_UNKNOWN) return false;
  struct stat st;
  return stat(absl::StrCat(dir, "/", e->d_name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Visits every group below `dir` (named `name`), depth first.
void VisitBelow(const std::string& dir, const std::string& name, const Visit& visit) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (struct dirent* e = readdir(d)) {
    if (e->d_name[0] == '.' || e->d_type == DT_REG || !IsDirectory(dir, e)) continue;
    std::string child = absl::StrCat(dir, "/", e->d_name);
    if (child.size() >= PATH_MAX) continue;
    std::string child_name = absl::StrCat(name == "/" ? "" : name, "/", e->d_name);
    visit(child, child_name);
    VisitBelow(child, child_name, visit);
  }
  closedir(d);
}

// Visits the groups of one mount: its top ("/") and all below.
void VisitMount(const CgroupData& d, const std::string& mount, const Visit& visit) {
  const std::string top = d.root + mount;
  DIR* probe = opendir(top.c_str());
  if (probe == nullptr) return;
  closedir(probe);
  visit(top, "/");
  VisitBelow(top, "/", visit);
}

// Calls setup() then walks each mount that carries `subsys` (every
// version 2 mount, and version 1 ones whose options name it).
void WalkMounts(CgroupData& d, std::string_view subsys, const std::function<void()>& setup, const Visit& visit) {
  for (auto& m : d.mounts.entries()) {
    if (!m.active) continue;
    if (m.data.version == 1 && !subsys.empty() && !HasOption(m.data.options, subsys)) continue;
    setup();
    VisitMount(d, m.name, visit);
  }
}

std::string FileOf(const std::string& dir, std::string_view file) {
  return absl::StrCat(dir, "/", absl::string_view(file.data(), file.size()));
}

// The data of the group named `name` to be read, or null when this round
// has read it already (a group is read once a round, by its unescaped name).
template <typename T>
T* Unread(CacheIndom<T>& cache, const std::string& name) {
  const std::string esc = UnescapeName(name);
  const auto* e = std::as_const(cache).Find(esc);
  if (e != nullptr && e->active) return nullptr;
  return &cache.Activate(esc).data;
}

void RefreshCpuset(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupCpuset* cp = Unread(d.cpuset, name);
  if (cp == nullptr) return;
  CgroupCpuset& c = *cp;
  c.cpus = ReadOneString(FileOf(dir, "cpuset.cpus"));
  c.mems = ReadOneString(FileOf(dir, "cpuset.mems"));
  c.container = ContainerOf(name);
}

void ReadPerCpu(CgroupData& d, const std::string& file, const std::string& name) {
  std::string line;
  if (ReadFirstLine(file, &line, 16 * 4096 - 1) < 0) return;
  const std::string esc = UnescapeName(name);
  const char* p = line.c_str();
  for (int cpu = 0;; ++cpu) {
    char* end = nullptr;
    const uint64_t value = std::strtoull(p, &end, 0);
    if (*end == '\0' || end == p) break;  // the last number needs a blank after it
    p = end;
    while (absl::ascii_isspace(static_cast<unsigned char>(*p))) ++p;
    const std::string inst = absl::StrCat(esc, "::cpu", cpu);
    auto* e = d.percpu.Find(inst);
    if (e != nullptr && e->active) continue;
    d.percpu.Activate(inst).data.usage = value;
  }
}

void RefreshCpuacct(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupCpuacct* cp = Unread(d.cpuacct, name);
  if (cp == nullptr) return;
  CgroupCpuacct& c = *cp;
  const bool read = ReadNamedValues(FileOf(dir, "cpuacct.stat"), [&](const std::string& k, uint64_t v) {
    if (k == "user") d.last_cpuacct.user = v;
    if (k == "system") d.last_cpuacct.system = v;
  });
  if (read) {
    c.time.user = d.last_cpuacct.user;
    c.time.system = d.last_cpuacct.system;
  }
  c.time.usage = ReadOneValue(FileOf(dir, "cpuacct.usage"));
  ReadPerCpu(d, FileOf(dir, "cpuacct.usage_percpu"), name);
  c.container = ContainerOf(name);
}

// cpu.stat: the times (usec) and, for version 1, the throttling counts.
void ReadCpuStat(const std::string& file, CpuTime* t, CgroupCpusched* sched) {
  *t = CpuTime{kNoValue, kNoValue, kNoValue};
  if (sched != nullptr) sched->periods = sched->throttled = sched->throttled_time = kNoValue;
  ReadNamedValues(file, [&](const std::string& k, uint64_t v) {
    if (k == "usage_usec") t->usage = v;
    if (k == "user_usec") t->user = v;
    if (k == "system_usec") t->system = v;
    if (sched == nullptr) return;
    if (k == "nr_periods") sched->periods = v;
    if (k == "nr_throttled") sched->throttled = v;
    if (k == "throttled_time") sched->throttled_time = v;
  });
}

void RefreshCpusched(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupCpusched* cp = Unread(d.cpusched, name);
  if (cp == nullptr) return;
  CgroupCpusched& c = *cp;
  ReadCpuStat(FileOf(dir, "cpu.stat"), &c.time, &c);
  c.shares = ReadOneValue(FileOf(dir, "cpu.shares"));
  c.cfs_period = ReadOneValue(FileOf(dir, "cpu.cfs_period_us"));
  c.cfs_quota = ReadOneSigned(FileOf(dir, "cpu.cfs_quota_us"));
  c.container = ContainerOf(name);
}

void RefreshMemory(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupMemory* mp = Unread(d.memory, name);
  if (mp == nullptr) return;
  CgroupMemory& m = *mp;
  m.stat.fill(kNoValue);
  ReadNamedValues(FileOf(dir, "memory.stat"), [&](const std::string& k, uint64_t v) {
    const int item = MemoryStatItem(k);
    if (item >= 0) m.stat[static_cast<size_t>(item)] = v;
  });
  m.current = ReadOneValue(FileOf(dir, "memory.current"));
  m.limit = ReadOneValue(FileOf(dir, "memory.limit_in_bytes"));
  m.usage = ReadOneValue(FileOf(dir, "memory.usage_in_bytes"));
  m.failcnt = ReadOneValue(FileOf(dir, "memory.failcnt"));
  m.container = ContainerOf(name);
}

void RefreshNetcls(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupNetcls* np = Unread(d.netcls, name);
  if (np == nullptr) return;
  CgroupNetcls& n = *np;
  n.classid = ReadOneValue(FileOf(dir, "net_cls.classid"));
  n.container = ContainerOf(name);
}

// A blkio file of operation counts ("MAJ:MIN Op N" lines, each device's
// ending with its Total): each device's counts go to its group::device
// instance, and their sums to *total.
void ReadBlkioOps(CgroupData& d, const std::string& file, const std::string& prefix, size_t kind,
                  std::array<uint64_t, 5>* total) {
  static constexpr std::string_view kOps[] = {"Read", "Write", "Sync", "Async", "Total"};
  total->fill(0);
  std::vector<std::string> lines;
  if (!ReadLines(file, &lines)) return;
  std::array<uint64_t, 5> ops{};
  std::string current, dev, op;
  uint64_t value = 0;  // a line without a count reuses the last one, as sscanf leaves it
  for (const std::string& line : lines) {
    size_t pos = 0;
    if (!ScanDevice(line, &pos, &dev) || !ScanWord(line, &pos, &op)) continue;
    ScanUnsigned(line, &pos, &value);
    auto it = d.devices.find(dev);
    if (it == d.devices.end()) continue;
    if (current != it->second) ops.fill(0);
    current = it->second;
    const auto* k = std::find(std::begin(kOps), std::end(kOps), op);
    if (k == std::end(kOps)) continue;
    ops[static_cast<size_t>(k - kOps)] = value;
    if (k != kOps + 4) continue;
    d.perdev_blkio.Fresh(absl::StrCat(prefix, current)).ops[kind] = ops;
    for (size_t i = 0; i < 5; ++i) (*total)[i] += ops[i];
  }
}

// A blkio file of one count per device ("MAJ:MIN N"): each to its
// group::device instance's `field`; returns their sum.
uint64_t ReadBlkioValues(CgroupData& d, const std::string& file, const std::string& prefix,
                         uint64_t BlkStats::*field) {
  uint64_t total = 0;
  std::vector<std::string> lines;
  if (!ReadLines(file, &lines)) return total;
  std::string dev;
  for (const std::string& line : lines) {
    size_t pos = 0;
    uint64_t value = 0;
    if (!ScanDevice(line, &pos, &dev) || !ScanUnsigned(line, &pos, &value)) continue;
    auto it = d.devices.find(dev);
    if (it == d.devices.end()) continue;
    d.perdev_blkio.Fresh(absl::StrCat(prefix, it->second)).*field = value;
    total += value;
  }
  return total;
}

void RefreshBlkio(CgroupData& d, const std::string& dir, const std::string& name) {
  CgroupBlkio* bp = Unread(d.blkio, name);
  if (bp == nullptr) return;
  CgroupBlkio& b = *bp;
  static constexpr std::string_view kOpsFiles[] = {
      "blkio.io_merged",   "blkio.io_queued",    "blkio.io_service_bytes",          "blkio.io_serviced",
      "blkio.io_service_time", "blkio.io_wait_time", "blkio.throttle.io_service_bytes", "blkio.throttle.io_serviced"};
  const std::string prefix = absl::StrCat(UnescapeName(name), "::");  // of the group::device instances
  for (size_t kind = 0; kind < 8; ++kind) ReadBlkioOps(d, FileOf(dir, kOpsFiles[kind]), prefix, kind, &b.total.ops[kind]);
  b.total.sectors = ReadBlkioValues(d, FileOf(dir, "blkio.sectors"), prefix, &BlkStats::sectors);
  b.total.time = ReadBlkioValues(d, FileOf(dir, "blkio.time"), prefix, &BlkStats::time);
  b.container = ContainerOf(name);
}

void ReadPressures(const std::string& file, Pressure* some, Pressure* full) {
  if (some != nullptr) *some = Pressure{};
  if (full != nullptr) *full = Pressure{};
  std::string text;
  if (!ReadText(file, &text)) return;
  size_t pos = 0;
  if (some != nullptr) ReadPressure(text, &pos, "some", some);
  if (full != nullptr) ReadPressure(text, &pos, "full", full);
}

void ReadIoStat(CgroupData& d, const std::string& file, const std::string& name) {
  std::vector<std::string> lines;
  if (!ReadLines(file, &lines)) return;
  for (const std::string& line : lines) {
    std::string dev;
    IoStat io;
    if (!ParseIoStatLine(line, &dev, &io)) continue;
    auto it = d.devices.find(dev);
    if (it == d.devices.end()) continue;
    d.perdev_io.Fresh(absl::StrCat(UnescapeName(name), "::", it->second)) = io;
  }
}

// A version 2 group: its own files for the clusters asked for, then (if
// the files are there) the version 1 style ones.
void RefreshUnified(CgroupData& d, const CgroupNeeds& needs, const std::string& dir, const std::string& name) {
  auto* e = d.cgroup2.Find(UnescapeName(name));
  if (e == nullptr || !e->active) {
    Cgroup2& g = d.cgroup2.Activate(UnescapeName(name)).data;
    if (needs.Has(kClusterCpuPressure)) ReadPressures(FileOf(dir, "cpu.pressure"), &g.cpu_some, nullptr);
    if (needs.Has(kClusterCpuStat)) ReadCpuStat(FileOf(dir, "cpu.stat"), &g.time, nullptr);
    if (needs.Has(kClusterIoPressure)) ReadPressures(FileOf(dir, "io.pressure"), &g.io_some, &g.io_full);
    if (needs.Has(kClusterIoStat)) ReadIoStat(d, FileOf(dir, "io.stat"), name);
    if (needs.Has(kClusterMemPressure)) ReadPressures(FileOf(dir, "memory.pressure"), &g.mem_some, &g.mem_full);
    if (needs.Has(kClusterIrqPressure)) ReadPressures(FileOf(dir, "irq.pressure"), nullptr, &g.irq_full);
    g.container = ContainerOf(name);
  }
  auto readable = [](const std::string& path) { return access(path.c_str(), R_OK) == 0; };
  // PCP's agent hands the cpuset and cpuacct readers a file's path as the
  // group's directory, so their files are never found under version 2.
  if (needs.Has(kClusterCpuset) && readable(dir)) RefreshCpuset(d, FileOf(dir, "cpuset.cpus"), name);
  if (needs.Has(kClusterCpuacct) && readable(dir)) RefreshCpuacct(d, FileOf(dir, "cpuacct.cpus"), name);
  if (needs.Has(kClusterCpusched) && readable(FileOf(dir, "cpu.shares"))) RefreshCpusched(d, dir, name);
  if (needs.Has(kClusterMemory) && readable(FileOf(dir, "memory.stat"))) RefreshMemory(d, dir, name);
  if (needs.Has(kClusterNetcls) && readable(FileOf(dir, "net_cls.classid"))) RefreshNetcls(d, dir, name);
  if (needs.Has(kClusterBlkio) && readable(FileOf(dir, "blkio.time"))) RefreshBlkio(d, dir, name);
}

void DeactivateAsked(CgroupData& d, const CgroupNeeds& needs) {
  if (needs.Has(kClusterCpuset)) d.cpuset.DeactivateAll();
  if (needs.Has(kClusterCpuacct)) {
    d.cpuacct.DeactivateAll();
    d.percpu.DeactivateAll();
  }
  if (needs.Has(kClusterCpusched)) d.cpusched.DeactivateAll();
  if (needs.Has(kClusterMemory)) d.memory.DeactivateAll();
  if (needs.Has(kClusterNetcls)) d.netcls.DeactivateAll();
  if (needs.Has(kClusterBlkio)) {
    d.blkio.DeactivateAll();
    d.perdev_blkio.DeactivateAll();
  }
}

void RefreshVersion1(CgroupData& d, const CgroupNeeds& needs) {
  if (needs.Has(kClusterBlkio)) ReadDevices(d);
  struct Kind {
    unsigned cluster;
    std::string_view subsys;
    void (*refresh)(CgroupData&, const std::string&, const std::string&);
  };
  static constexpr Kind kKinds[] = {
      {kClusterCpuset, "cpuset", RefreshCpuset},   {kClusterCpuacct, "cpuacct", RefreshCpuacct},
      {kClusterCpusched, "cpu", RefreshCpusched},  {kClusterMemory, "memory", RefreshMemory},
      {kClusterNetcls, "netcls", RefreshNetcls},   {kClusterBlkio, "blkio", RefreshBlkio},
  };
  for (const Kind& k : kKinds) {
    if (!needs.Has(k.cluster)) continue;
    CgroupNeeds only;
    only.Add(k.cluster);
    WalkMounts(d, k.subsys, [&] { DeactivateAsked(d, only); },
               [&](const std::string& dir, const std::string& name) { k.refresh(d, dir, name); });
  }
}

void RefreshVersion2(CgroupData& d, const CgroupNeeds& needs) {
  auto setup = [&] {
    if (needs.Has(kClusterIoStat) || needs.Has(kClusterBlkio)) ReadDevices(d);
    if (needs.Has(kClusterCpuPressure) || needs.Has(kClusterCpuStat) || needs.Has(kClusterIoPressure) ||
        needs.Has(kClusterIoStat) || needs.Has(kClusterMemPressure)) {
      d.cgroup2.DeactivateAll();
      if (needs.Has(kClusterIoStat)) d.perdev_io.DeactivateAll();
    }
    DeactivateAsked(d, needs);
  };
  WalkMounts(d, "", setup, [&](const std::string& dir, const std::string& name) { RefreshUnified(d, needs, dir, name); });
}

}  // namespace

void RefreshCgroups(CgroupData& d, const CgroupNeeds& needs) {
  if (d.version < 2) {
    ReadSubsystems(d);
    ReadMounts(d);
  }
  if (d.version < 2) {
    RefreshVersion1(d, needs);
  } else {
    RefreshVersion2(d, needs);
  }
}

}  // namespace pmapi::proc_agent
