#include "c_pmda_host.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "c_api_internal.h"
#include "c_pmda_internal.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// One hosted C agent: the interface the agent filled, and the profile in
// the C form handed to it.
struct CAgent {
  pmdaInterface dp;
  int context = 0;         // the client context's number
  std::string dso_path;    // as configured (the end-of-context trace)
  bool hosted = false;  // answering requests: the end callback is due
  bool ended = false;   // the end callback has been made
  uint64_t profile_generation = ~uint64_t{0};
  pmProfile profile{};
  std::vector<pmInDomProfile> profile_entries;
  std::vector<std::vector<int>> profile_insts;
  std::vector<pmID> fetch_pmids;  // a fetch's pmids in C form, reused

  CAgent() { std::memset(&dp, 0, sizeof(dp)); }
  ~CAgent();
  CAgent(const CAgent&) = delete;
  CAgent& operator=(const CAgent&) = delete;

  pmdaExt* ext() const { return dp.version.any.ext; }
  int interface() const { return static_cast<int>(dp.comm.pmda_interface); }
  // Marks the start of a request: the context the agent sees.
  void Begin() {
    if (ext() != nullptr) ext()->e_context = context;
    SetCPmdaContext(context);
  }
  void End();
};

// The hosted agents that are owed an end callback, in the order hosted:
// at exit, those whose context was never closed get it, as libpcp ends
// every local context then.
std::mutex live_mu;
std::vector<CAgent*>& Live() {
  static auto* live = new std::vector<CAgent*>;
  return *live;
}

void EndAllAtExit() {
  std::lock_guard<std::mutex> lock(live_mu);
  for (CAgent* a : Live()) a->End();
}

void Register(CAgent* a) {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(EndAllAtExit); });
  std::lock_guard<std::mutex> lock(live_mu);
  Live().push_back(a);
}

void Unregister(CAgent* a) {
  std::lock_guard<std::mutex> lock(live_mu);
  std::erase(Live(), a);
}

// The end of the agent's client context, once.
void CAgent::End() {
  pmdaExt* e = ext();
  if (ended || !hosted || e == nullptr || interface() < PMDA_INTERFACE_5 || e->e_endCallBack == nullptr) return;
  ended = true;
  if (pmDebugOptions.context)
    std::fprintf(stderr, "NotifyEndLocalContext: DSO PMDA %s (%d) notified of context %d close\n",
                 dso_path.c_str(), dp.domain, context);
  SetCPmdaContext(context);
  e->e_endCallBack(context);
}

CAgent::~CAgent() {
  if (hosted) Unregister(this);
  End();
  pmdaExt* e = ext();
  if (e == nullptr) return;
  CPmdaState* st = CPmdaStateOf(e);
  if (st != nullptr && st->dispatch == &dp) FreeCPmdaExt(e);
}

absl::Status Check(int sts) { return sts < 0 ? PcpError(sts) : absl::OkStatus(); }

void BuildProfile(const Profile& p, CAgent* a) {
  if (a->profile_generation == p.generation()) return;
  a->profile_generation = p.generation();
  a->profile_entries.clear();
  a->profile_insts.clear();
  for (const Profile::Entry& e : p.entries()) capi::CopyToC(e.insts, &a->profile_insts.emplace_back());
  size_t k = 0;
  for (const Profile::Entry& e : p.entries()) {
    pmInDomProfile c{};
    c.indom = ToPcp(e.indom);
    c.state = e.include_listed ? PM_PROFILE_EXCLUDE : PM_PROFILE_INCLUDE;
    c.instances_len = static_cast<int>(a->profile_insts[k].size());
    c.instances = a->profile_insts[k].empty() ? nullptr : a->profile_insts[k].data();
    a->profile_entries.push_back(c);
    ++k;
  }
  a->profile.state = p.include_all() ? PM_PROFILE_INCLUDE : PM_PROFILE_EXCLUDE;
  a->profile.profile_len = static_cast<int>(a->profile_entries.size());
  a->profile.profile = a->profile_entries.empty() ? nullptr : a->profile_entries.data();
}

