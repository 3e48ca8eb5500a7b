// mem.zoneinfo.* of the Linux agent, from /proc/zoneinfo: one instance per
// memory zone of each node ("Normal::node0"; zones with no pages present
// are left out) and one per node for the statistics the kernel keeps per
// node ("node0"); and mem.zoneinfo.protection, one instance per zone and
// lower zone ("DMA::node0::lowmem_reserved1"). Every value is in pages in
// the file and given in kilobytes, as PCP's agent gives them.
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// Starts an entry of `name`, or finds the one already started; returns
// its index.
size_t Entry(std::vector<Zone>& zones, InstanceNumbers& ids, const std::string& name) {
  for (size_t i = 0; i < zones.size(); ++i) {
    if (zones[i].name == name) return i;
  }
  zones.push_back(Zone{ids.For(name), name, {}, true});
  return zones.size() - 1;
}

// "(0, 3018, 9546)" after "protection:".
void Protection(LinuxState& st, absl::string_view list, const std::string& zone) {
  absl::ConsumePrefix(&list, "(");
  absl::ConsumeSuffix(&list, ")");
  unsigned k = 0;
  for (absl::string_view v : absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    uint64_t n;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(v), &n)) break;
    const std::string name = absl::StrCat(zone, "::lowmem_reserved", k++);
    st.protection.push_back(Zone{st.prot_ids.For(name), name, {{"protection", n}}, true});
  }
}

}  // namespace

void RefreshZoneinfo(LinuxState& st, Pmda& pmda) {
  st.zones.clear();
  st.protection.clear();
  constexpr size_t kNone = ~size_t{0};
  size_t zone = kNone;  // the zone section being read
  size_t into = kNone;  // where its values go (the zone or its node)
  for (absl::string_view line : absl::StrSplit(ReadText(st, "/proc/zoneinfo"), '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> w = absl::StrSplit(line, absl::ByAnyChar(" \t,"), absl::SkipEmpty());
    if (w.empty()) continue;
    unsigned node;
    if (w[0] == "Node" && w.size() >= 4 && w[2] == "zone" && absl::SimpleAtoi(w[1], &node)) {
      zone = into = Entry(st.zones, st.zone_ids, absl::StrCat(w[3], "::node", node));
      st.zones[zone].values.clear();
      st.zones[zone].node = node;
      continue;
    }
    if (zone == kNone) continue;
    if (w[0] == "per-node" && w.size() >= 2 && w[1] == "stats") {
      into = Entry(st.zones, st.zone_ids, absl::StrCat("node", st.zones[zone].node));
      st.zones[into].values.clear();
      continue;
    }
    if (w[0] == "protection:") {
      Protection(st, line.substr(line.find('(')), st.zones[zone].name);
      continue;
    }
    if (w[0] == "pages") into = zone;
    std::string key(w[0]);
    size_t value_at = 1;
    if (w[0] == "pages" && w.size() >= 3 && w[1] == "free") key = "free", value_at = 2;
    if (key == "node_scanned") key = "scanned";
    uint64_t v;
    if (value_at < w.size() && absl::SimpleAtoi(w[value_at], &v)) st.zones[into].values.try_emplace(key, v);
  }
  for (Zone& z : st.zones) {
    auto present = z.values.find("present");
    z.listed = z.name.find("::") == std::string::npos || (present != z.values.end() && present->second != 0);
  }
  std::vector<PmdaInstid> set, prot;
  for (const Zone& z : st.zones) {
    if (z.listed) set.push_back({z.inst, z.name});
  }
  for (const Zone& z : st.protection) prot.push_back({z.inst, z.name});
  SetInstances(pmda, kZoneIndom, std::move(set));
  SetInstances(pmda, kZoneProtectionIndom, std::move(prot));
}

// The /proc/zoneinfo line a mem.zoneinfo metric is read from ("" for
// nr_free_pages, which PCP's agent does not read).
absl::string_view KeyOf(const MetricRow& r) {
  const absl::string_view leaf = agent_tables::Leaf(r);
  if (leaf == "nr_free_pages") return "";
  if (leaf == "workingset_active_anon") return "workingset_activate_anon";
  if (leaf == "workingset_active_file") return "workingset_activate_file";
  return leaf;
}

int FetchZoneinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const std::vector<Zone>& list = r.cluster == 70 ? st.protection : st.zones;
  const absl::string_view key = r.cluster == 70 ? absl::string_view("protection") : KeyOf(r);
  for (const Zone& z : list) {
    if (z.inst != inst || !z.listed) continue;
    auto it = z.values.find(key);
    if (it == z.values.end()) return 0;
    atom->ull = it->second * st.pagesize / 1024;
    return 1;
  }
  return kErrInst;
}

}  // namespace pmapi::linux_agent
