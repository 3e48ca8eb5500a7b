#include "pmdas/linux/linux_agent.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "pmapi/errors.h"
#include "pmdas/common/agent_env.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi {
namespace linux_agent {

std::string ReadText(const LinuxState& st, std::string_view path) {
  return ls::ReadProcFile(st.root, path).value_or("");
}

std::optional<int64_t> ReadNumber(const LinuxState& st, std::string_view path) {
  std::optional<std::string> t = ls::ReadProcFile(st.root, path);
  if (!t) return std::nullopt;
  absl::string_view s = absl::StripAsciiWhitespace(*t);
  s = s.substr(0, s.find_first_of(" \t\n"));
  int64_t v;
  if (!absl::SimpleAtoi(s, &v)) return std::nullopt;
  return v;
}

void SetInstances(Pmda& pmda, unsigned serial, std::vector<PmdaInstid> set) {
  if (PmdaIndom* indom = pmda.FindIndom(MakeInDom(pmda.domain(), serial))) indom->set = std::move(set);
}

namespace {

bool IsDiskItem(unsigned item) {
  return (item >= 4 && item <= 7) || (item >= 24 && item <= 29) || (item >= 36 && item <= 47) ||
         (item >= 49 && item <= 52) || item == 59 || (item >= 72 && item <= 75) || item == 79 ||
         item == 80 || (item >= 87 && item <= 104) || item == 33;
}

bool IsPernodeItem(unsigned item) {
  return (item >= 62 && item <= 71) || item == 77 || item == 85 || item == 86;
}

}  // namespace

Sources SourcesOf(const MetricRow& row) {
  switch (row.cluster) {
    case 0:
      if (row.item == 87) return kSrcDiskstats | kSrcDiskSizes;
      if (IsDiskItem(row.item)) return kSrcDiskstats;
      if (row.item == 8 || row.item == 9) return kSrcVmstat;
      if (IsPernodeItem(row.item)) return kSrcStat | kSrcNodes;
      if (row.item == 19) return kSrcNodes;
      return kSrcStat;
    case 1: return kSrcMeminfo;
    case 2: return row.item == 0 ? kSrcLoadAverages : kSrcLoadavg;
    case 3: return row.item >= 21 && row.item <= 30 && row.item != 27 ? kSrcNetDev | kSrcNetSettings : kSrcNetDev;
    case 90: return kSrcNetDev;
    case 5: return kSrcMounts;
    case 10: return row.item == 16 ? kSrcDiskstats | kSrcDiskSizes : kSrcDiskstats;
    case 54: case 59: return row.item == 17 ? kSrcDiskstats | kSrcDiskSizes : kSrcDiskstats;
    // disk.md.status reads no statistics: as in PCP's agent it reports the
    // md devices the last read of /proc/diskstats found (none before one).
    case 60: return 0;
    case 86: return row.item == 16 ? kSrcDiskstats | kSrcDiskSizes : kSrcDiskstats;
    case 87: case 88: case 89: case 92: return kSrcDiskstats;
    case 11: case 73: return kSrcSockstat;
    case 12: return row.item == 7 ? kSrcUname | kSrcDistro : kSrcUname;
    case 18:
      if (row.item == 7) return kSrcUname;
      return row.item == 6 || row.item == 8 ? kSrcStat | kSrcNodes : kSrcStat | kSrcCpuinfo;
    case 14: case 53: case 58: return kSrcSnmp;
    case 26: return kSrcUptime;
    case 28: return kSrcVmstat;
    case 33: return kSrcNetAddr | (row.item == 0 ? kSrcNetAddrInet : row.item == 3 ? kSrcNetAddrHw : kSrcNetAddrIpv6);
    case 36: return kSrcNuma | kSrcNodes;
    case 55: return row.item == 1 ? kSrcNodes : kSrcStat;
    case 25: return kSrcLogin;
    case 4: case 82: case 63: return kSrcInterrupts | kSrcStat;
    case 72: return kSrcSysKernel;
    case 68: case 70: return kSrcZoneinfo;
    case 67: return kSrcBuddyinfo;
    case 83: case 84: case 85: case 93: return kSrcPressure;
    case 69: return kSrcKsm;
  }
  return SockSourceOf(row.cluster);
}

Sources SourceOfIndom(unsigned serial) {
  switch (serial) {
    case kCpuIndom: return kSrcStat;
    case kDiskIndom: case kPartitionsIndom: case kDmIndom: case kMdIndom: case kZramIndom: case kWwidIndom: return kSrcDiskstats;
    case kNetIndom: return kSrcNetDev;
    case kFilesysIndom: return kSrcMounts;
    case kNetAddrIndom: return kSrcNetAddr | kSrcNetAddrHw | kSrcNetAddrInet | kSrcNetAddrIpv6;
    case kNodeIndom: return kSrcNodes;
    case kIcmpMsgIndom: return kSrcSnmp;
    case kZoneIndom: case kZoneProtectionIndom: return kSrcZoneinfo;
    case kBuddyIndom: return kSrcBuddyinfo;
    case kInterruptIndom: case kSoftirqIndom: case kInterruptCpuIndom: case kSoftirqCpuIndom: return kSrcInterrupts;
  }
  return 0;
}

namespace {

void Refresh(LinuxState& st, Sources sources, Pmda& pmda, const std::vector<unsigned>& clusters = {}) {
  if (sources & (kSrcStat | kSrcUptime | kSrcLoadavg | kSrcLoadAverages | kSrcUname | kSrcSysKernel | kSrcNodes))
    RefreshCpu(st, sources, pmda);
  if (sources & kSrcCpuinfo) RefreshCpuinfo(st);
  if (sources & kSrcLogin) RefreshLogin(st);
  if (sources & kSrcInterrupts) RefreshInterrupts(st, pmda);
  if (sources & (kSrcMeminfo | kSrcVmstat | kSrcNuma)) RefreshMem(st, sources, pmda);
  if (sources & kSrcDiskstats) RefreshDisk(st, sources, pmda);
  if (sources & kSrcNetDev) RefreshNet(st, sources, pmda);
  if (sources & kSrcNetAddr) RefreshNetAddr(st, sources, pmda);
  if (sources & (kSrcSnmp | kSrcSockstat)) RefreshProto(st, sources, pmda);
  if (sources & kSrcMounts) RefreshFilesys(st, pmda);
  if (sources & kSrcZoneinfo) RefreshZoneinfo(st, pmda);
  if (sources & kSrcBuddyinfo) RefreshBuddyinfo(st, pmda);
  if (sources & (kSrcPressure | kSrcKsm)) RefreshPressureKsm(st, sources, clusters);
  if (sources & (kSrcTcp | kSrcTcp6 | kSrcUdp | kSrcRaw | kSrcUnix | kSrcSoftnet)) RefreshSock(st, sources);
}

// Families read apart from the sources, each by its own refresh: the
// cluster of their metrics, the instance domain they list (or none), in
// the order they are refreshed.
struct Family {
  unsigned cluster;
  unsigned indom;
  void (*refresh)(LinuxState&, Pmda&);
};
constexpr unsigned kNoIndom = ~0u;
constexpr Family kFamilies[] = {
    {74, kTtyIndom, RefreshTty},
    {27, kNoIndom, [](LinuxState& st, Pmda&) { RefreshVfs(st); }},
    {75, kNoIndom, [](LinuxState& st, Pmda&) { RefreshLocks(st); }},
    {15, kScsiIndom, RefreshScsi},
    {7, kNoIndom, [](LinuxState& st, Pmda&) { RefreshRpc(st); }},
    {71, kTapeIndom, RefreshTape},
    {91, kFchostIndom, RefreshFchost},
    {20, kSlabIndom, RefreshSlabinfo},
};

int FetchValue(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  switch (r.cluster) {
    case 0:
      if (IsDiskItem(r.item)) return FetchDisk(st, r, inst, atom);
      return FetchCpu(st, r, inst, atom);
    case 18:
      if (r.item == 6 || r.item == 7 || r.item == 8) return FetchCpu(st, r, inst, atom);
      return FetchCpuinfo(st, r, inst, atom);
    case 55:
      if (r.item == 1) return FetchCpu(st, r, inst, atom);
      return FetchCpuinfo(st, r, inst, atom);
    case 2: case 12: case 26: case 72:
      return FetchCpu(st, r, inst, atom);
    case 71: case 91: return FetchTapeFchost(st, r, inst, atom);
    case 25: return FetchLogin(st, r, atom);
    case 74: return FetchTty(st, r, inst, atom);
    case 27: case 75: return FetchVfs(st, r, atom);
    case 15: return FetchScsi(st, r, inst, atom);
    case 7: return FetchRpc(st, r, inst, atom);
    case 4: case 63: case 82: return FetchInterrupts(st, r, inst, atom);
    case 1: case 28: case 36: return FetchMem(st, r, inst, atom);
    case 68: case 70: return FetchZoneinfo(st, r, inst, atom);
    case 67: return FetchBuddyinfo(st, r, inst, atom);
    case 20: return FetchSlabinfo(st, r, inst, atom);
    case 69: case 83: case 84: case 85: case 93: return FetchPressureKsm(st, r, inst, atom);
    case 10: case 54: case 59: case 60: case 86: case 87: case 88: case 89: case 92:
      return FetchDisk(st, r, inst, atom);
    case 3: case 90: return FetchNet(st, r, inst, atom);
    case 33: return FetchNetAddr(st, r, inst, atom);
    case 11: case 14: case 53: case 58: case 73: return FetchProto(st, r, inst, atom);
    case 5: return FetchFilesys(st, r, inst, atom);
    case 19: case 57: case 76: case 77: case 78: case 79: case 80: case 81: return FetchSock(st, r, inst, atom);
  }
  return kErrPmid;
}

// The settings PCP's agent takes from the environment for tests:
// LINUX_STATSPATH (the root below which /proc and /sys are read),
// LINUX_HERTZ (clock ticks per second), LINUX_PAGESIZE (bytes) and
// LINUX_ACCESS (non-zero: values kept for the super-user are given to
// anyone) and LINUX_MDADM (the program disk.md.status runs). LINUX_NCPUS is read where the processors are counted
// (interrupts.cc). A rate or size that is not positive keeps the system's.
void ReadEnvironment(LinuxState& st) {
  if (const char* root = std::getenv("LINUX_STATSPATH")) st.root = root;
  st.hz = EnvHertz("LINUX_HERTZ");
  st.pagesize = EnvPageSize("LINUX_PAGESIZE");
  st.pagesize = 1u << __builtin_ctz(st.pagesize);
  st.all_access = EnvNumber("LINUX_ACCESS").value_or(0) != 0;
  if (const char* mdadm = std::getenv("LINUX_MDADM")) st.mdadm = mdadm;
}

std::vector<PmdaMetric> Metrics() {
  namespace t = agent_tables;
  std::vector<PmdaMetric> m;
  t::AppendMetrics({t::kKernelRows, t::kKernelRowsCount}, &m);
  t::AppendMetrics({t::kMemRows, t::kMemRowsCount}, &m);
  t::AppendMetrics({t::kDiskRows, t::kDiskRowsCount}, &m);
  t::AppendMetrics({t::kNetIpRows, t::kNetIpRowsCount}, &m);
  t::AppendMetrics({t::kNetRows, t::kNetRowsCount}, &m);
  return m;
}

std::vector<PmdaIndom> Indoms() {
  std::vector<PmdaIndom> v;
  for (unsigned serial : {kCpuIndom, kDiskIndom, kLoadIndom, kNetIndom, kFilesysIndom, kPartitionsIndom,
                          kNetAddrIndom, kNodeIndom, kIcmpMsgIndom, kDmIndom, kMdIndom, kZoneIndom,
                          kZoneProtectionIndom, kInterruptIndom, kSoftirqIndom, kInterruptCpuIndom,
                          kSoftirqCpuIndom, kTtyIndom, kScsiIndom, kZramIndom, kWwidIndom, kTapeIndom, kBuddyIndom,
                          kFchostIndom, kSlabIndom}) {
    v.push_back(PmdaIndom{PmdaInDom(serial), {}});
  }
  v[2].set = {{Inst{1}, "1 minute"}, {Inst{5}, "5 minute"}, {Inst{15}, "15 minute"}};
  for (PmdaIndom& i : RpcIndoms()) v.push_back(std::move(i));
  v.push_back(
      PmdaIndom{PmdaInDom(kPressureIndom),
                {{Inst{10}, "10 second"}, {Inst{60}, "1 minute"}, {Inst{300}, "5 minute"}}});
  return v;
}

}  // namespace
}  // namespace linux_agent