absl::Status Fetch(CAgent* a, std::span<const PmID> ids, Result* out, Pmda& pmda) {
  a->Begin();
  // The agent's buffer is taken for the fetch: a fetch reaching this agent
  // from inside its own callback gets a list of its own.
  std::vector<pmID> list = std::exchange(a->fetch_pmids, {});
  capi::CopyToC(ids, &list);
  pmResult* res = nullptr;
  int sts = a->dp.version.any.fetch(static_cast<int>(list.size()), list.data(), &res, a->ext());
  a->fetch_pmids = std::move(list);
  if (sts < 0) return PcpError(sts);
  if (res == nullptr) return PcpError(kErrGeneric);
  absl::Status s = capi::AppendCValueSets(res->vset, res->numpmid, out);
  if (a->ext()->e_resultCallBack != nullptr) a->ext()->e_resultCallBack(res);
  if (CPmdaState* st = CPmdaStateOf(a->ext()); st != nullptr && st->state_changes != 0) {
    unsigned flags = 0;
    if (st->state_changes & PMCD_NAMES_CHANGE) flags |= kPmdaExtNamesChange;
    if (st->state_changes & PMCD_LABEL_CHANGE) flags |= kPmdaExtLabelChange;
    st->state_changes = 0;
    pmda.SetFlags(flags);
  }
  return s;
}

absl::StatusOr<Desc> DescOf(CAgent* a, PmID id) {
  a->Begin();
  pmDesc d;
  std::memset(&d, 0, sizeof(d));
  int sts = a->dp.version.any.desc(ToPcp(id), &d, a->ext());
  if (sts < 0) return PcpError(sts);
  return capi::FromC(d);
}

absl::StatusOr<PmdaInResult> InstancesOf(CAgent* a, InDom indom, Inst inst, const std::string* name) {
  a->Begin();
  pmInResult* r = nullptr;
  std::string copy = name ? *name : std::string();
  int sts = a->dp.version.any.instance(ToPcp(indom), ToPcp(inst), name ? copy.data() : nullptr, &r,
                                       a->ext());
  if (sts < 0) return PcpError(sts);
  if (r == nullptr) return PcpError(kErrGeneric);
  PmdaInResult out;
  out.indom = InDom{r->indom};
  for (int i = 0; i < r->numinst; ++i) {
    if (r->instlist != nullptr) out.insts.push_back(Inst{r->instlist[i]});
    if (r->namelist != nullptr) out.names.emplace_back(r->namelist[i] ? r->namelist[i] : "");
  }
  FreeInResult(r);
  return out;
}

absl::StatusOr<std::string> TextOf(CAgent* a, uint32_t ident, int type) {
  a->Begin();
  char* buf = nullptr;
  int sts = a->dp.version.any.text(static_cast<int>(ident), type, &buf, a->ext());
  if (sts < 0) return PcpError(sts);
  if (buf == nullptr) return PcpError(kErrText);
  return std::string(buf);
}

absl::Status StoreTo(CAgent* a, const Result& values) {
  a->Begin();
  pmResult* res = NewCResult(values);
  if (res == nullptr) return PcpError(-ENOMEM);
  for (int i = 0; i < res->numpmid; ++i) {
    if (res->vset[i] == nullptr) {
      FreeCResult(res);
      return PcpError(-ENOMEM);
    }
  }
  int sts = a->dp.version.any.store(res, a->ext());
  FreeCResult(res);
  return Check(sts);
}

