// Socket counts and packet-processing statistics of the Linux agent:
// network.{tcpconn,tcpconn6} (sockets by TCP state), network.{udpconn,
// udpconn6} (established and listening), network.{rawconn,rawconn6} and
// network.unix from /proc/net/{tcp,tcp6,udp,udp6,raw,raw6,unix}, and
// network.softnet from /proc/net/softnet_stat.
#include <cstdio>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// The number in hexadecimal of field `index` of a line.
bool HexField(absl::string_view line, size_t index, unsigned* v) {
  std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
  if (index >= f.size()) return false;
  std::string s(f[index]);
  char* end = nullptr;
  const unsigned long n = std::strtoul(s.c_str(), &end, 16);
  if (end == s.c_str() || *end != '\0') return false;
  *v = static_cast<unsigned>(n);
  return true;
}

std::vector<absl::string_view> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// Sockets of /proc/net/tcp or tcp6 by state (index = the kernel's state).
std::optional<std::array<uint32_t, 12>> TcpStates(const LinuxState& st, const char* path) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, path);
  if (!text) return std::nullopt;
  std::array<uint32_t, 12> n{};
  for (absl::string_view line : Lines(*text)) {
    unsigned state;
    if (HexField(line, 3, &state) && state < n.size()) ++n[state];
  }
  return n;
}

std::optional<std::array<uint32_t, 2>> UdpStates(const LinuxState& st, const char* path) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, path);
  if (!text) return std::nullopt;
  std::array<uint32_t, 2> n{};  // established, listening
  for (absl::string_view line : Lines(*text)) {
    unsigned state;
    if (!HexField(line, 3, &state)) continue;
    if (state == 0x01) ++n[0];
    if (state == 0x07) ++n[1];
  }
  return n;
}

std::optional<uint32_t> CountLines(const LinuxState& st, const char* path) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, path);
  if (!text) return std::nullopt;
  const std::vector<absl::string_view> lines = Lines(*text);
  return lines.empty() ? 0 : static_cast<uint32_t>(lines.size() - 1);  // less the heading
}

// datagram count, stream established, stream listening, stream count
std::optional<std::array<uint32_t, 4>> UnixSockets(const LinuxState& st) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/net/unix");
  if (!text) return std::nullopt;
  std::array<uint32_t, 4> n{};
  for (absl::string_view line : Lines(*text)) {
    unsigned type, state;
    if (!HexField(line, 4, &type) || !HexField(line, 5, &state)) continue;
    if (type == 0x0002) {
      ++n[0];
    } else if (type == 0x0001) {
      if (state == 0x01) ++n[2];
      else if (state == 0x03) ++n[1];
      ++n[3];
    }
  }
  return n;
}

// One scanf "%08llx" at the front of `s`: leading blanks, then at most
// eight hex digits. False (nothing stored) when there is no digit.
bool ScanHex8(absl::string_view* s, uint64_t* out) {
  while (!s->empty() && absl::ascii_isspace(static_cast<unsigned char>(s->front()))) s->remove_prefix(1);
  size_t n = 0;
  while (n < s->size() && n < 8 && absl::ascii_isxdigit(static_cast<unsigned char>((*s)[n]))) ++n;
  if (n == 0) return false;
  *out = std::strtoull(std::string(s->substr(0, n)).c_str(), nullptr, 16);
  s->remove_prefix(n);
  return true;
}

// The columns of one softnet_stat line, as PCP's agent scans them (up to
// 15); returns how many were read.
int ScanSoftnetLine(absl::string_view line, std::array<uint64_t, 15>* cols) {
  int n = 0;
  while (n < 15 && ScanHex8(&line, &(*cols)[n])) ++n;
  return n;
}

// softnet_stat columns kept: processed, dropped, time_squeeze,
// cpu_collision, received_rps, flow_limit_count.
constexpr size_t kSoftnetColumns[] = {0, 1, 2, 8, 9, 10};

// Which metrics a line's column count supports, as PCP's agent decides.
uint32_t SoftnetFlags(int columns) {
  uint32_t flags = 0;
  if (columns >= 9) flags |= kSoftnetBasic;
  if (columns >= 10) flags |= kSoftnetRps;
  if (columns >= 11) flags |= kSoftnetFlowLimit;
  if (columns >= 15) flags |= kSoftnetBacklog;
  return flags;
}

