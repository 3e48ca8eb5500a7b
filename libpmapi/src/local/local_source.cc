#include "local_source.h"

#include <dlfcn.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "config_lookup.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"
#include "pmapi/local.h"
#include "c_pmda_host.h"
#include "context_labels.h"
#include "local_spec.h"
#include "elf_needed.h"
#include "pcp_agent_binding.h"
#include "pmda_builtin.h"
#include "read_file.h"
#include "result_builder.h"

namespace pmapi {

// An agent's shared object stays loaded once opened, as libpcp keeps it
// (it unloads one only when the program deletes the agent from its
// table): agents start threads of their own (PCP's perfevent agent does)
// that may still be running when the last context using them closes.
struct DsoLibrary {
  std::string path;
  void* handle = nullptr;
  bool pcp_built = false;  // linked with PCP's libpcp_pmda or libpcp
  std::mutex mu;
};

namespace {

// How deep a walk goes into a subtree an agent serves (an agent that keeps
// answering with inner nodes cannot make it recurse without end).
constexpr int kMaxDynamicDepth = 64;

// Shared objects are opened once per process and shared by the contexts
// that use them, so calls into one are serialised by its mutex.
std::mutex dso_registry_mu;
std::map<std::string, std::weak_ptr<DsoLibrary>>& DsoRegistry() {
  static auto* registry = new std::map<std::string, std::weak_ptr<DsoLibrary>>;
  return *registry;
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Where an agent's shared object is, looked for as PCP's local context
// looks: the path as given, then below $PCP_PMDAS_DIR, then either with
// ".so" added; nullopt (with PCP's warning in *missing) when none exists.
std::optional<std::string> FindDso(const std::string& name, std::string* missing) {
  const char* dir = ConfigLookup("PCP_PMDAS_DIR");
  const std::string pmdas = dir != nullptr ? dir : "";
  for (const std::string& path : {name, absl::StrCat(pmdas, "/", name), absl::StrCat(pmdas, "/", name, ".so"),
                                  absl::StrCat(name, ".so")}) {
    if (access(path.c_str(), F_OK) == 0) return path;
  }
  *missing = absl::StrCat("cannot find DSO at \"", name, ".so\" or \"", name, "\"");
  return std::nullopt;
}

// An agent built by PCP (linked with its libpcp_pmda and libpcp) is made
// to bind to this library before dlopen, which would otherwise load PCP's
// libraries into this process (pcp_agent_binding.h); *pcp_built says it
// is one. A file that cannot be read or parsed is left to dlopen, which
// reports it.
absl::Status PrepareForAgent(const std::string& path, bool* pcp_built) {
  absl::StatusOr<std::string> image = ReadWholeFile(path);
  if (!image.ok()) return absl::OkStatus();
  absl::StatusOr<std::vector<std::string>> needed = ElfNeeded(*image);
  if (!needed.ok() || !NeedsPcpLibrary(*needed)) return absl::OkStatus();
  *pcp_built = true;
  return BindPcpLibraries(path, *needed);
}

absl::StatusOr<std::shared_ptr<DsoLibrary>> OpenDso(const std::string& path) {
  std::lock_guard<std::mutex> lock(dso_registry_mu);
  auto& registry = DsoRegistry();
  if (auto it = registry.find(path); it != registry.end()) {
    if (std::shared_ptr<DsoLibrary> lib = it->second.lock()) return lib;
  }
  // Checked once per object opened, not per context. Failures read as
  // PCP's "error attaching" warning: the object, then the reason.
  bool pcp_built = false;
  if (absl::Status refused = PrepareForAgent(path, &pcp_built); !refused.ok())
    return PcpErrorWithMessage(kErrGeneric, absl::StrCat("error attaching DSO \"", path, "\"\n", refused.message(), "\n"));
  auto lib = std::make_shared<DsoLibrary>();
  lib->path = path;
  lib->pcp_built = pcp_built;
  lib->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib->handle == nullptr) {
    const char* err = dlerror();
    return PcpErrorWithMessage(kErrGeneric, absl::StrCat("error attaching DSO \"", path, "\"\n", err ? err : "", "\n"));
  }
  registry[path] = lib;
  return lib;
}


// Copies value set `vs` of `from` to the end of *to.
void CopySet(const Result& from, const ValueSet& vs, Result* to) {
  to->AddSet(vs.pmid, vs.numval, vs.valfmt);
  for (int j = 0; j < vs.numval; ++j) {
    const ResultBuilder::StoredValue& s = ResultBuilder::Stored(from, vs, j);
    if (vs.valfmt == kValInsitu) {
      to->AddInsitu(s.inst, s.lval);
    } else {
      to->AddBlock(s.inst, s.vtype, from.value(vs, j).payload);
    }
  }
}

// Gives every label of `sets` the level bit (pmdaAddLabelFlags).
void MarkLevel(std::vector<LabelSet>* sets, int level) {
  for (LabelSet& s : *sets) {
    for (LabelEntry& l : s.labels) l.flags |= static_cast<uint8_t>(level);
  }
}

// The number of the local context being opened on this thread (-1: none
// set), and the next number when none is.
thread_local int opening_context = -1;
std::atomic<int> next_local_context{0};

int TakeContextNumber() {
  if (opening_context >= 0) return opening_context;
  return next_local_context.fetch_add(1);
}

}  // namespace

void SetOpeningContextNumber(int number) { opening_context = number; }

std::unique_lock<std::mutex> LocalSource::Agent::Lock() {
  return dso ? std::unique_lock<std::mutex>(dso->mu) : std::unique_lock<std::mutex>();
}

LocalSource::~LocalSource() {
  // agents go before the shared objects their code lives in
  for (auto& a : agents_) {
    auto lock = a->Lock();
    a->pmda.reset();
  }
}

std::unique_ptr<LocalSource> LocalSource::Create(const std::vector<AgentSpec>& specs,
                                                 const std::string& config_dir,
                                                 std::vector<std::string>* warnings) {
  std::unique_ptr<LocalSource> src(new LocalSource());
  src->client_context_ = TakeContextNumber();
  for (const AgentSpec& spec : specs) src->Load(spec, config_dir, warnings);
  src->AddUnservedDefaultNames();
  src->default_names_.reset();  // needed only while the names are built
  return src;
}

const absl::StatusOr<Pmns>& LocalSource::DefaultNames() {
  if (!default_names_) default_names_ = LoadDefaultPmns();
  return *default_names_;
}

void LocalSource::AddUnservedDefaultNames() {
  // without a default name space, the agents' names are all there is
  const absl::StatusOr<Pmns>& defaults = DefaultNames();
  if (!defaults.ok()) return;
  absl::StatusOr<std::string> text =
      DefaultPmnsUnserved(*defaults, [this](unsigned domain) { return AgentFor(domain) != nullptr; }, names_);
  if (text.ok() && !text->empty()) (void)names_.AddAgentNames(*text, 0, "default name space");
}

void LocalSource::Load(const AgentSpec& spec, const std::string& config_dir,
                       std::vector<std::string>* warnings) {
  // Kept for the caller when it asks for them, else printed as PCP's
  // local context prints them (pmprintf, then pmflush).
  auto warn = [&](const std::string& what) {
    if (warnings) {
      warnings->push_back(absl::StrCat("agent \"", spec.name, "\": ", what));
    } else {
      pmprintf("__pmConnectLocal: Warning: %s\n", what.c_str());
      pmflush();
    }
  };
  // Conditions PCP's local context does not report: kept for a caller
  // that asks, not printed.
  auto note = [&](const std::string& what) {
    if (warnings) warnings->push_back(absl::StrCat("agent \"", spec.name, "\": ", what));
  };
  if (AgentFor(spec.domain) != nullptr) {
    note(absl::StrCat("domain ", spec.domain, " already has an agent"));
    return;
  }
  std::string pmns = spec.pmns.empty() ? absl::StrCat(config_dir, "/root_", spec.name) : spec.pmns;
  if (spec.pmns_from_default) {
    const absl::StatusOr<Pmns>& defaults = DefaultNames();
    absl::StatusOr<std::string> text = defaults.ok() ? DefaultPmnsSubtree(*defaults, spec.domain) : defaults.status();
    absl::Status s = text.ok() ? names_.AddAgentNames(*text, spec.domain, "default name space") : text.status();
    if (!s.ok()) note(s.ToString());
  } else if (absl::StatusOr<std::string> text = ReadWholeFile(pmns); text.ok()) {
    if (absl::Status s = names_.AddAgentNames(*text, spec.domain, pmns); !s.ok()) note(s.ToString());
  } else if (!spec.pmns.empty()) {
    note(absl::StrCat("cannot read namespace file: ", text.status().ToString()));
  }

  auto agent = std::make_unique<Agent>();
  agent->name = spec.name;
  agent->pmda = std::make_unique<Pmda>(spec.domain);
  HelpFile::NameResolver resolve = [this](std::string_view n) -> absl::StatusOr<PmID> {
    PmnsMatch m = names_.Resolve(n);
    if (m.kind == PmnsMatch::Kind::kLeaf) return m.pmid;
    return PcpError(kErrName);
  };
  agent->pmda->SetNameResolver(resolve);
  PmdaInitFunction builtin = nullptr;
  void (*dso_init)(Pmda*) = nullptr;
  CPmdaInit c_init = nullptr;
  if (spec.dso) {
    std::string missing;
    const std::optional<std::string> found = FindDso(spec.path, &missing);
    if (!found) {
      warn(missing);
      return;
    }
    absl::StatusOr<std::shared_ptr<DsoLibrary>> lib = OpenDso(*found);
    if (!lib.ok()) {
      warn(std::string(lib.status().message()));
      return;
    }
    agent->dso = *lib;
    const int* abi = static_cast<const int*>(dlsym(agent->dso->handle, "pmapi_pmda_abi"));
    if (abi != nullptr && *abi != kPmdaAbiVersion) {
      warn(absl::StrCat("\"", spec.path, "\" is a pmapi agent of another version (pmapi_pmda_abi ", *abi, ")"));
      return;
    }
    void* sym = dlsym(agent->dso->handle, spec.init.c_str());
    // without the marker, a C agent whose init function takes pmdaInterface*
    if (abi == nullptr) {
      c_init = reinterpret_cast<CPmdaInit>(sym);
    } else {
      dso_init = reinterpret_cast<void (*)(Pmda*)>(sym);
    }
    if (sym == nullptr) {
      warn(absl::StrCat("couldn't find init function \"", spec.init, "\" in DSO \"", spec.path, "\""));
      return;
    }
    agent->pmda->set_home(DirName(*found));
  } else {
    builtin = FindBuiltinAgent(spec.init);
    if (builtin == nullptr) {
      warn(absl::StrCat("no built-in agent with init function \"", spec.init, "\""));
      return;
    }
    agent->pmda->set_home(spec.path.empty() ? config_dir : spec.path);
  }
  {
    auto lock = agent->Lock();
    if (c_init) {
      CAgentHosting how;
      how.client_context = client_context_;
      how.collect = warnings != nullptr;
      how.pcp_built = agent->dso->pcp_built;
      absl::Status s = HostCAgent(c_init, spec.init, spec.path, resolve, agent->pmda.get(), how);
      if (warnings) {
        for (const std::string& d : agent->pmda->diagnostics()) warn(d);
      }
      if (!s.ok()) {
        warn(absl::StrCat("initialization routine \"", spec.init, "\" failed in DSO \"", spec.path, "\": ",
                          s.message()));
        return;
      }
      agents_.push_back(std::move(agent));
      return;
    }
    if (dso_init) {
      dso_init(agent->pmda.get());
    } else {
      builtin(*agent->pmda);
    }
  }
  Pmda& p = *agent->pmda;
  for (const std::string& d : p.diagnostics()) {
    if (warnings) {
      warn(d);
    } else {
      pmNotifyErr(LOG_WARNING, "%s", d.c_str());
    }
  }
  if (p.status() != 0 || p.interface() < kPmdaInterface2) {
    warn(absl::StrCat("initialization routine \"", spec.init, "\" failed: ", ErrStr(p.status() ? p.status() : kErrGeneric)));
    return;
  }
  agents_.push_back(std::move(agent));
}

LocalSource::Agent* LocalSource::AgentFor(unsigned domain) {
  for (auto& a : agents_) {
    if (static_cast<unsigned>(a->pmda->domain()) == domain) return a.get();
  }
  return nullptr;
}

std::vector<int> LocalSource::Domains() const {
  std::vector<int> out;
  for (const auto& a : agents_) out.push_back(a->pmda->domain());
  return out;
}

std::string LocalSource::HostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "localhost";
  return buf;
}

