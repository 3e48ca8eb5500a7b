// pcp_agent_binding.h: readying a process to load an agent PCP built.
//
// Such an agent names libpcp_pmda.so.3 and libpcp.so.3. The dynamic linker
// would load PCP's libraries for those names, and the agent would run on
// them beside this library. Instead, before the agent is opened, objects
// of those names that define PCP's symbol version nodes and nothing else
// (dropin/version_nodes.c) are loaded from this installation; the agent is
// then accepted by the linker, and every name it calls binds to the copy
// of this library the process already has: the program itself (a tool
// that links the library statically and exports its names), libpmapi.so,
// or the drop-in libpcp.so.3 (under pmapi-run), which is then the
// libpcp.so.3 the agent gets.
#ifndef PMAPI_LOCAL_PCP_AGENT_BINDING_H_
#define PMAPI_LOCAL_PCP_AGENT_BINDING_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace pmapi {

// Prepares for an agent whose DT_NEEDED entries are `needed`. OK when the
// agent needs none of PCP's libraries, or needs only libpcp.so.3 and
// libpcp_pmda.so.3 and objects of this installation now answer to those
// names. An error (PM_ERR_GENERIC, naming the library) when the agent
// needs another of PCP's libraries (libpcp_web.so.1, say), when PCP's own
// library of one of those names is already in the process, or when the
// version-node libraries cannot be found or loaded.
absl::Status BindPcpLibraries(const std::string& agent, const std::vector<std::string>& needed);

// The directory of the version-node libraries, or "" when this
// installation has none.
std::string VersionNodesDirectory();

}  // namespace pmapi

#endif  // PMAPI_LOCAL_PCP_AGENT_BINDING_H_
