// Checks the string helpers against PCP 6.0.3 row by row, using the golden
// tables made by tests/oracle/strings_basic.c and strings_print.c, and checks
// that malformed values give an answer without reading out of bounds.
#include "pmapi/strings.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "oracle_table.h"

namespace pmapi {
namespace {

// Undoes the table's escaping of backslash, tab, newline and \xHH.
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    if (c == 't') {
      out += '\t';
    } else if (c == 'n') {
      out += '\n';
    } else if (c == 'x' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<uint8_t> FromHex(const std::string& hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

uint64_t HexNumber(const std::string& s) { return std::stoull(s, nullptr, 16); }

// Reads a golden table as rows of tab-separated fields.
std::vector<std::vector<std::string>> ReadTable(const char* name) {
  std::istringstream in = OpenOracleTable(std::string(PMAPI_TEST_DATA_DIR "/oracle/") + name);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) rows.push_back(absl::StrSplit(line, '\t'));
  return rows;
}

// Returns what the library gives for one row of strings_basic.tsv, or a note
// when the row cannot be read.
std::string Replay(const std::vector<std::string>& f) {
  const std::string& kind = f[0];
  if (kind == "id") return IDStr(static_cast<PmID>(HexNumber(f[1])));
  if (kind == "indom") return InDomStr(static_cast<InDom>(HexNumber(f[1])));
  if (kind == "type") return TypeStr(std::stoi(f[1]));
  if (kind == "sem") return SemStr(std::stoi(f[1]));
  if (kind == "flags") return EventFlagsStr(std::stoi(f[1]));
  if (kind == "number") return NumberStr(std::strtod(f[1].c_str(), nullptr));
  if (kind == "atom" && f.size() == 6) {
    int type = std::stoi(f[1]);
    AtomValue a;
    if (f[2] == "num") {
      a.ull = HexNumber(f[4]);
      return AtomStr(a, type);
    }
    std::vector<uint8_t> bytes = FromHex(f[4]);
    a.bytes.assign(bytes.begin(), bytes.end());
    if (f[2] == "str") return AtomStr(a, type);
    return AtomStr(a, type, std::stoi(f[3]));
  }
  return "<unreadable row>";
}

TEST(StringsTest, BasicTableMatchesPcp) {
  auto rows = ReadTable("strings_basic.tsv");
  ASSERT_FALSE(rows.empty()) << "missing golden table";
  std::map<std::string, int> counts;
  for (const auto& f : rows) {
    ASSERT_GE(f.size(), 3u);
    EXPECT_EQ(Replay(f), Unescape(f.back())) << absl::StrJoin(f, " | ");
    counts[f[0]]++;
  }
  EXPECT_GE(counts["id"], 2000);
  EXPECT_GE(counts["indom"], 300);
  EXPECT_GE(counts["type"], 600);
  EXPECT_GE(counts["sem"], 600);
  EXPECT_GE(counts["flags"], 1700);
  EXPECT_GE(counts["number"], 2400);
  EXPECT_GE(counts["atom"], 800);
}

// Replays one pmPrintValue row: the fields after "print" (or after "zone"
// and its zone name), ending with PCP's text.
void ReplayPrintRow(const std::vector<std::string>& f, const TimeZone& tz) {
  ASSERT_EQ(f.size(), 7u);
  int valfmt = std::stoi(f[0]);
  int type = std::stoi(f[1]);
  int minwidth = std::stoi(f[2]);
  ValueView v;
  std::vector<uint8_t> payload;
  if (valfmt == kValInsitu) {
    v.lval = static_cast<int32_t>(HexNumber(f[3]));
  } else {
    v.vtype = std::stoi(f[4]);
    payload = FromHex(f[5]);
    v.payload = payload;
  }
  EXPECT_EQ(FormatValue(valfmt, type, v, minwidth, tz), Unescape(f[6])) << absl::StrJoin(f, " | ");
}

TEST(StringsTest, PrintTableMatchesPcp) {
  auto rows = ReadTable("strings_print.tsv");
  ASSERT_FALSE(rows.empty()) << "missing golden table";
  int print_rows = 0;
  int zone_rows = 0;
  for (const auto& f : rows) {
    ASSERT_GE(f.size(), 2u);
    if (f[0] == "zone") {
      absl::StatusOr<TimeZone> tz = TimeZone::FromTzValue(f[1]);
      ASSERT_TRUE(tz.ok()) << f[1];
      ReplayPrintRow(std::vector<std::string>(f.begin() + 2, f.end()), *tz);
      ++zone_rows;
    } else {
      ASSERT_EQ(f[0], "print");
      ReplayPrintRow(std::vector<std::string>(f.begin() + 1, f.end()), TimeZone::Utc());
      ++print_rows;
    }
  }
  EXPECT_GE(print_rows, 20000);
  EXPECT_GE(zone_rows, 80);
}

// ---- values PCP itself would misread: answers must stay in bounds ----

void Put32(std::vector<uint8_t>* b, uint32_t v) {
  uint8_t raw[4];
  std::memcpy(raw, &v, 4);
  b->insert(b->end(), raw, raw + 4);
}

ValueView Block(int vtype, const std::vector<uint8_t>& payload) {
  ValueView v;
  v.vtype = vtype;
  v.payload = payload;
  return v;
}

TEST(StringsTest, ShortEventArraysAreReportedNotRead) {
  const std::string bad = "[bad event record array]";
  std::vector<uint8_t> empty;
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, empty), 0, TimeZone::Utc()), bad);
  std::vector<uint8_t> count_only;
  Put32(&count_only, 1);  // claims one record, has none
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, count_only), 0, TimeZone::Utc()), bad);
  EXPECT_EQ(FormatValue(kValDptr, kTypeHighResEvent, Block(kTypeHighResEvent, count_only), 0,
                        TimeZone::Utc()),
            bad);
  std::vector<uint8_t> zero;
  Put32(&zero, 0);
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, zero), 0, TimeZone::Utc()),
            "[0 event records]");
}

