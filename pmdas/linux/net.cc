// The network.interface, network.all and hinv.ninterface metrics of the
// Linux agent: /proc/net/dev for the counters; the interface settings
// from /sys/class/net/NAME, or, where sysfs cannot say, from the
// interface ioctls, in PCP's order.
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// network.all leaves out loopback, bonding, teaming and "face"
// interfaces, as PCP's default pattern ^(lo|bond[0-9]+|team[0-9]+|face)$ does.
bool Aggregated(absl::string_view name) {
  if (name == "lo" || name == "face") return false;
  for (absl::string_view prefix : {"bond", "team"}) {
    if (!absl::StartsWith(name, prefix) || name.size() == prefix.size()) continue;
    bool digits = true;
    for (char c : name.substr(prefix.size())) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) return false;
  }
  return true;
}

std::optional<std::string> Word(const LinuxState& st, const std::string& path) {
  std::optional<std::string> t = ls::ReadProcFile(st.root, path);
  if (!t) return std::nullopt;
  size_t b = 0;
  while (b < t->size() && std::isspace(static_cast<unsigned char>((*t)[b]))) ++b;
  size_t e = b;
  while (e < t->size() && !std::isspace(static_cast<unsigned char>((*t)[e]))) ++e;
  if (e == b) return std::nullopt;
  return t->substr(b, e - b);
}

bool Exists(const LinuxState& st, const std::string& path) { return access((st.root + path).c_str(), F_OK) == 0; }

// The settings from sysfs; false when a file PCP needs is missing, and
// the ioctls are then asked instead (for every interface).
bool SettingsFromSysfs(const LinuxState& st, NetIf& n) {
  const std::string dir = "/sys/class/net/" + n.s.name;
  std::optional<std::string> speed = Word(st, dir + "/speed"), mtu = Word(st, dir + "/mtu"),
                             flags = Word(st, dir + "/flags"), type = Word(st, dir + "/type");
  if (!speed || !mtu || !flags || !type) return false;
  n.speed = static_cast<uint32_t>(std::atoi(speed->c_str()));
  n.mtu = static_cast<uint32_t>(std::atoi(mtu->c_str()));
  const unsigned long f = std::strtoul(flags->c_str(), nullptr, 16);
  n.up = (f & IFF_UP) != 0;
  n.running = (f & IFF_RUNNING) != 0;
  std::optional<std::string> duplex = Word(st, dir + "/duplex");
  n.duplex = !duplex ? 0 : *duplex == "half" ? 1 : *duplex == "full" ? 2 : 0;
  n.wireless = Exists(st, dir + "/wireless");
  n.type = static_cast<uint32_t>(std::atoi(type->c_str()));
  n.is_virtual = access((st.root + "/sys/devices/virtual/net/" + n.s.name).c_str(), R_OK | X_OK) == 0;
  return true;
}

void SettingsFromIoctl(int fd, NetIf& n) {
  struct ifreq ifr {};
  std::strncpy(ifr.ifr_name, n.s.name.c_str(), IF_NAMESIZE - 1);
  if (ioctl(fd, SIOCGIFMTU, &ifr) == 0) n.mtu = static_cast<uint32_t>(ifr.ifr_mtu);
  if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
    n.up = (ifr.ifr_flags & IFF_UP) != 0;
    n.running = (ifr.ifr_flags & IFF_RUNNING) != 0;
  }
  struct ethtool_cmd ecmd {};
  ecmd.cmd = ETHTOOL_GSET;
  ifr.ifr_data = reinterpret_cast<char*>(&ecmd);
  if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
    n.type = 1;
    n.speed = (static_cast<uint32_t>(ecmd.speed_hi) << 16) | ecmd.speed;
    n.duplex = (ecmd.duplex + 1) & 3;  // PCP keeps two bits of it
    n.wireless = false;
  }
}

void RefreshSettings(LinuxState& st) {
  bool sysfs = true;
  for (NetIf& n : st.nets) {
    if (!(sysfs = SettingsFromSysfs(st, n))) break;
  }
  if (sysfs || !st.root.empty()) return;
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  for (NetIf& n : st.nets) SettingsFromIoctl(fd, n);
  close(fd);
}

uint64_t Counter(const ls::NetDev& d, unsigned item) {
  const uint64_t v[] = {d.in_bytes, d.in_packets, d.in_errors, d.in_drops, d.in_fifo, d.in_frame,
                        d.in_compressed, d.in_mcasts, d.out_bytes, d.out_packets, d.out_errors,
                        d.out_drops, d.out_fifo, d.out_collisions, d.out_carrier, d.out_compressed};
  return v[item];
}

int InterfaceValue(const NetIf& n, unsigned item, AtomValue* atom) {
  if (item <= 15) return (atom->ull = Counter(n.s, item), 1);
  if (item >= 16 && item <= 19) return (atom->ull = Counter(n.s, item - 16) + Counter(n.s, item - 8), 1);
  switch (item) {
    case 20: atom->ull = n.s.in_mcasts; return 1;
    case 21: return n.mtu ? (atom->ul = n.mtu, 1) : 0;
    case 22: return n.speed ? (atom->f = static_cast<float>(n.speed) * 1000000 / 8 / 1024 / 1024, 1) : 0;
    case 23: return n.speed ? (atom->ull = static_cast<uint64_t>(n.speed) * 1000000 / 8, 1) : 0;
    case 24: return n.duplex ? (atom->ul = n.duplex, 1) : 0;
    case 25: atom->ul = n.up; return 1;
    case 26: atom->ul = n.running; return 1;
    case 28: atom->ul = n.wireless; return 1;
    case 29: atom->ul = n.type; return 1;
    case 30: atom->ul = n.is_virtual; return 1;
  }
  return kErrPmid;
}

}  // namespace

void RefreshNet(LinuxState& st, Sources sources, Pmda& pmda) {
  st.nets.clear();
  for (ls::NetDev& d : ls::ParseNetDev(ReadText(st, "/proc/net/dev"))) {
    NetIf n;
    n.inst = st.net_ids.For(d.name);
    n.s = std::move(d);
    st.nets.push_back(std::move(n));
  }
  if (sources & kSrcNetSettings) RefreshSettings(st);
  std::vector<PmdaInstid> set;
  for (const NetIf& n : st.nets) set.push_back({n.inst, n.s.name});
  SetInstances(pmda, kNetIndom, std::move(set));
}

int FetchNet(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.cluster == 90) {  // network.all: in 0-3, out 4-7, total 8-11
    if (r.item > 11) return kErrPmid;
    uint64_t sum = 0;
    for (const NetIf& n : st.nets) {
      if (!Aggregated(n.s.name)) continue;
      const unsigned k = r.item % 4;
      if (r.item < 4 || r.item >= 8) sum += Counter(n.s, k);
      if (r.item >= 4) sum += Counter(n.s, 8 + k);
    }
    atom->ull = sum;
    return 1;
  }
  if (r.cluster != 3) return kErrPmid;
  if (r.item == 27) return (atom->ul = static_cast<uint32_t>(st.nets.size()), 1);
  const NetIf* n = ByInst(st.nets, inst);
  return n ? InterfaceValue(*n, r.item, atom) : kErrInst;
}

}  // namespace pmapi::linux_agent