void LinuxAgentInit(Pmda& dp) {
  using namespace linux_agent;
  dp.Dso(kPmdaInterface7, "linux DSO", dp.home() + "/help");
  if (dp.status() != 0) return;
  auto state = std::make_shared<LinuxState>();
  ReadEnvironment(*state);
  state->home = dp.home();
  dp.SetData(state.get());
  dp.SetFlags(kPmdaExtFlagHashed);
  dp.dispatch().fetch = [state](std::span<const PmID> ids, Result* result, Pmda& pmda) {
    Sources sources = 0;
    std::vector<unsigned> clusters;  // pressure files are read one by one
    uint32_t families = 0;  // bit i: kFamilies[i] is wanted
    for (PmID id : ids) {
      if (const PmdaMetric* m = pmda.FindMetric(id)) {
        const MetricRow& row = agent_tables::RowOf(*m);
        const Sources s = SourcesOf(row);
        if (s & kSrcPressure) clusters.push_back(row.cluster);
        sources |= s;
        for (size_t i = 0; i < std::size(kFamilies); ++i) {
          if (kFamilies[i].cluster == row.cluster) families |= 1u << i;
        }
      }
    }
    Refresh(*state, sources, pmda, clusters);
    for (size_t i = 0; i < std::size(kFamilies); ++i) {
      if (families & (1u << i)) kFamilies[i].refresh(*state, pmda);
    }
    return pmda.DefaultFetch(ids, result);
  };
  dp.dispatch().instance = [state](InDom indom, Inst inst, const std::string* name, Pmda& pmda) {
    const unsigned serial = InDomSerial(indom);
    if (Sources s = SourceOfIndom(serial)) Refresh(*state, s, pmda);
    for (const Family& f : kFamilies) {
      if (f.indom == serial) f.refresh(*state, pmda);
    }
    return pmda.DefaultInstance(indom, inst, name);
  };
  dp.SetFetchCallback([state](const PmdaMetric& m, Inst inst, AtomValue* atom) {
    return FetchValue(*state, agent_tables::RowOf(m), inst, atom);
  });
  dp.Init(Indoms(), Metrics());
}

}  // namespace pmapi
