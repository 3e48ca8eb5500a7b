// linux_state.h: what the built-in Linux agent has read for one context,
// the sources it reads it from, and the family functions that refresh a
// source and turn it into values (cpu.cc, mem.cc, disk.cc, net.cc,
// net_proto.cc, filesys.cc).
//
// A fetch works out which sources its metrics need (SourcesOf), refreshes
// each once (RefreshSource), then asks each metric's family for the value
// of each instance (the Fetch* functions). Fetch functions return 1 for a
// value, 0 for no value, or a PCP error code, as a PMDA fetch callback does.
#ifndef PMAPI_PMDAS_LINUX_LINUX_STATE_H_
#define PMAPI_PMDAS_LINUX_LINUX_STATE_H_

#include <sys/utsname.h>

#include <array>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "pmapi/pmda.h"
#include "pmdas/common/cache_indom.h"
#include "pmdas/common/metric_table.h"
#include "pmdas/linux/proc_stats.h"

namespace pmapi::linux_agent {

using agent_tables::MetricRow;
namespace ls = linux_stats;

// PCP's instance domain serials for the linux agent.
enum Indom : unsigned {
  kCpuIndom = 0, kDiskIndom = 1, kLoadIndom = 2, kNetIndom = 3, kFilesysIndom = 5,
  kPartitionsIndom = 10, kNetAddrIndom = 17, kNodeIndom = 19, kIcmpMsgIndom = 23, kDmIndom = 24,
  kMdIndom = 25, kSlabIndom = 12, kBuddyIndom = 31, kZoneIndom = 32, kZoneProtectionIndom = 33, kPressureIndom = 37,
  kInterruptIndom = 4, kSoftirqIndom = 36, kInterruptCpuIndom = 40, kSoftirqCpuIndom = 41,
  kTtyIndom = 35, kScsiIndom = 11, kZramIndom = 38, kWwidIndom = 42,
  kNfsIndom = 7, kNfs3Indom = 8, kNfs4ClientIndom = 14, kNfs4ServerIndom = 15,
  kTapeIndom = 34, kFchostIndom = 39,
};

// Sources, one bit each.
constexpr uint64_t Bit(unsigned n) { return uint64_t{1} << n; }
enum Source : uint64_t {
  kSrcStat = Bit(0), kSrcDiskstats = Bit(1), kSrcVmstat = Bit(2), kSrcMeminfo = Bit(3),
  kSrcLoadavg = Bit(4), kSrcNetDev = Bit(5), kSrcMounts = Bit(6), kSrcUname = Bit(7),
  kSrcUptime = Bit(8), kSrcSnmp = Bit(9), kSrcSockstat = Bit(10), kSrcSysKernel = Bit(11),
  kSrcNodes = Bit(12), kSrcNetAddr = Bit(13), kSrcNuma = Bit(14), kSrcBuddyinfo = Bit(15),
  // parts of a source read only for the metrics that need them
  kSrcNetSettings = Bit(16), kSrcDiskSizes = Bit(17), kSrcDistro = Bit(18),
  // sockets (net_sock.cc)
  kSrcTcp = Bit(19), kSrcTcp6 = Bit(20), kSrcUdp = Bit(21), kSrcRaw = Bit(22), kSrcUnix = Bit(23),
  kSrcSoftnet = Bit(24), kSrcZoneinfo = Bit(25), kSrcPressure = Bit(26), kSrcKsm = Bit(27),
  // the three load averages alone (kernel.all.load), without the rest of
  // /proc/loadavg
  kSrcLoadAverages = Bit(28),
  kSrcCpuinfo = Bit(29), kSrcLogin = Bit(30),
  kSrcInterrupts = Bit(31),  // /proc/interrupts and /proc/softirqs
  // the interface address table (kSrcNetAddr: made empty) and its parts
  kSrcNetAddrHw = Bit(32), kSrcNetAddrInet = Bit(33), kSrcNetAddrIpv6 = Bit(34),
};
using Sources = uint64_t;  // a set of Source bits

// Instance numbers handed out in order of first sight and kept for the
// agent's life, as PCP's instance cache does.
class InstanceNumbers {
 public:
  Inst For(const std::string& name) {
    auto [it, added] = ids_.try_emplace(name, next_);
    if (added) ++next_;
    return Inst{it->second};
  }

