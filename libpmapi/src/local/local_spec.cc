// The local agent table edited by pmSpecLocalPMDA-style specs; see
// local_spec.h.
#include "local_spec.h"

#include "local_pmda_spec.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "config_lookup.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"
#include "read_file.h"
#include "pmapi/local.h"
#include "pmapi/pmns.h"
#include "pmapi/types.h"

namespace pmapi {
namespace {

std::mutex table_mu;
std::optional<LocalAgentTable>& Table() {
  static auto* table = new std::optional<LocalAgentTable>;
  return *table;
}

// Builds the table from the configuration file, once (PCP's build_dsotab).
int BuildTable() {
  std::optional<LocalAgentTable>& t = Table();
  if (t.has_value()) return 0;
  const char* conf = ConfigLookup("PCP_PMCDCONF_PATH");
  std::string path = (conf && *conf) ? conf : DefaultLocalConfigPath();
  if (pmDebugOptions.context) std::fprintf(stderr, "build_dsotab: parsing %s\n", path.c_str());
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return PcpCode(text.status());
  LocalAgentTable table;
  size_t slash = path.rfind('/');
  table.config_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  table.agents = ParseAgentConfig(*text, table.config_dir, nullptr);
  t = std::move(table);
  return 0;
}

enum class Op { kAdd, kDel, kClear };

struct Spec {
  Op op = Op::kClear;
  int domain = -1;
  std::string path;
  std::string init;
};

// The spec as Apply takes it, from the one -K parser
// (local_pmda_spec.h); returns PCP's message for a bad one.
std::string Parse(std::string_view text, Spec* out) {
  absl::StatusOr<LocalPmdaOp> op = ParseLocalPmdaSpec(text);
  if (!op.ok()) return std::string(op.status().message());
  out->op = op->kind == LocalPmdaOp::kAdd ? Op::kAdd : op->kind == LocalPmdaOp::kDel ? Op::kDel : Op::kClear;
  out->domain = op->domain;
  out->path = op->path;
  out->init = op->init;
  return "";
}

// Paths of agents deleted since the table was built or cleared.
std::vector<std::string>& DeletedPaths() {
  static auto* paths = new std::vector<std::string>;
  return *paths;
}

int Apply(const Spec& spec) {
  if (spec.op == Op::kClear) {
    std::optional<LocalAgentTable>& t = Table();
    std::string dir = t.has_value() ? t->config_dir : ".";
    t = LocalAgentTable{{}, dir};
    DeletedPaths().clear();
    return 0;
  }
  if (int sts = BuildTable(); sts < 0) return sts;
  std::vector<AgentSpec>& agents = Table()->agents;
  if (spec.op == Op::kAdd) {
    AgentSpec a;
    size_t slash = spec.path.rfind('/');
    a.name = slash == std::string::npos ? spec.path : spec.path.substr(slash + 1);
    a.domain = spec.domain;
    a.dso = true;
    a.path = spec.path;
    a.init = spec.init;
    a.pmns_from_default = true;
    agents.push_back(std::move(a));
    return 0;
  }
  // PCP keeps a deleted agent's entry with no domain, so a later del by
  // the same path still finds it (and succeeds) while a del by its domain
  // does not.
  std::vector<std::string>* deleted_paths = &DeletedPaths();
  size_t before = agents.size();
  std::erase_if(agents, [&](const AgentSpec& a) {
    bool gone = (spec.domain != -1 && a.domain == spec.domain) || (!spec.path.empty() && a.path == spec.path);
    if (gone) deleted_paths->push_back(a.path);
    return gone;
  });
  if (agents.size() != before) return 0;
  for (const std::string& p : *deleted_paths) {
    if (!spec.path.empty() && p == spec.path) return 0;
  }
  return kErrIndom;
}

}  // namespace

namespace {

const char* OrNull(const std::string& s) { return s.empty() ? "(null)" : s.c_str(); }

// libpcp's -Dcontext trace of one change to the table: the request, then
// its failure if any, then the table.
void TraceRequest(const Spec& spec) {
  const char* op = spec.op == Op::kAdd ? "ADD" : spec.op == Op::kDel ? "DEL" : "CLEAR";
  std::fprintf(stderr, "__pmLocalPMDA(op=%s, domain=%d, name=%s, init=%s)\n", op, spec.domain, OrNull(spec.path),
               OrNull(spec.init));
}

void TraceTable(int sts) {
  if (sts != 0) std::fprintf(stderr, "__pmLocalPMDA -> %s\n", ErrStr(sts).c_str());
  const std::optional<LocalAgentTable>& t = Table();
  std::fprintf(stderr, "Local Context PMDA Table%s\n", !t.has_value() || t->agents.empty() ? " ... empty" : "");
  if (!t.has_value()) return;
  for (size_t i = 0; i < t->agents.size(); ++i) {
    const AgentSpec& a = t->agents[i];
    std::fprintf(stderr, "%p [%zu] domain=%d name=%s init=%s handle=%p\n", static_cast<const void*>(&a), i,
                 a.domain, OrNull(a.path), OrNull(a.init), static_cast<const void*>(nullptr));
  }
}

}  // namespace

std::string SpecLocalPmda(std::string_view text) {
  Spec spec;
  if (std::string bad = Parse(text, &spec); !bad.empty()) return bad;
  std::lock_guard<std::mutex> lock(table_mu);
  const bool trace = pmDebugOptions.context != 0;
  if (trace) TraceRequest(spec);
  int sts = Apply(spec);
  if (trace) TraceTable(sts);
  return sts < 0 ? absl::StrCat("__pmLocalPMDA: ", ErrStr(sts)) : "";
}

std::optional<LocalAgentTable> SpecifiedAgents() {
  std::lock_guard<std::mutex> lock(table_mu);
  return Table();
}

absl::StatusOr<Pmns> LoadDefaultPmns() {
  std::string path;
  if (const char* env = std::getenv("PMNS_DEFAULT"); env != nullptr && *env != '\0') {
    path = env;
  } else {
    const char* var = std::getenv("PCP_VAR_DIR");
    path = absl::StrCat((var && *var) ? var : "/var/lib/pcp", "/pmns/root");
  }
  absl::StatusOr<Pmns> pmns = Pmns::LoadFile(path);
  if (!pmns.ok()) {
    return PcpError(PcpCode(pmns.status()),
                    absl::StrCat("default name space ", path, ": ", pmns.status().message()));
  }
  return pmns;
}

absl::StatusOr<std::string> PmnsText(const Pmns& pmns, const std::function<std::string(const std::string&, PmID)>& entry) {
  absl::StatusOr<std::vector<std::string>> leaves = pmns.Traverse("");
  if (!leaves.ok()) return leaves.status();
  // each inner node's children, in the order first met
  std::map<std::string, std::vector<std::string>> children;
  std::vector<std::string> order;
  auto add_child = [&](const std::string& parent, const std::string& e) {
    auto [it, fresh] = children.try_emplace(parent);
    if (fresh) order.push_back(parent);
    for (const std::string& have : it->second)
      if (have == e) return;
    it->second.push_back(e);
  };
  for (const std::string& leaf : *leaves) {
    absl::StatusOr<PmID> id = pmns.LookupName(leaf);
    if (!id.ok()) continue;
    const std::string ident = entry(leaf, *id);
    if (ident.empty()) continue;
    std::string parent = "root";
    size_t start = 0;
    for (size_t dot = leaf.find('.'); dot != std::string::npos; dot = leaf.find('.', start)) {
      add_child(parent, leaf.substr(start, dot - start));
      parent = leaf.substr(0, dot);
      start = dot + 1;
    }
    add_child(parent, absl::StrCat(leaf.substr(start), " ", ident));
  }
  std::string text;
  for (const std::string& node : order) {
    absl::StrAppend(&text, node, " {\n");
    for (const std::string& e : children[node]) absl::StrAppend(&text, "\t", e, "\n");
    absl::StrAppend(&text, "}\n");
  }
  return text;
}

std::string EntryId(PmID id) {
  // the root of a subtree an agent serves itself is 511.DOMAIN.0
  if (IsDynamicRoot(id)) return absl::StrCat(PmIDCluster(id), ":*:*");
  return absl::StrCat(PmIDDomain(id), ":", PmIDCluster(id), ":", PmIDItem(id));
}

unsigned DomainOf(PmID id) { return IsDynamicRoot(id) ? PmIDCluster(id) : PmIDDomain(id); }

absl::StatusOr<std::string> DefaultPmnsSubtree(const Pmns& defaults, int domain) {
  return PmnsText(defaults, [domain](const std::string&, PmID id) {
    return DomainOf(id) == static_cast<unsigned>(domain) ? EntryId(id) : std::string();
  });
}

absl::StatusOr<std::string> DefaultPmnsUnserved(const Pmns& defaults, const std::function<bool(unsigned)>& served,
                                                const Pmns& have) {
  return PmnsText(defaults, [&](const std::string& leaf, PmID id) {
    if (served(DomainOf(id))) return std::string();
    // a name, or a name above it, the agents' names already hold
    for (size_t dot = leaf.find('.'); dot != std::string::npos; dot = leaf.find('.', dot + 1)) {
      const PmnsMatch::Kind k = have.Resolve(leaf.substr(0, dot)).kind;
      if (k == PmnsMatch::Kind::kLeaf || k == PmnsMatch::Kind::kDynamic) return std::string();
    }
    return have.Resolve(leaf).kind == PmnsMatch::Kind::kMissing ? EntryId(id) : std::string();
  });
}

}  // namespace pmapi
