// Checks ParseMetricSpec against PCP 6.0.3's pmParseMetricSpec for every row
// of tests/data/oracle/metricspec.tsv (made by tests/oracle/metricspec.c).
#include "pmapi/metricspec.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

using std::string_literals::operator""s;

// Returns `field` with the oracle's escapes (\\ \t \n \xHH) decoded; the
// oracle's \N (a NULL string) becomes "", which is how this API passes "no
// default source".
std::string Unescape(const std::string& field) {
  if (field == "\\N") return "";
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

// Checks one oracle row: spec, isarch, default, code, then the result
// fields or the error message.
void CheckRow(const std::vector<std::string>& f, int& accepted, int& rejected) {
  std::string spec = Unescape(f[0]);
  absl::StatusOr<MetricSpec> got = ParseMetricSpec(spec, std::stoi(f[1]), Unescape(f[2]));
  int code = std::stoi(f[3]);
  SCOPED_TRACE("spec \"" + spec + "\" isarch " + f[1] + " default \"" + f[2] + "\"");
  if (code != 0) {
    ASSERT_EQ(f.size(), 5u);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(PcpCode(got.status()), code);
    EXPECT_EQ(got.status().message(), Unescape(f[4]));
    ++rejected;
    return;
  }
  ASSERT_GE(f.size(), 8u);
  MetricSpec want;
  want.isarch = std::stoi(f[4]);
  want.source = Unescape(f[5]);
  want.metric = Unescape(f[6]);
  size_t ninst = std::stoul(f[7]);
  ASSERT_EQ(f.size(), 8 + ninst);
  for (size_t i = 0; i < ninst; ++i) want.instances.push_back(Unescape(f[8 + i]));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->isarch, want.isarch);
  EXPECT_EQ(got->source, want.source);
  EXPECT_EQ(got->metric, want.metric);
  EXPECT_EQ(got->instances, want.instances);
  ++accepted;
}

TEST(MetricSpecTest, EveryRowMatchesPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/metricspec.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::string line;
  int accepted = 0, rejected = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    ASSERT_GE(fields.size(), 5u) << line;
    CheckRow(fields, accepted, rejected);
  }
  EXPECT_GT(accepted, 250);
  EXPECT_GT(rejected, 100);
}

TEST(MetricSpecTest, ExampleFromTheHeader) {
  absl::StatusOr<MetricSpec> m =
      ParseMetricSpec("server:disk.dev.read[sda, \"my disk\"]", kSpecHost, "local:");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, (MetricSpec{kSpecHost, "server", "disk.dev.read", {"sda", "my disk"}}));
}

TEST(MetricSpecTest, NulByteIsNeverTheEnd) {
  // PCP would stop reading at the NUL; here each is an error at the NUL.
  struct Case {
    std::string spec;
    std::string message;
  };
  const Case cases[] = {
      {"a\0b"s, "a\0b\n ^ -- unexpected extra characters\n"s},
      {"a\0"s, "a\0\n ^ -- unexpected extra characters\n"s},
      {"h:a[1\0]"s, "h:a[1\0]\n     ^ -- closing ] expected\n"s},
      {"\0"s, "\0\n^ -- performance metric name expected\n"s},
      {"h\0:m"s, "h\0:m\n ^ -- unexpected extra characters\n"s},
      {"a\\\0"s, "a\\\0\n  ^ -- unexpected extra characters\n"s},
  };
  for (const Case& c : cases) {
    absl::StatusOr<MetricSpec> got = ParseMetricSpec(c.spec, kSpecHost, "h");
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(PcpCode(got.status()), kErrGeneric);
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(MetricSpecTest, LongListsAndEscapesStayInBounds) {
  std::string spec = "m[";
  for (int i = 0; i < 1000; ++i) spec += "\"i\\\"" + std::to_string(i) + "\",";
  spec += "]";
  absl::StatusOr<MetricSpec> got = ParseMetricSpec(spec, kSpecHost, "h");
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->instances.size(), 1000u);
  EXPECT_EQ(got->instances[999], "i\"999");
}

}  // namespace
}  // namespace pmapi