absl::StatusOr<PmID> LocalSource::LookupName(std::string_view name) {
  PmnsMatch m = names_.Resolve(name);
  switch (m.kind) {
    case PmnsMatch::Kind::kLeaf:
      return m.pmid;
    case PmnsMatch::Kind::kNonLeaf:
      return PcpError(kErrNonleaf);
    case PmnsMatch::Kind::kMissing:
      return PcpError(kErrName);
    case PmnsMatch::Kind::kDynamic:
      break;
  }
  // The root's own name is a name of the name space, as in PCP: it looks
  // up to the root's PMID (which has no descriptor and no name back).
  if (m.at_root) return m.pmid;
  return LookupAgentName(name, DynamicRootDomain(m.pmid));
}

absl::StatusOr<PmID> LocalSource::LookupAgentName(std::string_view name, unsigned domain) {
  Agent* a = AgentFor(domain);
  if (a == nullptr) return PcpError(kErrNoagent);
  auto lock = a->Lock();
  return a->pmda->dispatch().pmid(name, *a->pmda);
}

absl::StatusOr<std::vector<std::string>> LocalSource::NameAll(PmID id) {
  if (absl::StatusOr<std::vector<std::string>> names = names_.NameAll(id); names.ok()) return names;
  Agent* a = AgentFor(PmIDDomain(id));
  if (a == nullptr || a->pmda->interface() < kPmdaInterface4) return PcpError(kErrPmid);
  auto lock = a->Lock();
  return a->pmda->dispatch().name(id, *a->pmda);
}

