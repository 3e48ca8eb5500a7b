// Context::Open: the one place that turns a context kind and a source spec
// into a context, above the three sources (archive/src, libpmapi/src/host,
// libpmapi/src/local). The C layer's pmNewContext, fetchgroups and the
// tools open their contexts through it.
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"
#include "pmapi/local.h"

namespace pmapi {

absl::StatusOr<Context> Context::Open(ContextKind kind, std::string_view spec) {
  switch (kind) {
    case ContextKind::kHost:
      return OpenHostContext(spec);
    case ContextKind::kArchive:
      return OpenArchive(spec);
    case ContextKind::kLocal:
      return OpenLocalContext();
    default:
      return PcpError(kErrNocontext);
  }
}

}  // namespace pmapi
