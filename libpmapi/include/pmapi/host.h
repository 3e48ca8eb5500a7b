// pmapi/host.h: opening a host context, whose metrics come from a pmcd
// reached over TCP or its unix socket (PCP's PM_CONTEXT_HOST).
//
// The host specification takes PCP's forms: "host", "host:port", IPv4 and
// IPv6 literals ("[::1]:44321"), "pcp://host", "unix:" or "unix:/path" (the
// unix socket), and "local:" (the unix socket, else TCP to localhost). An
// empty spec means $PMCD_HOST, else "local:". PMCD_PORT, PMCD_SOCKET,
// PMCD_CONNECT_TIMEOUT and PMCD_REQUEST_TIMEOUT apply as in libpcp. A host
// may carry libpcp's "?attribute&..." list: TLS ("pcps://",
// $PCP_SECURE_SOCKETS), authentication (username, password, method) and a
// container are made as libpcp makes them; "host@proxy" goes through a
// pmproxy. A demand for compression fails with -EOPNOTSUPP.
// Many hosts at once: pmapi/host_group.h.
//
// A lost connection gives PM_ERR_IPC until Context::Reconnect() connects
// again (with libpcp's back-off, PMCD_RECONNECT_TIMEOUT).
//
// Example:
//   absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext("local:");
//   if (!ctx.ok()) return ctx.status();      // e.g. -ECONNREFUSED, PM_ERR_PERMISSION
//   absl::StatusOr<pmapi::PmID> id = ctx->LookupName("sample.long.one");
//   if (!id.ok()) return id.status();
//   absl::StatusOr<pmapi::Result> r = ctx->Fetch({*id});
#ifndef PMAPI_HOST_H_
#define PMAPI_HOST_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "pmapi/context.h"

namespace pmapi {

// Connects to the pmcd `host_spec` names and returns a context on it.
// Fails with the connection's error: -errno from the socket layer
// (-ECONNREFUSED, -ENOENT for a missing socket, -EHOSTUNREACH for an
// unknown host), pmcd's refusal, PM_ERR_TIMEOUT, or PM_ERR_IPC.
absl::StatusOr<Context> OpenHostContext(std::string_view host_spec);

}  // namespace pmapi

#endif  // PMAPI_HOST_H_
