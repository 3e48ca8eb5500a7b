// network.interface.{inet_addr,ipv6_addr,ipv6_scope,hw_addr} of the Linux
// agent: one instance per interface name (aliases such as "eth0:1"
// included), read as PCP's agent reads them. A fetch first empties the
// table, then reads only the parts its metrics need, in PCP's order:
//   - hw_addr: each entry of /sys/class/net (in directory order), its
//     "address" file's first word;
//   - inet_addr: the interfaces the SIOCGIFCONF ioctl lists, each one's
//     SIOCGIFADDR address (from the running system, as in PCP's agent,
//     even below LINUX_STATSPATH);
//   - ipv6_addr and ipv6_scope: /proc/net/if_inet6 as PCP's fscanf format
//     reads it, the last address of an interface winning.
// Instances are numbered in order of discovery and kept; an instance
// request reads all three parts.
#include <arpa/inet.h>
#include <dirent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmdas/common/scan.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

namespace sc = agent_scan;

// %Ns: a word of at most `width` characters after white space; false at
// the end of the text.
bool ScanWidth(std::string_view s, size_t* pos, size_t width, std::string* word) {
  sc::SkipSpace(s, pos);
  const size_t start = *pos;
  while (*pos < s.size() && *pos - start < width && !absl::ascii_isspace(static_cast<unsigned char>(s[*pos]))) ++*pos;
  word->assign(s.substr(start, *pos - start));
  return *pos > start;
}

// %x into an int: optional sign, optional 0x, hex digits (as strtoul,
// too large giving all ones), the low 32 bits kept.
bool ScanHex(std::string_view s, size_t* pos, unsigned* out) {
  sc::SkipSpace(s, pos);
  size_t at = *pos;
  bool negative = false;
  if (at < s.size() && (s[at] == '+' || s[at] == '-')) negative = s[at++] == '-';
  if (at + 2 < s.size() && s[at] == '0' && (s[at + 1] == 'x' || s[at + 1] == 'X') &&
      absl::ascii_isxdigit(static_cast<unsigned char>(s[at + 2]))) {
    at += 2;
  }
  const size_t digits = at;
  uint64_t v = 0;
  bool overflow = false;
  for (; at < s.size() && absl::ascii_isxdigit(static_cast<unsigned char>(s[at])); ++at) {
    const unsigned char c = static_cast<unsigned char>(s[at]);
    const uint64_t d = absl::ascii_isdigit(c) ? c - '0' : absl::ascii_tolower(c) - 'a' + 10;
    if (v > (~uint64_t{0} >> 4)) overflow = true;
    v = (v << 4) | d;
  }
  if (at == digits) return false;
  *pos = at;
  const uint64_t value = overflow ? ~uint64_t{0} : (negative ? uint64_t{0} - v : v);
  *out = static_cast<unsigned>(value);
  return true;
}

// The variables of PCP's if_inet6 loop, kept from one line to the next as
// its fscanf leaves them.
struct Inet6Line {
  std::string part[8], dev;
  unsigned index = 0, plen = 0, scope = 0, flags = 0;
};

// One fscanf of "%4s x8 %x %x %x %x %20s\n": the number of fields read,
// or -1 (EOF) when the text ends before the first.
int ScanInet6(std::string_view text, size_t* pos, Inet6Line* l) {
  int n = 0;
  for (std::string& p : l->part) {
    if (!ScanWidth(text, pos, 4, &p)) return n == 0 ? -1 : n;
    ++n;
  }
  for (unsigned* v : {&l->index, &l->plen, &l->scope, &l->flags}) {
    if (!ScanHex(text, pos, v)) return n;
    ++n;
  }
  if (!ScanWidth(text, pos, 20, &l->dev)) return n;
  sc::SkipSpace(text, pos);
  return n + 1;
}

void ReadIpv6(LinuxState& st) {
  for (const Inet6Entry& e : ParseIfInet6(ls::ReadProcFile(st.root, "/proc/net/if_inet6").value_or(""))) {
    NetAddr& a = st.addrs.Activate(e.dev).data;
    if (e.address.empty()) continue;
    a.ipv6 = e.address;
    a.ipv6_scope = e.scope;
    a.has_ipv6 = true;
  }
}

