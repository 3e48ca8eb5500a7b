// The values of the cgroup metrics, from what cgroup_refresh.cc read, as
// PCP's agent gives them (a field a file did not give has no value).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "pmapi/errors.h"
#include "pmdas/proc/cgroup.h"
#include "pmdas/proc/cgroup_data.h"

namespace pmapi::proc_agent {
namespace {

int U64(uint64_t v, AtomValue* atom) {
  if (v == kNoValue) return 0;
  atom->ull = v;
  return 1;
}

int Str(const std::string& s, AtomValue* atom) {
  atom->bytes = s;
  return 1;
}

// Looks `inst` up in `indom`: the lookup's answer when it is not an
// active instance (an error, or 0 for no value), else 1 and *out.
template <typename T>
int Find(const CacheIndom<T>& indom, Inst inst, const T** out) {
  return indom.Lookup(inst, out);
}

// The subsystems named in a version 1 mount's options, "?" for none.
std::string MountSubsystems(const CgroupData& d, const CgroupMount& m) {
  if (!m.has_options) return "?";
  std::vector<std::string> found;
  for (std::string_view o : Fields(std::string_view(m.options).substr(0, 255), ",")) {
    const auto* e = d.subsys.Find(o);
    if (e != nullptr && e->active) found.emplace_back(o);
  }
  return found.empty() ? "?" : absl::StrJoin(found, ",");
}

int SubsysValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  if (item == 1) return (atom->ul = d.subsys.ActiveCount(), 1);
  const CgroupSubsys* s = nullptr;
  if (int sts = Find(d.subsys, inst, &s); sts <= 0) return sts;
  switch (item) {
    case 0: atom->ul = s->hierarchy; return 1;
    case 2: atom->ul = s->num_cgroups; return 1;
    case 3: atom->ul = s->enabled; return 1;
  }
  return kErrPmid;
}

int MountsValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  if (item == 1) return (atom->ul = d.mounts.ActiveCount(), 1);
  if (item != 0) return kErrPmid;
  const CgroupMount* m = nullptr;
  if (int sts = Find(d.mounts, inst, &m); sts <= 0) return sts;
  return Str(MountSubsystems(d, *m), atom);
}

int CpusetValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  const CgroupCpuset* c = nullptr;
  if (int sts = Find(d.cpuset, inst, &c); sts <= 0) return sts;
  switch (item) {
    case 0: return Str(c->cpus, atom);
    case 1: return Str(c->mems, atom);
    case 2: return Str(c->container, atom);
  }
  return kErrPmid;
}

int CpuacctValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  if (item == 3) {
    const CgroupPerCpu* p = nullptr;
    if (int sts = Find(d.percpu, inst, &p); sts <= 0) return sts;
    return U64(p->usage, atom);
  }
  const CgroupCpuacct* c = nullptr;
  if (int sts = Find(d.cpuacct, inst, &c); sts <= 0) return sts;
  switch (item) {
    case 0: return U64(c->time.user, atom);
    case 1: return U64(c->time.system, atom);
    case 2: return U64(c->time.usage, atom);
    case 4: return Str(c->container, atom);
  }
  return kErrPmid;
}

int CpuschedValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  const CgroupCpusched* c = nullptr;
  if (int sts = Find(d.cpusched, inst, &c); sts <= 0) return sts;
  switch (item) {
    case 0: return U64(c->shares, atom);
    case 1: return U64(c->periods, atom);
    case 2: return U64(c->throttled, atom);
    case 3: return U64(c->throttled_time, atom);
    case 4: return U64(c->cfs_period, atom);
    case 5: return c->cfs_quota == -1 ? 0 : (atom->ll = c->cfs_quota, 1);
    case 6: return Str(c->container, atom);
  }
  return kErrPmid;
}

int MemoryValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  const CgroupMemory* m = nullptr;
  if (int sts = Find(d.memory, inst, &m); sts <= 0) return sts;
  switch (item) {
    case 29: return Str(m->container, atom);
    case 80: return U64(m->usage, atom);
    case 81: return U64(m->limit, atom);
    case 82: return U64(m->failcnt, atom);
    case 90: return U64(m->current, atom);
  }
  return item < m->stat.size() ? U64(m->stat[item], atom) : kErrPmid;
}

int NetclsValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  const CgroupNetcls* n = nullptr;
  if (int sts = Find(d.netcls, inst, &n); sts <= 0) return sts;
  if (item == 0) return U64(n->classid, atom);
  return item == 1 ? Str(n->container, atom) : kErrPmid;
}

// One blkio count: items 0-41 of a device (60-101 of a group's sums):
// five per file of operation counts, with the sectors (in kilobytes) and
// the time (jiffies, in milliseconds) between the sixth and seventh files.
int BlkValue(const BlkStats& s, unsigned item, uint64_t hz, AtomValue* atom) {
  if (item == 30) return (atom->ull = s.sectors >> 1, 1);
  if (item == 31) return (atom->ull = s.time * 1000 / hz, 1);
  const unsigned kind = item < 30 ? item / 5 : 6 + (item - 32) / 5;
  const unsigned op = item < 30 ? item % 5 : (item - 32) % 5;
  if (kind >= 8) return kErrPmid;
  atom->ull = s.ops[kind][op];
  return 1;
}

int BlkioValue(const CgroupData& d, const agent_tables::MetricRow& row, Inst inst, AtomValue* atom) {
  constexpr int kPerDevice = 27;  // the group::device instance domain
  if (row.indom == kPerDevice) {
    const BlkStats* s = nullptr;
    if (int sts = Find(d.perdev_blkio, inst, &s); sts <= 0) return sts;
    return row.item < 42 ? BlkValue(*s, row.item, d.hz, atom) : kErrPmid;
  }
  const CgroupBlkio* b = nullptr;
  if (int sts = Find(d.blkio, inst, &b); sts <= 0) return sts;
  if (row.item == 42) return Str(b->container, atom);
  return row.item >= 60 ? BlkValue(b->total, row.item - 60, d.hz, atom) : kErrPmid;
}

