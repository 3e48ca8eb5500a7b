// The mem.*, swap.{length,used,free} and hinv memory metrics of the Linux
// agent: /proc/meminfo, /proc/vmstat and /sys/devices/system/node/nodeN.
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// mem.util and friends (cluster 1) whose value is one /proc/meminfo field
// as it stands (kilobytes, or pages for the HugePages counts).
struct MeminfoItem {
  unsigned item;
  const char* field;
};
constexpr MeminfoItem kMeminfoItems[] = {
    {0, "MemTotal"}, {2, "MemFree"}, {3, "MemShared"}, {4, "Buffers"}, {5, "Cached"},
    {10, "MemFree"}, {13, "SwapCached"}, {14, "Active"}, {15, "Inactive"}, {16, "HighTotal"},
    {17, "HighFree"}, {18, "LowTotal"}, {19, "LowFree"}, {20, "SwapTotal"}, {21, "SwapFree"},
    {22, "Dirty"}, {23, "Writeback"}, {24, "Mapped"}, {25, "Slab"}, {26, "Committed_AS"},
    {27, "PageTables"}, {28, "ReverseMaps"}, {30, "AnonPages"}, {31, "CommitLimit"}, {32, "Bounce"},
    {33, "NFS_Unstable"}, {34, "SReclaimable"}, {35, "SUnreclaim"}, {36, "Active(anon)"},
    {37, "Inactive(anon)"}, {38, "Active(file)"}, {39, "Inactive(file)"}, {40, "Unevictable"},
    {41, "Mlocked"}, {42, "Shmem"}, {43, "KernelStack"}, {44, "HugePages_Total"},
    {45, "HugePages_Free"}, {46, "HugePages_Rsvd"}, {47, "HugePages_Surp"}, {48, "DirectMap4k"},
    {49, "DirectMap2M"}, {50, "VmallocTotal"}, {51, "VmallocUsed"}, {52, "VmallocChunk"},
    {53, "MmapCopy"}, {54, "Quicklists"}, {55, "HardwareCorrupted"}, {56, "AnonHugePages"},
    {57, "DirectMap1G"}, {58, "MemAvailable"},
};

// mem.numa.util and mem.numa.alloc (cluster 36): a nodeN/meminfo field
// (items 0-31) or a nodeN/numastat field (32-37).
constexpr const char* kNumaFields[] = {
    "MemTotal", "MemFree", "MemUsed", "Active", "Inactive", "Active(anon)", "Inactive(anon)",
    "Active(file)", "Inactive(file)", "HighTotal", "HighFree", "LowTotal", "LowFree", "Unevictable",
    "Mlocked", "Dirty", "Writeback", "FilePages", "Mapped", "AnonPages", "Shmem", "KernelStack",
    "PageTables", "NFS_Unstable", "Bounce", "WritebackTmp", "Slab", "SReclaimable", "SUnreclaim",
    "HugePages_Total", "HugePages_Free", "HugePages_Surp", "numa_hit", "numa_miss", "numa_foreign",
    "interleave_hit", "local_node", "other_node",
};

using FieldMap = absl::flat_hash_map<std::string, uint64_t>;

bool Get(const FieldMap& m, absl::string_view key, uint64_t* v) {
  auto it = m.find(key);
  if (it == m.end()) return false;
  *v = it->second;
  return true;
}

// "Node 0 MemTotal:  123 kB" lines, in order.
std::vector<std::pair<std::string, uint64_t>> ParseNodeMeminfo(absl::string_view text) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    uint64_t v;
    if (f.size() >= 4 && absl::EndsWith(f[2], ":") && absl::SimpleAtoi(f[3], &v))
      out.emplace_back(std::string(f[2].substr(0, f[2].size() - 1)), v);
  }
  return out;
}

// The vmstat fields PCP knows, from the table's mem.vmstat.* names.
const absl::flat_hash_map<std::string, bool>& KnownVmstat() {
  static const auto* known = [] {
    auto* m = new absl::flat_hash_map<std::string, bool>;
    for (size_t i = 0; i < agent_tables::kMemRowsCount; ++i) {
      absl::string_view n = agent_tables::kMemRows[i].name;
      if (absl::StartsWith(n, "mem.vmstat.")) (*m)[std::string(n.substr(11))] = true;
    }
    return m;
  }();
  return *known;
}

// The totals PCP makes from the per-zone vmstat fields it knows, and the
// fields older kernels split.
void AddVmstatTotals(FieldMap& vm) {
  uint64_t steal = 0, kswapd = 0, direct = 0;
  for (const auto& [name, v] : vm) {
    if (!KnownVmstat().contains(name)) continue;
    if (absl::StartsWith(name, "pgsteal_")) steal += v;
    else if (absl::StartsWith(name, "pgscan_kswapd")) kswapd += v;
    else if (absl::StartsWith(name, "pgscan_direct")) direct += v;
  }
  vm["pgsteal_total"] = steal;
  vm["pgscan_kswapd_total"] = kswapd;
  vm["pgscan_direct_total"] = direct;
  uint64_t a = 0, b = 0;
  if (!vm.contains("nr_slab") && Get(vm, "nr_slab_reclaimable", &a) && Get(vm, "nr_slab_unreclaimable", &b))
    vm["nr_slab"] = a + b;
  if (!vm.contains("thp_split")) {
    a = b = 0;
    const bool have_page = Get(vm, "thp_split_page", &a);
    const bool have_failed = Get(vm, "thp_split_page_failed", &b);
    if (have_page || have_failed) vm["thp_split"] = a + b;
  }
}

