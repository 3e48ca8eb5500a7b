// c_pmda_dispatch.cc: the default request handlers of the C PMDA interface
// (pmdaProfile, pmdaFetch, pmdaDesc, pmdaInstance, pmdaText, pmdaStore,
// the name handlers and pmdaAttribute), with PCP's rules: the fetch
// callback's return codes by interface version, the profile choosing
// instances, pmdaCache-backed instance domains walked before the tables.
#include <sys/time.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/strings/str_format.h"
#include "c_pmda_internal.h"
#include "pcp_internal.h"
#include "pmda_fetch_rules.h"
#include "pmda_instance_pick.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

// Stores `atom` of `type` in *v (PCP's __pmStuffValue). Returns the value
// set format it needs, or PM_ERR_TYPE / PM_ERR_TOOBIG.
int StuffValue(const pmAtomValue& atom, pmValue* v, int type) {
  const void* data = nullptr;
  size_t len = 0;
  int vtype = type;
  switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
      v->value.lval = atom.l;
      return PM_VAL_INSITU;
    case PM_TYPE_64:
    case PM_TYPE_U64:
      data = &atom.ull;
      len = sizeof(atom.ull);
      break;
    case PM_TYPE_FLOAT:
      data = &atom.f;
      len = sizeof(atom.f);
      break;
    case PM_TYPE_DOUBLE:
      data = &atom.d;
      len = sizeof(atom.d);
      break;
    case PM_TYPE_STRING:
      data = atom.cp ? atom.cp : "";
      len = std::strlen(static_cast<const char*>(data)) + 1;
      break;
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      if (atom.vbp == nullptr || atom.vbp->vlen < PM_VAL_HDR_SIZE) return PM_ERR_TYPE;
      data = atom.vbp->vbuf;
      len = atom.vbp->vlen - PM_VAL_HDR_SIZE;
      if (type == PM_TYPE_AGGREGATE_STATIC) vtype = PM_TYPE_AGGREGATE;
      break;
    default:
      return PM_ERR_TYPE;
  }
  if (len + PM_VAL_HDR_SIZE > PM_VAL_VLEN_MAX) return PM_ERR_TOOBIG;
  v->value.pval = NewCBlock(vtype, data, len);
  return v->value.pval ? PM_VAL_DPTR : -ENOMEM;
}

// Returns the instances of `desc`'s indom the profile admits (PM_IN_NULL
// for a singular metric).
std::vector<Inst> FetchInstances(pmdaExt* ext, const pmDesc& desc) {
  std::vector<Inst> out;
  if (desc.indom == PM_INDOM_NULL) {
    out.push_back(kInNull);
    return out;
  }
  bool found = false;
  for (const CInstance& i : CIndomInstances(ext, desc.indom, &found)) {
    if (CProfileAdmits(ext->e_prof, desc.indom, i.inst)) out.push_back(i.inst);
  }
  return out;
}

// Frees a value the callback allocated for this fetch (PMDA_FETCH_DYNAMIC,
// interface 5 and later), once it is stored.
void FreeDynamicValue(pmdaExt* ext, const pmDesc& desc, pmAtomValue* atom) {
  if (desc.type == PM_TYPE_STRING) {
    std::free(atom->cp);
  } else if (desc.type == PM_TYPE_AGGREGATE) {
    std::free(atom->vbp);
  } else {
    CPmdaNotify(ext, LOG_WARNING, absl::StrFormat("pmdaFetch: Attempt to free value for metric %s of wrong type %s",
                                                  IDStr(PmID{desc.pmid}), TypeStr(desc.type)));
  }
}

pmValueSet* FetchOne(pmdaExt* ext, pmID pmid) {
  CPmdaState* st = CPmdaStateOf(ext);
  pmdaMetric* metric = FindCMetric(ext, pmid);
  pmdaMetric dynamic;
  auto desc_handler = st->dispatch->version.any.desc;
  if (metric == nullptr && desc_handler != nullptr && desc_handler != pmdaDesc) {
    // a metric outside the table (dynamic agents): ask the agent's desc
    std::memset(&dynamic, 0, sizeof(dynamic));
    if (desc_handler(pmid, &dynamic.m_desc, ext) >= 0) metric = &dynamic;
  }
  if (metric == nullptr) {
    pmValueSet* vs = NewCValueSet(pmid, 1);
    if (vs) vs->numval = PM_ERR_PMID;
    return vs;
  }
  const pmDesc& desc = metric->m_desc;
  std::vector<Inst> insts = FetchInstances(ext, desc);
  pmValueSet* vs = NewCValueSet(pmid, static_cast<int>(insts.size()));
  if (vs == nullptr) return nullptr;
  const int interface = static_cast<int>(st->dispatch->comm.pmda_interface);
  pmAtomValue atom;
  int j = 0;
  auto fetch = [&](Inst inst) {
    std::memset(&atom, 0, sizeof(atom));
    if (!ext->e_fetchCallBack) return PM_ERR_PMID;
    return ext->e_fetchCallBack(metric, static_cast<unsigned>(ToPcp(inst)), &atom);
  };
  auto store = [&](Inst inst) {
    vs->vlist[j].inst = ToPcp(inst);
    const int fmt = StuffValue(atom, &vs->vlist[j], desc.type);
    if (fmt < 0) return fmt;
    vs->valfmt = fmt;
    ++j;
    return 0;
  };
  auto release = [&](int sts) {
    if (interface >= PMDA_INTERFACE_5 && sts == PMDA_FETCH_DYNAMIC) FreeDynamicValue(ext, desc, &atom);
  };
  auto notify = [&](const std::string& text) { CPmdaNotify(ext, LOG_ERR, text); };
  const FetchRules rules{interface, PmID{desc.pmid}, desc.type};
  vs->numval = FetchByRules(insts, rules, fetch, store, release, notify);
  return vs;
}

}  // namespace
}  // namespace pmapi