TEST(StringsTest, EventParametersPastTheEndAreReported) {
  std::vector<uint8_t> b;
  Put32(&b, 2);           // two records
  Put32(&b, 10);          // sec
  Put32(&b, 0);           // usec
  Put32(&b, kEventFlagPoint);
  Put32(&b, 1);           // one parameter ...
  Put32(&b, 1);           // pmid
  Put32(&b, 0x00ffffff);  // ... claiming 16 MB
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, b), 0, TimeZone::Utc()),
            "[bad event record array]");
  std::vector<uint8_t> many;
  Put32(&many, 2);
  Put32(&many, 10);
  Put32(&many, 0);
  Put32(&many, kEventFlagPoint);
  Put32(&many, 0x7fffffff);  // parameters without end
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, many), 0, TimeZone::Utc()),
            "[bad event record array]");
}

TEST(StringsTest, MissedRecordRepeatsWithoutLooping) {
  // PCP re-reads a missed record for every remaining step; a huge record
  // count must not take a huge time.
  std::vector<uint8_t> b;
  Put32(&b, 0x7fffffff);
  Put32(&b, 3600);
  Put32(&b, 5000);
  Put32(&b, kEventFlagMissed);
  Put32(&b, 1);
  std::string out = FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, b), 0, TimeZone::Utc());
  EXPECT_EQ(out, "[2147483647 event records (2147483646 missed) timestamps 01:00:00.005...01:00:00.005]");
}

TEST(StringsTest, MostNegativeRecordCount) {
  std::vector<uint8_t> b;
  Put32(&b, 0x80000000u);
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, Block(kTypeEvent, b), 0, TimeZone::Utc()),
            "[-2147483648 event records]");
}

