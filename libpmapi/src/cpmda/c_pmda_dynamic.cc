// c_pmda_dynamic.cc: dynamic parts of an agent's name space
// (pmdaDynamicPMNS, pmdaExtDynamicPMNS, pmdaDynamicLookupName/PMID/Text,
// pmdaDynamicMetricTable, pmdaDynamicSetClusterMask). Each part has a name
// tree the agent refreshes through its callback, and template metrics
// copied into the metric table once per tree instance, as in PCP.
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <syslog.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "c_pmda_internal.h"

namespace pmapi {
namespace {

std::vector<CPmdaDynamic>& ProcessParts() {
  static auto* parts = new std::vector<CPmdaDynamic>;
  return *parts;
}

// The agent's own parts if it registered any, else the process's.
std::vector<CPmdaDynamic>& PartsOf(pmdaExt* ext) {
  CPmdaState* st = CPmdaStateOf(ext);
  if (st != nullptr && !st->dynamics.empty()) return st->dynamics;
  return ProcessParts();
}

void Register(std::vector<CPmdaDynamic>* parts, const char* prefix, pmdaUpdatePMNS pmnsupdate,
              pmdaUpdateText textupdate, pmdaUpdateMetric mtabupdate, pmdaCountMetrics mtabcounts,
              pmdaMetric* metrics, int nmetrics) {
  CPmdaDynamic d;
  d.prefix = prefix;
  d.pmnsupdate = pmnsupdate;
  d.textupdate = textupdate;
  d.mtabupdate = mtabupdate;
  d.mtabcounts = mtabcounts;
  d.metrics = metrics;
  d.nmetrics = nmetrics;
  parts->push_back(d);
}

bool HasPmid(const CPmdaDynamic& d, pmID pmid) {
  char** names = nullptr;
  int n = pmdaTreeName(d.pmns, pmid, &names);
  if (n > 0) std::free(names);
  return n > 0;
}

// True when `name` is a node (metric or not) of the part's tree.
bool HasName(const CPmdaDynamic& d, const char* name) {
  pmID id;
  if (pmdaTreePMID(d.pmns, name, &id) == 0) return true;
  char** kids = nullptr;
  int* status = nullptr;
  int n = pmdaTreeChildren(d.pmns, name, 0, &kids, &status);
  if (n > 0) {
    std::free(kids);
    std::free(status);
  }
  return n > 0;
}

// Refreshes every part's tree; rebuilds the metric table if one changed.
std::vector<CPmdaDynamic>& Refresh(pmdaExt* ext) {
  std::vector<CPmdaDynamic>& parts = PartsOf(ext);
  int changed = 0;
  for (CPmdaDynamic& d : parts) changed |= d.pmnsupdate(ext, &d.pmns);
  if (changed) pmdaDynamicMetricTable(ext);
  return parts;
}

}  // namespace
}  // namespace pmapi

using pmapi::CPmdaDynamic;

extern "C" {

void pmdaExtDynamicPMNS(const char* prefix, int*, int, pmdaUpdatePMNS pmnsupdate, pmdaUpdateText textupdate,
                        pmdaUpdateMetric mtabupdate, pmdaCountMetrics mtabcounts, pmdaMetric* metrics,
                        int nmetrics, pmdaExt* ext) {
  pmapi::CPmdaState* st = pmapi::CPmdaStateOf(ext);
  if (st == nullptr) return;
  pmapi::Register(&st->dynamics, prefix, pmnsupdate, textupdate, mtabupdate, mtabcounts, metrics, nmetrics);
}

void pmdaDynamicPMNS(const char* prefix, int*, int, pmdaUpdatePMNS pmnsupdate, pmdaUpdateText textupdate,
                     pmdaUpdateMetric mtabupdate, pmdaCountMetrics mtabcounts, pmdaMetric* metrics,
                     int nmetrics) {
  pmapi::Register(&pmapi::ProcessParts(), prefix, pmnsupdate, textupdate, mtabupdate, mtabcounts, metrics,
                  nmetrics);
}

int pmdaDynamicSetClusterMask(const char* prefix, unsigned int mask) {
  for (CPmdaDynamic& d : pmapi::ProcessParts()) {
    if (prefix != nullptr && d.prefix != nullptr && std::strcmp(prefix, d.prefix) == 0) {
      d.clustermask = mask;
      return 0;
    }
  }
  return -EINVAL;
}

pmdaNameSpace* pmdaDynamicLookupName(pmdaExt* ext, const char* name) {
  for (CPmdaDynamic& d : pmapi::Refresh(ext))
    if (name != nullptr && pmapi::HasName(d, name)) return d.pmns;
  return nullptr;
}

pmdaNameSpace* pmdaDynamicLookupPMID(pmdaExt* ext, pmID pmid) {
  for (CPmdaDynamic& d : pmapi::Refresh(ext))
    if (pmapi::HasPmid(d, pmid)) return d.pmns;
  return nullptr;
}

int pmdaDynamicLookupText(pmID pmid, int type, char** buf, pmdaExt* ext) {
  for (CPmdaDynamic& d : pmapi::Refresh(ext))
    if (pmapi::HasPmid(d, pmid)) return d.textupdate(ext, pmid, type, buf);
  return -ENOENT;
}

void pmdaDynamicMetricTable(pmdaExt* ext) {
  std::vector<CPmdaDynamic>& parts = pmapi::PartsOf(ext);
  if (parts.empty()) return;
  int extra = 0;
  for (CPmdaDynamic& d : parts) {
    int total = 0, trees = 0;
    d.mtabcounts(&total, &trees);
    d.extratrees = trees;
    extra += total * trees;
  }
  pmdaMetric* fixed = parts[0].metrics;
  const int nfixed = parts[0].nmetrics;
  pmdaMetric* table = nullptr;
  if (extra > 0)
    table = static_cast<pmdaMetric*>(std::calloc(static_cast<size_t>(nfixed + extra), sizeof(pmdaMetric)));
  pmdaMetric* old = ext->e_metrics;
  if (table == nullptr) {  // no dynamic metrics (or no memory): the fixed table
    if (old != fixed) std::free(old);
    pmdaRehash(ext, fixed, nfixed);
    return;
  }
  std::memcpy(table, fixed, static_cast<size_t>(nfixed) * sizeof(pmdaMetric));
  pmdaMetric* slot = table + nfixed;
  pmdaMetric* end = table + nfixed + extra;
  for (CPmdaDynamic& d : parts) {
    d.pmnsupdate(ext, &d.pmns);  // a table asked for early needs the tree
    for (int m = 0; m < d.nmetrics; ++m) {
      if (!pmapi::HasPmid(d, d.metrics[m].m_desc.pmid)) continue;
      for (int tree = 0; tree < d.extratrees && slot < end; ++tree) d.mtabupdate(&d.metrics[m], slot++, tree + 1);
    }
  }
  if (old != fixed) std::free(old);
  pmdaRehash(ext, table, nfixed + extra);
}

}  // extern "C"