absl::StatusOr<std::vector<LabelSet>> LabelsOf(CAgent* a, uint32_t ident, int type, Pmda& pmda) {
  if (a->interface() < PMDA_INTERFACE_7 || a->dp.version.seven.label == nullptr)
    return pmda.DefaultLabel(ident, type);
  a->Begin();
  pmLabelSet* sets = nullptr;
  int n = a->dp.version.seven.label(static_cast<int>(ident), type, &sets, a->ext());
  std::vector<LabelSet> out;
  if (n > 0 && sets != nullptr) {
    for (int i = 0; i < n; ++i) {
      LabelSet s = FromCLabelSet(sets[i]);
      if (type == PM_LABEL_INSTANCES || !s.json.empty()) out.push_back(std::move(s));
    }
  }
  if (sets != nullptr) {
    FreeCLabelSetContents(sets, n > 0 ? n : 1);
    std::free(sets);
  }
  if (n < 0) return PcpError(n);
  return out;
}

absl::StatusOr<std::vector<std::string>> NamesOf(CAgent* a, PmID id) {
  a->Begin();
  char** names = nullptr;
  int n = a->dp.version.four.name(ToPcp(id), &names, a->ext());
  if (n < 0) return PcpError(n);
  std::vector<std::string> out;
  for (int i = 0; names != nullptr && i < n; ++i) out.emplace_back(names[i] ? names[i] : "");
  std::free(names);  // one block, as PCP's agents return it
  return out;
}

absl::StatusOr<std::vector<PmnsChild>> ChildrenOf(CAgent* a, std::string_view name, bool traverse) {
  a->Begin();
  char** kids = nullptr;
  int* status = nullptr;
  std::string path(name);
  int n = a->dp.version.four.children(path.c_str(), traverse ? 1 : 0, &kids, &status, a->ext());
  if (n < 0) return PcpError(n);
  std::vector<PmnsChild> out;
  for (int i = 0; kids != nullptr && i < n; ++i) {
    PmnsChild c;
    c.name = kids[i] ? kids[i] : "";
    c.status = status != nullptr ? status[i] : PMNS_LEAF_STATUS;
    out.push_back(std::move(c));
  }
  std::free(kids);
  std::free(status);
  return out;
}

void Route(const std::shared_ptr<CAgent>& a, Pmda* pmda) {
  PmdaDispatch& d = pmda->dispatch();
  d.profile = [a](const Profile& p, Pmda&) -> absl::Status {
    if (a->dp.version.any.profile == nullptr) return absl::OkStatus();
    BuildProfile(p, a.get());
    a->Begin();
    return Check(a->dp.version.any.profile(&a->profile, a->ext()));
  };
  d.fetch = [a](std::span<const PmID> ids, Result* r, Pmda& p) { return Fetch(a.get(), ids, r, p); };
  d.desc = [a](PmID id, Pmda&) { return DescOf(a.get(), id); };
  d.instance = [a](InDom indom, Inst inst, const std::string* name, Pmda&) {
    return InstancesOf(a.get(), indom, inst, name);
  };
  d.text = [a](uint32_t ident, int type, Pmda&) { return TextOf(a.get(), ident, type); };
  d.store = [a](const Result& values, Pmda&) { return StoreTo(a.get(), values); };
  d.label = [a](uint32_t ident, int type, Pmda& p) { return LabelsOf(a.get(), ident, type, p); };
  if (a->interface() < PMDA_INTERFACE_4) return;  // the library's name defaults stay
  d.pmid = [a](std::string_view name, Pmda&) -> absl::StatusOr<PmID> {
    a->Begin();
    pmID id = 0;
    std::string n(name);
    int sts = a->dp.version.four.pmid(n.c_str(), &id, a->ext());
    if (sts < 0) return PcpError(sts);
    return PmID{id};
  };
  d.name = [a](PmID id, Pmda&) { return NamesOf(a.get(), id); };
  d.children = [a](std::string_view name, bool traverse, Pmda&) { return ChildrenOf(a.get(), name, traverse); };
}

