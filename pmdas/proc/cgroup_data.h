// cgroup_data.h: what the cgroup metrics keep between fetches (private to
// cgroup*.cc): one table per instance domain, kept as PCP's agent keeps its
// pmdaCache domains.
#ifndef PMAPI_PMDAS_PROC_CGROUP_DATA_H_
#define PMAPI_PMDAS_PROC_CGROUP_DATA_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "pmapi/errors.h"
#include "pmapi/pmda.h"
#include "pmdas/common/cache_indom.h"
#include "pmdas/common/scan.h"
#include "pmdas/proc/cgroup.h"

namespace pmapi::proc_agent {

using agent_cache::CacheIndom;

inline constexpr uint64_t kNoValue = ~uint64_t{0};  // a field the file did not give

struct CpuTime {
  uint64_t user = 0, system = 0, usage = 0;
};

struct CgroupMount {
  int version = 0;
  bool has_options = false;  // version 1 mounts only
  std::string options;
};

struct CgroupSubsys {
  uint32_t hierarchy = 0, num_cgroups = 0, enabled = 0;
};

struct CgroupCpuset {
  std::string cpus, mems, container;
};

struct CgroupCpuacct {
  CpuTime time;
  std::string container;
};

struct CgroupPerCpu {
  uint64_t usage = 0;
};

struct CgroupCpusched {
  uint64_t shares = 0;
  CpuTime time;
  uint64_t periods = 0, throttled = 0, throttled_time = 0;
  uint64_t cfs_period = 0;
  int64_t cfs_quota = 0;
  std::string container;
};

// memory.stat fields by item number (0-74), then the one-value files.
struct CgroupMemory {
  std::array<uint64_t, 75> stat{};
  uint64_t current = 0, usage = 0, limit = 0, failcnt = 0;
  std::string container;
};

struct CgroupNetcls {
  uint64_t classid = 0;
  std::string container;
};

// The eight blkio files of operation counts (io_merged ... throttle
// io_serviced, in item order), each by read, write, sync, async, total.
struct BlkStats {
  std::array<std::array<uint64_t, 5>, 8> ops{};
  uint64_t sectors = 0, time = 0;
};

struct CgroupBlkio {
  BlkStats total;
  std::string container;
};

struct Pressure {
  bool updated = false;
  float avg[3] = {0, 0, 0};  // 10 s, 1 min, 5 min
  uint64_t total = 0;
};

struct Cgroup2 {
  Pressure cpu_some, io_some, io_full, mem_some, mem_full, irq_full;
  CpuTime time;
  std::string container;
};

// io.stat of one group and device: rbytes wbytes rios wios dbytes dios.
struct IoStat {
  std::array<uint64_t, 6> v{};
};

struct CgroupData {
  std::string root;
  uint64_t hz = 100;
  unsigned version = 0;  // 0 until the mounts are read, then 1 or 2
  CacheIndom<CgroupMount> mounts;  // by mount path
  CacheIndom<CgroupSubsys> subsys;
  std::map<std::string, std::string> devices;  // "major:minor" -> disk name
  CacheIndom<CgroupCpuset> cpuset;
  CacheIndom<CgroupCpuacct> cpuacct;
  CacheIndom<CgroupPerCpu> percpu;
  CacheIndom<CgroupCpusched> cpusched;
  CacheIndom<CgroupMemory> memory;
  CacheIndom<CgroupNetcls> netcls;
  CacheIndom<CgroupBlkio> blkio;
  CacheIndom<BlkStats> perdev_blkio;
  CacheIndom<Cgroup2> cgroup2;
  CacheIndom<IoStat> perdev_io;
  // PCP's cpuacct.stat reader keeps the last user and system values it
  // read, and a group whose file lacks one shows the last group's.
  CpuTime last_cpuacct;
};

// Reads what `needs` asks for (cgroup_refresh.cc).
void RefreshCgroups(CgroupData& d, const CgroupNeeds& needs);

// File readers (cgroup_files.cc), each as PCP's agent reads the file.

// The first line of a file as fgets into `max` + 1 bytes reads it: 0, or
// -ENOENT when it cannot be opened, -ENOMEM when it is empty.
int ReadFirstLine(const std::string& path, std::string* line, size_t max = 4095);
// A one-value file read as strtoull with base 0, kNoValue when unreadable.
uint64_t ReadOneValue(const std::string& path);
// The same, signed; an unreadable file gives -ENOENT or -ENOMEM (PCP
// stores its error code as the value).
int64_t ReadOneSigned(const std::string& path);
// The first line without its trailing newlines ("" when unreadable).
std::string ReadOneString(const std::string& path);
// A whole file (its first MiB), false when it cannot be opened.
bool ReadText(const std::string& path, std::string* text);
// The lines of a file, false when it cannot be opened.
bool ReadLines(const std::string& path, std::vector<std::string>* lines);
// "NAME VALUE" lines: calls set(name, value) for each line that has both.
template <typename F>
bool ReadNamedValues(const std::string& path, F set);
// Parses "NAME VALUE" as sscanf("%s %llu") does.
bool ParseNamedValue(std::string_view line, std::string* name, uint64_t* value);
// PSI text ("some avg10=... total=...") of one kind, read from `pos` on
// as fscanf reads it; `pos` moves past what was read.
void ReadPressure(std::string_view text, size_t* pos, std::string_view kind, Pressure* p);
// %u:%u read as "MAJOR:MINOR" (the other scanf pieces are agent_scan's).
using agent_scan::ScanFloat;
using agent_scan::ScanLiteral;
using agent_scan::ScanUnsigned;
using agent_scan::ScanWord;
using agent_scan::SkipSpace;
bool ScanDevice(std::string_view s, size_t* pos, std::string* dev);
// The fields of `s` between runs of the characters of `seps` (strtok).
std::vector<std::string_view> Fields(std::string_view s, std::string_view seps);
// An io.stat line with all six counts: "MAJ:MIN rbytes=N wbytes=N ...".
bool ParseIoStatLine(std::string_view line, std::string* dev, IoStat* io);
// The item of a memory.stat name, -1 for names PCP does not keep.
int MemoryStatItem(std::string_view name);
// systemd's \xNN escapes in a group name, undone.
std::string UnescapeName(const std::string& name);
// The container id in a group name ("/docker/ID", "/machine.slice/
// libpod-ID.scope", ...), "" for none.
std::string ContainerOf(const std::string& name);

template <typename F>
bool ReadNamedValues(const std::string& path, F set) {
  std::vector<std::string> lines;
  if (!ReadLines(path, &lines)) return false;
  std::string name;
  uint64_t value = 0;
  for (const std::string& line : lines) {
    if (ParseNamedValue(line, &name, &value)) set(name, value);
  }
  return true;
}

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_CGROUP_DATA_H_
