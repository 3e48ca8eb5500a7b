// proc_agent.h: the built-in proc agent, serving the per-process
// metrics of PCP's proc agent (domain 3) from /proc/PID: proc.nprocs,
// proc.psinfo, proc.memory, proc.id and proc.io, with PCP's names,
// PMIDs, types, units and instance naming ("NNNNNN command", numbered by
// process id). PROC_STATSPATH, PROC_HERTZ, PROC_PAGESIZE and PROC_THREADS
// set, as for PCP's agent, another root, clock rate, page size and
// whether threads are instances too (for tests).
//
// Example (a configuration line):
//   proc 3 builtin proc_init proc pmns=proc/root_proc
#ifndef PMAPI_PMDAS_PROC_PROC_AGENT_H_
#define PMAPI_PMDAS_PROC_PROC_AGENT_H_

#include "pmapi/pmda.h"

namespace pmapi {

// The proc agent's init function (proc_init). Its help text is read from
// dp.home() + "/help".
void ProcAgentInit(Pmda& dp);

}  // namespace pmapi

#endif  // PMAPI_PMDAS_PROC_PROC_AGENT_H_
