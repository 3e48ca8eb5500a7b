#include "pmdas/linux/linux_agent.h"

#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "pmapi/errors.h"
#include "pmdas/linux/proc_stats.h"

namespace pmapi {
namespace {

namespace ls = linux_stats;

// PCP's instance domain serials and clusters for the linux agent.
enum : unsigned { kCpuIndom = 0, kDiskIndom = 1, kLoadIndom = 2, kNetIndom = 3, kFilesysIndom = 5 };
enum : unsigned { kStat = 0, kMeminfo = 1, kLoadavg = 2, kNetDev = 3, kFilesys = 5, kUname = 12 };

constexpr Units kMsec{0, 1, 0, 0, kTimeMSec, 0};
constexpr Units kCount{0, 0, 1, 0, 0, kCountOne};
constexpr Units kKbyte{1, 0, 0, kSpaceKByte, 0, 0};
constexpr Units kMbyte{1, 0, 0, kSpaceMByte, 0, 0};
constexpr Units kByte{1, 0, 0, kSpaceByte, 0, 0};
constexpr Units kNone{};

PmdaMetric M(unsigned cluster, unsigned item, int type, InDom indom, int sem, Units u) {
  return PmdaMetric{nullptr, Desc{PmdaPmid(cluster, item), type, indom, sem, u}};
}

std::vector<PmdaMetric> Metrics() {
  std::vector<PmdaMetric> m;
  // kernel.percpu.cpu.*: user nice sys idle wait.total intr irq.soft
  // irq.hard steal guest vuser guest_nice vnice
  for (unsigned item : {0u, 1u, 2u, 3u, 30u, 31u, 56u, 57u, 58u, 61u, 76u, 83u, 84u})
    m.push_back(M(kStat, item, kTypeU64, kCpuIndom, kSemCounter, kMsec));
  // kernel.all.cpu.*: user nice sys idle wait.total intr steal
  for (unsigned item : {20u, 21u, 22u, 23u, 35u, 34u, 55u})
    m.push_back(M(kStat, item, kTypeU64, kInDomNull, kSemCounter, kMsec));
  m.push_back(M(kStat, 12, kTypeU64, kInDomNull, kSemCounter, kCount));  // kernel.all.intr
  m.push_back(M(kStat, 13, kTypeU64, kInDomNull, kSemCounter, kCount));  // kernel.all.pswitch
  m.push_back(M(kStat, 4, kTypeU64, kDiskIndom, kSemCounter, kCount));   // disk.dev.read
  m.push_back(M(kStat, 5, kTypeU64, kDiskIndom, kSemCounter, kCount));   // disk.dev.write
  m.push_back(M(kStat, 38, kTypeU64, kDiskIndom, kSemCounter, kKbyte));  // disk.dev.read_bytes
  m.push_back(M(kStat, 39, kTypeU64, kDiskIndom, kSemCounter, kKbyte));  // disk.dev.write_bytes
  m.push_back(M(kStat, 46, kTypeU32, kDiskIndom, kSemCounter, kMsec));   // disk.dev.avactive
  m.push_back(M(kStat, 24, kTypeU64, kInDomNull, kSemCounter, kCount));  // disk.all.read
  m.push_back(M(kStat, 25, kTypeU64, kInDomNull, kSemCounter, kCount));  // disk.all.write
  m.push_back(M(kStat, 41, kTypeU64, kInDomNull, kSemCounter, kKbyte));  // disk.all.read_bytes
  m.push_back(M(kStat, 42, kTypeU64, kInDomNull, kSemCounter, kKbyte));  // disk.all.write_bytes
  m.push_back(M(kStat, 44, kTypeU64, kInDomNull, kSemCounter, kMsec));   // disk.all.avactive
  for (unsigned item : {8u, 9u, 10u, 11u})  // swap.pagesin pagesout in out
    m.push_back(M(kStat, item, kTypeU32, kInDomNull, kSemCounter, kCount));
  m.push_back(M(kStat, 32, kTypeU32, kInDomNull, kSemDiscrete, kNone));  // hinv.ncpu
  m.push_back(M(kStat, 33, kTypeU32, kInDomNull, kSemDiscrete, kNone));  // hinv.ndisk
  m.push_back(M(kMeminfo, 0, kTypeU64, kInDomNull, kSemDiscrete, kKbyte));  // mem.physmem
  for (unsigned item : {1u, 2u, 5u, 4u, 58u})  // mem.util used free cached bufmem available
    m.push_back(M(kMeminfo, item, kTypeU64, kInDomNull, kSemInstant, kKbyte));
  for (unsigned item : {6u, 7u, 8u})  // swap.length used free
    m.push_back(M(kMeminfo, item, kTypeU64, kInDomNull, kSemInstant, kByte));
  m.push_back(M(kMeminfo, 9, kTypeU32, kInDomNull, kSemDiscrete, kMbyte));  // hinv.physmem
  m.push_back(M(kLoadavg, 0, kTypeFloat, kLoadIndom, kSemInstant, kNone));  // kernel.all.load
  m.push_back(M(kLoadavg, 3, kTypeU32, kInDomNull, kSemInstant, kNone));    // kernel.all.nprocs
  for (unsigned item : {0u, 1u, 2u, 3u})  // network.interface.in.*
    m.push_back(M(kNetDev, item, kTypeU64, kNetIndom, kSemCounter, item == 0 ? kByte : kCount));
  for (unsigned item : {8u, 9u, 10u, 11u})  // network.interface.out.*
    m.push_back(M(kNetDev, item, kTypeU64, kNetIndom, kSemCounter, item == 8 ? kByte : kCount));
  m.push_back(M(kFilesys, 1, kTypeU64, kFilesysIndom, kSemDiscrete, kKbyte));  // filesys.capacity
  m.push_back(M(kFilesys, 2, kTypeU64, kFilesysIndom, kSemInstant, kKbyte));   // filesys.used
  m.push_back(M(kFilesys, 3, kTypeU64, kFilesysIndom, kSemInstant, kKbyte));   // filesys.free
  for (unsigned item : {0u, 1u, 2u, 3u, 4u, 7u})  // kernel.uname.*
    m.push_back(M(kUname, item, kTypeString, kInDomNull, kSemDiscrete, kNone));
  return m;
}

// Instance numbers handed out in order of first sight and kept for the
// agent's life, as PCP's instance cache does.
class InstanceNumbers {
 public:
  int32_t For(const std::string& name) {
    auto [it, added] = ids_.try_emplace(name, next_);
    if (added) ++next_;
    return it->second;
  }

