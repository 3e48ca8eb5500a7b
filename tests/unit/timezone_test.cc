// Checks TimeZone against PCP 6.0.3's pmLocaltime and __pmMktime over the
// golden table tests/data/oracle/timezone.tsv (tests/oracle/timezone.c):
// zoneinfo names, POSIX rules and malformed strings, at grid instants,
// every offset change 1965..2040, and mktime requests in DST gaps and
// overlaps.
#include "pmapi/timezone.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "zone.h"
#include "oracle_table.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

std::string TmText(const BrokenDownTime& tm) {
  return absl::StrFormat("%d %d %d %d %d %d %d %d %d %d\t%s", tm.sec, tm.min, tm.hour, tm.mday,
                         tm.mon, tm.year, tm.wday, tm.yday, tm.isdst, tm.gmtoff, tm.zone);
}

std::vector<std::string> Fields(const std::string& line) {
  return absl::StrSplit(line, '\t');
}

class ZoneCache {
 public:
  const TimeZone& Get(const std::string& spec) {
    auto it = zones_.find(spec);
    if (it == zones_.end()) {
      absl::StatusOr<TimeZone> z = TimeZone::ForPcpZone(spec);
      EXPECT_TRUE(z.ok()) << spec << ": " << z.status();
      it = zones_.emplace(spec, z.ok() ? *z : TimeZone::Utc()).first;
    }
    return it->second;
  }

 private:
  std::map<std::string, TimeZone> zones_;
};

