// local_pmda_spec.h: the parser of the -K option's agent specs
// (pmSpecLocalPMDA); pmapi::SpecLocalPmda (pmapi/local.h) applies them to
// the agent table of local contexts opened afterwards.
//
//   add,DOMAIN,PATH,INIT    load PATH's INIT as agent DOMAIN
//   del,DOMAIN[,PATH]       drop the agent of DOMAIN (or PATH: del,,PATH)
//   clear                   drop every agent
//
// Example:
//   absl::StatusOr<pmapi::LocalPmdaOp> op =
//       pmapi::ParseLocalPmdaSpec("add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init");
#ifndef PMAPI_SRC_LOCAL_PMDA_SPEC_H_
#define PMAPI_SRC_LOCAL_PMDA_SPEC_H_

#include <string>
#include <string_view>

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

}  // namespace pmapi

#endif  // PMAPI_SRC_LOCAL_PMDA_SPEC_H_
