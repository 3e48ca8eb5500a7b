// proc_stats.h: bounded readers for the Linux kernel's statistics files
// (/proc/stat, /proc/meminfo, /proc/loadavg, /proc/diskstats,
// /proc/net/dev, /proc/vmstat, /proc/mounts).
//
// Each Parse* function takes a file's text and never fails: lines it does
// not understand are skipped, numbers that do not parse are left out, so
// odd contents give missing values, never a crash. Read* functions read the
// file below a root directory (PCP's LINUX_STATSPATH, "" for the real one)
// with a size cap.
//
// Example:
//   pmapi::linux_stats::StatInfo st =
//       pmapi::linux_stats::ParseStat(pmapi::linux_stats::ReadProcFile("", "/proc/stat").value_or(""));
//   st.all.user;   // jiffies
#ifndef PMAPI_PMDAS_LINUX_PROC_STATS_H_
#define PMAPI_PMDAS_LINUX_PROC_STATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace pmapi::linux_stats {

// The largest statistics file read (/proc/stat on a big machine is well
// below this).
inline constexpr size_t kMaxProcFileBytes = 16 << 20;

// Returns the contents of root + path, or nullopt if it cannot be read.
std::optional<std::string> ReadProcFile(const std::string& root, std::string_view path);

// The pieces fgets into a buffer of `size` bytes returns from `text`: each
// line with its newline, a longer line cut into pieces of size - 1.
std::vector<std::string_view> FgetsLines(std::string_view text, size_t size);

// CPU time in clock ticks, as /proc/stat gives it.
struct CpuTimes {
  uint64_t user = 0, nice = 0, sys = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0,
           guest = 0, guest_nice = 0;
};

struct StatInfo {
  bool have_all = false;
  CpuTimes all;
  std::vector<std::pair<int, CpuTimes>> cpus;  // cpu number, times
  std::optional<uint64_t> intr, ctxt, processes, running, blocked;
  std::optional<int64_t> btime;
  std::optional<uint32_t> swap_in, swap_out;  // the old "swap" line
};
StatInfo ParseStat(std::string_view text);

// Returns name -> value (kB for most) of /proc/meminfo.
absl::flat_hash_map<std::string, uint64_t> ParseMeminfo(std::string_view text);

struct LoadAvg {
  float avg[3] = {0, 0, 0};
  uint32_t running = 0, total = 0, lastpid = 0;
};
std::optional<LoadAvg> ParseLoadavg(std::string_view text);

struct DiskStat {
  std::string name;
  uint32_t major = 0, minor = 0;
  uint64_t reads = 0, read_merges = 0, read_sectors = 0, read_ticks = 0;
  uint64_t writes = 0, write_merges = 0, write_sectors = 0, write_ticks = 0;
  uint64_t in_flight = 0, io_ticks = 0, time_in_queue = 0;
  uint64_t discards = 0, discard_merges = 0, discard_sectors = 0, discard_ticks = 0;
  uint64_t flushes = 0, flush_ticks = 0;
  int fields = 0;  // how many statistics the line had (4, 11, 15 or 17)
};
std::vector<DiskStat> ParseDiskstats(std::string_view text);

struct NetDev {
  std::string name;
  uint64_t in_bytes = 0, in_packets = 0, in_errors = 0, in_drops = 0;
  uint64_t in_fifo = 0, in_frame = 0, in_compressed = 0, in_mcasts = 0;
  uint64_t out_bytes = 0, out_packets = 0, out_errors = 0, out_drops = 0;
  uint64_t out_fifo = 0, out_collisions = 0, out_carrier = 0, out_compressed = 0;
};
std::vector<NetDev> ParseNetDev(std::string_view text);

// Returns name -> value of /proc/vmstat.
absl::flat_hash_map<std::string, uint64_t> ParseVmstat(std::string_view text);

struct Mount {
  std::string device, dir, type;
};
std::vector<Mount> ParseMounts(std::string_view text);

}  // namespace pmapi::linux_stats

#endif  // PMAPI_PMDAS_LINUX_PROC_STATS_H_
