// c_pmda.cc: setting up a C agent (<pcp/pmda.h>): pmdaDSO, pmdaInit,
// pmdaRehash, flags, private data and callbacks, and the table lookups the
// default handlers share.
#include <cstdlib>
#include <mutex>
#include <set>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "pcp_internal.h"
#include "c_pmda_internal.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"
#include "pmapi/types.h"

namespace pmapi {
namespace {

thread_local const CPmdaLoadContext* loading = nullptr;
thread_local int request_context = 0;

bool SupportedInterface(int v) { return v >= PMDA_INTERFACE_2 && v <= PMDA_INTERFACE_LATEST; }

pmID WithDomain(pmID id, int domain) {
  const PmID typed{id};
  return ToPcp(MakePmID(static_cast<unsigned>(domain), PmIDCluster(typed), PmIDItem(typed)));
}

pmInDom IndomWithDomain(pmInDom indom, int domain) {
  return ToPcp(MakeInDom(static_cast<unsigned>(domain), InDomSerial(InDom{indom})));
}

// The default result callback: frees the value blocks a fetch allocated;
// a result an agent's own fetch handler built (not pmdaFetch's) loses its
// value sets too, as libpcp_pmda's __pmFreeResultValues frees them.
void FreeResultValues(pmResult* res) {
  if (res == nullptr) return;
  if (!IsPmdaFetchResult(res)) {
    __pmFreeResultValues(res);
    return;
  }
  for (int i = 0; i < res->numpmid; ++i) {
    pmValueSet* vs = res->vset[i];
    if (vs == nullptr || vs->valfmt != PM_VAL_DPTR) continue;
    for (int j = 0; j < vs->numval; ++j) {
      std::free(vs->vlist[j].value.pval);
      vs->vlist[j].value.pval = nullptr;
    }
    vs->numval = 0;
  }
}

void ChooseLookup(pmdaExt* ext, CPmdaState* st) {
  st->hashed.clear();
  ext->e_direct = 0;
  if (ext->e_flags & PMDA_EXT_FLAG_HASHED) {
    for (int i = 0; i < ext->e_nmetrics; ++i) st->hashed.emplace(ext->e_metrics[i].m_desc.pmid, i);
    return;
  }
  for (int m = 0; m < ext->e_nmetrics; ++m) {
    if (PmIDItem(PmID{ext->e_metrics[m].m_desc.pmid}) != static_cast<unsigned>(m)) {
      if (ext->e_flags & PMDA_EXT_FLAG_DIRECT)
        CPmdaNotify(ext, LOG_WARNING, absl::StrFormat(
                             "pmdaInit: PMDA %s: Direct mapping for metrics disabled @ metrictab[%d] %s",
                             ext->e_name ? ext->e_name : "", m,
                             IDStr(PmID{ext->e_metrics[m].m_desc.pmid})));
      return;
    }
  }
  ext->e_direct = 1;
}

// Checks every metric's indom is in the table (when there is a table) and
// writes the domain into indoms and metrics. Returns false on a bad serial.
bool StampDomain(pmdaExt* ext) {
  const int domain = ext->e_domain;
  for (int i = 0; i < ext->e_nindoms; ++i) {
    pmdaIndom& idp = ext->e_indoms[i];
    idp.it_indom = IndomWithDomain(idp.it_indom, domain);
  }
  for (int m = 0; m < ext->e_nmetrics; ++m) {
    pmDesc& d = ext->e_metrics[m].m_desc;
    if (d.indom == PM_INDOM_NULL) continue;
    d.indom = IndomWithDomain(d.indom, domain);
    if (ext->e_nindoms == 0) continue;  // serials are checked against a non-empty table only
    if (FindCIndom(ext, d.indom) == nullptr) {
      CPmdaNotify(ext, LOG_CRIT, absl::StrFormat(
                           "pmdaInit: PMDA %s: Undefined instance domain serial (%u) specified in metric %s(%d)",
                           ext->e_name ? ext->e_name : "", InDomSerial(InDom{d.indom}),
                           IDStr(PmID{WithDomain(d.pmid, domain)}), m));
      return false;
    }
  }
  for (int m = 0; m < ext->e_nmetrics; ++m) {
    pmDesc& d = ext->e_metrics[m].m_desc;
    d.pmid = WithDomain(d.pmid, domain);
  }
  return true;
}

void OpenHelpText(pmdaExt* ext, CPmdaState* st) {
  if (ext->e_helptext == nullptr || ext->e_helptext[0] == '\0') {
    if (st->dispatch->version.any.text == pmdaText)
      CPmdaNotify(ext, LOG_WARNING, absl::StrFormat("pmdaInit: PMDA %s: No help text file specified for pmdaText",
                                       ext->e_name ? ext->e_name : ""));
    return;
  }
  std::string path = ExpandEnvironment(ext->e_helptext);
  ext->e_help = OpenCHelp(path, ext->e_domain, st->resolve, st->diagnostics);
  if (ext->e_help < 0)
    CPmdaNotify(ext, LOG_WARNING, absl::StrFormat("pmdaInit: PMDA %s: Unable to open help text file(s) from \"%s\": %s",
                                     ext->e_name ? ext->e_name : "", ext->e_helptext, ErrStr(ext->e_help)));
}

}  // namespace

void SetCPmdaLoadContext(const CPmdaLoadContext* load) { loading = load; }
const CPmdaLoadContext* CurrentCPmdaLoadContext() { return loading; }
void SetCPmdaContext(int context) { request_context = context; }

CPmdaState* CPmdaStateOf(pmdaExt* ext) {
  return ext == nullptr ? nullptr : static_cast<CPmdaState*>(ext->e_ext);
}

void FreeCPmdaFetchResult(CPmdaState* st) {
  if (st->res != nullptr) FreeResultValues(st->res);
  for (pmValueSet* vs : st->sets) std::free(vs);
  st->sets.clear();
  NotePmdaFetchResult(st->res, nullptr);
  std::free(st->res);
  st->res = nullptr;
  st->res_capacity = 0;
}

void FreeCPmdaExt(pmdaExt* ext) {
  if (ext == nullptr) return;
  if (CPmdaState* st = CPmdaStateOf(ext)) {
    FreeCPmdaFetchResult(st);
    if (ext->e_help >= 0) pmdaCloseHelp(ext->e_help);
    std::free(st->helptext);
    delete st;
  }
  std::free(ext);
}

void CPmdaNotify(pmdaExt* ext, int priority, std::string message) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st != nullptr && st->diagnostics != nullptr) {
    st->diagnostics->push_back(std::move(message));
  } else {
    pmNotifyErr(priority, "%s", message.c_str());
  }
}