// As PCP's agent: one line per online processor of /proc/stat, in order
// (the processor column of newer kernels is only checked); the flags of
// the last line say which metrics have values. A missing file leaves no
// flags, so every metric is "not supported".
void RefreshSoftnet(LinuxState& st) {
  Softnet& sn = st.softnet;
  sn.flags = 0;
  sn.all = {};
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/net/softnet_stat");
  if (!text) return;
  absl::string_view rest = *text;
  for (const auto& [cpu, times] : st.stat.cpus) {
    if (rest.empty()) {
      std::fprintf(stderr, "refresh_proc_net_softnet: warning: insufficient data, cpu %d\n", cpu);
      break;
    }
    const size_t nl = rest.find('\n');
    absl::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == absl::string_view::npos ? rest.size() : nl + 1);
    std::array<uint64_t, 15> cols{};
    const int n = ScanSoftnetLine(line, &cols);
    if (n >= 13 && static_cast<int>(cols[12]) != cpu) {
      std::fprintf(stderr, "refresh_proc_net_softnet: warning: inconsistent cpu %d not %d\n", cpu,
                   static_cast<int>(cols[12]));
      sn.logonce = 1;
    }
    std::array<uint64_t, 6>& v = sn.percpu[cpu];
    for (size_t i = 0; i < 6; ++i) {
      v[i] = cols[kSoftnetColumns[i]];
      sn.all[i] += v[i];
    }
    const uint32_t flags = SoftnetFlags(n);
    if (cpu > 0 && flags != sn.flags && sn.logonce <= 1) {
      std::fprintf(stderr, "refresh_proc_net_softnet: warning: inconsistent flags, cpu %d\n", cpu);
      sn.logonce = 1;
    }
    sn.flags = flags;
  }
  if (sn.logonce) sn.logonce++;
}

// The flag a softnet item (0-5 all, 6-11 per processor) needs.
uint32_t SoftnetFlagOf(unsigned item) {
  switch (item % 6) {
    case 4: return kSoftnetRps;
    case 5: return kSoftnetFlowLimit;
  }
  return kSoftnetBasic;
}

int FetchSoftnet(const LinuxState& st, unsigned item, Inst inst, AtomValue* atom) {
  if (item > 11) return kErrPmid;
  const Softnet& sn = st.softnet;
  if (!(sn.flags & SoftnetFlagOf(item))) return kErrAppversion;
  if (item < 6) {
    atom->ull = sn.all[item];
    return 1;
  }
  auto it = sn.percpu.find(ToPcp(inst));
  if (it == sn.percpu.end()) return kErrInst;
  atom->ull = it->second[item - 6];
  return 1;
}

int U32(const std::optional<uint32_t>& v, AtomValue* atom) { return v ? (atom->ul = *v, 1) : 0; }

}  // namespace

Sources SockSourceOf(unsigned cluster) {
  switch (cluster) {
    case 19: return kSrcTcp;
    case 76: return kSrcTcp6;
    case 79: case 80: return kSrcUdp;
    case 77: case 78: return kSrcRaw;
    case 81: return kSrcUnix;
    case 57: return kSrcSoftnet | kSrcStat;
  }
  return 0;
}

void RefreshSock(LinuxState& st, Sources sources) {
  if (sources & kSrcTcp) st.tcp = TcpStates(st, "/proc/net/tcp");
  if (sources & kSrcTcp6) st.tcp6 = TcpStates(st, "/proc/net/tcp6");
  if (sources & kSrcUdp) {
    st.udp = UdpStates(st, "/proc/net/udp");
    st.udp6 = UdpStates(st, "/proc/net/udp6");
  }
  if (sources & kSrcRaw) {
    st.raw = CountLines(st, "/proc/net/raw");
    st.raw6 = CountLines(st, "/proc/net/raw6");
  }
  if (sources & kSrcUnix) st.unix_sockets = UnixSockets(st);
  if (sources & kSrcSoftnet) RefreshSoftnet(st);
}

int FetchSock(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  switch (r.cluster) {
    case 19: case 76: {
      const auto& t = r.cluster == 19 ? st.tcp : st.tcp6;
      if (r.item < 1 || r.item > 11) return kErrPmid;
      return t ? (atom->ul = (*t)[r.item], 1) : 0;
    }
    case 79: case 80: {
      const auto& u = r.cluster == 79 ? st.udp : st.udp6;
      if (r.item < 1 || r.item > 2) return kErrPmid;
      return u ? (atom->ul = (*u)[r.item - 1], 1) : 0;
    }
    case 77: return U32(st.raw, atom);
    case 78: return U32(st.raw6, atom);
    case 81:
      if (r.item < 1 || r.item > 4) return kErrPmid;
      return st.unix_sockets ? (atom->ul = (*st.unix_sockets)[r.item - 1], 1) : 0;
    case 57: return FetchSoftnet(st, r.item, inst, atom);
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
