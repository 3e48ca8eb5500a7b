// c_pmda_convert.cc: value sets between the C agent's pmResult and the
// library's Result, for hosting an agent in a local context and for the
// daemon's PDU loop alike.
#include <cstdlib>
#include <cstring>

#include "c_pmda_internal.h"
#include "pmapi/errors.h"

namespace pmapi {

// Appends the value sets of the agent's `res` to *out, checking each.
absl::Status CopyResult(const pmResult* res, Result* out) {
  for (int i = 0; i < res->numpmid; ++i) {
    const pmValueSet* vs = res->vset[i];
    if (vs == nullptr) return PcpError(kErrGeneric);
    if (vs->numval <= 0) {
      out->AddSet(vs->pmid, vs->numval, PM_VAL_INSITU);
      continue;
    }
    out->AddSet(vs->pmid, vs->numval, vs->valfmt == PM_VAL_INSITU ? PM_VAL_INSITU : PM_VAL_DPTR);
    for (int j = 0; j < vs->numval; ++j) {
      const pmValue& v = vs->vlist[j];
      if (vs->valfmt == PM_VAL_INSITU) {
        out->AddInsitu(v.inst, v.value.lval);
        continue;
      }
      const pmValueBlock* vb = v.value.pval;
      if (vb == nullptr || vb->vlen < PM_VAL_HDR_SIZE) return PcpError(kErrGeneric);
      out->AddBlock(v.inst, static_cast<int>(vb->vtype),
                    std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(vb->vbuf), vb->vlen - PM_VAL_HDR_SIZE));
    }
  }
  return absl::OkStatus();
}

// Builds a malloc'ed pmResult of `values` for the agent's store handler.
pmResult* NewCResult(const Result& values) {
  const int n = values.numpmid();
  auto* res = static_cast<pmResult*>(
      std::calloc(1, sizeof(pmResult) + static_cast<size_t>(n > 1 ? n - 1 : 0) * sizeof(pmValueSet*)));
  if (res == nullptr) return nullptr;
  res->numpmid = n;
  for (int i = 0; i < n; ++i) {
    const ValueSet& vs = values.sets()[static_cast<size_t>(i)];
    const int count = vs.numval > 0 ? vs.numval : 0;
    auto* c = static_cast<pmValueSet*>(
        std::calloc(1, sizeof(pmValueSet) + static_cast<size_t>(count > 1 ? count - 1 : 0) * sizeof(pmValue)));
    res->vset[i] = c;
    if (c == nullptr) continue;
    c->pmid = vs.pmid;
    c->numval = vs.numval;
    c->valfmt = vs.valfmt == kValInsitu ? PM_VAL_INSITU : PM_VAL_DPTR;
    for (int j = 0; j < count; ++j) {
      ValueView v = values.value(vs, j);
      c->vlist[j].inst = v.inst;
      if (c->valfmt == PM_VAL_INSITU) {
        c->vlist[j].value.lval = v.lval;
        continue;
      }
      size_t size = PM_VAL_HDR_SIZE + v.payload.size();
      auto* vb = static_cast<pmValueBlock*>(std::calloc(1, size < sizeof(pmValueBlock) ? sizeof(pmValueBlock) : size));
      if (vb != nullptr) {
        vb->vtype = static_cast<unsigned>(v.vtype);
        vb->vlen = static_cast<unsigned>(size);
        if (!v.payload.empty()) std::memcpy(vb->vbuf, v.payload.data(), v.payload.size());
      }
      c->vlist[j].value.pval = vb;
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
