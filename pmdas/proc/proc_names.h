// proc_names.h: the proc agent answers for its own names (name to PMID,
// PMID to names, children of a node) from its metric table, as PCP's
// agent answers for the subtrees its name space leaves to it (3:*:*).
#ifndef PMAPI_PMDAS_PROC_PROC_NAMES_H_
#define PMAPI_PMDAS_PROC_PROC_NAMES_H_

#include "pmapi/pmda.h"

namespace pmapi::proc_agent {

// Installs the three name callbacks in dp's dispatch.
void InstallProcNames(Pmda& dp);

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_PROC_NAMES_H_