void CPmdaLoadNotify(int priority, std::string message) {
  const CPmdaLoadContext* load = CurrentCPmdaLoadContext();
  if (load != nullptr && load->diagnostics != nullptr) {
    load->diagnostics->push_back(std::move(message));
  } else {
    pmNotifyErr(priority, "%s", message.c_str());
  }
}

pmdaMetric* FindCMetric(pmdaExt* ext, pmID pmid) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (ext->e_flags & PMDA_EXT_FLAG_HASHED) {
    if (st == nullptr) return nullptr;
    auto it = st->hashed.find(pmid);
    return it == st->hashed.end() ? nullptr : &ext->e_metrics[it->second];
  }
  if (ext->e_direct) {
    const int item = static_cast<int>(PmIDItem(PmID{pmid}));
    if (item < ext->e_nmetrics && ext->e_metrics[item].m_desc.pmid == pmid) return &ext->e_metrics[item];
    return nullptr;
  }
  for (int m = 0; m < ext->e_nmetrics; ++m) {
    if (ext->e_metrics[m].m_desc.pmid == pmid) return &ext->e_metrics[m];
  }
  return nullptr;
}

pmdaIndom* FindCIndom(pmdaExt* ext, pmInDom indom) {
  for (int i = 0; i < ext->e_nindoms; ++i) {
    if (ext->e_indoms[i].it_indom == indom) return &ext->e_indoms[i];
  }
  return nullptr;
}