absl::StatusOr<std::vector<PmnsChild>> LocalSource::Children(std::string_view name) {
  PmnsMatch m = names_.Resolve(name);
  switch (m.kind) {
    case PmnsMatch::Kind::kLeaf:
      return std::vector<PmnsChild>{};
    case PmnsMatch::Kind::kNonLeaf:
      return names_.Children(name);
    case PmnsMatch::Kind::kMissing:
      return PcpError(kErrName);
    case PmnsMatch::Kind::kDynamic:
      break;
  }
  return AgentChildren(name, DynamicRootDomain(m.pmid));
}

absl::StatusOr<std::vector<PmnsChild>> LocalSource::AgentChildren(std::string_view name, unsigned domain) {
  Agent* a = AgentFor(domain);
  if (a == nullptr) return PcpError(kErrNoagent);
  auto lock = a->Lock();
  return a->pmda->dispatch().children(name, false, *a->pmda);
}

// A subtree an agent serves is walked depth first, one level of children
// at a time in the agent's order, as libpcp walks it; a node with no
// children counts as a leaf.
absl::StatusOr<int> LocalSource::TraverseAgentLevel(const std::string& path, unsigned domain, int depth,
                                                    const std::function<void(const std::string&)>& visit) {
  Agent* a = AgentFor(domain);
  if (a == nullptr) return PcpError(kErrNoagent);
  absl::StatusOr<std::vector<PmnsChild>> kids;
  {
    auto lock = a->Lock();
    kids = a->pmda->dispatch().children(path, false, *a->pmda);
  }
  if (!kids.ok()) return kids.status();
  int visited = 0;
  for (const PmnsChild& c : *kids) {
    std::string child = absl::StrCat(path, ".", c.name);
    absl::StatusOr<int> below = 0;
    if (c.status != kPmnsLeafStatus && depth < kMaxDynamicDepth) below = TraverseAgentLevel(child, domain, depth + 1, visit);
    if (!below.ok()) return below.status();
    if (*below == 0) visit(child);
    visited += *below == 0 ? 1 : *below;
  }
  return visited;
}

