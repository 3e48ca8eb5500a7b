// Checks TimeParser against PCP 6.0.3's __pmParseHighResTime and
// pmParseHighResTimeWindow over the golden table
// tests/data/oracle/timewindow.tsv (tests/oracle/timewindow.c): relative
// and absolute times, partial ctime forms, the getdate subset, errors with
// their exact messages, and -S/-T/-A/-O combinations in bounded and live
// windows across DST changes.
#include "pmapi/timewindow.h"

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "oracle_table.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

TimeSpec ParseSpec(const std::string& s) {
  size_t dot = s.find('.');
  return TimeSpec{std::stoll(s.substr(0, dot)), std::stoll(s.substr(dot + 1))};
}

std::string Text(TimeSpec t) { return absl::StrFormat("%d.%09d", t.sec, t.nsec); }

std::optional<std::string> Arg(const std::string& s) {
  if (s == "\\N") return std::nullopt;
  return absl::StrReplaceAll(s, {{"\\n", "\n"}, {"\\t", "\t"}});
}

std::string Escape(const std::string& s) {
  return absl::StrReplaceAll(s, {{"\n", "\\n"}, {"\t", "\\t"}});
}

TEST(TimeWindowTest, MatchesPcp) {
  std::istringstream in = OpenOracleTable(PMAPI_TEST_DATA_DIR "/oracle/timewindow.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::map<std::string, TimeZone> zones;
  int64_t hint = 0;  // glibc's mktime memory, shared by the whole oracle run
  std::string line;
  int time_rows = 0, window_rows = 0, failures = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    ASSERT_GE(f.size(), 8u) << line;
    if (!zones.count(f[1])) zones.emplace(f[1], *TimeZone::ForPcpZone(f[1]));
    TimeParser parser(zones.at(f[1]));
    parser.set_mktime_hint(hint);
    TimeSpec start = ParseSpec(f[2]), end = ParseSpec(f[3]);
    std::string got, want;
    if (f[0] == "T") {
      ++time_rows;
      absl::StatusOr<TimeSpec> r = parser.ParseTime(*Arg(f[4]), start, end);
      got = r.ok() ? absl::StrCat("0\t", Text(*r), "\t")
                   : absl::StrCat(PcpCode(r.status()), "\t-\t", Escape(std::string(r.status().message())));
      want = absl::StrCat(f[5], "\t", f[6], "\t", f[7]);
    } else {
      ASSERT_EQ(f.size(), 13u) << line;
      ++window_rows;
      TimeWindowArgs args{Arg(f[4]), Arg(f[5]), Arg(f[6]), Arg(f[7])};
      absl::StatusOr<TimeWindow> w = parser.ParseWindow(args, start, end);
      if (!w.ok())
        got = absl::StrCat(PcpCode(w.status()), "\t-\t-\t-\t", Escape(std::string(w.status().message())));
      else
        got = absl::StrCat(w->alignment_failed ? "0" : "1", "\t", Text(w->start), "\t",
                           Text(w->end), "\t", Text(w->origin), "\t",
                           !w->alignment_failed ? "" : w->warning.empty() ? "\\N" : Escape(w->warning));
      want = absl::StrJoin(std::vector<std::string>(f.begin() + 8, f.end()), "\t");
    }
    hint = parser.mktime_hint();
    if (got != want && ++failures < 40) ADD_FAILURE() << line << "\n  got: " << got;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(time_rows, 4000);
  EXPECT_GT(window_rows, 20000);
}

TEST(TimeWindowTest, Intervals) {
  EXPECT_EQ(*ParseHighResInterval("1.5min"), (TimeSpec{90, 0}));
  EXPECT_EQ(*ParseHighResInterval("0.0000000005"), (TimeSpec{0, 1}));
  EXPECT_EQ(*ParseHighResInterval("0.0000000015"), (TimeSpec{0, 1}));
  EXPECT_EQ(*ParseHighResInterval("3 days 2h"), (TimeSpec{266400, 0}));
  EXPECT_EQ(ParseHighResInterval("").status().message(), "\n^ -- Null or empty specification\n");
  EXPECT_EQ(ParseHighResInterval("5 parsecs").status().message(),
            "5 parsecs\n  ^ -- unexpected value\n");
  EXPECT_EQ(PcpCode(ParseHighResInterval("nan").status()), -1);
}

TEST(TimeWindowTest, Bounds) {
  WindowBounds a{{100, 5}, {200, 0}}, b{{90, 0}, {150, 0}}, c{{120, 0}, {200, 1}};
  std::vector<WindowBounds> all{a, b, c};
  WindowBounds w = ArchiveWindowBounds(all);
  EXPECT_EQ(w.start, (TimeSpec{90, 0}));
  EXPECT_EQ(w.end, (TimeSpec{200, 1}));
  WindowBounds live = LiveWindowBounds({1795311772, 5});
  EXPECT_EQ(live.end.sec, kUnboundedEnd);
}

TEST(TimeWindowTest, HostileInputIsAnErrorNotACrash) {
  TimeParser p(TimeZone::Utc());
  TimeSpec s{1795311772, 0}, e{1795311800, 0};
  std::string pluses(5000, '+');
  for (const char* bad : {"@\xff\xfe", "((((", "+\x01", "9999999999999999999999999999-1-1",
                          "2026-99-99 99:99:99", "@Feb 31 99:99", pluses.c_str()}) {
    absl::StatusOr<TimeSpec> r = p.ParseTime(bad, s, e);
    (void)r;  // any answer is fine; it must not crash
  }
  std::string with_nul("+5\0garbage", 10);
  EXPECT_EQ(*p.ParseTime(with_nul, s, e), (TimeSpec{1795311777, 0}));
}

// strtod reads "nan" and PCP's range check lets it through, then C's (int)
// conversion gives INT_MIN on x86: the seconds go far back and the window
// starts at the archive's start, as PCP's pmval shows for these -S forms.
TEST(TimeWindowTest, NanSecondsStartTheWindowAtTheStart) {
  TimeParser p(TimeZone::Utc());
  TimeSpec s{1795311800, 186708000}, e{1795311828, 207743000};
  for (const char* start : {"@01:43:nan", "@01:43: NAN", "@Nov 22 01:43:-nan 2026"}) {
    TimeWindowArgs args;
    args.start = start;
    absl::StatusOr<TimeWindow> w = p.ParseWindow(args, s, e);
    ASSERT_TRUE(w.ok()) << start;
    EXPECT_EQ(w->start, s) << start;
  }
}

}  // namespace
}  // namespace pmapi
