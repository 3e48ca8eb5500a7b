// The protocol counters of the Linux agent: network.{ip,icmp,icmpmsg,tcp,
// udp,udplite} from /proc/net/snmp and /proc/net/netstat, network.{ip6,
// icmp6,udp6,udplite6} from /proc/net/snmp6, network.mptcp from netstat,
// and network.sockstat from /proc/net/sockstat and sockstat6.
//
// Each metric names its kernel field: network.FAMILY.LEAF is the field
// LEAF (compared without case) of FAMILY's sections, or of its extension
// section with the prefix the kernel gives (TcpExt's "TCP", IpExt's "In");
// the few that differ are listed in kRenamed.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

constexpr unsigned kSnmp6Cluster = 58;  // network.{ip6,icmp6,udp6,udplite6}

struct Renamed {
  const char* metric;  // FAMILY.LEAF
  const char* key;     // section.field, lower case
};
constexpr Renamed kRenamed[] = {
    {"udp.recvbuferrors", "udp.rcvbuferrors"},
    {"udplite.recvbuferrors", "udplite.rcvbuferrors"},
    {"tcp.timewaited", "tcpext.tw"},
    {"tcp.timewaitrecycled", "tcpext.twrecycled"},
    {"tcp.timewaitkilled", "tcpext.twkilled"},
    {"tcp.pawspassiverejected", "tcpext.pawspassive"},
    {"tcp.pawsactiverejected", "tcpext.pawsactive"},
    {"tcp.pawsestabrejected", "tcpext.pawsestab"},
    {"tcp.iprpfilter", "tcpext.ipreversepathfilter"},
    {"tcp.prequeueddropped", "tcpext.tcpprequeuedropped"},
    {"tcp.schedulerfail", "tcpext.tcpschedulerfailed"},
    {"mptcp.addaddrdrops", "mptcpext.addaddrdrop"},
    {"mptcp.rmaddrdrops", "mptcpext.rmaddrdrop"},
};

// Section names (lower case) a family's fields are looked for in, with
// the field prefix of each.
std::vector<std::pair<std::string, std::string>> Sections(absl::string_view family) {
  if (family == "ip") return {{"ip", ""}, {"ipext", ""}, {"ipext", "in"}};
  if (family == "tcp") return {{"tcp", ""}, {"tcpext", ""}, {"tcpext", "tcp"}};
  if (family == "mptcp") return {{"mptcpext", ""}};
  return {{std::string(family), ""}};  // icmp udp udplite ip6 icmp6 udp6 udplite6
}

// The keys a metric's value may be found under, in order.
const std::vector<std::string>& KeysOf(const MetricRow& r) {
  static const auto* keys = [] {
    auto* m = new absl::flat_hash_map<const MetricRow*, std::vector<std::string>>;
    auto add = [m](const MetricRow* rows, size_t n) {
      for (size_t i = 0; i < n; ++i) {
        std::vector<std::string> parts = absl::StrSplit(rows[i].name, '.');
        if (parts.size() < 3 || parts[0] != "network") continue;
        const std::string family = parts[1];
        std::string leaf;
        for (size_t p = 2; p < parts.size(); ++p) leaf += absl::AsciiStrToLower(parts[p]);
        std::vector<std::string>& k = (*m)[&rows[i]];
        for (const Renamed& ren : kRenamed) {
          if (family + "." + leaf == ren.metric) k.push_back(ren.key);
        }
        for (const auto& [section, prefix] : Sections(family)) k.push_back(section + "." + prefix + leaf);
      }
    };
    add(agent_tables::kNetIpRows, agent_tables::kNetIpRowsCount);
    add(agent_tables::kNetRows, agent_tables::kNetRowsCount);
    return m;
  }();
  static const std::vector<std::string> kNone;
  auto it = keys->find(&r);
  return it == keys->end() ? kNone : it->second;
}

// "Section: F1 F2 ...\nSection: V1 V2 ..." pairs of lines.
void ParsePairs(absl::string_view text, LinuxState& st) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n', absl::SkipEmpty());
  for (size_t i = 0; i + 1 < lines.size(); i += 2) {
    std::vector<absl::string_view> names = absl::StrSplit(lines[i], ' ', absl::SkipEmpty());
    std::vector<absl::string_view> values = absl::StrSplit(lines[i + 1], ' ', absl::SkipEmpty());
    if (names.empty() || values.empty() || names[0] != values[0] || !absl::EndsWith(names[0], ":")) {
      --i;  // out of step: try the next line as a header
      continue;
    }
    const std::string section = absl::AsciiStrToLower(names[0].substr(0, names[0].size() - 1));
    for (size_t f = 1; f < names.size() && f < values.size(); ++f) {
      int64_t v;
      if (!absl::SimpleAtoi(values[f], &v)) continue;
      if (section == "icmpmsg") {
        absl::string_view n = names[f];
        const bool in = absl::ConsumePrefix(&n, "InType");
        int type;
        if ((in || absl::ConsumePrefix(&n, "OutType")) && absl::SimpleAtoi(n, &type) && type >= 0 && type < 256) {
          auto& slot = st.icmpmsg.try_emplace(type, ~uint64_t{0}, ~uint64_t{0}).first->second;
          (in ? slot.first : slot.second) = static_cast<uint64_t>(v);
        }
        continue;
      }
      st.snmp[absl::StrCat(section, ".", absl::AsciiStrToLower(names[f]))] = static_cast<uint64_t>(v);
    }
  }
}