 private:
  absl::flat_hash_map<std::string, int32_t> ids_;
  int32_t next_ = 0;
};

struct Filesys {
  std::string device;
  uint64_t capacity_kb = 0, free_kb = 0;
};

struct LinuxState {
  std::string root;  // LINUX_STATSPATH
  uint64_t hz = 100;
  ls::StatInfo stat;
  absl::flat_hash_map<std::string, uint64_t> meminfo, vmstat;
  std::optional<ls::LoadAvg> load;
  std::vector<std::pair<int32_t, ls::DiskStat>> disks;
  std::vector<std::pair<int32_t, ls::NetDev>> nets;
  std::vector<std::pair<int32_t, Filesys>> filesys;
  struct utsname uts {};
  bool have_uts = false;
  std::string distro;
  InstanceNumbers disk_ids, net_ids, fs_ids;
};

std::string Read(const LinuxState& st, std::string_view path) {
  return ls::ReadProcFile(st.root, path).value_or("");
}

bool PathExists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// Whole disks only: partitions, loop, ram and zram devices, device-mapper
// and md devices are left out of disk.dev, as PCP does.
bool IsDisk(const LinuxState& st, const std::string& name) {
  for (const char* prefix : {"loop", "ram", "zram", "dm-", "md", "sr"}) {
    if (absl::StartsWith(name, prefix)) return false;
  }
  const std::string sys = st.root + "/sys/block";
  if (!PathExists(sys)) return true;
  std::string dev = name;
  for (char& c : dev) {
    if (c == '/') c = '!';
  }
  return PathExists(sys + "/" + dev);
}

std::string Distro(const LinuxState& st) {
  for (const char* f : {"/etc/fedora-release", "/etc/redhat-release"}) {
    if (auto t = ls::ReadProcFile(st.root, f)) {
      std::string line(absl::StripAsciiWhitespace(t->substr(0, t->find('\n'))));
      if (!line.empty()) return line;
    }
  }
  if (auto t = ls::ReadProcFile(st.root, "/etc/debian_version")) {
    std::string v(absl::StripAsciiWhitespace(*t));
    if (!v.empty() && v.find('\n') == std::string::npos) return absl::StrCat("Debian ", v);
  }
  if (auto t = ls::ReadProcFile(st.root, "/etc/os-release")) {
    for (absl::string_view line : absl::StrSplit(*t, '\n')) {
      if (absl::ConsumePrefix(&line, "PRETTY_NAME=")) {
        absl::ConsumePrefix(&line, "\"");
        absl::ConsumeSuffix(&line, "\"");
        return std::string(line);
      }
    }
  }
  return "";
}

void RefreshCluster(LinuxState& st, unsigned cluster, Pmda& pmda) {
  switch (cluster) {
    case kStat: {
      st.stat = ls::ParseStat(Read(st, "/proc/stat"));
      st.vmstat = ls::ParseVmstat(Read(st, "/proc/vmstat"));
      st.disks.clear();
      for (ls::DiskStat& d : ls::ParseDiskstats(Read(st, "/proc/diskstats"))) {
        if (IsDisk(st, d.name)) st.disks.emplace_back(st.disk_ids.For(d.name), std::move(d));
      }
      PmdaIndom* cpu = pmda.FindIndom(MakeInDom(pmda.domain(), kCpuIndom));
      cpu->set.clear();
      for (const auto& c : st.stat.cpus) cpu->set.push_back({c.first, absl::StrCat("cpu", c.first)});
      PmdaIndom* disk = pmda.FindIndom(MakeInDom(pmda.domain(), kDiskIndom));
      disk->set.clear();
      for (const auto& d : st.disks) disk->set.push_back({d.first, d.second.name});
      break;
    }
    case kMeminfo:
      st.meminfo = ls::ParseMeminfo(Read(st, "/proc/meminfo"));
      break;
    case kLoadavg:
      st.load = ls::ParseLoadavg(Read(st, "/proc/loadavg"));
      break;
    case kNetDev: {
      st.nets.clear();
      for (ls::NetDev& n : ls::ParseNetDev(Read(st, "/proc/net/dev")))
        st.nets.emplace_back(st.net_ids.For(n.name), std::move(n));
      PmdaIndom* net = pmda.FindIndom(MakeInDom(pmda.domain(), kNetIndom));
      net->set.clear();
      for (const auto& n : st.nets) net->set.push_back({n.first, n.second.name});
      break;
    }
    case kFilesys: {
      st.filesys.clear();
      std::set<std::string> seen;
      for (const ls::Mount& mnt : ls::ParseMounts(Read(st, "/proc/mounts"))) {
        if (mnt.device.empty() || mnt.device[0] != '/' || !seen.insert(mnt.device).second) continue;
        struct statvfs vfs {};
        if (statvfs((st.root + mnt.dir).c_str(), &vfs) != 0) continue;
        const uint64_t frsize = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
        Filesys fs{mnt.device, vfs.f_blocks * frsize / 1024, vfs.f_bfree * frsize / 1024};
        st.filesys.emplace_back(st.fs_ids.For(mnt.device), fs);
      }
      PmdaIndom* fs = pmda.FindIndom(MakeInDom(pmda.domain(), kFilesysIndom));
      fs->set.clear();
      for (const auto& f : st.filesys) fs->set.push_back({f.first, f.second.device});
      break;
    }
    case kUname:
      st.have_uts = uname(&st.uts) == 0;
      st.distro = Distro(st);
      break;
  }
}

// Milliseconds from clock ticks.
uint64_t Msec(const LinuxState& st, uint64_t ticks) { return ticks * 1000 / st.hz; }

int CpuValue(const LinuxState& st, unsigned item, const ls::CpuTimes& t, AtomValue* atom) {
  uint64_t v;
  switch (item) {
    case 0: case 20: v = t.user; break;
    case 1: case 21: v = t.nice; break;
    case 2: case 22: v = t.sys; break;
    case 3: case 23: v = t.idle; break;
    case 30: case 35: v = t.iowait; break;
    case 31: case 34: v = t.irq + t.softirq; break;
    case 56: v = t.softirq; break;
    case 57: v = t.irq; break;
    case 58: case 55: v = t.steal; break;
    case 61: v = t.guest; break;
    case 76: v = t.user >= t.guest ? t.user - t.guest : 0; break;
    case 83: v = t.guest_nice; break;
    case 84: v = t.nice >= t.guest_nice ? t.nice - t.guest_nice : 0; break;
    default: return kErrPmid;
  }
  atom->ull = Msec(st, v);
  return 1;
}

int DiskValue(unsigned item, const ls::DiskStat& d, AtomValue* atom) {
  switch (item) {
    case 4: case 24: atom->ull = d.reads; return 1;
    case 5: case 25: atom->ull = d.writes; return 1;
    case 38: case 41: atom->ull = d.read_sectors / 2; return 1;
    case 39: case 42: atom->ull = d.write_sectors / 2; return 1;
    case 46: atom->ul = static_cast<uint32_t>(d.io_ticks); return 1;
    case 44: atom->ull = d.io_ticks; return 1;
  }
  return kErrPmid;
}

template <typename T>
const T* ById(const std::vector<std::pair<int32_t, T>>& list, unsigned inst) {
  for (const auto& e : list) {
    if (static_cast<unsigned>(e.first) == inst) return &e.second;
  }
  return nullptr;
}

int StatValue(const LinuxState& st, unsigned item, unsigned inst, AtomValue* atom) {
  switch (item) {
    case 0: case 1: case 2: case 3: case 30: case 31: case 56: case 57: case 58: case 61: case 76: case 83: case 84:
      for (const auto& c : st.stat.cpus) {
        if (static_cast<unsigned>(c.first) == inst) return CpuValue(st, item, c.second, atom);
      }
      return kErrInst;
    case 20: case 21: case 22: case 23: case 35: case 34: case 55:
      return st.stat.have_all ? CpuValue(st, item, st.stat.all, atom) : kErrAppversion;
    case 12: return st.stat.intr ? (atom->ull = *st.stat.intr, 1) : kErrAppversion;
    case 13: return st.stat.ctxt ? (atom->ull = *st.stat.ctxt, 1) : kErrAppversion;
    case 4: case 5: case 38: case 39: case 46: {
      const ls::DiskStat* d = ById(st.disks, inst);
      return d ? DiskValue(item, *d, atom) : kErrInst;
    }
    case 24: case 25: case 41: case 42: case 44: {
      ls::DiskStat sum;
      for (const auto& d : st.disks) {
        sum.reads += d.second.reads;
        sum.writes += d.second.writes;
        sum.read_sectors += d.second.read_sectors;
        sum.write_sectors += d.second.write_sectors;
        sum.io_ticks += d.second.io_ticks;
      }
      return DiskValue(item, sum, atom);
    }
    case 8: case 9: {
      auto it = st.vmstat.find(item == 8 ? "pswpin" : "pswpout");
      if (it == st.vmstat.end()) return kErrAppversion;
      atom->ul = static_cast<uint32_t>(it->second);
      return 1;
    }
    case 10: return st.stat.swap_in ? (atom->ul = *st.stat.swap_in, 1) : kErrAppversion;
    case 11: return st.stat.swap_out ? (atom->ul = *st.stat.swap_out, 1) : kErrAppversion;
    case 32: atom->ul = static_cast<uint32_t>(st.stat.cpus.size()); return 1;
    case 33: atom->ul = static_cast<uint32_t>(st.disks.size()); return 1;
  }
  return kErrPmid;
}

int MemValue(const LinuxState& st, unsigned item, AtomValue* atom) {
  auto get = [&](const char* name, uint64_t* v) {
    auto it = st.meminfo.find(name);
    if (it == st.meminfo.end()) return false;
    *v = it->second;
    return true;
  };
  uint64_t a = 0, b = 0;
  switch (item) {
    case 0: if (!get("MemTotal", &a)) break; atom->ull = a; return 1;
    case 1: if (!get("MemTotal", &a) || !get("MemFree", &b)) break; atom->ull = a >= b ? a - b : 0; return 1;
    case 2: if (!get("MemFree", &a)) break; atom->ull = a; return 1;
    case 5: if (!get("Cached", &a)) break; atom->ull = a; return 1;
    case 4: if (!get("Buffers", &a)) break; atom->ull = a; return 1;
    case 58: if (!get("MemAvailable", &a)) break; atom->ull = a; return 1;
    case 6: if (!get("SwapTotal", &a)) break; atom->ull = a * 1024; return 1;
    case 8: if (!get("SwapFree", &a)) break; atom->ull = a * 1024; return 1;
    case 7: if (!get("SwapTotal", &a) || !get("SwapFree", &b)) break; atom->ull = (a >= b ? a - b : 0) * 1024; return 1;
    case 9: if (!get("MemTotal", &a)) break; atom->ul = static_cast<uint32_t>(a / 1024); return 1;
    default: return kErrPmid;
  }
  return kErrAppversion;
}

int OtherValue(const LinuxState& st, unsigned cluster, unsigned item, unsigned inst, AtomValue* atom) {
  switch (cluster) {
    case kLoadavg:
      if (!st.load) return kErrAppversion;
      if (item == 3) return (atom->ul = st.load->total, 1);
      if (item != 0) return kErrPmid;
      if (inst == 1) return (atom->f = st.load->avg[0], 1);
      if (inst == 5) return (atom->f = st.load->avg[1], 1);
      if (inst == 15) return (atom->f = st.load->avg[2], 1);
      return kErrInst;
    case kNetDev: {
      const ls::NetDev* n = ById(st.nets, inst);
      if (n == nullptr) return kErrInst;
      const uint64_t v[] = {n->in_bytes, n->in_packets, n->in_errors, n->in_drops, 0, 0, 0, 0,
                            n->out_bytes, n->out_packets, n->out_errors, n->out_drops};
      if (item >= 12 || (item >= 4 && item < 8)) return kErrPmid;
      atom->ull = v[item];
      return 1;
    }
    case kFilesys: {
      const Filesys* f = ById(st.filesys, inst);
      if (f == nullptr) return kErrInst;
      if (item == 1) return (atom->ull = f->capacity_kb, 1);
      if (item == 2) return (atom->ull = f->capacity_kb - f->free_kb, 1);
      if (item == 3) return (atom->ull = f->free_kb, 1);
      return kErrPmid;
    }
    case kUname:
      if (!st.have_uts) return kErrAppversion;
      switch (item) {
        case 0: atom->bytes = st.uts.release; return 1;
        case 1: atom->bytes = st.uts.version; return 1;
        case 2: atom->bytes = st.uts.sysname; return 1;
        case 3: atom->bytes = st.uts.machine; return 1;
        case 4: atom->bytes = st.uts.nodename; return 1;
        case 7: atom->bytes = st.distro; return 1;
      }
      return kErrPmid;
  }
  return kErrPmid;
}

int LinuxFetchCallback(const LinuxState& st, const PmdaMetric& m, unsigned inst, AtomValue* atom) {
  const unsigned cluster = PmIDCluster(m.desc.pmid), item = PmIDItem(m.desc.pmid);
  if (cluster == kStat) return StatValue(st, item, inst, atom);
  if (cluster == kMeminfo) return MemValue(st, item, atom);
  return OtherValue(st, cluster, item, inst, atom);
}

// Returns the cluster whose file lists the instances of `indom`.
int ClusterOfIndom(InDom indom) {
  switch (InDomSerial(indom)) {
    case kCpuIndom: case kDiskIndom: return kStat;
    case kNetIndom: return kNetDev;
    case kFilesysIndom: return kFilesys;
  }
  return -1;
}

}  // namespace

void LinuxAgentInit(Pmda& dp) {
  dp.Dso(kPmdaInterface7, "linux DSO", dp.home() + "/help");
  if (dp.status() != 0) return;
  auto state = std::make_shared<LinuxState>();
  if (const char* root = std::getenv("LINUX_STATSPATH")) state->root = root;
  long hz = sysconf(_SC_CLK_TCK);
  state->hz = hz > 0 ? static_cast<uint64_t>(hz) : 100;
  dp.SetData(state.get());
  dp.SetFlags(kPmdaExtFlagHashed);
  dp.dispatch().fetch = [state](std::span<const PmID> ids, Result* result, Pmda& pmda) {
    std::set<unsigned> clusters;
    for (PmID id : ids) clusters.insert(PmIDCluster(id));
    for (unsigned c : clusters) RefreshCluster(*state, c, pmda);
    return pmda.DefaultFetch(ids, result);
  };
  dp.dispatch().instance = [state](InDom indom, int32_t inst, const std::string* name, Pmda& pmda) {
    if (int c = ClusterOfIndom(indom); c >= 0) RefreshCluster(*state, static_cast<unsigned>(c), pmda);
    return pmda.DefaultInstance(indom, inst, name);
  };
  dp.SetFetchCallback([state](const PmdaMetric& m, unsigned inst, AtomValue* atom) {
    return LinuxFetchCallback(*state, m, inst, atom);
  });
  std::vector<PmdaIndom> indoms(5);
  indoms[0].indom = kCpuIndom;
  indoms[1].indom = kDiskIndom;
  indoms[2] = PmdaIndom{kLoadIndom, {{1, "1 minute"}, {5, "5 minute"}, {15, "15 minute"}}};
  indoms[3].indom = kNetIndom;
  indoms[4].indom = kFilesysIndom;
  dp.Init(std::move(indoms), Metrics());
}

}  // namespace pmapi