// A name the agent serves with no children is a leaf: itself.
absl::Status LocalSource::TraverseAgent(std::string_view name, unsigned domain,
                                        const std::function<void(const std::string&)>& visit) {
  absl::StatusOr<int> n = TraverseAgentLevel(std::string(name), domain, 0, visit);
  if (n.ok() && *n == 0) visit(std::string(name));
  return n.ok() ? absl::OkStatus() : n.status();
}

absl::Status LocalSource::Traverse(std::string_view name,
                                   const std::function<void(const std::string&)>& visit) {
  PmnsMatch m = names_.Resolve(name);
  switch (m.kind) {
    case PmnsMatch::Kind::kMissing:
      return PcpError(kErrName);
    case PmnsMatch::Kind::kDynamic:
      return TraverseAgent(name, DynamicRootDomain(m.pmid), visit);
    default:
      return names_.Walk(name, [&](const std::string& path, PmID id) {
        if (IsDynamicRoot(id)) {
          // a subtree whose agent is not here is passed over, as PCP does
          if (AgentFor(DynamicRootDomain(id)) == nullptr) return absl::OkStatus();
          absl::StatusOr<int> n = TraverseAgentLevel(path, DynamicRootDomain(id), 0, visit);
          return n.ok() ? absl::OkStatus() : n.status();
        }
        visit(path);
        return absl::OkStatus();
      });
  }
}

