// linux_agent.h: the built-in Linux agent, reading /proc and /sys with the
// names, PMIDs (domain 60), types, semantics, units and instance names of
// PCP's own linux agent, for the metrics it covers (see
// docs/local-context.md). LINUX_STATSPATH, as in PCP, names a directory to
// read the statistics files below instead of "/".
//
// Example (a configuration line):
//   linux 60 builtin linux_init linux pmns=linux/root_linux
#ifndef PMAPI_PMDAS_LINUX_LINUX_AGENT_H_
#define PMAPI_PMDAS_LINUX_LINUX_AGENT_H_

#include "pmapi/pmda.h"

namespace pmapi {

// The Linux agent's init function (linux_init). Its help text is read from
// dp.home() + "/help".
void LinuxAgentInit(Pmda& dp);

}  // namespace pmapi

#endif  // PMAPI_PMDAS_LINUX_LINUX_AGENT_H_
