// pmda_fetch_rules.h: how pmdaFetch turns an agent's fetch callback into
// one metric's values, written once for the C++ PMDA library
// (Pmda::FetchOne) and the C layer (pmdaFetch), each storing values in its
// own form.
//
// For each instance the callback is called; a negative status skips the
// instance (PM_ERR_PMID with a notice that the callback does not handle
// the metric). Interface 2 stores a value for any other status; later
// interfaces only for a positive one (0: no value for this instance). A
// value that cannot be stored (a bad descriptor type: notice; too big)
// skips the instance with that error. The value set's count is the number
// stored; with none, 0 when the metric had no instances, else the last
// status.
//
// Example:
//   int numval = FetchByRules(insts, {interface, desc.pmid, desc.type}, fetch, store, release, notify);
#ifndef PMAPI_SRC_PMDA_FETCH_RULES_H_
#define PMAPI_SRC_PMDA_FETCH_RULES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmapi/pmda.h"
#include "pmapi/strings.h"
#include "pmapi/types.h"

namespace pmapi {

struct FetchRules {
  int interface;  // the agent's PMDA interface version
  PmID pmid;
  int type;       // the metric's descriptor type
};

// fetch(inst) returns the callback's status; store(inst) stores the value
// the callback gave and returns 0 or a negative code; release(status)
// follows each store, once any notice about it is given (the C layer frees
// a value the callback allocated); notify(text) reports a notice.
template <typename Insts, typename Fetch, typename Store, typename Release, typename Notify>
int FetchByRules(const Insts& insts, const FetchRules& rules, Fetch&& fetch, Store&& store,
                 Release&& release, Notify&& notify) {
  int stored = 0;
  int sts = 0;
  for (const auto inst : insts) {
    sts = fetch(inst);
    if (sts < 0) {
      if (sts == kErrPmid)
        notify(absl::StrFormat("pmdaFetch: PMID %s not handled by fetch callback", IDStr(rules.pmid)));
      continue;
    }
    if (!(rules.interface == kPmdaInterface2 || sts > 0)) continue;
    const int kept = store(inst);
    if (kept == kErrType)
      notify(absl::StrFormat("pmdaFetch: Descriptor type (%s) for metric %s is bad", TypeStr(rules.type),
                             IDStr(rules.pmid)));
    release(sts);
    if (kept < 0) {
      sts = kept;
      continue;
    }
    ++stored;
  }
  return stored > 0 ? stored : (insts.empty() ? 0 : sts);
}

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_FETCH_RULES_H_