void ParseSnmp6(absl::string_view text, LinuxState& st) {
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    int64_t v;
    if (f.size() < 2 || !absl::SimpleAtoi(f[1], &v)) continue;
    absl::string_view name = f[0];
    for (const char* section : {"UdpLite6", "Udp6", "Icmp6", "Ip6"}) {
      if (absl::ConsumePrefix(&name, section)) {
        st.snmp[absl::StrCat(absl::AsciiStrToLower(section), ".", absl::AsciiStrToLower(name))] =
            static_cast<uint64_t>(v);
        break;
      }
    }
  }
}

// "TCP: inuse 1 orphan 0 ..." lines, kept as "tcp.inuse".
void ParseSockstat(absl::string_view text, LinuxState& st) {
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.empty() || !absl::EndsWith(f[0], ":")) continue;
    const std::string section = absl::AsciiStrToLower(f[0].substr(0, f[0].size() - 1));
    for (size_t i = 1; i + 1 < f.size(); i += 2) {
      int64_t v;
      if (absl::SimpleAtoi(f[i + 1], &v)) st.sockstat[absl::StrCat(section, ".", f[i])] = static_cast<uint64_t>(v);
    }
  }
}

int Store(const MetricRow& r, uint64_t v, AtomValue* atom) {
  switch (r.type) {
    case kType32: atom->l = static_cast<int32_t>(v); return 1;
    case kTypeU32: atom->ul = static_cast<uint32_t>(v); return 1;
    case kType64: atom->ll = static_cast<int64_t>(v); return 1;
  }
  atom->ull = v;
  return 1;
}

int SockstatValue(const LinuxState& st, const MetricRow& r, AtomValue* atom) {
  static constexpr const char* kItems11[] = {
      "tcp.inuse", nullptr, nullptr, "udp.inuse", nullptr, nullptr, "raw.inuse", nullptr,
      "udplite.inuse", "sockets.used", "tcp.orphan", "tcp.tw", "tcp.alloc", "tcp.mem", "udp.mem",
      "frag.inuse", "frag.memory"};
  static constexpr const char* kItems73[] = {"tcp6.inuse", "udp6.inuse", "udplite6.inuse", "raw6.inuse",
                                             "frag6.inuse", "frag6.memory"};
  const char* key = nullptr;
  if (r.cluster == 11 && r.item < sizeof(kItems11) / sizeof(kItems11[0])) key = kItems11[r.item];
  if (r.cluster == 73 && r.item < sizeof(kItems73) / sizeof(kItems73[0])) key = kItems73[r.item];
  if (key == nullptr) return kErrPmid;
  auto it = st.sockstat.find(key);
  return it == st.sockstat.end() ? 0 : Store(r, it->second, atom);
}

}  // namespace

void RefreshProto(LinuxState& st, Sources sources, Pmda& pmda) {
  if (sources & kSrcSnmp) {
    st.snmp.clear();
    st.icmpmsg.clear();
    ParsePairs(ReadText(st, "/proc/net/snmp"), st);
    ParsePairs(ReadText(st, "/proc/net/netstat"), st);
    const std::string snmp6 = ReadText(st, "/proc/net/snmp6");
    st.snmp6_read = !snmp6.empty();
    ParseSnmp6(snmp6, st);
    std::vector<PmdaInstid> set;
    for (const auto& [type, v] : st.icmpmsg) {
      set.push_back({Inst{type}, absl::StrCat("Type", type)});
    }
    SetInstances(pmda, kIcmpMsgIndom, std::move(set));
  }
  if (sources & kSrcSockstat) {
    st.sockstat.clear();
    ParseSockstat(ReadText(st, "/proc/net/sockstat"), st);
    ParseSockstat(ReadText(st, "/proc/net/sockstat6"), st);
  }
}

int FetchProto(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.cluster == 11 || r.cluster == 73) return SockstatValue(st, r, atom);
  if (r.cluster == 14 && (r.item == 88 || r.item == 89)) {
    auto it = st.icmpmsg.find(ToPcp(inst));
    if (it == st.icmpmsg.end()) return kErrInst;
    const uint64_t v = r.item == 88 ? it->second.first : it->second.second;
    if (v == ~uint64_t{0}) return 0;
    atom->ull = v;
    return 1;
  }
  for (const std::string& key : KeysOf(r)) {
    auto it = st.snmp.find(key);
    if (it != st.snmp.end()) return Store(r, it->second, atom);
  }
  // PCP's agent reads /proc/net/snmp6 into zeroed counters: a field an
  // older kernel does not list is 0 once the file has been read
  if (r.cluster == kSnmp6Cluster && st.snmp6_read) return Store(r, 0, atom);
  return 0;
}

}  // namespace pmapi::linux_agent