using pmapi::CPmdaNotify;
using pmapi::CPmdaState;
using pmapi::CPmdaStateOf;

extern "C" {

// The number of instances in `indom`: 1 for PM_INDOM_NULL, the active
// entries of a cache, the table entry's count (0, with a warning, for an
// indom the agent does not have).
int __pmdaCntInst(pmInDom indom, pmdaExt* ext) {
  if (indom == PM_INDOM_NULL) return 1;
  if (pmdaCacheOp(indom, PMDA_CACHE_CHECK) > 0) return pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE);
  if (const pmdaIndom* table = pmapi::FindCIndom(ext, indom)) return table->it_numinst;
  char id[20];
  pmNotifyErr(LOG_WARNING, "__pmdaCntInst: unknown indom %s", pmInDomStr_r(indom, id, sizeof id));
  return 0;
}

// Starts a walk of the instances of `indom` the profile admits; a
// singular indom walks one instance, 0.
void __pmdaStartInst(pmInDom indom, pmdaExt* ext) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr) return;
  st->walk.clear();
  st->walk_next = 0;
  ext->e_ordinal = ext->e_singular = -1;
  if (indom == PM_INDOM_NULL) {
    st->walk.push_back(pmapi::Inst{0});
    ext->e_singular = 0;
    return;
  }
  bool found = false;
  for (const pmapi::CInstance& i : pmapi::CIndomInstances(ext, indom, &found)) {
    if (pmapi::CProfileAdmits(ext->e_prof, indom, i.inst)) st->walk.push_back(i.inst);
  }
  if (found) ext->e_ordinal = 0;
}

// The walk's next instance in *inst and 1, or 0 once it is over.
int __pmdaNextInst(int* inst, pmdaExt* ext) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr || st->walk_next >= st->walk.size()) {
    if (ext != nullptr) ext->e_ordinal = ext->e_singular = -1;
    return 0;
  }
  *inst = pmapi::ToPcp(st->walk[st->walk_next++]);
  if (ext->e_ordinal >= 0) ext->e_ordinal = static_cast<int>(st->walk_next);
  return 1;
}

int pmdaProfile(pmProfile* prof, pmdaExt* ext) {
  if (ext == nullptr) return PM_ERR_GENERIC;
  ext->e_prof = prof;
  return 0;
}

int pmdaFetch(int numpmid, pmID* pmidlist, pmResult** resp, pmdaExt* ext) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr || resp == nullptr || numpmid < 0 || (numpmid > 0 && pmidlist == nullptr))
    return PM_ERR_GENERIC;
  for (pmValueSet* vs : st->sets) std::free(vs);
  st->sets.clear();
  if (numpmid > st->res_capacity || st->res == nullptr) {
    const size_t size = sizeof(pmResult) + static_cast<size_t>(numpmid > 1 ? numpmid - 1 : 0) * sizeof(pmValueSet*);
    auto* res = static_cast<pmResult*>(std::malloc(size));
    if (res == nullptr) return -ENOMEM;
    pmapi::NotePmdaFetchResult(st->res, res);
    std::free(st->res);
    st->res = res;
    st->res_capacity = numpmid > 1 ? numpmid : 1;
  }
  pmResult* res = st->res;
  gettimeofday(&res->timestamp, nullptr);
  res->numpmid = 0;
  for (int i = 0; i < numpmid; ++i) {
    pmValueSet* vs = pmapi::FetchOne(ext, pmidlist[i]);
    if (vs == nullptr) return -ENOMEM;
    st->sets.push_back(vs);
    res->vset[i] = vs;
    res->numpmid = i + 1;
  }
  *resp = res;
  return 0;
}

int pmdaDesc(pmID pmid, pmDesc* desc, pmdaExt* ext) {
  if (ext == nullptr || desc == nullptr) return PM_ERR_GENERIC;
  if (pmdaMetric* m = pmapi::FindCMetric(ext, pmid)) {
    *desc = m->m_desc;
    return 0;
  }
  CPmdaNotify(ext, LOG_ERR, absl::StrFormat("pmdaDesc: Requested metric %s is not defined",
                                            pmapi::IDStr(pmapi::PmID{pmid})));
  return PM_ERR_PMID;
}

}  // extern "C"

