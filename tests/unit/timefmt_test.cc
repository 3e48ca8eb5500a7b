// Checks the time stamp texts against PCP 6.0.3: pmCtime, pmPrintStamp and
// pmPrintHighResStamp, and the pmval / pmdumplog forms composed from them,
// over the golden table tests/data/oracle/timefmt.tsv (tests/oracle/timefmt.c),
// plus lines taken from the real tools' reference outputs.
#include "pmapi/timefmt.h"

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "oracle_table.h"
#include "stamps.h"

namespace pmapi {
namespace {

using pmtools::PmdumplogDate;
using pmtools::PmdumplogStamp;
using pmtools::PmvalStamp;

const TimeZone& Zone(const std::string& spec) {
  static auto* zones = new std::map<std::string, TimeZone>;
  auto it = zones->find(spec);
  if (it == zones->end()) {
    absl::StatusOr<TimeZone> z = TimeZone::ForPcpZone(spec);
    EXPECT_TRUE(z.ok()) << spec;
    it = zones->emplace(spec, z.ok() ? *z : TimeZone::Utc()).first;
  }
  return it->second;
}

absl::StatusOr<std::string> Render(const std::vector<std::string>& f) {
  const TimeZone& z = Zone(f[1]);
  int64_t sec = std::stoll(f[2]);
  if (f[0] == "C") return Ctime(z, sec);
  int64_t frac = std::stoll(f[3]);
  if (f[0] == "P") return PrintStamp(z, sec, frac);
  if (f[0] == "H") return HighResStamp(z, sec, frac);
  if (f[0] == "V0") return PmvalStamp(z, sec, frac);
  if (f[0] == "V1") return DateStamp(z, sec, static_cast<int>(frac) / 1000, 6);
  if (f[0] == "V2") return DateStamp(z, sec, static_cast<int>(frac), 9);
  if (f[0] == "D2") return PmdumplogDate(z, sec, frac, 2);
  if (f[0] == "D3") return PmdumplogDate(z, sec, frac, 3);
  ADD_FAILURE() << "unknown row kind " << f[0];
  return std::string();
}

TEST(TimeFmtTest, EveryFormMatchesPcp) {
  std::istringstream in = OpenOracleTable(PMAPI_TEST_DATA_DIR "/oracle/timefmt.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::string line;
  int rows = 0, failures = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    ASSERT_GE(f.size(), 4u) << line;
    std::string want = absl::StrReplaceAll(f.back(), {{"\\n", "\n"}});
    absl::StatusOr<std::string> got = Render(f);
    ++rows;
    if ((!got.ok() || *got != want) && ++failures < 30)
      ADD_FAILURE() << line << "\n  got: " << (got.ok() ? *got : got.status().ToString());
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(rows, 20000);
}

// Lines from shared/reference/expected (PCP 6.0.3's own tools, TZ=UTC);
// the times are those of the small-v2 / small-v3 archive labels and records.
TEST(TimeFmtTest, ReferenceToolLines) {
  TimeZone utc = TimeZone::Utc();
  // small-v2/pmdumplog-l.txt: label start 0x6b02489c s, 0x198ca us.
  EXPECT_EQ(*PmdumplogDate(utc, 1795311772, 104650000, 2), "Sun Nov 22 01:42:52.104650 2026");
  // small-v2/pmdumplog-t.txt, first index entry.
  EXPECT_EQ(*PmdumplogStamp(utc, 1795311772, 104650000, 2), "01:42:52.104650");
  // small-v3/pmdumplog-l.txt
  EXPECT_EQ(*PmdumplogDate(utc, 1795311800, 186708937, 3), "Sun Nov 22 01:43:20.186708937 2026");
  // small-v2/pmval-sample.long.one.txt header and first line.
  EXPECT_EQ(*Ctime(utc, 1795311772), "Sun Nov 22 01:42:52 2026\n");
  EXPECT_EQ(*PmvalStamp(utc, 1795311772, 104650000), "01:42:52.104");
  // small-v3/pmval-sample.seconds-A1sec-t0.3.txt: an unnormalised stamp.
  EXPECT_EQ(*PmvalStamp(utc, 1795311803, 1000000000), "01:43:23.1000");
  // small-v2/pmdumplog-Z.txt: -Z America/New_York, record at 01:42:52.125097 UTC.
  absl::StatusOr<TimeZone> ny = TimeZone::ForPcpZone("America/New_York");
  ASSERT_TRUE(ny.ok());
  EXPECT_EQ(*PmdumplogStamp(*ny, 1795311772, 125097000, 2), "20:42:52.125097");
}

}  // namespace
}  // namespace pmapi