// Returns why the interface cannot be used, or "" when every handler its
// version needs is set.
std::string MissingHandler(const pmdaInterface& dp) {
  const auto& any = dp.version.any;
  if (any.ext == nullptr) return "no pmdaExt (pmdaDSO not called)";
  if (!any.fetch || !any.desc || !any.instance || !any.text || !any.store || !any.profile)
    return "a request handler is not set";
  if (dp.comm.pmda_interface >= PMDA_INTERFACE_4 &&
      (!dp.version.four.pmid || !dp.version.four.name || !dp.version.four.children))
    return "a name handler is not set";
  return "";
}

// An agent that asks for its clients' credentials (PMDA_FLAG_AUTHORIZE)
// hears this process's: pid, gid, then uid, the order PCP's local context
// gives them.
void SendCredentials(CAgent* a) {
  if (a->interface() < PMDA_INTERFACE_6 || (a->dp.comm.flags & PMDA_FLAG_AUTHORIZE) == 0) return;
  if (a->dp.version.six.attribute == nullptr) return;
  const std::pair<int, std::string> attrs[] = {
      {PMDA_ATTR_PROCESSID, std::to_string(getpid())},
      {PMDA_ATTR_GROUPID, std::to_string(getgid())},
      {PMDA_ATTR_USERID, std::to_string(getuid())},
  };
  a->Begin();
  for (const auto& [key, value] : attrs) {
    if (a->dp.version.six.attribute(a->context, key, value.c_str(), static_cast<int>(value.size() + 1), a->ext()) < 0)
      break;
  }
}

}  // namespace

absl::Status HostCAgent(CPmdaInit init, const std::string& init_name, const std::string& dso_path,
                        const HelpFile::NameResolver& resolve, Pmda* pmda, const CAgentHosting& how) {
  auto agent = std::make_shared<CAgent>();
  agent->context = how.client_context;
  agent->dso_path = dso_path;
  agent->dp.domain = pmda->domain();
  // PCP's challenge: an agent that never calls pmdaDSO leaves these as
  // they are, and is refused below
  agent->dp.comm.pmda_interface = 0xff;
  agent->dp.comm.pmapi_version = ~static_cast<unsigned>(PMAPI_VERSION_2) & 0xff;
  std::vector<std::string> diagnostics;
  CPmdaLoadContext load;
  load.domain = pmda->domain();
  load.resolve = resolve;
  load.diagnostics = how.collect ? &diagnostics : nullptr;
  load.newhelp_only = how.pcp_built;
  SetCPmdaLoadContext(&load);
  SetCPmdaContext(agent->context);
  init(&agent->dp);
  SetCPmdaLoadContext(nullptr);
  // later diagnostics (from fetches) have no warning list to go to
  if (CPmdaState* st = CPmdaStateOf(agent->dp.version.any.ext); st != nullptr && st->dispatch == &agent->dp)
    st->diagnostics = nullptr;
  for (std::string& d : diagnostics) pmda->Notify(std::move(d));
  const int interface = agent->interface();
  if (agent->dp.status != 0) return PcpError(agent->dp.status < 0 ? agent->dp.status : kErrGeneric);
  if (interface < PMDA_INTERFACE_2 || interface > PMDA_INTERFACE_LATEST)
    return PcpError(kErrGeneric, absl::StrCat("unsupported PMDA interface version ", interface));
  if (std::string missing = MissingHandler(agent->dp); !missing.empty())
    return PcpError(kErrGeneric, absl::StrCat("initialization routine \"", init_name, "\": ", missing));
  pmdaExt* ext = agent->ext();
  // PCP's local context labels a domain whose agent has no label handler
  // with the shared object's name as configured
  const bool own_labels = interface >= PMDA_INTERFACE_7 && agent->dp.version.seven.label != nullptr;
  pmda->Dso(interface, own_labels || dso_path.empty() ? (ext->e_name ? ext->e_name : init_name) : dso_path, "");
  Route(agent, pmda);
  agent->hosted = true;
  Register(agent.get());
  SendCredentials(agent.get());
  return absl::OkStatus();
}

}  // namespace pmapi
