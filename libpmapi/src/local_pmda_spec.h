// local_pmda_spec.h: the -K option's agent specs (pmSpecLocalPMDA) and the
// process's list of them, which local contexts opened afterwards apply to
// their agent table.
//
//   add,DOMAIN,PATH,INIT    load PATH's INIT as agent DOMAIN
//   del,DOMAIN[,PATH]       drop the agent of DOMAIN (or PATH: del,,PATH)
//   clear                   drop every agent
//
// Example:
//   absl::StatusOr<pmapi::LocalPmdaOp> op =
//       pmapi::ParseLocalPmdaSpec("add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init");
//   if (op.ok()) pmapi::RecordLocalPmdaOp(*op);
#ifndef PMAPI_SRC_LOCAL_PMDA_SPEC_H_
#define PMAPI_SRC_LOCAL_PMDA_SPEC_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pmapi {

struct LocalPmdaOp {
  enum Kind { kAdd, kDel, kClear };
  Kind kind = kAdd;
  int domain = -1;   // -1: not given (del by path)
  std::string path;  // the DSO; may be empty for del
  std::string init;  // the init function; may be empty for del
};

// Parses one spec as pmSpecLocalPMDA does. A bad spec is InvalidArgument
// whose message is PCP's reason ("bad op in spec", "missing domain in
// spec", ...).
absl::StatusOr<LocalPmdaOp> ParseLocalPmdaSpec(std::string_view spec);

// Appends an operation to the process's list. After a clear, a del that
// names no agent added since is PM_ERR_INDOM (before one, the agents of the
// configuration are not known here and a del is recorded as given).
absl::Status RecordLocalPmdaOp(const LocalPmdaOp& op);
// The operations so far, in order (a clear empties the list first).
std::vector<LocalPmdaOp> LocalPmdaOps();

}  // namespace pmapi

#endif  // PMAPI_SRC_LOCAL_PMDA_SPEC_H_