bool CProfileAdmits(const pmProfile* prof, pmInDom indom, Inst inst) {
  if (prof == nullptr || indom == PM_INDOM_NULL) return true;
  for (int i = 0; i < prof->profile_len; ++i) {
    const pmInDomProfile& p = prof->profile[i];
    if (p.indom != indom) continue;
    bool listed = false;
    for (int j = 0; j < p.instances_len && !listed; ++j) listed = Inst{p.instances[j]} == inst;
    return p.state == PM_PROFILE_INCLUDE ? !listed : listed;
  }
  return prof->state == PM_PROFILE_INCLUDE;
}

std::vector<CInstance> CIndomInstances(pmdaExt* ext, pmInDom indom, bool* found, bool* cached) {
  std::vector<CInstance> out;
  *found = true;
  if (cached != nullptr) *cached = false;
  const InDom typed{indom};
  {
    std::lock_guard<std::recursive_mutex> lock(CCacheLock());
    InDomCaches& caches = CCaches();
    if (absl::StatusOr<int> check = caches.Op(typed, PMDA_CACHE_CHECK); check.ok() && *check == 1) {
      if (cached != nullptr) *cached = true;
      // PCP's defaults walk a cache with the agent's own walk too
      (void)caches.Op(typed, PMDA_CACHE_WALK_REWIND);
      for (;;) {
        absl::StatusOr<int> inst = caches.Op(typed, PMDA_CACHE_WALK_NEXT);
        if (!inst.ok() || *inst < 0) break;
        absl::StatusOr<CacheEntryInfo> e = caches.Lookup(typed, Inst{*inst});
        if (e.ok()) out.push_back(CInstance{e->inst, e->name});
      }
      return out;
    }
  }
  pmdaIndom* idp = FindCIndom(ext, indom);
  if (idp == nullptr) {
    *found = false;
    return out;
  }
  ext->e_idp = idp;
  for (int i = 0; i < idp->it_numinst; ++i) {
    const pmdaInstid& id = idp->it_set[i];
    out.push_back(CInstance{Inst{id.i_inst}, id.i_name ? id.i_name : ""});
  }
  return out;
}

std::mutex& FetchResultsLock() {
  static auto* mu = new std::mutex;
  return *mu;
}

std::set<const pmResult*>& FetchResults() {
  static auto* results = new std::set<const pmResult*>;
  return *results;
}

void NotePmdaFetchResult(const pmResult* old_res, const pmResult* new_res) {
  std::lock_guard<std::mutex> hold(FetchResultsLock());
  if (old_res != nullptr) FetchResults().erase(old_res);
  if (new_res != nullptr) FetchResults().insert(new_res);
}

bool IsPmdaFetchResult(const pmResult* res) {
  std::lock_guard<std::mutex> hold(FetchResultsLock());
  return FetchResults().count(res) != 0;
}

}  // namespace pmapi

namespace pmapi {

// Whether a callback of `what` can be set: the agent has called pmdaDSO
// or pmdaDaemon for an interface of at least `since`; else PCP's
// complaint, and the agent's status is an error.
bool CallbackSettable(pmdaInterface* dp, int since, const char* what) {
  if (dp == nullptr) return false;
  const int interface = static_cast<int>(dp->comm.pmda_interface);
  if (interface >= since && interface <= PMDA_INTERFACE_LATEST && dp->version.any.ext != nullptr) return true;
  pmNotifyErr(LOG_CRIT, "Unable to set %s callback for PMDA interface version %d.", what, interface);
  dp->status = PM_ERR_GENERIC;
  return false;
}

}  // namespace pmapi

using pmapi::CPmdaNotify;
using pmapi::CPmdaState;
using pmapi::CPmdaStateOf;