absl::StatusOr<Desc> LocalSource::LookupDesc(PmID id) {
  Agent* a = AgentFor(PmIDDomain(id));
  if (a == nullptr) return PcpError(kErrNoagent);
  auto lock = a->Lock();
  return a->pmda->dispatch().desc(id, *a->pmda);
}

absl::StatusOr<PmdaInResult> LocalSource::Instances(InDom indom, Inst inst, const std::string* name) {
  Agent* a = AgentFor(InDomDomain(indom));
  if (a == nullptr) return PcpError(kErrNoagent);
  auto lock = a->Lock();
  return a->pmda->dispatch().instance(indom, inst, name, *a->pmda);
}

absl::StatusOr<std::vector<Instance>> LocalSource::GetInDom(InDom indom) {
  absl::StatusOr<PmdaInResult> r = Instances(indom, kInNull, nullptr);
  if (!r.ok()) return r.status();
  if (r->insts.size() != r->names.size()) return PcpError(kErrGeneric);
  std::vector<Instance> out;
  for (size_t i = 0; i < r->insts.size(); ++i) out.push_back(Instance{r->insts[i], r->names[i]});
  return out;
}

absl::StatusOr<std::string> LocalSource::NameInDom(InDom indom, Inst inst) {
  if (inst == kInNull) return PcpError(kErrInst);
  absl::StatusOr<PmdaInResult> r = Instances(indom, inst, nullptr);
  if (!r.ok()) return r.status();
  if (r->names.size() != 1) return PcpError(kErrInst);
  return r->names[0];
}

absl::StatusOr<Inst> LocalSource::LookupInDom(InDom indom, std::string_view name) {
  std::string n(name);
  absl::StatusOr<PmdaInResult> r = Instances(indom, kInNull, &n);
  if (!r.ok()) return r.status();
  if (r->insts.size() != 1) return PcpError(kErrInst);
  return r->insts[0];
}

absl::StatusOr<std::string> LocalSource::LookupText(uint32_t ident, int kind) {
  // PMIDs and indoms keep the domain in the same bits
  Agent* a = AgentFor(PmIDDomain(PmID{ident}));
  if (a == nullptr) return PcpError(kErrNoagent);
  auto lock = a->Lock();
  return a->pmda->dispatch().text(ident, kind, *a->pmda);
}

absl::StatusOr<std::vector<LabelSet>> LocalSource::ContextLabels() {
  absl::StatusOr<LabelSet> set = LocalContextLabels(SysconfDir());
  if (!set.ok()) return set.status();
  return std::vector<LabelSet>{*std::move(set)};
}

absl::StatusOr<std::vector<LabelSet>> LocalSource::LookupLabels(int level, uint32_t ident) {
  unsigned domain = 0;
  switch (level) {
    case kLabelContext:
      return ContextLabels();
    case kLabelDomain:
      domain = ident <= 0x1ff ? ident : PmIDDomain(PmID{ident});
      break;
    case kLabelInDom:
    case kLabelInstances:
    case kLabelCluster:
    case kLabelItem:
      domain = PmIDDomain(PmID{ident});  // an InDom keeps its domain in the same bits
      break;
    default:
      return PcpError(kErrType);
  }
  Agent* a = AgentFor(domain);
  if (a == nullptr) return PcpError(kErrNoagent);
  const uint32_t id = level == kLabelDomain ? domain : ident;
  absl::StatusOr<std::vector<LabelSet>> sets;
  {
    auto lock = a->Lock();
    sets = a->pmda->dispatch().label(id, level, *a->pmda);
  }
  if (sets.ok()) MarkLevel(&*sets, level);
  return sets;
}

