// Checks ParseInterval against PCP 6.0.3's pmParseHighResInterval for every
// row of tests/data/oracle/interval.tsv (made by tests/oracle/interval.c),
// plus the cases where PCP's own result is undefined.
#include "pmapi/interval.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Returns `field` with the oracle's escapes (\\ \t \n \xHH) decoded.
std::string Unescape(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 >= field.size()) {
      out += field[i];
      continue;
    }
    char c = field[++i];
    if (c == 't') {
      out += '\t';
    } else if (c == 'n') {
      out += '\n';
    } else if (c == 'x' && i + 2 < field.size()) {
      out += static_cast<char>(std::stoi(field.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

struct Row {
  std::string input;
  int code;
  int64_t sec;
  int64_t nsec;
  std::string errmsg;
};

std::vector<Row> ReadRows() {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/interval.tsv");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 5) {
      ADD_FAILURE() << "bad row: " << line;
      continue;
    }
    rows.push_back({Unescape(f[0]), std::stoi(f[1]), std::stoll(f[2]), std::stoll(f[3]), Unescape(f[4])});
  }
  return rows;
}

TEST(IntervalTest, EveryRowMatchesPcp) {
  std::vector<Row> rows = ReadRows();
  ASSERT_GE(rows.size(), 150u) << "missing golden table";
  int accepted = 0, rejected = 0, undefined = 0;
  for (const Row& row : rows) {
    absl::StatusOr<absl::Duration> got = ParseInterval(row.input);
    if (row.code == 0 && (row.sec < 0 || row.nsec < 0)) {
      // PCP accepted a NaN or a total of 2^63 seconds or more and converted
      // it to garbage (an overflowing double to integer conversion); this is
      // refused.
      EXPECT_FALSE(got.ok()) << "input \"" << row.input << "\"";
      EXPECT_EQ(PcpCode(got.status()), kIntervalSyntaxError);
      ++undefined;
    } else if (row.code == 0) {
      ASSERT_TRUE(got.ok()) << "input \"" << row.input << "\": " << got.status();
      // PCP's tv_nsec may be exactly 1e9 (see RoundingCanReachAWholeSecond).
      absl::Duration nanos;
      int64_t sec = absl::IDivDuration(*got, absl::Seconds(1), &nanos);
      EXPECT_EQ(sec, row.sec + row.nsec / 1000000000) << "input \"" << row.input << "\"";
      EXPECT_EQ(absl::ToInt64Nanoseconds(nanos), row.nsec % 1000000000)
          << "input \"" << row.input << "\"";
      ++accepted;
    } else {
      ASSERT_FALSE(got.ok()) << "input \"" << row.input << "\"";
      EXPECT_EQ(PcpCode(got.status()), row.code) << "input \"" << row.input << "\"";
      EXPECT_EQ(got.status().message(), row.errmsg) << "input \"" << row.input << "\"";
      ++rejected;
    }
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 50);
  EXPECT_EQ(undefined, 11);  // 5 NaN rows, 6 at or past 2^63 seconds
}

TEST(IntervalTest, ExamplesFromTheHeader) {
  EXPECT_EQ(*ParseInterval("4minutes 30sec"), absl::Seconds(270));
  absl::StatusOr<absl::Duration> bad = ParseInterval("4minutes 30mumble");
  EXPECT_EQ(PcpCode(bad.status()), -1);
  EXPECT_EQ(bad.status().message(), "4minutes 30mumble\n           ^ -- unexpected value\n");
}

TEST(IntervalTest, RoundingCanReachAWholeSecond) {
  // PCP's conversion rounds the fraction to 1e9 nanoseconds here.
  EXPECT_EQ(*ParseInterval("0.9999999999"), absl::Seconds(1));
}

TEST(IntervalTest, NulByteIsRejected) {
  using std::string_literals::operator""s;
  absl::StatusOr<absl::Duration> got = ParseInterval("1\0sec"s);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "1\0sec\n ^ -- unexpected value\n"s);
  // Past the NUL, the marker line keeps it as it keeps other non-printing bytes.
  got = ParseInterval("1 sec\0"s);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "1 sec\0\n     ^ -- unexpected value\n"s);
}

TEST(IntervalTest, SumTooLargeForSecondsIsRejected) {
  // Each term is at most 2^31 days; 60000 of them exceed 2^63 seconds.
  std::string text;
  for (int i = 0; i < 60000; ++i) text += "2147483647d ";
  absl::StatusOr<absl::Duration> got = ParseInterval(text);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(PcpCode(got.status()), kIntervalSyntaxError);
}

TEST(IntervalTest, LargestSumsStillFit) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "2147483647d ";
  absl::StatusOr<absl::Duration> got = ParseInterval(text);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(absl::ToInt64Seconds(*got), int64_t{2147483647} * 86400 * 1000);
}

}  // namespace
}  // namespace pmapi
