// eval.h: evaluates a bound derived metric over the values of one fetch,
// with PCP's arithmetic, instance matching and delta()/rate() history.
#ifndef PMAPI_DERIVE_EVAL_H_
#define PMAPI_DERIVE_EVAL_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "bind.h"
#include "pmapi/result.h"

namespace pmapi::derive {

struct EvalEnv {
  // The fetch holding the operands' values.
  const Result* result = nullptr;
  std::function<absl::StatusOr<std::string>(InDom, Inst)> name_indom;
  std::function<absl::StatusOr<Inst>(InDom, const std::string&)> lookup_indom;
};

// Evaluates `root` at time `stamp_ns`; returns the number of values in
// root->vals, or a negative PCP error code.
int Evaluate(Bound* root, int64_t stamp_ns, const EvalEnv& env);

// Appends root's values to `out` as one value set for `pmid` with `numval`
// (Evaluate's answer) values.
void AppendValues(const Bound& root, PmID pmid, int numval, Result* out);

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_EVAL_H_