extern "C" {

void pmdaDSO(pmdaInterface* dp, int interface, char* name, char* helptext) {
  if (dp == nullptr) return;
  if (!pmapi::SupportedInterface(interface)) {
    pmapi::CPmdaLoadNotify(LOG_CRIT, absl::StrFormat("pmdaDSO: %s PMDA: interface version %d not supported (domain=%d)",
                                                     name ? name : "", interface, dp->domain));
    dp->status = PM_ERR_GENERIC;
    return;
  }
  dp->comm.pmda_interface = static_cast<unsigned>(interface);
  dp->comm.pmapi_version = PMAPI_VERSION_2;
  dp->comm.flags = 0;
  dp->status = 0;
  auto* ext = static_cast<pmdaExt*>(std::calloc(1, sizeof(pmdaExt)));
  if (ext == nullptr) {
    dp->status = -ENOMEM;
    return;
  }
  auto* st = new CPmdaState;
  st->dispatch = dp;
  if (const pmapi::CPmdaLoadContext* load = pmapi::CurrentCPmdaLoadContext()) {
    st->resolve = load->resolve;
    st->diagnostics = load->diagnostics;
  }
  ext->e_ext = st;
  ext->e_name = name;
  // a copy, as PCP keeps: agents pass buffers they go on to reuse
  st->helptext = helptext != nullptr ? strdup(helptext) : nullptr;
  ext->e_helptext = st->helptext;
  ext->e_domain = dp->domain;
  ext->e_help = -1;
  ext->e_infd = ext->e_outfd = -1;  // no connection yet
  ext->e_port = ext->e_singular = ext->e_ordinal = -1;
  ext->e_io = pmdaUnknown;
  ext->e_flags = PMDA_EXT_SETUPDONE;
  ext->e_resultCallBack = pmapi::FreeResultValues;
  auto& any = dp->version.any;
  any.ext = ext;
  any.profile = pmdaProfile;
  any.fetch = pmdaFetch;
  any.desc = pmdaDesc;
  any.instance = pmdaInstance;
  any.text = pmdaText;
  any.store = pmdaStore;
  if (interface >= PMDA_INTERFACE_4) {
    dp->version.four.pmid = pmdaPMID;
    dp->version.four.name = pmdaName;
    dp->version.four.children = pmdaChildren;
  }
  if (interface >= PMDA_INTERFACE_6) dp->version.six.attribute = pmdaAttribute;
  if (interface >= PMDA_INTERFACE_7) dp->version.seven.label = pmdaLabel;
}

void pmdaInit(pmdaInterface* dp, pmdaIndom* indoms, int nindoms, pmdaMetric* metrics, int nmetrics) {
  if (dp == nullptr) return;
  pmdaExt* ext = dp->version.any.ext;
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr || !pmapi::SupportedInterface(static_cast<int>(dp->comm.pmda_interface))) {
    pmapi::CPmdaLoadNotify(LOG_CRIT, absl::StrFormat("pmdaInit: PMDA interface version %d not supported (domain=%d)",
                                                     static_cast<int>(dp->comm.pmda_interface), dp->domain));
    dp->status = PM_ERR_GENERIC;
    return;
  }
  if (dp->version.any.fetch == pmdaFetch && ext->e_fetchCallBack == nullptr) {
    CPmdaNotify(ext, LOG_CRIT, absl::StrFormat("pmdaInit: PMDA %s: using pmdaFetch() but fetch call back not set",
                                     ext->e_name ? ext->e_name : ""));
    dp->status = PM_ERR_GENERIC;
    return;
  }
  ext->e_domain = dp->domain;
  ext->e_indoms = nindoms > 0 ? indoms : nullptr;
  ext->e_nindoms = nindoms > 0 && indoms != nullptr ? nindoms : 0;
  ext->e_metrics = nmetrics > 0 ? metrics : nullptr;
  ext->e_nmetrics = nmetrics > 0 && metrics != nullptr ? nmetrics : 0;
  if (!pmapi::StampDomain(ext)) {
    dp->status = PM_ERR_GENERIC;
    return;
  }
  pmapi::OpenHelpText(ext, st);
  pmapi::ChooseLookup(ext, st);
  st->initialised = true;
  dp->status = 0;
}

