// Checks UnitsStr and ParseUnitsStr against PCP 6.0.3's pmUnitsStr and
// pmParseUnitsStr, row by row, using the golden tables made by
// tests/oracle/regen.sh: units_str.tsv (units -> text -> units again) and
// units_parse.tsv (odd and generated input strings).
#include "pmapi/units.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "oracle_table.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// The message for inputs on which libpcp aborts (see units.h).
constexpr char kTimeScaleMessage[] = "time scale out of bounds";

std::vector<std::string> ReadLines(const std::string& name) {
  std::istringstream in = OpenOracleTable(std::string(PMAPI_TEST_DATA_DIR "/oracle/") + name);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string TupleText(const Units& u) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%d %d %d %d %d %d", u.dim_space, u.dim_time, u.dim_count,
                u.scale_space, u.scale_time, u.scale_count);
  return buf;
}

// Returns a parse result in the oracle's notation: "ok<TAB>tuple<TAB>%a<TAB>
// bits" or "err<TAB>code<TAB>message".
std::string ResultText(const absl::StatusOr<ParsedUnits>& r) {
  if (!r.ok()) {
    return "err\t" + std::to_string(PcpCode(r.status())) + "\t" + std::string(r.status().message());
  }
  uint64_t bits;
  std::memcpy(&bits, &r->multiplier, sizeof(bits));
  char buf[128];
  std::snprintf(buf, sizeof(buf), "\t%a\t%016llx", r->multiplier,
                static_cast<unsigned long long>(bits));
  return "ok\t" + TupleText(r->units) + buf;
}

// The oracle records "abort" where libpcp dies; the library reports an error.
std::string ExpectedResult(const std::string& oracle) {
  if (oracle == "abort")
    return std::string("err\t") + std::to_string(kErrConv) + "\t" + kTimeScaleMessage;
  return oracle;
}

Units TupleFromText(const std::string& text) {
  std::istringstream in(text);
  int v[6] = {};
  for (int& x : v) in >> x;
  Units u;
  u.dim_space = static_cast<int8_t>(v[0]);
  u.dim_time = static_cast<int8_t>(v[1]);
  u.dim_count = static_cast<int8_t>(v[2]);
  u.scale_space = static_cast<uint8_t>(v[3]);
  u.scale_time = static_cast<uint8_t>(v[4]);
  u.scale_count = static_cast<int8_t>(v[5]);
  return u;
}

// Undoes the oracle's escaping: "\\" and "\xHH".
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (i + 3 < s.size() && s[i + 1] == 'x') {
      out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      ADD_FAILURE() << "bad escape in " << s;
    }
  }
  return out;
}

TEST(UnitsTest, StrAndRoundTripMatchPcp) {
  std::vector<std::string> lines = ReadLines("units_str.tsv");
  ASSERT_GT(lines.size(), 20000u) << "missing golden table";
  for (const std::string& line : lines) {
    std::vector<std::string> f = absl::StrSplit(line, absl::MaxSplits('\t', 2));
    ASSERT_EQ(f.size(), 3u) << line;
    Units u = TupleFromText(f[0]);
    ASSERT_EQ(TupleText(u), f[0]) << "tuple does not survive Units: " << line;
    EXPECT_EQ(UnitsStr(u), f[1]) << "units " << f[0];
    EXPECT_EQ(ResultText(ParseUnitsStr(f[1])), ExpectedResult(f[2])) << "text '" << f[1] << "'";
  }
}

TEST(UnitsTest, ParseMatchesPcp) {
  std::vector<std::string> lines = ReadLines("units_parse.tsv");
  ASSERT_GT(lines.size(), 10000u) << "missing golden table";
  for (const std::string& line : lines) {
    size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    std::string input = Unescape(line.substr(0, tab));
    EXPECT_EQ(ResultText(ParseUnitsStr(input)), ExpectedResult(line.substr(tab + 1)))
        << "input '" << line.substr(0, tab) << "'";
  }
}

TEST(UnitsTest, FieldsReadAsNibbles) {
  // 17 is 0x11: only the low nibble (1) counts, as in PCP's bitfield.
  Units wide{17, 0, -15, 0, 0, 0};
  EXPECT_EQ(UnitsStr(wide), "byte count");
  Units scales{1, 1, 0, 0x13, 0x22, 0};
  EXPECT_EQ(UnitsStr(scales), "Gbyte millisec");
  EXPECT_EQ(UnitsStr(Units{0, 0, 0, 0, 0, 0x1f}), "x 10^-1");
}

TEST(UnitsTest, GuideExamples) {
  EXPECT_EQ(UnitsStr(Units{1, -1, 0, kSpaceMByte, kTimeSec, 0}), "Mbyte / sec");
  EXPECT_EQ(UnitsStr(Units{0, 1, -1, 0, kTimeHour, 6}), "hour / count x 10^6");
  EXPECT_EQ(UnitsStr(Units{1, -2, 0, kSpaceMByte, kTimeMSec, 0}), "Mbyte / millisec^2");
  EXPECT_EQ(UnitsStr(Units{0, 0, 1, 0, 0, 0}), "count");
  EXPECT_EQ(UnitsStr(Units{}), "");
}

TEST(UnitsTest, TextEndsAtNul) {
  using namespace std::string_literals;
  absl::StatusOr<ParsedUnits> r = ParseUnitsStr("Kbyte/sec\0junk"s);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->units, (Units{1, -1, 0, kSpaceKByte, kTimeSec, 0}));
  EXPECT_EQ(r->multiplier, 1.0);
}

TEST(UnitsTest, ErrorsCarryConvAndMessage) {
  absl::StatusOr<ParsedUnits> r = ParseUnitsStr("furlongs / fortnight");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(PcpCode(r.status()), kErrConv);
  EXPECT_EQ(r.status().message(), "unrecognized or duplicate base unit");
  r = ParseUnitsStr("time-9 / sec");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(PcpCode(r.status()), kErrConv);
  EXPECT_EQ(r.status().message(), kTimeScaleMessage);
}

}  // namespace
}  // namespace pmapi