// A pressure value. PCP's agent stores the averages, which are floats,
// through the 64-bit integer member of the value (dropping the fraction),
// and the float metric then shows that integer's low 32 bits as a float.
int PressureValue(const Pressure& p, unsigned field, AtomValue* atom) {
  if (!p.updated) return 0;
  if (field == 3) return (atom->ull = p.total, 1);
  const float avg = p.avg[field];
  atom->ull = avg > 0 ? static_cast<uint64_t>(avg) : 0;
  return 1;
}

int Cgroup2Value(const CgroupData& d, unsigned cluster, unsigned item, Inst inst, AtomValue* atom) {
  const Cgroup2* g = nullptr;
  if (int sts = Find(d.cgroup2, inst, &g); sts <= 0) return sts;
  if (cluster == kClusterCpuStat) {
    switch (item) {
      case 0: return U64(g->time.user, atom);
      case 1: return U64(g->time.system, atom);
      case 2: return U64(g->time.usage, atom);
    }
    return kErrPmid;
  }
  if (item > 7 || ((cluster == kClusterCpuPressure || cluster == kClusterIrqPressure) && item > 3)) return kErrPmid;
  const Pressure* some = cluster == kClusterIoPressure ? &g->io_some : cluster == kClusterMemPressure ? &g->mem_some : &g->cpu_some;
  const Pressure* full = cluster == kClusterIoPressure ? &g->io_full : &g->mem_full;
  if (cluster == kClusterIrqPressure) return PressureValue(g->irq_full, item, atom);
  return PressureValue(item < 4 ? *some : *full, item % 4, atom);
}

int IoStatValue(const CgroupData& d, unsigned item, Inst inst, AtomValue* atom) {
  const IoStat* io = nullptr;
  if (int sts = Find(d.perdev_io, inst, &io); sts <= 0) return sts;
  return item < io->v.size() ? U64(io->v[item], atom) : kErrPmid;
}

}  // namespace

bool IsCgroupCluster(unsigned cluster) {
  switch (cluster) {
    case kClusterSubsys: case kClusterMounts: case kClusterCpuset: case kClusterCpuacct:
    case kClusterCpusched: case kClusterMemory: case kClusterNetcls: case kClusterBlkio:
    case kClusterCpuPressure: case kClusterIoPressure: case kClusterMemPressure:
    case kClusterCpuStat: case kClusterIoStat: case kClusterIrqPressure:
      return true;
  }
  return false;
}

CgroupNeeds NeedsOfIndom(unsigned indom_serial) {
  CgroupNeeds needs;
  switch (indom_serial) {
    case 20: needs.Add(kClusterCpuset); break;
    case 21: case 22: needs.Add(kClusterCpuacct); break;
    case 23: needs.Add(kClusterCpusched); break;
    case 24: needs.Add(kClusterMemory); break;
    case 25: needs.Add(kClusterNetcls); break;
    case 26: case 27: needs.Add(kClusterBlkio); break;
    case 37: needs.Add(kClusterSubsys); break;
    case 38: needs.Add(kClusterMounts); break;
  }
  return needs;
}

std::vector<unsigned> CgroupIndomSerials() { return {16, 17, 20, 21, 22, 23, 24, 25, 26, 27, 37, 38}; }

Cgroups::Cgroups(std::string root, uint64_t hz) : data_(std::make_unique<CgroupData>()) {
  data_->root = std::move(root);
  data_->hz = hz > 0 ? hz : 100;
}

Cgroups::~Cgroups() = default;

void Cgroups::Refresh(const CgroupNeeds& needs, Pmda& pmda) {
  if (!needs.Any()) return;
  CgroupData& d = *data_;
  RefreshCgroups(d, needs);
  auto fill = [&](unsigned serial, const auto& cache) { cache.Fill(pmda.FindIndom(MakeInDom(pmda.domain(), serial))); };
  fill(16, d.cgroup2);
  fill(17, d.perdev_io);
  fill(20, d.cpuset);
  fill(21, d.cpuacct);
  fill(22, d.percpu);
  fill(23, d.cpusched);
  fill(24, d.memory);
  fill(25, d.netcls);
  fill(26, d.blkio);
  fill(27, d.perdev_blkio);
  fill(37, d.subsys);
  fill(38, d.mounts);
}

int Cgroups::Value(const agent_tables::MetricRow& row, Inst inst, AtomValue* atom) const {
  const CgroupData& d = *data_;
  switch (row.cluster) {
    case kClusterSubsys: return SubsysValue(d, row.item, inst, atom);
    case kClusterMounts: return MountsValue(d, row.item, inst, atom);
    case kClusterCpuset: return CpusetValue(d, row.item, inst, atom);
    case kClusterCpuacct: return CpuacctValue(d, row.item, inst, atom);
    case kClusterCpusched: return CpuschedValue(d, row.item, inst, atom);
    case kClusterMemory: return MemoryValue(d, row.item, inst, atom);
    case kClusterNetcls: return NetclsValue(d, row.item, inst, atom);
    case kClusterBlkio: return BlkioValue(d, row, inst, atom);
    case kClusterIoStat: return IoStatValue(d, row.item, inst, atom);
  }
  return Cgroup2Value(d, row.cluster, row.item, inst, atom);
}

}  // namespace pmapi::proc_agent