TEST(TimeZoneTest, LocaltimeAndMktimeMatchPcp) {
  std::istringstream in = OpenOracleTable(PMAPI_TEST_DATA_DIR "/oracle/timezone.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  ZoneCache cache;
  std::string line;
  int local_rows = 0, mktime_rows = 0, failures = 0;
  int64_t offset_hint = 0;  // glibc's memory of the last mktime, process-wide
  while (std::getline(in, line)) {
    std::vector<std::string> f = Fields(line);
    ASSERT_GE(f.size(), 5u) << line;
    const TimeZone& zone = cache.Get(f[1]);
    if (f[0] == "L") {
      ++local_rows;
      absl::StatusOr<BrokenDownTime> tm = zone.Localtime(std::stoll(f[2]));
      std::string got = tm.ok() ? TmText(*tm) : "-\t-";
      std::string want = f[3] + "\t" + f[4];
      if (got != want && ++failures < 40) ADD_FAILURE() << line << "\n  got: " << got;
      if (got != want && failures >= 40) ++failures;
    } else {
      ASSERT_EQ(f[0], "M") << line;
      ASSERT_EQ(f.size(), 6u) << line;
      ++mktime_rows;
      std::istringstream req(f[2]);
      BrokenDownTime tm;
      req >> tm.sec >> tm.min >> tm.hour >> tm.mday >> tm.mon >> tm.year >> tm.isdst;
      absl::StatusOr<int64_t> t = zone.Mktime(tm, &offset_hint);
      // The oracle cannot tell a result of -1 from failure and prints both
      // as failure.
      std::string got =
          t.ok() && *t != -1 ? absl::StrFormat("%d\t%s", *t, TmText(tm)) : "-1\t-\t-";
      std::string want = f[3] + "\t" + f[4] + "\t" + f[5];
      if (got != want && ++failures < 40) ADD_FAILURE() << line << "\n  got: " << got;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(local_rows, 20000);
  EXPECT_GT(mktime_rows, 10000);
}

TEST(TimeZoneTest, PcpZoneAppendsOffsetToThreeLetterNames) {
  absl::StatusOr<TimeZone> est = TimeZone::ForPcpZone("EST");
  ASSERT_TRUE(est.ok());
  EXPECT_EQ(est->tz_value(), "EST+0");
  absl::StatusOr<BrokenDownTime> tm = est->Localtime(0);
  ASSERT_TRUE(tm.ok());
  EXPECT_EQ(tm->gmtoff, 0);
  EXPECT_EQ(tm->zone, "EST");
}

TEST(TimeZoneTest, DaylightNameWithoutRuleIsAnError) {
  absl::StatusOr<TimeZone> z = TimeZone::FromTzValue("AEST-10AEDT");
  EXPECT_FALSE(z.ok());
  EXPECT_EQ(PcpCode(z.status()), kErrGeneric);
}

TEST(TimeZoneTest, FarTimesAreErrorsNotCrashes) {
  TimeZone utc = TimeZone::Utc();
  EXPECT_EQ(PcpCode(utc.Localtime(INT64_MAX).status()), kErrToobig);
  EXPECT_EQ(PcpCode(utc.Localtime(INT64_MIN).status()), kErrToobig);
  BrokenDownTime tm;
  tm.year = INT32_MAX;
  tm.mon = INT32_MAX;
  tm.mday = INT32_MAX;
  EXPECT_FALSE(utc.Mktime(tm).ok());
}

TEST(TimeZoneTest, SquashedForms) {
  struct Case {
    const char* tz;
    int64_t now;
    const char* want;
  } cases[] = {
      {"Australia/Melbourne", 1768000000, "AEDT-11"},  // January: daylight time
      {"Australia/Melbourne", 1784000000, "AEST-10"},  // July
      {"Asia/Kolkata", 1795311772, "IST-5:30"},
      {"America/New_York", 1784000000, "EDT+4"},
      {"UTC", 0, "UTC"},
      {"<+0545>-5:45", 0, "+0545-5:45"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<TimeZone> z = TimeZone::FromTzValue(c.tz);
    ASSERT_TRUE(z.ok()) << c.tz;
    absl::StatusOr<std::string> s = SquashZone(*z, c.now);
    ASSERT_TRUE(s.ok()) << c.tz;
    EXPECT_EQ(*s, c.want) << c.tz;
  }
}

TEST(TimeZoneTest, PcpTimezoneString) {
  EXPECT_EQ(*PcpTimezoneString("AEST-10", 0), "AEST-10");
  EXPECT_EQ(*PcpTimezoneString(":Asia/Kolkata", 0), "IST-5:30");
  // Pieces before each ":00" are kept; the tail after the last one is lost.
  EXPECT_EQ(*PcpTimezoneString("AEST-10:00AEDT-11:00,M10.1.0/2:00:00,M4.1.0/3", 0),
            "AEST-10AEDT-11,M10.1.0/2");
  // Still too long: squashed at `now` (January, daylight time).
  EXPECT_EQ(*PcpTimezoneString("AAAAAAAAAAAAAAAAAAAA-10:00BBBBBBBBBBBBBB-11:00,M10.1.0,M4.1.0/3:00", 0),
            "BBBBBBBBBBBBBB-11");
}

TEST(TimeZoneTest, ReportingZoneNotes) {
  using pmtools::ChooseReportingZone;
  using pmtools::ReportingZone;
  using pmtools::ZoneChoice;
  using pmtools::ZoneSource;
  ZoneSource archive{true, "vm", "AEST-10"};
  absl::StatusOr<ReportingZone> z = ChooseReportingZone(ZoneChoice::kSource, archive, std::nullopt);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->note, "Note: timezone set to local timezone of host \"vm\" from archive\n\n");
  EXPECT_EQ(z->zone.tz_value(), "AEST-10");
  ZoneSource host{false, "pmcdhost", "UTC"};
  z = ChooseReportingZone(ZoneChoice::kSource, host, std::nullopt);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->note, "Note: timezone set to local timezone of host \"pmcdhost\"\n\n");
  EXPECT_EQ(z->zone.tz_value(), "UTC+0");
  z = ChooseReportingZone(ZoneChoice::kUser, host, "America/New_York");
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->note, "Note: timezone set to \"TZ=America/New_York\"\n\n");
  z = ChooseReportingZone(ZoneChoice::kLocal, host, std::nullopt);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->note, "");
}

}  // namespace
}  // namespace pmapi
