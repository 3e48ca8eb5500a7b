// cgroup.h: the control group metrics of PCP's proc agent (cgroup.*):
// the subsystems of /proc/cgroups, the cgroup mounts of /proc/mounts, and
// per group the cpuset, cpuacct, cpu, memory, net_cls and blkio files of
// version 1 hierarchies or the pressure, cpu.stat and io.stat files of a
// version 2 hierarchy, named by their path below the mount ("/",
// "/machine.slice", ...). Groups are found and read again on each fetch
// that asks for them, as PCP's agent does, with its quirks kept (see
// docs/local-context.md). Everything is read below PROC_STATSPATH.
//
// Example (from the proc agent's fetch):
//   CgroupNeeds needs;
//   needs.Add(cluster);                 // for each metric asked for
//   cgroups.Refresh(needs, pmda);
//   int sts = cgroups.Value(row, inst, &atom);
#ifndef PMAPI_PMDAS_PROC_CGROUP_H_
#define PMAPI_PMDAS_PROC_CGROUP_H_

#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pmapi/pmda.h"
#include "pmdas/common/metric_table.h"

namespace pmapi::proc_agent {

// The clusters of the cgroup metrics (PCP's numbers).
enum CgroupCluster : unsigned {
  kClusterSubsys = 37,
  kClusterMounts = 38,
  kClusterCpuset = 39,
  kClusterCpuacct = 41,
  kClusterCpusched = 43,
  kClusterMemory = 45,
  kClusterNetcls = 47,
  kClusterBlkio = 49,
  kClusterCpuPressure = 64,
  kClusterIoPressure = 65,
  kClusterMemPressure = 66,
  kClusterCpuStat = 67,
  kClusterIoStat = 68,
  kClusterIrqPressure = 76,
};

// Whether `cluster` is one of the cgroup clusters.
bool IsCgroupCluster(unsigned cluster);

// The clusters a fetch or instance request needs read.
class CgroupNeeds {
 public:
  void Add(unsigned cluster) {
    if (cluster < bits_.size()) bits_.set(cluster);
  }
  bool Has(unsigned cluster) const { return cluster < bits_.size() && bits_.test(cluster); }
  bool Any() const { return bits_.any(); }

 private:
  std::bitset<80> bits_;
};

// The clusters an instance request on `indom_serial` reads first (none for
// the version 2 domains, whose instances are those of the last fetch).
CgroupNeeds NeedsOfIndom(unsigned indom_serial);

// The instance domain serials of the cgroup metrics.
std::vector<unsigned> CgroupIndomSerials();

struct CgroupData;

// The state of the cgroup metrics of one agent.
class Cgroups {
 public:
  // `root` is PROC_STATSPATH ("" for the real files); `hz` the clock rate.
  Cgroups(std::string root, uint64_t hz);
  ~Cgroups();
  Cgroups(const Cgroups&) = delete;
  Cgroups& operator=(const Cgroups&) = delete;

  // Reads what `needs` asks for and brings the instance tables of `pmda`
  // up to date.
  void Refresh(const CgroupNeeds& needs, Pmda& pmda);
  // The value of a cgroup metric for instance `inst` (a fetch callback's
  // answer: > 0 a value, 0 none, < 0 an error).
  int Value(const agent_tables::MetricRow& row, Inst inst, AtomValue* atom) const;

 private:
  std::unique_ptr<CgroupData> data_;
};

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_CGROUP_H_
