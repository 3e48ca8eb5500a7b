// local_spec.h: the agent table PCP's pmSpecLocalPMDA edits (pminfo -K),
// and the names such agents get.
//
// The first spec builds the table from the configuration file a local
// context would read ($PCP_PMCDCONF_PATH, else the default); later specs
// change it ("add,DOMAIN,PATH,INIT", "del,DOMAIN" or "del,,PATH",
// "clear"), and every local context opened afterwards loads the table
// instead of the file. An added agent's names are those of its domain in
// the default name space ($PMNS_DEFAULT, else $PCP_VAR_DIR/pmns/root), as
// PCP's local context finds them.
//
// Example:
//   std::string err = pmapi::SpecLocalPmda("add,253,./pmda_simple.so,simple_init");
//   std::optional<pmapi::LocalAgentTable> t = pmapi::SpecifiedAgents();
#ifndef PMAPI_SRC_LOCAL_SPEC_H_
#define PMAPI_SRC_LOCAL_SPEC_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/pmns.h"
#include "pmda_config.h"

namespace pmapi {

struct LocalAgentTable {
  std::vector<AgentSpec> agents;
  std::string config_dir;
};

// Returns the table the specs made, or nothing when no spec was applied.
std::optional<LocalAgentTable> SpecifiedAgents();

// Reads the default name space ($PMNS_DEFAULT, else
// $PCP_VAR_DIR/pmns/root).
absl::StatusOr<Pmns> LoadDefaultPmns();

// Returns the names of `defaults` (the default name space) whose PMIDs are
// in `domain`, as the text of a namespace file.
absl::StatusOr<std::string> DefaultPmnsSubtree(const Pmns& defaults, int domain);

// Returns the names of `defaults` (the default name space) whose domains no agent here
// serves (`served` says which do) and that neither `have` holds nor a name
// of `have` stands above, as the text of a namespace file: PCP's local
// context knows every name of the default name space, and a name of a
// domain without an agent is "No PMCD agent for domain of request".
absl::StatusOr<std::string> DefaultPmnsUnserved(const Pmns& defaults, const std::function<bool(unsigned)>& served,
                                                const Pmns& have);

}  // namespace pmapi

#endif  // PMAPI_SRC_LOCAL_SPEC_H_
