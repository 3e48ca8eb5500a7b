// proc_names.cc: the names of the proc agent's metrics, served by the
// agent itself. PCP's name space marks proc.psinfo, proc.memory, proc.id
// and the like as subtrees its proc agent names (3:*:*), so a local
// context built on PCP's default name space asks the agent for them.
#include "pmdas/proc/proc_names.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmapi/errors.h"
#include "pmapi/pmns.h"
#include "pmdas/common/metric_table.h"

namespace pmapi::proc_agent {
namespace {

using agent_tables::MetricRow;

std::span<const MetricRow> Rows() { return {agent_tables::kProcRows, agent_tables::kProcRowsCount}; }

absl::StatusOr<PmID> PmidOfName(std::string_view name, Pmda& pmda) {
  for (const MetricRow& r : Rows()) {
    if (name == r.name) return MakePmID(pmda.domain(), r.cluster, r.item);
  }
  return PcpError(kErrName);
}

absl::StatusOr<std::vector<std::string>> NamesOfPmid(PmID id, Pmda& pmda) {
  std::vector<std::string> out;
  if (PmIDDomain(id) != static_cast<unsigned>(pmda.domain())) return PcpError(kErrPmid);
  for (const MetricRow& r : Rows()) {
    if (r.cluster == PmIDCluster(id) && r.item == PmIDItem(id)) out.emplace_back(r.name);
  }
  if (out.empty()) return PcpError(kErrPmid);
  return out;
}

// The children of `name` in table order (each once), or with `traverse`
// every leaf below it by its full name; a leaf has none.
absl::StatusOr<std::vector<PmnsChild>> ChildrenOf(std::string_view name, bool traverse, Pmda&) {
  const std::string prefix = std::string(name) + ".";
  std::vector<PmnsChild> out;
  bool leaf = false;
  for (const MetricRow& r : Rows()) {
    std::string_view full(r.name);
    if (full == name) leaf = true;
    if (full.substr(0, prefix.size()) != prefix) continue;
    if (traverse) {
      out.push_back(PmnsChild{std::string(full), kPmnsLeafStatus});
      continue;
    }
    std::string_view rest = full.substr(prefix.size());
    const size_t dot = rest.find('.');
    PmnsChild c{std::string(rest.substr(0, dot)), dot == std::string_view::npos ? kPmnsLeafStatus : kPmnsNonLeafStatus};
    bool seen = false;
    for (const PmnsChild& o : out) seen = seen || o.name == c.name;
    if (!seen) out.push_back(std::move(c));
  }
  if (out.empty() && !leaf) return PcpError(kErrName);
  return out;
}

}  // namespace

void InstallProcNames(Pmda& dp) {
  dp.dispatch().pmid = PmidOfName;
  dp.dispatch().name = NamesOfPmid;
  dp.dispatch().children = ChildrenOf;
}

}  // namespace pmapi::proc_agent
