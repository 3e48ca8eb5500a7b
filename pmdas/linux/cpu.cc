// The kernel.*, hinv.* (but memory, file systems, tapes and Fibre Channel
// hosts) and swap.in/out
// metrics of the Linux agent: /proc/stat, /proc/loadavg, /proc/uptime,
// uname(2), /proc/sys/kernel and /sys/devices/system/node.
#include <dirent.h>
#include <unistd.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// Names in a directory below the root that start with `prefix` followed by
// a number, as those numbers, sorted.
std::vector<int> NumberedEntries(const LinuxState& st, const std::string& dir, absl::string_view prefix) {
  std::vector<int> out;
  DIR* d = opendir((st.root + dir).c_str());
  if (d == nullptr) return out;
  while (struct dirent* e = readdir(d)) {
    absl::string_view name(e->d_name);
    int n;
    if (absl::ConsumePrefix(&name, prefix) && absl::SimpleAtoi(name, &n) && n >= 0) out.push_back(n);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
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


const LinuxState::Topology& Topology(LinuxState& st) {
  if (st.topology) return *st.topology;
  LinuxState::Topology t;
  const std::string base = "/sys/devices/system/node";
  const size_t configured = ConfiguredCpus();
  absl::flat_hash_set<int> known;
  for (size_t c = 0; c < configured; ++c) known.insert(static_cast<int>(c));
  // LINUX_NNODES (any value) puts every configured processor in node0, as
  // when the node directory cannot be read (PCP's agent's test setting)
  DIR* d = std::getenv("LINUX_NNODES") != nullptr ? nullptr : opendir((st.root + base).c_str());
  if (d == nullptr) {
    std::vector<int> all;
    for (size_t c = 0; c < configured; ++c) all.push_back(static_cast<int>(c));
    t.nodes.emplace_back(0, std::move(all));
  } else {
    closedir(d);
    for (int n : NumberedEntries(st, base, "node")) {
      t.nodes.emplace_back(n, NumberedEntries(st, absl::StrCat(base, "/node", n), "cpu"));
    }
  }
  for (const auto& [node, cpus] : t.nodes) {
    for (int c : cpus) {
      t.cpus.insert(c);
      known.insert(c);
    }
  }
  t.known = known.size();
  st.topology = std::move(t);
  return *st.topology;
}

void RefreshNodes(LinuxState& st, Pmda& pmda) {
  std::vector<Node> nodes;
  for (const auto& [n, cpus] : Topology(st).nodes) {
    Node node;
    node.num = n;
    node.cpus = cpus;
    // keep what the memory family read for this node
    for (Node& old : st.nodes) {
      if (old.num == n) {
        node.meminfo_lines = std::move(old.meminfo_lines);
        node.numastat = std::move(old.numastat);
        node.huge_total = old.huge_total, node.huge_free = old.huge_free, node.huge_surp = old.huge_surp;
        node.have_huge = old.have_huge;
      }
    }
    nodes.push_back(std::move(node));
  }
  st.nodes = std::move(nodes);
  std::vector<PmdaInstid> set;
  for (const Node& n : st.nodes) set.push_back({Inst{n.num}, absl::StrCat("node", n.num)});
  SetInstances(pmda, kNodeIndom, std::move(set));
}

void RefreshStat(LinuxState& st, Pmda& pmda) {
  st.stat = ls::ParseStat(ReadText(st, "/proc/stat"));
  // only processors of some node are listed; a single known processor
  // takes the totals, as in PCP's agent
  const LinuxState::Topology& topo = Topology(st);
  if (topo.known == 1) {
    st.stat.cpus.assign(1, {0, st.stat.all});
  } else {
    std::erase_if(st.stat.cpus, [&](const auto& c) { return !topo.cpus.contains(c.first); });
  }
  std::vector<PmdaInstid> set;
  for (const auto& c : st.stat.cpus) set.push_back({Inst{c.first}, absl::StrCat("cpu", c.first)});
  SetInstances(pmda, kCpuIndom, std::move(set));
}

void RefreshUptime(LinuxState& st) {
  st.uptime.reset();
  st.idletime.reset();
  std::vector<std::string> f = absl::StrSplit(ReadText(st, "/proc/uptime"), absl::ByAnyChar(" \n"), absl::SkipEmpty());
  double up, idle;
  if (f.size() >= 2 && absl::SimpleAtod(f[0], &up) && absl::SimpleAtod(f[1], &idle)) {
    st.uptime = up;
    st.idletime = idle;
  }
}

std::optional<uint32_t> U32File(const LinuxState& st, std::string_view path) {
  std::optional<int64_t> v = ReadNumber(st, path);
  if (!v) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

// Milliseconds from clock ticks.
uint64_t Msec(const LinuxState& st, uint64_t ticks) { return ticks * 1000 / st.hz; }

// The CPU time field of an item of kernel.all.cpu (20..), kernel.percpu.cpu
// (0..) or kernel.pernode.cpu (62..); false for other items.
bool CpuTime(unsigned item, const ls::CpuTimes& t, uint64_t* v) {
  switch (item) {
    case 0: case 20: case 62: *v = t.user; return true;
    case 1: case 21: case 63: *v = t.nice; return true;
    case 2: case 22: case 64: *v = t.sys; return true;
    case 3: case 23: case 65: *v = t.idle; return true;
    case 30: case 35: case 69: *v = t.iowait; return true;
    case 31: case 34: case 66: *v = t.irq + t.softirq; return true;
    case 56: case 53: case 70: *v = t.softirq; return true;
    case 57: case 54: case 71: *v = t.irq; return true;
    case 58: case 55: case 67: *v = t.steal; return true;
    case 61: case 60: case 68: *v = t.guest; return true;
    case 76: case 78: case 77: *v = t.user >= t.guest ? t.user - t.guest : 0; return true;
    case 83: case 81: case 85: *v = t.guest_nice; return true;
    case 84: case 82: case 86: *v = t.nice >= t.guest_nice ? t.nice - t.guest_nice : 0; return true;
  }
  return false;
}

bool IsPercpu(unsigned item) {
  switch (item) {
    case 0: case 1: case 2: case 3: case 30: case 31: case 56: case 57: case 58: case 61: case 76: case 83: case 84:
      return true;
  }
  return false;
}

bool IsPernode(unsigned item) { return (item >= 62 && item <= 71) || item == 77 || item == 85 || item == 86; }

int U64Opt(const std::optional<uint64_t>& v, AtomValue* atom) {
  if (!v) return 0;
  atom->ull = *v;
  return 1;
}

int U32Opt(const std::optional<uint32_t>& v, AtomValue* atom) {
  if (!v) return 0;
  atom->ul = *v;
  return 1;
}

int StatValue(const LinuxState& st, unsigned item, Inst inst, AtomValue* atom) {
  uint64_t v = 0;
  if (IsPercpu(item)) {
    for (const auto& c : st.stat.cpus) {
      if (Inst{c.first} == inst) return CpuTime(item, c.second, &v) ? (atom->ull = Msec(st, v), 1) : 0;
    }
    return kErrInst;
  }
  if (IsPernode(item)) {
    for (const Node& n : st.nodes) {
      if (Inst{n.num} != inst) continue;
      uint64_t sum = 0;
      for (const auto& c : st.stat.cpus) {
        if (std::find(n.cpus.begin(), n.cpus.end(), c.first) != n.cpus.end() && CpuTime(item, c.second, &v)) sum += v;
      }
      atom->ull = Msec(st, sum);
      return 1;
    }
    return kErrInst;
  }
  if (CpuTime(item, st.stat.all, &v)) return st.stat.have_all ? (atom->ull = Msec(st, v), 1) : 0;
  switch (item) {
    case 12: return U64Opt(st.stat.intr, atom);
    case 13: return U64Opt(st.stat.ctxt, atom);
    case 14: return U64Opt(st.stat.processes, atom);
    case 15: return U64Opt(st.stat.running, atom);
    case 16: return U64Opt(st.stat.blocked, atom);
    case 17: return st.stat.btime ? (atom->ll = *st.stat.btime, 1) : 0;
    case 48: atom->ul = static_cast<uint32_t>(st.hz); return 1;
    case 32: atom->ul = static_cast<uint32_t>(st.stat.cpus.size()); return 1;
    case 19: atom->ul = static_cast<uint32_t>(st.nodes.size()); return 1;
    case 8: case 9: {
      auto it = st.vmstat.find(item == 8 ? "pswpin" : "pswpout");
      if (it == st.vmstat.end()) return 0;
      atom->ul = static_cast<uint32_t>(it->second);
      return 1;
    }
    case 10: return st.stat.swap_in ? (atom->ul = *st.stat.swap_in, 1) : kErrAppversion;
    case 11: return st.stat.swap_out ? (atom->ul = *st.stat.swap_out, 1) : kErrAppversion;
  }
  return kErrPmid;
}

int LoadValue(const LinuxState& st, unsigned item, Inst inst, AtomValue* atom) {
  if (!st.load) return 0;
  switch (item) {
    case 0:
      if (inst == Inst{1}) return (atom->f = st.load->avg[0], 1);
      if (inst == Inst{5}) return (atom->f = st.load->avg[1], 1);
      if (inst == Inst{15}) return (atom->f = st.load->avg[2], 1);
      return kErrInst;
    case 1: atom->ul = st.load->lastpid; return 1;
    case 2: atom->ul = st.load->running; return 1;
    case 3: atom->ul = st.load->total; return 1;
  }
  return kErrPmid;
}

int UnameValue(const LinuxState& st, unsigned cluster, unsigned item, AtomValue* atom) {
  if (!st.have_uts) return 0;
  if (cluster == 18) return item == 7 ? (atom->bytes = st.uts.machine, 1) : kErrPmid;
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

// The load averages as /proc/loadavg prints them, from sysinfo(2): one
// system call where the file takes three (the kept descriptor's check and
// two reads). sysinfo gives the kernel's fixed-point averages (11 bits of
// fraction) shifted left by 5; the file adds 1/200 and prints two decimals
// of each, and the same text is made here and parsed as the file's is.
std::optional<ls::LoadAvg> LoadFromSysinfo() {
  struct sysinfo si {};
  if (sysinfo(&si) != 0) return std::nullopt;
  char text[128];
  char* p = text;
  char* const end = text + sizeof(text);
  for (unsigned long load : si.loads) {
    const unsigned long a = (load >> 5) + 2048 / 200;
    const unsigned long frac = ((a & 2047) * 100) >> 11;
    p = std::to_chars(p, end, a >> 11).ptr;
    *p++ = '.';
    *p++ = static_cast<char>('0' + frac / 10);
    *p++ = static_cast<char>('0' + frac % 10);
    *p++ = ' ';
  }
  return ls::ParseLoadavg(std::string_view(text, static_cast<size_t>(p - text)));
}

// Whether sysinfo(2) gives what /proc/loadavg would: no made-up tree, and
// the file is procfs's own (a container's file system in user space may
// put its own load over it).
bool KernelLoadavg(LinuxState& st) {
  if (st.kernel_loadavg < 0) {
    struct statfs fs {};
    st.kernel_loadavg = st.root.empty() && statfs("/proc/loadavg", &fs) == 0 && fs.f_type == 0x9fa0;  // PROC_SUPER_MAGIC
  }
  return st.kernel_loadavg == 1;
}

}  // namespace

size_t ConfiguredCpus() {
  const char* env = std::getenv("LINUX_NCPUS");
  const long conf = env != nullptr ? std::atol(env) : sysconf(_SC_NPROCESSORS_CONF);
  return conf > 0 ? static_cast<size_t>(conf) : 1;
}

void RefreshCpu(LinuxState& st, Sources sources, Pmda& pmda) {
  if (sources & kSrcStat) RefreshStat(st, pmda);
  if (sources & kSrcNodes) RefreshNodes(st, pmda);
  if (sources & kSrcLoadavg) {
    st.load = ls::ParseLoadavg(ReadText(st, "/proc/loadavg"));
  } else if (sources & kSrcLoadAverages) {
    st.load = KernelLoadavg(st) ? LoadFromSysinfo() : ls::ParseLoadavg(ReadText(st, "/proc/loadavg"));
  }
  if (sources & kSrcUptime) RefreshUptime(st);
  if (sources & kSrcUname) {
    st.have_uts = uname(&st.uts) == 0;
    if (sources & kSrcDistro) st.distro = Distro(st);
  }
  if (sources & kSrcSysKernel) {
    st.entropy_avail = U32File(st, "/proc/sys/kernel/random/entropy_avail");
    st.poolsize = U32File(st, "/proc/sys/kernel/random/poolsize");
    st.pid_max = U32File(st, "/proc/sys/kernel/pid_max");
    st.nptys = U32File(st, "/proc/sys/kernel/pty/nr");
  }
}

int FetchCpu(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  switch (r.cluster) {
    case 0: return StatValue(st, r.item, inst, atom);
    case 2: return LoadValue(st, r.item, inst, atom);
    case 18:
      if (r.item == 6 || r.item == 8) {  // hinv.map.cpu_num, hinv.map.cpu_node
        for (const auto& c : st.stat.cpus) {
          if (Inst{c.first} != inst) continue;
          if (r.item == 6) return (atom->ul = static_cast<uint32_t>(c.first), 1);
          for (const Node& n : st.nodes) {
            if (std::find(n.cpus.begin(), n.cpus.end(), c.first) != n.cpus.end())
              return (atom->ul = static_cast<uint32_t>(n.num), 1);
          }
          return (atom->ul = 0, 1);
        }
        return kErrInst;
      }
      return UnameValue(st, r.cluster, r.item, atom);
    case 12: return UnameValue(st, r.cluster, r.item, atom);
    case 26:
      if (!st.uptime) return 0;
      atom->d = r.item == 0 ? *st.uptime : *st.idletime;
      return 1;
    case 55:
      for (const Node& n : st.nodes) {
        if (Inst{n.num} != inst) continue;
        std::optional<int64_t> on = ReadNumber(st, absl::StrCat("/sys/devices/system/node/node", n.num, "/online"));
        atom->ul = on ? static_cast<uint32_t>(*on) : 1;
        return 1;
      }
      return kErrInst;
    case 72:
      switch (r.item) {
        case 0: return U32Opt(st.entropy_avail, atom);
        case 1: return U32Opt(st.poolsize, atom);
        case 2: return U32Opt(st.pid_max, atom);
        case 3: return U32Opt(st.nptys, atom);
      }
      return kErrPmid;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
