// PCP's time stamp texts, built from broken-down local time the way libpcp
// and its tools build them (asctime's layout, printf's field widths).
#include "pmapi/timefmt.h"

#include <climits>

#include "absl/strings/str_format.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr const char* kDayNames[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr const char* kMonthNames[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// asctime_r writes into a 26-byte buffer; longer text is cut to 25 bytes.
constexpr size_t kAsctimeBuffer = 26;

// An int64 narrowed the way a C cast to int narrows it.
int AsCInt(int64_t v) { return static_cast<int>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

absl::StatusOr<std::string> Asctime(const BrokenDownTime& tm) {
  if (tm.year > INT_MAX - 1900) return PcpError(kErrToobig, "year too large for asctime");
  const char* day = tm.wday < 0 || tm.wday >= 7 ? "???" : kDayNames[tm.wday];
  const char* mon = tm.mon < 0 || tm.mon >= 12 ? "???" : kMonthNames[tm.mon];
  std::string text = absl::StrFormat("%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", day, mon, tm.mday,
                                     tm.hour, tm.min, tm.sec, 1900 + tm.year);
  if (text.size() >= kAsctimeBuffer) text.resize(kAsctimeBuffer - 1);
  return text;
}

}  // namespace

absl::StatusOr<std::string> Ctime(const TimeZone& zone, int64_t seconds) {
  absl::StatusOr<BrokenDownTime> tm = zone.Localtime(seconds);
  if (!tm.ok()) return tm.status();
  return Asctime(*tm);
}

absl::StatusOr<std::string> ClockStamp(const TimeZone& zone, int64_t seconds, int fraction,
                                       int digits) {
  absl::StatusOr<BrokenDownTime> tm = zone.Localtime(seconds);
  if (!tm.ok()) return tm.status();
  return absl::StrFormat("%02d:%02d:%02d.%0*d", tm->hour, tm->min, tm->sec, digits, fraction);
}

absl::StatusOr<std::string> DateStamp(const TimeZone& zone, int64_t seconds, int fraction,
                                      int digits) {
  absl::StatusOr<std::string> text = Ctime(zone, seconds);
  if (!text.ok()) return text.status();
  // PCP cuts the pmCtime text after the seconds (offset 19) and prints the
  // year as "%4.4s" of what starts at offset 20 (so year 1 is "  1\n").
  std::string date = text->substr(0, 19);
  std::string year = text->size() > 20 ? text->substr(20, 4) : "";
  return absl::StrFormat("%s.%0*d %4.4s", date, digits, fraction, year);
}

absl::StatusOr<std::string> PrintStamp(const TimeZone& zone, int64_t seconds, int64_t usec) {
  return ClockStamp(zone, seconds, AsCInt(usec / 1000), 3);
}

absl::StatusOr<std::string> HighResStamp(const TimeZone& zone, int64_t seconds, int64_t nsec) {
  return ClockStamp(zone, seconds, AsCInt(nsec), 9);
}

}  // namespace pmapi
