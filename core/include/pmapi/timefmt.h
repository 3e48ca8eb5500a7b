// pmapi/timefmt.h: the time stamps PCP's library and tools print.
//
// Every form is local time in a given zone (see pmapi/timezone.h), built
// the way PCP builds it: from localtime_r fields, or by cutting up the
// asctime text pmCtime returns. Fractions are printed as PCP prints them,
// with printf("%0Nd") of an int computed from the raw fraction, so values
// that are not normalised (pmval's interpolated "01:43:23.1000") come out
// exactly as PCP shows them.
//
// Example:
//   pmapi::TimeZone utc = pmapi::TimeZone::Utc();
//   absl::StatusOr<std::string> date = pmapi::Ctime(utc, 1795311800);
//       // "Sun Nov 22 01:43:20 2026\n"
//   absl::StatusOr<std::string> stamp = pmapi::HighResStamp(utc, 1795311800, 186708937);
//       // "01:43:20.186708937"
//   absl::StatusOr<std::string> full = pmapi::DateStamp(utc, 1795311800, 186708, 6);
//       // "Sun Nov 22 01:43:20.186708 2026"
#ifndef PMAPI_TIMEFMT_H_
#define PMAPI_TIMEFMT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "pmapi/timezone.h"

namespace pmapi {

// Returns pmCtime's text: asctime's "Www Mmm dd hh:mm:ss yyyy\n". As glibc
// does, a year of 5 or more digits overflows asctime's 26-byte buffer and
// the text is cut to its first 25 characters (losing the newline). Errors:
// PM_ERR_TOOBIG when the time has no broken-down form (PCP would crash).
absl::StatusOr<std::string> Ctime(const TimeZone& zone, int64_t seconds);

// Returns "hh:mm:ss." followed by `fraction` printed with printf's
// "%0<digits>d". The building block of the stamp forms below.
// REQUIRES: 0 <= digits <= 9.
absl::StatusOr<std::string> ClockStamp(const TimeZone& zone, int64_t seconds, int fraction,
                                       int digits);

// Returns the pmCtime date with a fraction spliced in after the seconds:
// "Sun Nov 22 01:43:20.186708937 2026". pmdumplog prints the archive label
// and -x record stamps this way (6 digits of microseconds for v2 archives,
// 9 of nanoseconds for v3), and pmval -X / -XX its stamps. The year is
// PCP's "%4.4s" of the pmCtime text, so at most 4 characters.
// REQUIRES: 0 <= digits <= 9.
absl::StatusOr<std::string> DateStamp(const TimeZone& zone, int64_t seconds, int fraction,
                                      int digits);

// pmPrintStamp(timeval): "hh:mm:ss.mmm", milliseconds = usec / 1000.
absl::StatusOr<std::string> PrintStamp(const TimeZone& zone, int64_t seconds, int64_t usec);

// pmPrintHighResStamp(timespec) and __pmPrintTimestamp: "hh:mm:ss.nnnnnnnnn".
absl::StatusOr<std::string> HighResStamp(const TimeZone& zone, int64_t seconds, int64_t nsec);

}  // namespace pmapi

#endif  // PMAPI_TIMEFMT_H_
