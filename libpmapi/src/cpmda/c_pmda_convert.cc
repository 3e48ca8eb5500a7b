// c_pmda_convert.cc: results in the layout C agents build and free, for
// pmdaFetch's answers and the store handler's input, in a local context
// and in the daemon's PDU loop alike. (An agent's answer is read back
// with the C layer's AppendCValueSets.)
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "c_pmda_internal.h"
#include "pmapi/errors.h"

namespace pmapi {

pmValueSet* NewCValueSet(pmID pmid, int slots) {
  const size_t size = sizeof(pmValueSet) + static_cast<size_t>(slots > 1 ? slots - 1 : 0) * sizeof(pmValue);
  auto* vs = static_cast<pmValueSet*>(std::calloc(1, size));
  if (vs == nullptr) return nullptr;
  vs->pmid = pmid;
  vs->valfmt = PM_VAL_INSITU;
  return vs;
}

pmValueBlock* NewCBlock(int vtype, const void* data, size_t len) {
  const size_t size = PM_VAL_HDR_SIZE + len;
  auto* vb = static_cast<pmValueBlock*>(std::calloc(1, std::max(size, sizeof(pmValueBlock))));
  if (vb == nullptr) return nullptr;
  vb->vtype = static_cast<unsigned>(vtype);
  vb->vlen = static_cast<unsigned>(size);
  if (len > 0) std::memcpy(vb->vbuf, data, len);
  return vb;
}

pmResult* NewCResult(const Result& values) {
  const int n = values.numpmid();
  auto* res = static_cast<pmResult*>(
      std::calloc(1, sizeof(pmResult) + static_cast<size_t>(n > 1 ? n - 1 : 0) * sizeof(pmValueSet*)));
  if (res == nullptr) return nullptr;
  res->numpmid = n;
  for (int i = 0; i < n; ++i) {
    const ValueSet& vs = values.sets()[static_cast<size_t>(i)];
    const int count = std::max(vs.numval, 0);
    pmValueSet* c = NewCValueSet(ToPcp(vs.pmid), count);
    res->vset[i] = c;
    if (c == nullptr) continue;
    c->numval = vs.numval;
    c->valfmt = vs.valfmt == kValInsitu ? PM_VAL_INSITU : PM_VAL_DPTR;
    for (int j = 0; j < count; ++j) {
      ValueView v = values.value(vs, j);
      c->vlist[j].inst = ToPcp(v.inst);
      if (c->valfmt == PM_VAL_INSITU) {
        c->vlist[j].value.lval = v.lval;
      } else {
        c->vlist[j].value.pval = NewCBlock(v.vtype, v.payload.data(), v.payload.size());
      }
    }
  }
  return res;
}

void FreeCResult(pmResult* res) {
  if (res == nullptr) return;
  for (int i = 0; i < res->numpmid; ++i) {
    pmValueSet* vs = res->vset[i];
    if (vs == nullptr) continue;
    for (int j = 0; vs->valfmt != PM_VAL_INSITU && j < vs->numval; ++j) std::free(vs->vlist[j].value.pval);
    std::free(vs);
  }
  std::free(res);
}

}  // namespace pmapi
