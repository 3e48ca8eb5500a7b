// The tools' one way to open their metric source, and PCP's messages.
#include "source.h"

#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "options.h"
#include "pmapi/errors.h"

namespace pmtools {

absl::StatusOr<pmapi::Context> OpenToolContext(pmapi::ContextKind kind, const std::string& name,
                                               const char* local_failure) {
  absl::StatusOr<pmapi::Context> ctx = pmapi::Context::Open(kind, name);
  if (ctx.ok()) return ctx;
  const std::string reason = pmapi::ErrStr(pmapi::PcpCode(ctx.status()));
  if (kind == pmapi::ContextKind::kArchive) {
    Complain(" Cannot open archive \"%s\": %s\n", name.c_str(), reason.c_str());
  } else if (kind == pmapi::ContextKind::kLocal) {
    Complain(" %s: %s\n", local_failure, reason.c_str());
  } else {
    // PCP's library reports a host spec it cannot read, then fails.
    if (absl::StartsWith(ctx.status().message(), "bad host specification\n")) {
      std::fprintf(stderr, "pmNewContext: %s", std::string(ctx.status().message()).c_str());
    }
    Complain(" Cannot connect to PMCD on host \"%s\": %s\n", name.c_str(), reason.c_str());
  }
  return ctx;
}

}  // namespace pmtools