void RefreshNuma(LinuxState& st) {
  for (Node& n : st.nodes) {
    const std::string dir = absl::StrCat("/sys/devices/system/node/node", n.num);
    n.meminfo_lines = ParseNodeMeminfo(ReadText(st, dir + "/meminfo"));
    n.numastat = ls::ParseVmstat(ReadText(st, dir + "/numastat"));
  }
}

int MeminfoValue(const LinuxState& st, unsigned item, AtomValue* atom) {
  const FieldMap& mi = st.meminfo;
  for (const MeminfoItem& m : kMeminfoItems) {
    if (m.item == item) return Get(mi, m.field, &atom->ull) ? 1 : 0;
  }
  uint64_t a = 0, b = 0, c = 0, d = 0;
  switch (item) {
    case 1:  // used
      if (!Get(mi, "MemTotal", &a) || !Get(mi, "MemFree", &b)) return 0;
      atom->ull = a - b;
      return 1;
    case 6: case 8:  // swap.length, swap.free, bytes
      if (!Get(mi, item == 6 ? "SwapTotal" : "SwapFree", &a)) return 0;
      atom->ull = a << 10;
      return 1;
    case 7:
      if (!Get(mi, "SwapTotal", &a) || !Get(mi, "SwapFree", &b)) return 0;
      atom->ull = (a - b) << 10;
      return 1;
    case 9:  // hinv.physmem, megabytes
      if (!Get(mi, "MemTotal", &a)) return 0;
      atom->ul = static_cast<uint32_t>(a >> 10);
      return 1;
    case 11: atom->ul = st.pagesize; return 1;
    case 12: {  // other: used less cache and buffers
      if (!Get(mi, "MemTotal", &a) || !Get(mi, "MemFree", &b) || !Get(mi, "Cached", &c) || !Get(mi, "Buffers", &d))
        return 0;
      const int64_t v = static_cast<int64_t>(a - b - c - d);
      atom->ull = v >= 0 ? static_cast<uint64_t>(v) : 0;
      return 1;
    }
    case 29: {  // cache_clean: cached less dirty and writeback
      if (!Get(mi, "Cached", &a) || !Get(mi, "Dirty", &b) || !Get(mi, "Writeback", &c)) return 0;
      const int64_t v = static_cast<int64_t>(a - b - c);
      atom->ull = v >= 0 ? static_cast<uint64_t>(v) : 0;
      return 1;
    }
    case 59:
      if (!Get(mi, "Hugepagesize", &a)) return 0;
      atom->ul = static_cast<uint32_t>(a << 10);
      return 1;
    case 60: case 61: case 62: case 63: {
      static constexpr const char* kCounts[] = {"HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp"};
      if (!Get(mi, kCounts[item - 60], &a) || !Get(mi, "Hugepagesize", &b)) return 0;
      atom->ull = a * (b << 10);
      return 1;
    }
  }
  return kErrPmid;
}

// A node's meminfo field as PCP finds it: the last line whose name ends
// in the field's name, so "Mapped" takes FilePmdMapped's value and
// "PageTables" SecPageTables' where the kernel lists those after.
bool NodeField(const Node& node, absl::string_view field, uint64_t* v) {
  bool found = false;
  for (const auto& [name, value] : node.meminfo_lines) {
    if (absl::EndsWith(name, field)) {
      *v = value;
      found = true;
    }
  }
  return found;
}

int NumaValue(const LinuxState& st, unsigned item, Inst inst, AtomValue* atom) {
  const Node* node = nullptr;
  for (const Node& n : st.nodes) {
    if (Inst{n.num} == inst) node = &n;
  }
  if (node == nullptr) return kErrInst;
  if (item < 32) return NodeField(*node, kNumaFields[item], &atom->ull) ? 1 : 0;
  if (item < 38) return Get(node->numastat, kNumaFields[item], &atom->ull) ? 1 : 0;
  if (item == 38) return BandwidthValue(st, node->num, atom);
  if (item >= 39 && item <= 41) {
    uint64_t pages = 0, size = 0;
    if (!Get(st.meminfo, "Hugepagesize", &size)) return 0;
    if (!NodeField(*node, kNumaFields[29 + item - 39], &pages)) return 0;
    atom->ull = pages * (size << 10);
    return 1;
  }
  return kErrPmid;
}

}  // namespace

void RefreshMem(LinuxState& st, Sources sources, Pmda&) {
  if (sources & (kSrcMeminfo | kSrcNuma)) st.meminfo = ls::ParseMeminfo(ReadText(st, "/proc/meminfo"));
  if (sources & kSrcVmstat) {
    st.vmstat = ls::ParseVmstat(ReadText(st, "/proc/vmstat"));
    if (!st.vmstat.empty()) AddVmstatTotals(st.vmstat);
  }
  if (sources & kSrcNuma) {
    RefreshNuma(st);
    RefreshBandwidth(st);
  }
}

int FetchMem(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  switch (r.cluster) {
    case 1: return MeminfoValue(st, r.item, atom);
    case 36: return NumaValue(st, r.item, inst, atom);
    case 28: {
      auto it = st.vmstat.find(agent_tables::Leaf(r));
      if (it == st.vmstat.end()) return 0;
      atom->ull = it->second;
      return 1;
    }
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