void pmdaRehash(pmdaExt* ext, pmdaMetric* metrics, int nmetrics) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr) return;
  // the table is taken as it is: unlike pmdaInit, no domain is written in
  ext->e_metrics = nmetrics > 0 ? metrics : nullptr;
  ext->e_nmetrics = nmetrics > 0 && metrics != nullptr ? nmetrics : 0;
  pmapi::ChooseLookup(ext, st);
}

void* pmdaExtGetData(pmdaExt* ext) {
  CPmdaState* st = CPmdaStateOf(ext);
  return st ? st->private_data : nullptr;
}

void pmdaExtSetData(pmdaExt* ext, void* data) {
  if (CPmdaState* st = CPmdaStateOf(ext)) st->private_data = data;
}

void pmdaSetData(pmdaInterface* dp, void* data) {
  if (dp != nullptr) pmdaExtSetData(dp->version.any.ext, data);
}

void pmdaExtSetFlags(pmdaExt* ext, int flags) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr) return;
  unsigned f = static_cast<unsigned>(flags);
  const unsigned notify = PMDA_EXT_NAMES_CHANGE | PMDA_EXT_LABEL_CHANGE;
  const int interface = static_cast<int>(st->dispatch->comm.pmda_interface);
  if ((f & notify) != 0 && interface < PMDA_INTERFACE_7) {
    CPmdaNotify(ext, LOG_WARNING, absl::StrFormat("pmdaSetFlags: PMDA %s: interface version %d does not support notifications",
                                     ext->e_name ? ext->e_name : "", interface));
    f &= ~notify;
  }
  if (f & PMDA_EXT_NAMES_CHANGE) st->state_changes |= PMCD_NAMES_CHANGE;
  if (f & PMDA_EXT_LABEL_CHANGE) st->state_changes |= PMCD_LABEL_CHANGE;
  ext->e_flags |= f & ~notify;
  if (st->initialised && (f & (PMDA_EXT_FLAG_HASHED | PMDA_EXT_FLAG_DIRECT))) pmapi::ChooseLookup(ext, st);
}

void pmdaSetFlags(pmdaInterface* dp, int flags) {
  if (dp != nullptr) pmdaExtSetFlags(dp->version.any.ext, flags);
}

void pmdaSetCommFlags(pmdaInterface* dp, int flags) {
  if (dp != nullptr) dp->comm.flags |= static_cast<unsigned>(flags);
}

void pmdaSetResultCallBack(pmdaInterface* dp, pmdaResultCallBack cb) {
  if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_2, "result")) dp->version.any.ext->e_resultCallBack = cb;
}

void pmdaSetFetchCallBack(pmdaInterface* dp, pmdaFetchCallBack cb) {
  if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_2, "fetch")) dp->version.any.ext->e_fetchCallBack = cb;
}

void pmdaSetCheckCallBack(pmdaInterface* dp, pmdaCheckCallBack cb) {
  if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_2, "check")) dp->version.any.ext->e_checkCallBack = cb;
}

void pmdaSetDoneCallBack(pmdaInterface* dp, pmdaDoneCallBack cb) {
  if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_2, "done")) dp->version.any.ext->e_doneCallBack = cb;
}

void pmdaSetEndContextCallBack(pmdaInterface* dp, pmdaEndContextCallBack cb) {
  if (cb == nullptr && dp != nullptr && dp->version.any.ext != nullptr) {
    dp->version.any.ext->e_endCallBack = nullptr;
  } else if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_5, "end context")) {
    dp->version.any.ext->e_endCallBack = cb;
  }
}

void pmdaSetLabelCallBack(pmdaInterface* dp, pmdaLabelCallBack cb) {
  if (pmapi::CallbackSettable(dp, PMDA_INTERFACE_7, "label")) dp->version.any.ext->e_labelCallBack = cb;
}

int pmdaGetContext(void) { return pmapi::request_context; }

void __pmdaSetContext(int context) { pmapi::request_context = context; }

}  // extern "C"