 private:
  absl::flat_hash_map<std::string, int32_t> ids_;
  int32_t next_ = 0;
};

struct Disk {
  Inst inst{};
  ls::DiskStat s;
  std::string name;  // instance name where it is not the kernel's (dm, md)
  std::string wwid;  // disks: hinv.map.scsi_id as the last refresh read it
};

struct NetIf {
  Inst inst{};
  ls::NetDev s;
  // settings, from /sys/class/net/NAME or the interface ioctls
  uint32_t mtu = 0, speed = 0, type = 0, duplex = 0;
  bool up = false, running = false, wireless = false, is_virtual = false;
};

// One interface's addresses as the last refresh found them (net_addr.cc).
struct NetAddr {
  bool has_inet = false, has_ipv6 = false, has_hw = false;
  uint16_t ipv6_scope = 0;  // the scope field of /proc/net/if_inet6
  std::string inet, ipv6, hw;  // ipv6 as "ADDRESS/PREFIX"
};

struct Filesys {
  Inst inst{};
  std::string device, dir;
  uint64_t blocks = 0, bfree = 0, bavail = 0, files = 0, ffree = 0, bsize = 0;  // statfs
  bool readonly = false;
};

// A memory zone of /proc/zoneinfo ("Normal::node0"), a node's own
// statistics ("node0"), or a zone's protection entry.
// One instance of mem.buddyinfo: free blocks of one order in one zone.
struct Buddy {
  std::string node, zone;
  unsigned order = 0;
  uint64_t value = 0;
  std::string name;  // "ZONE::orderN::NODE"
};

// One kernel slab cache of /proc/slabinfo (slabinfo.cc).
struct SlabCache {
  unsigned seen = 0;  // the format its values came from: major * 10 + minor
  uint64_t active_objs = 0, total_objs = 0, total_size = 0;  // total_size in bytes
  uint32_t object_size = 0, active_slabs = 0, total_slabs = 0, pages_per_slab = 0, objects_per_slab = 0;
};
struct Slabinfo {
  agent_cache::CacheIndom<SlabCache> caches;
  int major = -1, minor = 0;  // the format version, fixed by the first header read
  bool permission = false;    // the last refresh was for the super-user (or LINUX_ACCESS)
};

struct Zone {
  Inst inst{};
  std::string name;
  absl::flat_hash_map<std::string, uint64_t> values;  // pages
  bool listed = true;  // zones with no pages present are not
  unsigned node = 0;
};

struct PressureLine {
  bool valid = false;
  float avg[3] = {0, 0, 0};  // 10 s, 1 min, 5 min
  uint64_t total = 0;        // microseconds
};
struct Pressure {
  PressureLine some, full;
};

struct Node {
  int32_t num = 0;
  std::vector<int> cpus;
  std::vector<std::pair<std::string, uint64_t>> meminfo_lines;
  absl::flat_hash_map<std::string, uint64_t> numastat;
  uint64_t huge_total = 0, huge_free = 0, huge_surp = 0;  // pages of the default size
  bool have_huge = false;
};

// /proc/interrupts or /proc/softirqs as last read (interrupts.cc).
struct IrqTable {
  struct Line {
    Inst inst{};
    uint64_t total = 0;  // over the processors
    std::string name;
  };
  struct Cell {  // one line's count on one processor ("NAME::cpuN")
    Inst inst{};
    uint32_t value = 0;
    std::string name;
  };
  std::vector<Line> lines;
  std::vector<Cell> percpu;
  std::vector<int32_t> line_at, cell_at;  // positions in lines and percpu by instance number
  std::vector<unsigned> cpus;             // the processor of each header column
  std::vector<uint64_t> sums;             // by processor, over the lines
};

// One processor's lines of /proc/cpuinfo (cpuinfo.cc).
struct CpuInfo {
  std::optional<std::string> vendor, model, model_name, stepping, flags;
  bool sapic = false;
  uint32_t cache = 0, cache_align = 0;  // kilobytes, bytes
  float bogomips = 0, clock = 0;         // clock in MHz
};

// One serial port of /proc/tty/driver/serial (tty.cc).
struct TtyPort {
  std::string name;  // the port number as the file writes it
  bool active = false;
  uint32_t tx = 0, rx = 0, frame = 0, parity = 0, brk = 0, overrun = 0, irq = 0;
};

// /proc/net/softnet_stat: the kept columns per processor, and which
// metrics the last line read supports.
enum SoftnetFlag : uint32_t {
  kSoftnetBasic = 1, kSoftnetRps = 2, kSoftnetFlowLimit = 4, kSoftnetBacklog = 8,
};
struct Softnet {
  absl::flat_hash_map<int, std::array<uint64_t, 6>> percpu;  // by processor
  std::array<uint64_t, 6> all{};  // sums over the lines of the last read
  uint32_t flags = 0;
  int logonce = 0;  // PCP's agent's limit on repeated warnings
};

// NFS and RPC statistics as last read (rpc.cc): request counts per
// operation, and the other figures of each file.
inline constexpr size_t kRpc2Ops = 18, kRpc3Ops = 22, kRpc4ClientOps = 56, kRpc4ServerOps = 71;
struct RpcStats {
  struct Client {
    bool ok = false;  // /proc/net/rpc/nfs was read
    uint32_t net[4] = {}, rpc[3] = {};
    uint32_t req2[kRpc2Ops] = {}, req3[kRpc3Ops] = {}, req4[kRpc4ClientOps] = {};
  } client;
  struct Server {
    bool ok = false;  // /proc/net/rpc/nfsd was read
    uint32_t rchits = 0, rcmisses = 0, rcnocache = 0, fh_cached = 0, fh_valid = 0, fh_fixup = 0;
    uint32_t fh_lookup = 0, fh_stale = 0, fh_concurrent = 0, fh_anon = 0, fh_nocache_dir = 0;
    uint32_t fh_nocache_nondir = 0, io_read = 0, io_write = 0, th_cnt = 0, th_fullcnt = 0;
    uint32_t ra_size = 0, ra_hits = 0, ra_misses = 0;
    uint32_t net[4] = {}, rpc[5] = {};
    uint32_t req2[kRpc2Ops] = {}, req3[kRpc3Ops] = {};
    uint32_t req4[kRpc4ServerOps + 1] = {};  // [0] is the NULL operation's
  } server;
  struct Threads {
    bool ok = false;  // /proc/fs/nfsd read without error
    uint32_t total = 0, pools = 0;
    uint64_t sums[4] = {};  // packets arrived, sockets enqueued, threads woken, timed out
  } threads;
  bool nfsd_warned = false;
};

// bandwidth.conf as last read (bandwidth.cc).
struct Bandwidth {
  std::string path;
  time_t last_mtime = 0;
  int last_errno = 0;
  absl::flat_hash_map<int, double> by_node;  // mem.numa.max_bandwidth
};

// A SCSI device of hinv.map.scsi: its instance name and block device.
struct ScsiDevice {
  std::string name, device;
};

// A tape drive (tape.dev) or Fibre Channel host (fchost) and its
// counters by PMID item (tape_fchost.cc).
inline constexpr size_t kTapeCounters = 10, kFchostCounters = 8;
struct StatsDevice {
  Inst inst{};
  std::string name;
  std::array<uint64_t, kTapeCounters> counts{};  // fchost uses the first kFchostCounters
};

// Locks of one kind in /proc/locks (vfs.locks.*).
struct LockCount {
  uint32_t read = 0, write = 0, count = 0;
};
struct VfsLocks {
  LockCount posix, flock, lease;
};

struct LinuxState {
  std::string root;  // LINUX_STATSPATH
  uint64_t hz = 100;        // LINUX_HERTZ
  uint32_t pagesize = 4096;  // LINUX_PAGESIZE, cut to its lowest set bit as PCP's agent's shift does
  unsigned PageShift() const { return static_cast<unsigned>(__builtin_ctz(pagesize)); }
  bool all_access = false;  // LINUX_ACCESS: the super-user's values for anyone
  std::string home;  // the agent's directory
  std::string mdadm = "/sbin/mdadm";  // LINUX_MDADM: the program disk.md.status runs
  // Whether the caller may see the serial ports' values (the super-user,
  // or all_access), as the last tty refresh found.
  bool tty_permission = false;
  std::vector<TtyPort> ttys;  // instance number = position, kept for good
  ls::StatInfo stat;
  absl::flat_hash_map<std::string, uint64_t> meminfo, vmstat;
  std::optional<ls::LoadAvg> load;
  // Whether /proc/loadavg is the kernel's own (procfs, not a file mounted
  // over it), so its load averages can be had from sysinfo(2); -1 until
  // looked at.
  int kernel_loadavg = -1;
  std::vector<Disk> disks, partitions, dms, mds, zrams;
  std::vector<PmdaInstid> wwids;  // disk.wwid instances: the disks' WWIDs
  absl::flat_hash_map<std::string, uint64_t> sizes;  // /proc/partitions, kilobytes
  std::vector<NetIf> nets;
  agent_cache::CacheIndom<NetAddr> addrs;  // by interface name, as PCP's pmdaCache keeps them
  std::vector<Filesys> filesys;
  std::vector<Node> nodes;
  // Which processors belong to which node, read once (as PCP's agent reads
  // it once): the nodes of /sys/devices/system/node and their cpuN
  // entries, or one node0 holding every configured processor where that
  // directory cannot be read. Only these processors are listed.
  struct Topology {
    std::vector<std::pair<int, std::vector<int>>> nodes;  // node number, its processors
    absl::flat_hash_set<int> cpus;  // processors of some node
    size_t known = 0;               // configured processors and node processors together
  };
  std::optional<Topology> topology;
  std::vector<Zone> zones, protection;
  // /proc/buddyinfo: orders per zone (fixed by the first read; -2 before
  // it, -1 when it failed), and every zone::order::node seen, in order
  std::vector<Buddy> buddys;
  int buddy_orders = -2;
  Slabinfo slab;
  std::map<unsigned, Pressure> pressure;  // by cluster (83 cpu, 84 memory, 85 io, 93 irq)
  // mem.ksm.* in item order; kept from one read to the next, as PCP's
  // agent keeps them (zero until a file gives a value)
  std::array<uint64_t, 9> ksm{};
  struct utsname uts {};
  bool have_uts = false;
  std::string distro;
  std::optional<double> uptime, idletime;
  // "Section.Field" of /proc/net/snmp and netstat, "Field" of snmp6
  absl::flat_hash_map<std::string, uint64_t> snmp;
  bool snmp6_read = false;  // /proc/net/snmp6 was read and was not empty
  std::map<int, std::pair<uint64_t, uint64_t>> icmpmsg;  // type -> in, out (all ones: none)
  absl::flat_hash_map<std::string, uint64_t> sockstat;   // "TCP.inuse", "TCP6.inuse"
  std::optional<std::array<uint32_t, 12>> tcp, tcp6;
  std::optional<std::array<uint32_t, 2>> udp, udp6;
  std::optional<uint32_t> raw, raw6;
  std::optional<std::array<uint32_t, 4>> unix_sockets;
  Softnet softnet;
  std::optional<uint32_t> entropy_avail, poolsize, pid_max, nptys;
  std::vector<StatsDevice> tapes, fchosts;  // as the last refresh found them
  std::array<int32_t, 9> vfs{};  // vfs.files/inodes/dentry/aio, by PMID item
  bool vfs_refreshed = false;    // the warning for missing files is given once
  VfsLocks locks;
  Bandwidth bandwidth;
  RpcStats rpc;
  std::vector<ScsiDevice> scsi;  // instance number = position, kept for good
  std::vector<CpuInfo> cpuinfo;  // by processor number
  IrqTable irq, sirq;
  uint32_t irq_errors = 0, irq_missed = 0;  // the ERR and MIS lines last seen
  struct {
    uint32_t nusers = 0, nroots = 0, nsessions = 0;
  } login;
  InstanceNumbers tape_ids, fchost_ids;
  InstanceNumbers irq_ids, irq_cpu_ids, sirq_ids, sirq_cpu_ids;
  InstanceNumbers disk_ids, part_ids, dm_ids, md_ids, zram_ids, wwid_ids, net_ids, fs_ids, zone_ids, prot_ids;
};

// Contents of root + path, "" when it cannot be read.
std::string ReadText(const LinuxState& st, std::string_view path);
// The first number in root + path.
std::optional<int64_t> ReadNumber(const LinuxState& st, std::string_view path);

// Sets an indom's instance table.
void SetInstances(Pmda& pmda, unsigned serial, std::vector<PmdaInstid> set);

// Sources the metric's value is made from.
Sources SourcesOf(const MetricRow& row);
// Source that lists the instances of an indom serial (0 for static ones).
Sources SourceOfIndom(unsigned serial);

// Processors configured (sysconf), or LINUX_NCPUS in tests, as for PCP's
// agent; at least 1.
size_t ConfiguredCpus();
void RefreshCpu(LinuxState& st, Sources sources, Pmda& pmda);    // stat uptime loadavg uname syskernel nodes hinv
void RefreshMem(LinuxState& st, Sources sources, Pmda& pmda);    // meminfo vmstat numa
void RefreshPressureKsm(LinuxState& st, Sources sources, const std::vector<unsigned>& clusters);
int FetchPressureKsm(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
void RefreshZoneinfo(LinuxState& st, Pmda& pmda);                 // zoneinfo
void RefreshBuddyinfo(LinuxState& st, Pmda& pmda);                // buddyinfo
void RefreshSlabinfo(LinuxState& st, Pmda& pmda);                 // slabinfo
// The caches of /proc/slabinfo's text in file order, up to the first line
// that does not fit the format version; the version is read from the
// header only while *major < 0 (the agent keeps the first it reads).
std::vector<std::pair<std::string, SlabCache>> ParseSlabinfo(std::string_view text, int* major, int* minor,
                                                             unsigned pageshift);
int FetchSlabinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchBuddyinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchZoneinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
void RefreshDisk(LinuxState& st, Sources sources, Pmda& pmda);   // diskstats
void RefreshNet(LinuxState& st, Sources sources, Pmda& pmda);    // netdev
void RefreshNetAddr(LinuxState& st, Sources sources, Pmda& pmda);  // interface addresses
// One line of /proc/net/if_inet6 as PCP's fscanf format reads it: the
// device, and its address ("ADDRESS/PREFIX", empty when the digits are no
// address) and scope field.
struct Inet6Entry {
  std::string dev, address;
  uint16_t scope = 0;
};
std::vector<Inet6Entry> ParseIfInet6(std::string_view text);
int FetchNetAddr(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
void RefreshProto(LinuxState& st, Sources sources, Pmda& pmda);  // snmp sockstat
void RefreshFilesys(LinuxState& st, Pmda& pmda);                  // mounts
Sources SockSourceOf(unsigned cluster);
void RefreshSock(LinuxState& st, Sources sources);              // sockets, softnet

int FetchCpu(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
void RefreshInterrupts(LinuxState& st, Pmda& pmda);              // interrupts softirqs
int FetchInterrupts(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
void RefreshLogin(LinuxState& st);                                // utmp
void RefreshTty(LinuxState& st, Pmda& pmda);                      // tty/driver/serial
void RefreshVfs(LinuxState& st);                                  // sys/fs
void RefreshLocks(LinuxState& st);                                // locks
int FetchVfs(const LinuxState& st, const MetricRow& r, AtomValue* atom);
void RefreshRpc(LinuxState& st);                                  // net/rpc, fs/nfsd
int FetchRpc(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
std::vector<PmdaIndom> RpcIndoms();  // the four request instance domains
void RefreshBandwidth(LinuxState& st);                            // bandwidth.conf
int BandwidthValue(const LinuxState& st, int node, AtomValue* atom);
void RefreshScsi(LinuxState& st, Pmda& pmda);                     // scsi/scsi
int FetchScsi(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
// hinv.map.scsi_id of a disk: its WWID, or "unknown".
std::string ScsiId(const LinuxState& st, const std::string& device);
void RefreshTape(LinuxState& st, Pmda& pmda);                     // sys/class/scsi_tape
void RefreshFchost(LinuxState& st, Pmda& pmda);                   // sys/class/fc_host
// tape.dev.*, hinv.ntape (cluster 71), fchost.*, hinv.nfchost (cluster 91)
int FetchTapeFchost(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchTty(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchLogin(const LinuxState& st, const MetricRow& r, AtomValue* atom);
void RefreshCpuinfo(LinuxState& st);                              // cpuinfo (after stat)
// hinv.cpu: cluster 18 (but hinv.machine and hinv.map) and 55 (but hinv.node.online)
int FetchCpuinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchMem(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchDisk(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchNet(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchProto(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchSock(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);
int FetchFilesys(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom);

// Returns the element of `list` whose inst is `inst`, or null.
template <typename T>
const T* ByInst(const std::vector<T>& list, Inst inst) {
  for (const T& e : list) {
    if (e.inst == inst) return &e;
  }
  return nullptr;
}

}  // namespace pmapi::linux_agent

#endif  // PMAPI_PMDAS_LINUX_LINUX_STATE_H_
