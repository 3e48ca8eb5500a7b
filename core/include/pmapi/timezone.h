// pmapi/timezone.h: time zones as PCP sees them.
//
// PCP reports times in a "reporting zone": the process's own zone by
// default, the metric source's zone with -z, or a zone the user names with
// -Z. libpcp installs a zone by putting its string in $TZ and calling the C
// library, so what a zone string means is what glibc makes of that $TZ
// value. TimeZone reproduces that reading without touching the environment:
//
//  - a name glibc finds as a TZif file under $TZDIR (default
//    /usr/share/zoneinfo), or an absolute path to one, with or without the
//    leading ':' ("America/New_York", ":Australia/Melbourne", "EST5EDT") is
//    read with Abseil's zoneinfo reader;
//  - anything else is a POSIX TZ rule ("UTC+0", "AEDT-11",
//    "EST5EDT,M3.2.0,M11.1.0", "EST-11EST-10,87/2:00,297/2:00"), evaluated
//    here exactly as glibc's tzset/localtime/mktime do, quirks included.
//
// Example:
//   absl::StatusOr<pmapi::TimeZone> z = pmapi::TimeZone::ForPcpZone("AEDT-11");
//   if (!z.ok()) return z.status();
//   absl::StatusOr<pmapi::BrokenDownTime> tm = z->Localtime(1795311772);
//   // tm->hour == 12, tm->zone == "AEDT", tm->gmtoff == 39600
#ifndef PMAPI_TIMEZONE_H_
#define PMAPI_TIMEZONE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace pmapi {

// A broken-down local time, field for field the C library's struct tm:
// `year` counts from 1900, `mon` is 0..11, `wday` 0 is Sunday, `yday` 0..365.
// Inputs to TimeZone::Mktime may hold out-of-range values, as with mktime.
struct BrokenDownTime {
  int sec = 0;
  int min = 0;
  int hour = 0;
  int mday = 0;
  int mon = 0;
  int year = 0;
  int wday = 0;
  int yday = 0;
  int isdst = 0;
  int64_t gmtoff = 0;  // seconds east of UTC
  std::string zone;    // the abbreviation, e.g. "AEDT"
};

class TimeZone {
 public:
  // Returns the zone glibc uses when $TZ holds `tz`: "" and ":" are UTC, a
  // TZif file (see above) is read as such, else a POSIX rule. Errors:
  // PM_ERR_GENERIC for a file that exists but cannot be read, and for a
  // POSIX rule with a daylight-saving name but no transition rule ("XXX3YYY"),
  // which glibc resolves through the "posixrules" file, a path not modelled.
  static absl::StatusOr<TimeZone> FromTzValue(std::string_view tz);

  // As FromTzValue, with nullopt meaning $TZ unset: /etc/localtime, or UTC
  // if that is not a zoneinfo file.
  static absl::StatusOr<TimeZone> FromTzEnv(std::optional<std::string_view> tz);

  // Returns the zone PCP's pmNewZone(tz) installs: as FromTzValue, except
  // that a 3-character string gets "+0" appended first ("UTC" -> "UTC+0",
  // "EST" -> "EST+0", which is UTC named "EST").
  static absl::StatusOr<TimeZone> ForPcpZone(std::string_view tz);

  // Returns the process's local zone: $TZ if set, else /etc/localtime.
  static absl::StatusOr<TimeZone> FromEnvironment();

  // Returns UTC, named "UTC".
  [[nodiscard]] static TimeZone Utc();

  // Returns localtime_r's answer for `seconds` since the epoch in this zone.
  // Error PM_ERR_TOOBIG when the year does not fit a struct tm.
  absl::StatusOr<BrokenDownTime> Localtime(int64_t seconds) const;

  // Returns mktime's answer for `tm` in this zone and, like mktime, rewrites
  // `tm` with the normalised local time. tm.isdst is the hint: <0 unknown,
  // 0 standard, >0 daylight. Follows glibc's search, so times in a DST gap
  // or overlap resolve as glibc resolves them. Error PM_ERR_TOOBIG when no
  // representable time matches.
  //
  // glibc starts its search from the UTC offset its previous mktime call in
  // the process found, and an ambiguous wall time (in a fall-back overlap,
  // with isdst < 0) resolves to whichever side the search meets first. So
  // the answer there depends on history. `offset_hint` carries that memory
  // (seconds west of UTC, 0 in a fresh process) and is updated on success;
  // nullptr means a fresh process.
  absl::StatusOr<int64_t> Mktime(BrokenDownTime& tm, int64_t* offset_hint = nullptr) const;

  // Returns the $TZ value this zone was made from ("" for /etc/localtime).
  [[nodiscard]] const std::string& tz_value() const { return tz_value_; }

  struct Rules;  // the zone's rules; defined in timezone.cc

 private:
  TimeZone(std::string tz_value, std::shared_ptr<const Rules> rules)
      : tz_value_(std::move(tz_value)), rules_(std::move(rules)) {}

  std::string tz_value_;
  std::shared_ptr<const Rules> rules_;
};

// The notes PCP's tools (and pmGetContextOptions with
// PM_OPTFLAG_STDOUT_TZ) print before their output when they report times
// in a zone other than their own. -z: "Note: timezone set to local
// timezone of host \"HOST\"" with " from archive" for an archive; -Z:
// "Note: timezone set to \"TZ=tz\"". Each ends with a blank line.
[[nodiscard]] std::string HostZoneNote(std::string_view host, bool from_archive);
[[nodiscard]] std::string UserZoneNote(std::string_view tz);

// The longest zone string PCP keeps (PM_TZ_MAXLEN).
inline constexpr size_t kPcpTzMaxLen = 40;

// Returns PCP's "squashed" form of `zone` at time `now`: the abbreviation in
// force then followed by the POSIX offset ("AEDT-11", "IST-5:30", "EDT+4"),
// or the bare abbreviation for UTC+0 ("UTC"). This is what pmlogger writes
// in an archive label and pmcd exports as pmcd.timezone.
absl::StatusOr<std::string> SquashZone(const TimeZone& zone, int64_t now);

// Returns what libpcp's __pmTimezone reports for a process whose $TZ is
// `tz_env` (nullopt when unset) at time `now`: $TZ itself when set, not
// starting with ':' and at most kPcpTzMaxLen long; a long $TZ with every
// ":00" removed if that makes it fit; else SquashZone of the local zone.
absl::StatusOr<std::string> PcpTimezoneString(std::optional<std::string_view> tz_env,
                                              int64_t now);

}  // namespace pmapi

#endif  // PMAPI_TIMEZONE_H_
