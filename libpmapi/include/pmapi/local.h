// pmapi/local.h: opening a local context, whose agents run inside this
// process instead of behind pmcd (PCP's PM_CONTEXT_LOCAL, pminfo -L).
//
// The agents come from a configuration file in the form of PCP's
// pmcd.conf: by default the one installed with the library, or the file
// named by PCP's own variable PCP_PMCDCONF_PATH when it is set. Built-in
// agents (the test agent, the Linux agent) and shared-object agents loaded
// by path and init function are both allowed; the name space is built from
// the agents' namespace files. Requests for a domain with no agent fail
// with PM_ERR_NOAGENT.
//
// Example:
//   absl::StatusOr<pmapi::Context> ctx = pmapi::OpenLocalContext();
//   if (!ctx.ok()) return ctx.status();
//   absl::StatusOr<pmapi::PmID> id = ctx->LookupName("kernel.all.load");
//   if (!id.ok()) return id.status();
//   absl::StatusOr<pmapi::Result> r = ctx->Fetch({*id});
#ifndef PMAPI_LOCAL_H_
#define PMAPI_LOCAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/context.h"

namespace pmapi {

struct LocalOptions {
  // The configuration file; empty: $PCP_PMCDCONF_PATH, else the default.
  std::string config_path;
  // When not null, receives the warnings PCP would print (agents that could
  // not be loaded, pmdaInit diagnostics).
  std::vector<std::string>* warnings = nullptr;
};

// Returns the path of the configuration file installed with the library.
[[nodiscard]] std::string DefaultLocalConfigPath();

// Opens a local context. Agents that fail to load are left out (with a
// warning), as PCP does; a configuration file that cannot be read is an
// error (-errno).
absl::StatusOr<Context> OpenLocalContext(const LocalOptions& options = {});

// Changes the agents later local contexts load, as PCP's pmSpecLocalPMDA
// (pminfo -K) does: "add,DOMAIN,PATH,INIT" adds the shared-object agent
// PATH (its names are those of DOMAIN in the default name space),
// "del,DOMAIN" (or "del,,PATH") removes agents, "clear" removes every
// agent. The first call starts from the configuration file. Returns "" or
// PCP's message for a spec it refuses.
[[nodiscard]] std::string SpecLocalPmda(std::string_view spec);

}  // namespace pmapi

#endif  // PMAPI_LOCAL_H_
