// tools/common/zone.h: where a tool's metric source keeps its time zone,
// as PCP's pmNewContextZone finds it (-z): an archive's label, or a host's
// pmcd.timezone metric.
//
// Example:
//   pmapi::ZoneSource zs = pmtools::SourceZone(&ctx);
//   auto zone = pmapi::ChooseReportingZone(pmapi::ZoneChoice::kSource, zs, std::nullopt);
#ifndef PMAPI_TOOLS_COMMON_ZONE_H_
#define PMAPI_TOOLS_COMMON_ZONE_H_

#include <string>

#include "pmapi/context.h"
#include "pmapi/timezone.h"

namespace pmtools {

// Returns pmcd.timezone from a host context, "" when it cannot be had.
std::string HostTimezone(pmapi::Context* ctx);

// Returns the source's host name and zone string: the archive label's for
// an archive, pmcd.timezone for a host, none for a local context.
pmapi::ZoneSource SourceZone(pmapi::Context* ctx);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_ZONE_H_