namespace pmapi {
namespace {

// Fills *r with every instance of `set`.
bool AllInstances(const std::vector<CInstance>& set, pmInResult* r) {
  r->numinst = static_cast<int>(set.size());
  if (set.empty()) return true;
  r->instlist = static_cast<int*>(std::calloc(set.size(), sizeof(int)));
  r->namelist = static_cast<char**>(std::calloc(set.size(), sizeof(char*)));
  if (r->instlist == nullptr || r->namelist == nullptr) return false;
  for (size_t i = 0; i < set.size(); ++i) {
    r->instlist[i] = ToPcp(set[i].inst);
    r->namelist[i] = strdup(set[i].name.c_str());
    if (r->namelist[i] == nullptr) return false;
  }
  return true;
}

}  // namespace

void FreeInResult(pmInResult* r) {
  if (r == nullptr) return;
  if (r->namelist != nullptr) {
    for (int i = 0; i < r->numinst; ++i) std::free(r->namelist[i]);
  }
  std::free(r->namelist);
  std::free(r->instlist);
  std::free(r);
}

}  // namespace pmapi

extern "C" {

int pmdaInstance(pmInDom indom, int inst, char* name, pmInResult** result, pmdaExt* ext) {
  if (ext == nullptr || result == nullptr) return PM_ERR_GENERIC;
  bool found = false, cached = false;
  std::vector<pmapi::CInstance> set = pmapi::CIndomInstances(ext, indom, &found, &cached);
  if (!found) return PM_ERR_INDOM;
  auto* r = static_cast<pmInResult*>(std::calloc(1, sizeof(pmInResult)));
  if (r == nullptr) return -ENOMEM;
  r->indom = indom;
  int sts = PM_ERR_INST;
  const pmapi::CInstance* hit = nullptr;
  const pmapi::Inst asked{inst};
  switch (pmapi::InstanceAskOf(asked, name != nullptr, name != nullptr && *name == '\0')) {
    case pmapi::InstanceAsk::kAll:
      sts = pmapi::AllInstances(set, r) ? 0 : -ENOMEM;
      break;
    case pmapi::InstanceAsk::kNameOfId:
      if ((hit = pmapi::InstanceById(set, asked)) == nullptr) break;
      r->numinst = 1;
      r->namelist = static_cast<char**>(std::calloc(1, sizeof(char*)));
      if (r->namelist != nullptr) r->namelist[0] = strdup(hit->name.c_str());
      sts = r->namelist != nullptr && r->namelist[0] != nullptr ? 0 : -ENOMEM;
      break;
    case pmapi::InstanceAsk::kIdOfName:
      if ((hit = pmapi::InstanceByName(set, std::string(name), cached)) == nullptr) break;
      r->numinst = 1;
      r->instlist = static_cast<int*>(std::calloc(1, sizeof(int)));
      if (r->instlist != nullptr) r->instlist[0] = pmapi::ToPcp(hit->inst);
      sts = r->instlist != nullptr ? 0 : -ENOMEM;
      break;
    case pmapi::InstanceAsk::kNothing:
      break;
  }
  if (sts < 0) {
    pmapi::FreeInResult(r);
    return sts;
  }
  *result = r;
  return 0;
}

int pmdaText(int ident, int type, char** buffer, pmdaExt* ext) {
  if (ext == nullptr || buffer == nullptr) return PM_ERR_GENERIC;
  *buffer = nullptr;
  if (ext->e_help >= 0) {
    if ((type & PM_TEXT_PMID) == PM_TEXT_PMID) {
      *buffer = pmdaGetHelp(ext->e_help, static_cast<pmID>(ident), type);
    } else {
      *buffer = pmdaGetInDomHelp(ext->e_help, static_cast<pmInDom>(ident), type);
    }
  }
  return *buffer == nullptr ? PM_ERR_TEXT : 0;
}

int pmdaStore(pmResult*, pmdaExt*) { return PM_ERR_PERMISSION; }

int pmdaPMID(const char*, pmID*, pmdaExt*) { return PM_ERR_NAME; }

int pmdaName(pmID, char***, pmdaExt*) { return PM_ERR_PMID; }

int pmdaChildren(const char*, int, char***, int**, pmdaExt*) { return PM_ERR_NAME; }

// Every client attribute is accepted; an agent that restricts clients
// replaces this handler.
int pmdaAttribute(int, int, const char*, int, pmdaExt*) { return 0; }

// Two of libpcp's internal calls that agents written against PCP's own
// headers (its sample agent) make: a value stored in a pmValue, and an
// instance result freed with the names and identifiers it holds.
int __pmStuffValue(const pmAtomValue* atom, pmValue* v, int type) {
  if (atom == nullptr || v == nullptr) return PM_ERR_GENERIC;
  return pmapi::StuffValue(*atom, v, type);
}

void __pmFreeInResult(pmInResult* r) { pmapi::FreeInResult(r); }

}  // extern "C"