void LocalSource::FetchFrom(Agent* agent, std::span<const PmID> ids, const Profile& profile,
                            Result* out, int* state_change) {
  auto lock = agent->Lock();
  Pmda& p = *agent->pmda;
  absl::Status s = p.dispatch().profile(profile, p);
  if (s.ok()) s = p.dispatch().fetch(ids, out, p);
  if (state_change) *state_change |= p.TakeStateChanges();
  if (s.ok() && out->numpmid() == static_cast<int>(ids.size())) {
    bool same = true;
    for (size_t i = 0; i < ids.size(); ++i) same = same && out->sets()[i].pmid == ids[i];
    if (same) return;
    s = PcpError(kErrGeneric);
  } else if (s.ok()) {
    s = PcpError(kErrGeneric);
  }
  // a whole-request failure: every metric of this agent carries the code
  out->Clear();
  for (PmID id : ids) out->AddSet(id, PcpCode(s), kValInsitu);
}

namespace {

// The collection time, as pmcd stamps a result: the wall clock.
int64_t WallClockNanos() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace

absl::StatusOr<Result> LocalSource::Fetch(std::span<const PmID> ids, const Profile& profile,
                                          int* state_change) {
  if (!ids.empty()) {
    // The common request, every metric of one agent: the agent's answer
    // is the result, with no regrouping or copying.
    const unsigned d = PmIDDomain(ids[0]);
    bool one_domain = true;
    for (PmID id : ids) one_domain = one_domain && PmIDDomain(id) == d;
    if (Agent* a = one_domain ? AgentFor(d) : nullptr; a != nullptr) {
      Result r;
      FetchFrom(a, ids, profile, &r, state_change);
      r.set_timestamp_ns(WallClockNanos());
      return r;
    }
  }
  // one request per agent, in the order of first appearance
  std::vector<unsigned> domains;
  std::map<unsigned, std::vector<PmID>> by_domain;
  for (PmID id : ids) {
    unsigned d = PmIDDomain(id);
    if (!by_domain.contains(d)) domains.push_back(d);
    by_domain[d].push_back(id);
  }
  std::map<unsigned, Result> answers;
  for (unsigned d : domains) {
    Agent* a = AgentFor(d);
    if (a == nullptr) continue;
    FetchFrom(a, by_domain[d], profile, &answers[d], state_change);
  }
  Result r;
  r.set_timestamp_ns(WallClockNanos());
  std::map<unsigned, int> next;
  for (PmID id : ids) {
    unsigned d = PmIDDomain(id);
    auto it = answers.find(d);
    if (it == answers.end()) {
      r.AddSet(id, kErrNoagent, kValInsitu);
      continue;
    }
    CopySet(it->second, it->second.sets()[next[d]++], &r);
  }
  return r;
}

absl::Status LocalSource::Store(const Result& values) {
  for (const ValueSet& vs : values.sets()) {
    Agent* a = AgentFor(PmIDDomain(vs.pmid));
    if (a == nullptr) return PcpError(kErrNoagent);
    Result one;
    CopySet(values, vs, &one);
    absl::Status s;
    {
      auto lock = a->Lock();
      s = a->pmda->dispatch().store(one, *a->pmda);
    }
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<Context> OpenLocalContext(const LocalOptions& options) {
  std::string path = options.config_path;
  if (path.empty()) {
    const char* conf = ConfigLookup("PCP_PMCDCONF_PATH");
    path = (conf && *conf) ? conf : DefaultLocalConfigPath();
  }
  if (options.config_path.empty()) {
    if (std::optional<LocalAgentTable> table = SpecifiedAgents()) {
      return Context(LocalSource::Create(table->agents, table->config_dir, options.warnings));
    }
  }
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  const std::string dir = DirName(path);
  std::vector<AgentSpec> specs = ParseAgentConfig(*text, dir, options.warnings);
  return Context(LocalSource::Create(specs, dir, options.warnings));
}

}  // namespace pmapi
