// tools/common/source.h: opening a tool's metric source (-a, -h, -L) with
// the messages PCP's tools print when it cannot be opened.
//
// Example:
//   auto ctx = pmtools::OpenToolContext(pmapi::ContextKind::kArchive, "big",
//                                       "Cannot establish local context");
//   // on failure stderr has "pmval: Cannot open archive \"big\": ..."
#ifndef PMAPI_TOOLS_COMMON_SOURCE_H_
#define PMAPI_TOOLS_COMMON_SOURCE_H_

#include <string>

#include "absl/status/statusor.h"
#include "pmapi/context.h"

namespace pmtools {

// Opens a context of `kind` for `name` through pmapi::Context::Open. On
// failure writes "PROGRAM: Cannot open archive \"NAME\": REASON",
// "PROGRAM: Cannot connect to PMCD on host \"NAME\": REASON", or, for the
// local context, "PROGRAM: LOCAL_FAILURE: REASON" (each of PCP's tools
// words that one its own way) to stderr and returns the error.
absl::StatusOr<pmapi::Context> OpenToolContext(pmapi::ContextKind kind, const std::string& name,
                                               const char* local_failure);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_SOURCE_H_
