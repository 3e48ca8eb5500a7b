// tools/common/zone.h: a tool's reporting zone (no option, -z or -Z) and
// where its metric source keeps its time zone, as PCP's pmNewContextZone
// finds it for -z: an archive's label, or a host's pmcd.timezone metric.
//
// Example:
//   pmtools::ZoneSource zs = pmtools::SourceZone(&ctx);
//   auto zone = pmtools::ChooseReportingZone(pmtools::ZoneChoice::kSource, zs, std::nullopt);
#ifndef PMAPI_TOOLS_COMMON_ZONE_H_
#define PMAPI_TOOLS_COMMON_ZONE_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "pmapi/context.h"
#include "pmapi/timezone.h"

namespace pmtools {

// Where a tool's reporting zone comes from.
enum class ZoneChoice {
  kLocal,   // no option: the process's zone
  kSource,  // -z: the metric source's zone
  kUser,    // -Z tz: the named zone
};

// The metric source, as far as zone selection needs it.
struct ZoneSource {
  bool is_archive = false;
  std::string hostname;
  // An archive's label timezone field (v2 and v3 alike), or a host's
  // pmcd.timezone value.
  std::string timezone;
};

// A chosen reporting zone and the note tools that announce it print first.
struct ReportingZone {
  pmapi::TimeZone zone;
  std::string note;  // "" for kLocal
};

// Returns the reporting zone for `choice`. kSource uses source.timezone
// through pmNewZone: PCP 6.0.3's pmNewContextZone takes the label's TZ
// string even when a v3 label also names a zoneinfo file. The note is
// "Note: timezone set to local timezone of host \"H\"[ from archive]\n\n"
// for kSource and "Note: timezone set to \"TZ=tz\"\n\n" for kUser.
// REQUIRES: user_tz is set for kUser.
absl::StatusOr<ReportingZone> ChooseReportingZone(ZoneChoice choice, const ZoneSource& source,
                                                  std::optional<std::string_view> user_tz);

// Returns pmcd.timezone from a host context, "" when it cannot be had.
std::string HostTimezone(pmapi::Context* ctx);

// Returns the source's host name and zone string: the archive label's for
// an archive, pmcd.timezone for a host, none for a local context.
ZoneSource SourceZone(pmapi::Context* ctx);

// The zone a tool reports in, from its options: -Z's zone (`user_tz`),
// the source's for -z (`hostzone`; a host without pmcd.timezone gives this
// machine's zone, with the note naming the host), else the process's. The
// source's zone is asked for only with -z, as PCP's tools do.
absl::StatusOr<ReportingZone> ToolZone(pmapi::Context* ctx, bool hostzone,
                                       const std::optional<std::string>& user_tz);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_ZONE_H_
