// c_pmda_host.h: hosting a C agent (<pcp/pmda.h>) in a local context.
//
// The loader calls the agent's init function with a fresh pmdaInterface,
// as PCP's local context does for a "dso" line, and then answers every
// request of the context through the handler table of the agent's
// interface version: C structures in (pmProfile, pmResult for a store),
// C structures out (pmResult, pmDesc, pmInResult, help text, pmLabelSet,
// names) converted to and from the library's own types. The agent's
// state lives as long as the Pmda's dispatch handlers.
//
// Example (inside the library):
//   auto init = reinterpret_cast<pmapi::CPmdaInit>(dlsym(handle, "simple_init"));
//   absl::Status s = pmapi::HostCAgent(init, "simple_init", path, resolve, &pmda);
#ifndef PMAPI_SRC_C_PMDA_HOST_H_
#define PMAPI_SRC_C_PMDA_HOST_H_

#include <string>

#include "absl/status/status.h"
#include "pmapi/pmda.h"
#include "pmda_help.h"

struct pmdaInterface;

namespace pmapi {

using CPmdaInit = void (*)(pmdaInterface*);

// How an agent is hosted: the client context it serves (the number
// pmdaGetContext and e_context give it: PCP's context handle); whether its
// set-up diagnostics are collected (else printed, as PCP's agents print
// them); whether PCP built it (it then reads only newhelp's help files,
// as over PCP's library).
struct CAgentHosting {
  int client_context = 0;
  bool collect = true;
  bool pcp_built = false;
};

// Calls `init` for an agent of pmda->domain() and, if it succeeds, makes
// *pmda answer through the agent's handlers. Diagnostics the agent's
// set-up raises go to pmda->Notify when collected. Returns PM_ERR_GENERIC (or the
// agent's status) when the init function fails. An agent without a label
// handler (before interface 7) gets PCP's default domain label, which
// names the shared object as configured (`dso_path`).
absl::Status HostCAgent(CPmdaInit init, const std::string& init_name, const std::string& dso_path,
                        const HelpFile::NameResolver& resolve, Pmda* pmda, const CAgentHosting& how = {});

}  // namespace pmapi

#endif  // PMAPI_SRC_C_PMDA_HOST_H_
