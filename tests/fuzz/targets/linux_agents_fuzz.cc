// Fuzz target: the built-in linux and proc agents' readers of /proc and
// /sys. The input is split at 0x01 bytes into the contents of a made-up
// tree (LINUX_STATSPATH and PROC_STATSPATH): /proc/stat, meminfo, loadavg, diskstats,
// partitions, net/dev, vmstat, net/snmp, net/netstat, net/snmp6,
// net/sockstat, zoneinfo, net/softnet_stat, net/tcp, net/unix, uptime,
// mounts, the stat, status, statm, io, cmdline, smaps_rollup and cgroup of
// process 1, node0's meminfo, /proc/pressure/io, /proc/cpuinfo, cpu0's
// cpufreq/stats/time_in_state, /var/run/utmp, /proc/interrupts and
// /proc/softirqs, /proc/sys/fs/file-nr, /proc/locks, /proc/scsi/scsi,
// zram0's mm_stat, sda's wwid, /proc/net/rpc/nfsd and nfsd's pool files,
// /proc/buddyinfo, /proc/slabinfo, /proc/net/if_inet6 and eth0's address
// file; then a local context with both agents lists every instance domain
// and fetches every metric.
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "pmapi/context.h"
#include "pmapi/local.h"

namespace {

constexpr const char* kFiles[] = {
    "/proc/stat", "/proc/meminfo", "/proc/loadavg", "/proc/diskstats", "/proc/partitions",
    "/proc/net/dev", "/proc/vmstat", "/proc/net/snmp", "/proc/net/netstat", "/proc/net/snmp6",
    "/proc/net/sockstat", "/proc/zoneinfo", "/proc/net/softnet_stat", "/proc/net/tcp", "/proc/net/unix",
    "/proc/uptime", "/proc/mounts", "/proc/1/stat", "/proc/1/status", "/proc/1/statm", "/proc/1/io",
    "/proc/1/cmdline", "/proc/1/smaps_rollup", "/proc/1/cgroup", "/sys/devices/system/node/node0/meminfo",
    "/proc/pressure/io", "/proc/cpuinfo", "/sys/devices/system/cpu/cpu0/cpufreq/stats/time_in_state",
    "/var/run/utmp", "/proc/interrupts", "/proc/softirqs", "/proc/sys/fs/file-nr", "/proc/locks",
    "/proc/scsi/scsi", "/sys/block/zram0/mm_stat", "/sys/block/sda/device/wwid", "/proc/net/rpc/nfsd",
    "/proc/fs/nfsd/pool_threads", "/proc/fs/nfsd/pool_stats", "/proc/buddyinfo", "/proc/slabinfo",
    "/proc/net/if_inet6", "/sys/class/net/eth0/address",
};

const std::string& Root() {
  static const std::string root = [] {
    const std::string r = fuzz::ScratchDir() + "/root";
    for (const char* d : {"", "/proc", "/proc/net", "/proc/1", "/proc/pressure", "/sys", "/sys/devices", "/sys/devices/system",
                          "/sys/devices/system/node", "/sys/devices/system/node/node0", "/etc",
                          "/sys/devices/system/cpu", "/sys/devices/system/cpu/cpu0",
                          "/sys/devices/system/cpu/cpu0/cpufreq", "/sys/devices/system/cpu/cpu0/cpufreq/stats",
                          "/var", "/var/run", "/proc/sys", "/proc/sys/fs", "/proc/scsi", "/sys/block",
                          "/sys/block/zram0", "/sys/block/sda", "/sys/block/sda/device", "/proc/net/rpc",
                          "/proc/fs", "/proc/fs/nfsd", "/sys/class", "/sys/class/net", "/sys/class/net/eth0"})
      mkdir((r + d).c_str(), 0755);
    const std::string src = PMAPI_SOURCE_DIR;
    const std::string conf = "linux 60 builtin linux_init " + src + "/pmdas/linux pmns=" + src +
                             "/pmdas/linux/root_linux\nproc 3 builtin proc_init " + src +
                             "/pmdas/proc pmns=" + src + "/pmdas/proc/root_proc\n";
    fuzz::WriteFile(fuzz::ScratchDir() + "/pmcd.conf",
                    {reinterpret_cast<const uint8_t*>(conf.data()), conf.size()});
    setenv("LINUX_STATSPATH", r.c_str(), 1);
    setenv("LINUX_ACCESS", "1", 1);  // the super-user's values (slabinfo, serial ports) whoever runs it
    setenv("PROC_STATSPATH", r.c_str(), 1);
    return r;
  }();
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& root = Root();
  size_t start = 0, file = 0;
  for (; file < sizeof(kFiles) / sizeof(kFiles[0]); ++file) {
    size_t end = start;
    while (end < size && data[end] != 0x01) ++end;
    fuzz::WriteFile(root + kFiles[file], {data + std::min(start, size), std::min(end, size) - std::min(start, size)});
    start = end + 1;
  }
  pmapi::LocalOptions opts;
  opts.config_path = fuzz::ScratchDir() + "/pmcd.conf";
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenLocalContext(opts);
  if (!ctx.ok()) return 0;
  std::vector<pmapi::PmID> ids;
  for (const char* top : {"kernel", "mem", "swap", "disk", "network", "filesys", "hinv", "proc"}) {
    (void)ctx->Traverse(top, [&](const std::string& n) {
      absl::StatusOr<pmapi::PmID> id = ctx->LookupName(n);
      if (id.ok()) ids.push_back(*id);
    });
  }
  uint64_t h = 0;
  for (pmapi::PmID id : ids) {
    absl::StatusOr<pmapi::Desc> d = ctx->LookupDesc(id);
    if (d.ok() && d->indom != pmapi::kInDomNull) {
      absl::StatusOr<std::vector<pmapi::Instance>> insts = ctx->GetInDom(d->indom);
      if (insts.ok()) {
        for (const pmapi::Instance& i : *insts) h += fuzz::Digest(i.name);
      }
    }
  }
  absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
  if (r.ok()) h += fuzz::Digest(*r);
  fuzz::Consume(h);
  return 0;
}
