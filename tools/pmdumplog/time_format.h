// time_format.h: the timestamps pmdumplog prints, in the reporting time
// zone (local $TZ by default, the archive's zone with -z, any zone with -Z),
// built by the library's time forms (pmapi/timefmt.h).
//
// Example:
//   TimeFormat tf(pmapi::kVersion3);
//   tf.SetZone("America/New_York");
//   std::string s;
//   tf.AppendStamp(t, &s);   // "20:42:52.125097000"
#ifndef PMAPI_TOOLS_PMDUMPLOG_TIME_FORMAT_H_
#define PMAPI_TOOLS_PMDUMPLOG_TIME_FORMAT_H_

#include <cstdint>
#include <string>

#include "pmapi/archive.h"
#include "pmapi/timezone.h"

namespace pmdumplog {

class TimeFormat {
 public:
  // `version` selects microsecond (2) or nanosecond (3) stamps; the zone is
  // the process's own ($TZ, else the system's).
  explicit TimeFormat(int version);

  // Makes `zone` the reporting time zone, read as PCP's pmNewZone reads it
  // (an Olson name, a zoneinfo path or a POSIX string such as "AEDT-11");
  // one that cannot be read is UTC, as the C library takes it.
  void SetZone(const std::string& zone);

  // The same zone, with stamps of another archive version (event records
  // carry their own precision).
  TimeFormat WithVersion(int version) const;

  // Appends "HH:MM:SS.uuuuuu" (v2) or "HH:MM:SS.nnnnnnnnn" (v3).
  void AppendStamp(const pmapi::ArchiveTime& t, std::string* out) const;
  // Appends what ctime() gives for t, without its newline
  // ("Sun Nov 22 01:42:52 2026").
  void AppendCtime(int64_t sec, std::string* out) const;
  // Appends "Sun Nov 22 " + stamp + " 2026", pmdumplog's long form.
  void AppendDatedStamp(const pmapi::ArchiveTime& t, std::string* out) const;

  int version() const { return version_; }
  const pmapi::TimeZone& zone() const { return zone_; }

 private:
  int version_;
  pmapi::TimeZone zone_;
};

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_TIME_FORMAT_H_
