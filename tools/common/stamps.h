// tools/common/stamps.h: the time stamps only PCP's tools print (pmval's
// archive stamps, pmdumplog's record stamps and dates), built from the
// library's ClockStamp and DateStamp (pmapi/timefmt.h).
//
// Example:
//   pmtools::PmvalStamp(utc, 1795311803, 1000000000);   // "01:43:23.1000"
#ifndef PMAPI_TOOLS_COMMON_STAMPS_H_
#define PMAPI_TOOLS_COMMON_STAMPS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "pmapi/timefmt.h"

namespace pmtools {

// pmval's stamp for archive values: "hh:mm:ss.mmm" with milliseconds =
// nsec / 1000000, where nsec may be 1000000000 or more after interval
// arithmetic ("01:43:23.1000").
absl::StatusOr<std::string> PmvalStamp(const pmapi::TimeZone& zone, int64_t seconds,
                                       int64_t nsec);

// pmdumplog's stamp for records, index entries and indoms: microseconds
// for a v2 archive ("01:42:52.104650"), nanoseconds for v3
// ("01:43:20.186708937"). REQUIRES: archive_version is 2 or 3.
absl::StatusOr<std::string> PmdumplogStamp(const pmapi::TimeZone& zone, int64_t seconds,
                                           int64_t nsec, int archive_version);

// pmdumplog's label and -x form: DateStamp with 6 digits of microseconds
// for v2 and 9 digits of nanoseconds for v3.
// REQUIRES: archive_version is 2 or 3.
absl::StatusOr<std::string> PmdumplogDate(const pmapi::TimeZone& zone, int64_t seconds,
                                          int64_t nsec, int archive_version);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_STAMPS_H_
