// Time stamps in the reporting zone; see time_format.h.
#include "time_format.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace pmdumplog {

void TimeFormat::SetZone(const std::string& zone) {
  setenv("TZ", zone.c_str(), 1);
  tzset();
  cached_minute_ = INT64_MIN;
}

void TimeFormat::Local(int64_t sec, struct tm* tm) const {
  // Zone offsets are whole minutes, so one localtime per minute suffices.
  const int64_t minute = sec >= 0 ? sec / 60 : (sec - 59) / 60;
  if (minute != cached_minute_) {
    time_t base = static_cast<time_t>(minute * 60);
    localtime_r(&base, &cached_tm_);
    cached_minute_ = minute;
  }
  *tm = cached_tm_;
  tm->tm_sec = static_cast<int>(sec - minute * 60);
  if (cached_tm_.tm_sec != 0) {
    // A zone with a seconds offset: fall back to the C library.
    time_t t = static_cast<time_t>(sec);
    localtime_r(&t, tm);
  }
}

void TimeFormat::AppendStamp(const pmapi::ArchiveTime& t, std::string* out) const {
  struct tm tm;
  Local(t.sec, &tm);
  char buf[48];
  int n;
  if (version_ >= 3) {
    n = snprintf(buf, sizeof(buf), "%02d:%02d:%02d.%09d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                 static_cast<int>(t.nsec));
  } else {
    n = snprintf(buf, sizeof(buf), "%02d:%02d:%02d.%06d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                 static_cast<int>(t.nsec / 1000));
  }
  out->append(buf, n);
}

void TimeFormat::AppendCtime(int64_t sec, std::string* out) const {
  struct tm tm;
  Local(sec, &tm);
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  int n = snprintf(buf, sizeof(buf), "%.3s %.3s%3d %.2d:%.2d:%.2d %d", kDays[tm.tm_wday % 7],
                   kMonths[tm.tm_mon % 12], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                   1900 + tm.tm_year);
  out->append(buf, n);
}

void TimeFormat::AppendDatedStamp(const pmapi::ArchiveTime& t, std::string* out) const {
  std::string ctime;
  AppendCtime(t.sec, &ctime);
  out->append(ctime, 0, 10);
  out->push_back(' ');
  AppendStamp(t, out);
  out->push_back(' ');
  if (ctime.size() >= 24) {
    out->append(ctime, 20, 4);
  }
}

}  // namespace pmdumplog