void ReadHw(LinuxState& st) {
  DIR* dir = opendir((st.root + "/sys/class/net").c_str());
  if (dir == nullptr) return;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string name = e->d_name;
    NetAddr& a = st.addrs.Activate(name).data;
    const std::string text = ls::ReadProcFile(st.root, "/sys/class/net/" + name + "/address").value_or("");
    size_t pos = 0;
    a.has_hw = ScanWidth(text, &pos, 63, &a.hw);
  }
  closedir(dir);
}

// The interfaces SIOCGIFCONF lists (those with an IPv4 address).
std::vector<std::string> Ipv4Interfaces(int fd) {
  std::vector<struct ifreq> reqs(30);
  struct ifconf ifc {};
  for (;;) {
    ifc.ifc_len = static_cast<int>(reqs.size() * sizeof(struct ifreq));
    ifc.ifc_req = reqs.data();
    if (ioctl(fd, SIOCGIFCONF, &ifc) < 0) return {};
    if (static_cast<size_t>(ifc.ifc_len) < reqs.size() * sizeof(struct ifreq)) break;
    reqs.resize(reqs.size() * 2);  // it may have overflowed: ask again with more room
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < static_cast<size_t>(ifc.ifc_len) / sizeof(struct ifreq); ++i) {
    names.emplace_back(reqs[i].ifr_name, strnlen(reqs[i].ifr_name, IFNAMSIZ));
  }
  return names;
}

void ReadInet(LinuxState& st) {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  for (const std::string& name : Ipv4Interfaces(fd)) {
    NetAddr& a = st.addrs.Activate(name).data;
    struct ifreq ifr {};
    std::strncpy(ifr.ifr_name, name.c_str(), IF_NAMESIZE - 1);
    ifr.ifr_addr.sa_family = AF_INET;
    if (ioctl(fd, SIOCGIFADDR, &ifr) < 0) continue;
    struct sockaddr_in sin {};
    std::memcpy(&sin, &ifr.ifr_addr, sizeof(sin));
    char out[INET_ADDRSTRLEN];
    if (inet_ntop(AF_INET, &sin.sin_addr, out, sizeof(out)) == nullptr) continue;
    a.inet = out;
    a.has_inet = true;
  }
  close(fd);
}

const char* ScopeName(uint16_t scope) {
  switch (scope) {
    case 0x00: return "Global";
    case 0x20: return "Link";
    case 0x40: return "Site";
    case 0x80: return "Compat";
    case 0x10: return "Host";
  }
  return "Unknown";
}

}  // namespace

std::vector<Inet6Entry> ParseIfInet6(std::string_view text) {
  std::vector<Inet6Entry> out;
  size_t pos = 0;
  Inet6Line l;
  while (ScanInet6(text, &pos, &l) >= 0) {
    if (l.dev.empty()) continue;
    Inet6Entry& e = out.emplace_back();
    e.dev = l.dev;
    const std::string joined = absl::StrCat(l.part[0], ":", l.part[1], ":", l.part[2], ":", l.part[3], ":", l.part[4],
                                            ":", l.part[5], ":", l.part[6], ":", l.part[7]);
    struct in6_addr bits {};
    char addr[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET6, joined.c_str(), &bits) != 1) continue;
    if (inet_ntop(AF_INET6, &bits, addr, sizeof(addr)) == nullptr) continue;
    e.address = absl::StrCat(addr, "/", static_cast<int>(l.plen));
    e.scope = static_cast<uint16_t>(l.scope);
  }
  return out;
}

void RefreshNetAddr(LinuxState& st, Sources sources, Pmda& pmda) {
  for (auto& e : st.addrs.entries()) e.data = NetAddr{};
  st.addrs.DeactivateAll();
  if (sources & kSrcNetAddrHw) ReadHw(st);
  if (sources & kSrcNetAddrInet) ReadInet(st);
  if (sources & kSrcNetAddrIpv6) ReadIpv6(st);
  st.addrs.Fill(pmda.FindIndom(MakeInDom(pmda.domain(), kNetAddrIndom)));
}

int FetchNetAddr(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const NetAddr* a = nullptr;
  if (st.addrs.Lookup(inst, &a) <= 0) return kErrInst;
  switch (r.item) {
    case 0: return a->has_inet ? (atom->bytes = a->inet, 1) : 0;
    case 1: return a->has_ipv6 ? (atom->bytes = a->ipv6, 1) : 0;
    case 2: return a->has_ipv6 ? (atom->bytes = ScopeName(a->ipv6_scope), 1) : 0;
    case 3: return a->has_hw ? (atom->bytes = a->hw, 1) : 0;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