TEST(StringsTest, ArbitraryBytesGiveTextForEveryType) {
  // Small record counts and parameter lengths, so the walks go deep before
  // they run out of bytes.
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  for (int round = 0; round < 3000; round++) {
    std::vector<uint8_t> b(next() % 96);
    for (auto& byte : b) byte = static_cast<uint8_t>(next() % 7 == 0 ? 0x80 : next() % 6);
    for (int type : {-1, 0, 3, 5, 6, 7, 8, 9, 10, 255}) {
      for (int valfmt : {kValInsitu, kValDptr, kValSptr, 5}) {
        ValueView v = Block(static_cast<int>(next() % 12), b);
        v.lval = static_cast<int32_t>(next());
        EXPECT_FALSE(FormatValue(valfmt, type, v, static_cast<int>(next() % 20) - 5, TimeZone::Utc())
                         .empty());
      }
      AtomValue a;
      a.ull = next();
      if (type >= kTypeString && type <= kTypeHighResEvent) a.bytes.assign(b.begin(), b.end());
      EXPECT_FALSE(AtomStr(a, type, static_cast<int>(next() % 300)).empty());
    }
  }
}

TEST(StringsTest, AtomStrOfShortEventArray) {
  AtomValue a;
  EXPECT_EQ(AtomStr(a, kTypeEvent), "[bad event record array]");
  a.bytes = std::string("\x02\x00\x00\x00", 4);
  EXPECT_EQ(AtomStr(a, kTypeHighResEvent), "[2 event records]");
}

TEST(StringsTest, HugeWidthsAreLimited) {
  ValueView v;
  v.lval = 7;
  EXPECT_EQ(FormatValue(kValInsitu, kType32, v, 1 << 30).size(), size_t{1} << 20);
  EXPECT_EQ(FormatValue(kValInsitu, kType32, v, -(1 << 30)).size(), size_t{1} << 20);
}

TEST(StringsTest, LocalZoneIsTheDefault) {
  std::vector<uint8_t> b;
  Put32(&b, 1);
  Put32(&b, 1700000000);
  Put32(&b, 0);
  Put32(&b, kEventFlagPoint);
  Put32(&b, 0);
  ValueView v = Block(kTypeEvent, b);
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, v, 0),
            FormatValue(kValDptr, kTypeEvent, v, 0, *TimeZone::FromEnvironment()));
  // A POSIX rule, as archives record zones: five hours east of UTC.
  absl::StatusOr<TimeZone> plus5h = TimeZone::FromTzValue("XYZ-5");
  ASSERT_TRUE(plus5h.ok());
  EXPECT_EQ(FormatValue(kValDptr, kTypeEvent, v, 0, *plus5h), "[1 event record timestamp 03:13:20.000]");
}

// The lines PCP 6.0.3's pmPrintDesc writes for the same descriptors.
TEST(StringsTest, DescStrIsPmPrintDesc) {
  Desc d;
  d.pmid = MakePmID(29, 0, 1);
  d.type = kTypeU32;
  d.indom = kInDomNull;
  d.sem = kSemCounter;
  d.units.dim_time = 1;
  d.units.scale_time = 3;
  EXPECT_EQ(DescStr(d),
            "    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n"
            "    Semantics: counter  Units: sec\n");
  d.type = kTypeHighResEvent;
  d.indom = MakeInDom(29, 1);
  d.sem = 7;
  d.units = Units();
  EXPECT_EQ(DescStr(d),
            "    Data Type: highres event record array  InDom: 29.1 0x7400001\n"
            "    Semantics: ??? (7)  Units: none\n");
  d.type = 42;
  d.sem = kSemInstant;
  EXPECT_EQ(DescStr(d),
            "    Data Type: ??? (42)  InDom: 29.1 0x7400001\n"
            "    Semantics: instant  Units: none\n");
  d.type = kTypeNoSupport;
  EXPECT_EQ(DescStr(d), "    Data Type: Not Supported\n");
  EXPECT_EQ(TypeLongStr(kTypeAggregateStatic), "static aggregate");
  EXPECT_EQ(TypeLongStr(11), "");
}

}  // namespace
}  // namespace pmapi
