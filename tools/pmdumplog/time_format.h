// time_format.h: the timestamps pmdumplog prints, in the reporting time
// zone (local $TZ by default, the archive's zone with -z, any zone with -Z).
//
// Zones are applied the way libpcp applies them: by setting $TZ and using
// the C library's localtime, which understands both Olson names
// ("America/New_York") and the POSIX strings archives record ("AEDT-11").
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

namespace pmdumplog {

class TimeFormat {
 public:
  // `version` selects microsecond (2) or nanosecond (3) stamps.
  explicit TimeFormat(int version) : version_(version) {}

  // Makes `zone` the reporting time zone.
  void SetZone(const std::string& zone);

  // Appends "HH:MM:SS.uuuuuu" (v2) or "HH:MM:SS.nnnnnnnnn" (v3).
  void AppendStamp(const pmapi::ArchiveTime& t, std::string* out) const;
  // Appends what ctime() gives for t, without its newline
  // ("Sun Nov 22 01:42:52 2026").
  void AppendCtime(int64_t sec, std::string* out) const;
  // Appends "Sun Nov 22 " + stamp + " 2026", pmdumplog's long form.
  void AppendDatedStamp(const pmapi::ArchiveTime& t, std::string* out) const;

  int version() const { return version_; }

 private:
  // Breaks sec into local calendar fields, caching the last answer
  // because consecutive records usually share their minute.
  void Local(int64_t sec, struct tm* tm) const;

  int version_;
  mutable int64_t cached_minute_ = INT64_MIN;
  mutable struct tm cached_tm_ {};
};

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_TIME_FORMAT_H_
