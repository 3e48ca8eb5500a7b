// results.cc: libpcp's internal result calls over __pmResult (a pmResult
// with a __pmTimestamp), which libpcp_import builds its records with:
// allocation, freeing, sorting, printing, and the PDU-buffer calls that go
// with them.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pcp_internal.h"

namespace {

// Frees each value set of vset[0..n) with its value blocks.
void FreeValueSets(pmValueSet** vset, int n) {
  for (int i = 0; i < n; i++) {
    pmValueSet* vs = vset[i];
    if (vs == nullptr) continue;
    if (vs->valfmt == PM_VAL_DPTR) {
      for (int j = 0; j < vs->numval; j++) std::free(vs->vlist[j].value.pval);
    }
    std::free(vs);
  }
}

int CompareInst(const void* a, const void* b) {
  return static_cast<const pmValue*>(a)->inst - static_cast<const pmValue*>(b)->inst;
}

// One value set as libpcp's result dumps print it, names, instance names
// and descriptor looked up through the current context.
void PrintSet(FILE* f, const pmValueSet* vs) {
  char** names = nullptr;
  int n = pmNameAll(vs->pmid, &names);
  std::fprintf(f, "  %s (", pmIDStr(vs->pmid));
  if (n < 0) {
    std::fprintf(f, "<noname>");
  } else {
    __pmPrintMetricNames(f, n, names, const_cast<char*>(" or "));
    std::free(names);
  }
  std::fprintf(f, "):");
  if (vs->numval <= 0) {
    std::fprintf(f, vs->numval == 0 ? " No values returned!\n" : " %s\n", pmErrStr(vs->numval));
    return;
  }
  pmDesc desc;
  bool have_desc = pmLookupDesc(vs->pmid, &desc) >= 0;
  std::fprintf(f, " numval: %d valfmt: %d vlist[]:\n", vs->numval, vs->valfmt);
  for (int j = 0; j < vs->numval; j++) {
    const pmValue* vp = &vs->vlist[j];
    if (vs->numval > 1 || vp->inst != static_cast<int>(PM_IN_NULL)) {
      char* name = nullptr;
      std::fprintf(f, "    inst [%d", vp->inst);
      if (have_desc && pmNameInDom(desc.indom, vp->inst, &name) >= 0) {
        std::fprintf(f, " or \"%s\"] ", name);
        std::free(name);
      } else {
        std::fprintf(f, " or ???] ");
      }
    } else {
      std::fprintf(f, "   ");
    }
    std::fprintf(f, "value ");
    int type = have_desc ? desc.type
               : vs->valfmt == PM_VAL_INSITU ? PM_TYPE_UNKNOWN
                                             : static_cast<int>(vp->value.pval->vtype);
    pmPrintValue(f, vs->valfmt, type, vp, 1);
    std::fputc('\n', f);
  }
}

}  // namespace

extern "C" {

// A result with room for `numpmid` value sets (at least one); the sets
// are the caller's to fill. Null, with errno ENOMEM, when out of memory.
__pmResult* __pmAllocResult(int numpmid) {
  if (numpmid < 1) numpmid = 1;
  size_t need = sizeof(__pmResult) + (numpmid - 1) * sizeof(pmValueSet*);
  auto* r = static_cast<__pmResult*>(std::malloc(need));
  if (r == nullptr) errno = ENOMEM;
  return r;
}

// Frees the value sets and their value blocks, and the result itself.
void __pmFreeResult(__pmResult* result) {
  if (result == nullptr) return;
  FreeValueSets(result->vset, result->numpmid);
  std::free(result);
}

// Frees the values of each value set, and the sets, but not the result.
void __pmFreeResultValues(pmResult* result) {
  if (result != nullptr) FreeValueSets(result->vset, result->numpmid);
}

// Puts each value set's values in instance order.
void __pmSortInstances(__pmResult* result) {
  for (int i = 0; i < result->numpmid; i++) {
    pmValueSet* vs = result->vset[i];
    if (vs->numval > 1) std::qsort(vs->vlist, static_cast<size_t>(vs->numval), sizeof(pmValue), CompareInst);
  }
}

void __pmPrintResult(FILE* f, const __pmResult* result) {
  pmdebugoptions_t saved = pmDebugOptions;
  pmDebugOptions = pmdebugoptions_t{};
  std::fprintf(f, "__pmResult dump from %p timestamp: %lld.%09d ", static_cast<const void*>(result),
               static_cast<long long>(result->timestamp.sec), static_cast<int>(result->timestamp.nsec));
  __pmPrintTimestamp(f, &result->timestamp);
  std::fprintf(f, " numpmid: %d\n", result->numpmid);
  for (int i = 0; i < result->numpmid; i++) PrintSet(f, result->vset[i]);
  pmDebugOptions = saved;
}

// PDU buffers are libpcp's pool; this library hands none out, so no
// pointer is one of them (libpcp answers 0 for a pointer not in its pool).
int __pmUnpinPDUBuf(void*) { return 0; }

// libpcp names this descriptor in the messages of its value-set decoder;
// this library's decoders name none, so there is nothing to change.
void __pmOverrideLastFd(int) {}

}  // extern "C"
