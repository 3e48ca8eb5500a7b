// tools/common/origin.h: the -O (origin) option of tools that read
// archives, resolved against the archive's time window.
#ifndef PMAPI_TOOLS_COMMON_ORIGIN_H_
#define PMAPI_TOOLS_COMMON_ORIGIN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/context.h"

namespace pmtools {

// Returns the origin `text` names for the archive of `ctx`: its start when
// empty, "+interval" after the start, "-interval" before the end. Other
// forms give an error whose message is ready for stderr.
absl::StatusOr<absl::Time> ResolveOrigin(pmapi::Context& ctx, const std::string& text);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_ORIGIN_H_
