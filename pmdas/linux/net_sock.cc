// Socket counts and packet-processing statistics of the Linux agent:
// network.{tcpconn,tcpconn6} (sockets by TCP state), network.{udpconn,
// udpconn6} (established and listening), network.{rawconn,rawconn6} and
// network.unix from /proc/net/{tcp,tcp6,udp,udp6,raw,raw6,unix}, and
// network.softnet from /proc/net/softnet_stat.
#include <cstdlib>

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

// softnet_stat columns kept: processed, dropped, time_squeeze,
// cpu_collision, received_rps, flow_limit_count.
constexpr size_t kSoftnetColumns[] = {0, 1, 2, 8, 9, 10};

void RefreshSoftnet(LinuxState& st) {
  st.softnet.clear();
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/net/softnet_stat");
  if (!text) return;
  size_t row = 0;
  for (absl::string_view line : Lines(*text)) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    std::array<uint64_t, 6> v{};
    for (size_t i = 0; i < 6; ++i) {
      if (kSoftnetColumns[i] < f.size())
        v[i] = std::strtoull(std::string(f[kSoftnetColumns[i]]).c_str(), nullptr, 16);
    }
    // the processor's number is column 12 on newer kernels, else the row
    unsigned long cpu = row;
    if (f.size() >= 13) cpu = std::strtoul(std::string(f[12]).c_str(), nullptr, 16);
    st.softnet.emplace_back(static_cast<int>(cpu), v);
    ++row;
  }
}

int U32(const std::optional<uint32_t>& v, AtomValue* atom) { return v ? (atom->ul = *v, 1) : 0; }

}  // namespace

uint32_t SockSourceOf(unsigned cluster) {
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

void RefreshSock(LinuxState& st, uint32_t sources) {
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

int FetchSock(const LinuxState& st, const MetricRow& r, unsigned inst, AtomValue* atom) {
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
    case 57: {
      if (r.item > 11) return kErrPmid;
      if (st.softnet.empty()) return 0;
      if (r.item < 6) {
        uint64_t sum = 0;
        for (const auto& [cpu, v] : st.softnet) sum += v[r.item];
        atom->ull = sum;
        return 1;
      }
      for (const auto& [cpu, v] : st.softnet) {
        if (static_cast<unsigned>(cpu) == inst) return (atom->ull = v[r.item - 6], 1);
      }
      return 0;
    }
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
