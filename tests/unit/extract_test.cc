// Checks ExtractValue and ConvScale against PCP 6.0.3's pmExtractValue and
// pmConvScale, row by row, over the golden tables tests/data/oracle/
// extract.tsv and convscale.tsv (made by tests/oracle/regen.sh; the row
// formats are described in tests/oracle/extract.c and convscale.c), plus
// the bounds checks PCP's tables cannot show.
#include "pmapi/extract.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "oracle_table.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

std::vector<std::string> Fields(const std::string& line) {
  return absl::StrSplit(line, '\t');
}

std::string Hex(const std::string& bytes) {
  std::string out;
  char buf[3];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    out += buf;
  }
  return out;
}

std::vector<uint8_t> Unhex(const std::string& text) {
  std::vector<uint8_t> out;
  if (text == "-") return out;
  for (size_t i = 0; i + 1 < text.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoul(text.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Prints a numeric value of `type` as the oracle programs do.
std::string FormatNumber(int type, const AtomValue& a) {
  char buf[128];
  switch (type) {
    case kType32:
      std::snprintf(buf, sizeof buf, "%d", a.l);
      return buf;
    case kTypeU32:
      std::snprintf(buf, sizeof buf, "%u", a.ul);
      return buf;
    case kType64:
      std::snprintf(buf, sizeof buf, "%" PRId64, a.ll);
      return buf;
    case kTypeU64:
      std::snprintf(buf, sizeof buf, "%" PRIu64, a.ull);
      return buf;
    case kTypeFloat: {
      uint32_t bits;
      std::memcpy(&bits, &a.f, sizeof bits);
      std::snprintf(buf, sizeof buf, "%a %08" PRIx32, static_cast<double>(a.f), bits);
      return buf;
    }
    case kTypeDouble: {
      uint64_t bits;
      std::memcpy(&bits, &a.d, sizeof bits);
      std::snprintf(buf, sizeof buf, "%a %016" PRIx64, a.d, bits);
      return buf;
    }
    default:
      return "-";
  }
}

// Rebuilds a numeric input printed by FormatNumber; "-" is a zero value.
AtomValue ParseNumber(int type, const std::string& text) {
  AtomValue a;
  if (text == "-") return a;
  switch (type) {
    case kType32: a.l = static_cast<int32_t>(std::stol(text)); break;
    case kTypeU32: a.ul = static_cast<uint32_t>(std::stoul(text)); break;
    case kType64: a.ll = std::stoll(text); break;
    case kTypeU64: a.ull = std::stoull(text); break;
    case kTypeFloat: {
      uint32_t bits = static_cast<uint32_t>(std::stoul(text.substr(text.find(' ') + 1), nullptr, 16));
      std::memcpy(&a.f, &bits, sizeof bits);
      break;
    }
    case kTypeDouble: {
      uint64_t bits = std::stoull(text.substr(text.find(' ') + 1), nullptr, 16);
      std::memcpy(&a.d, &bits, sizeof bits);
      break;
    }
    default: break;
  }
  return a;
}

// Prints ExtractValue's result for `otype` as tests/oracle/extract.c does;
// `vtype` is the input block's type, which PCP's aggregate copy keeps.
std::string FormatExtracted(int otype, const AtomValue& a, int vtype) {
  if (otype == kTypeString) return "s:" + Hex(a.bytes);
  if (otype == kTypeAggregate) {
    return "vtype=" + std::to_string(vtype) + " vlen=" + std::to_string(a.bytes.size() + 4) +
           " " + Hex(a.bytes);
  }
  return FormatNumber(otype, a);
}

Units ParseUnits(const std::string& text) {
  std::vector<std::string> f = absl::StrSplit(text, ',');
  Units u;
  u.dim_space = static_cast<int8_t>(std::stoi(f.at(0)));
  u.dim_time = static_cast<int8_t>(std::stoi(f.at(1)));
  u.dim_count = static_cast<int8_t>(std::stoi(f.at(2)));
  u.scale_space = static_cast<uint8_t>(std::stoi(f.at(3)));
  u.scale_time = static_cast<uint8_t>(std::stoi(f.at(4)));
  u.scale_count = static_cast<int8_t>(std::stoi(f.at(5)));
  return u;
}

// Returns "code<TAB>output" for a result, in the tables' form.
std::string Outcome(const absl::StatusOr<AtomValue>& r, const std::string& output) {
  if (!r.ok()) return std::to_string(PcpCode(r.status())) + "\t-";
  return "0\t" + output;
}

TEST(ExtractTest, EveryRowMatchesPcp) {
  std::istringstream in = OpenOracleTable(PMAPI_TEST_DATA_DIR "/oracle/extract.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::string line;
  int rows = 0, failures = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = Fields(line);
    ASSERT_EQ(f.size(), 7u) << line;
    int valfmt = std::stoi(f[0]);
    int itype = std::stoi(f[1]);
    int otype = std::stoi(f[2]);
    ValueView v;
    std::vector<uint8_t> payload;
    int vtype = 0;
    if (f[3] == "-") {
      v.lval = static_cast<int32_t>(std::stol(f[4]));
    } else {
      vtype = std::stoi(f[3]);
      payload = Unhex(f[4]);
      v.vtype = vtype;
      v.payload = payload;
    }
    absl::StatusOr<AtomValue> r = ExtractValue(valfmt, v, itype, otype);
    std::string got = Outcome(r, r.ok() ? FormatExtracted(otype, *r, vtype) : "");
    std::string want = f[5] + "\t" + f[6];
    if (got != want && ++failures <= 20) ADD_FAILURE() << line << "\n  got: " << got;
    ++rows;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(rows, 15000);
}

TEST(ConvScaleTest, EveryRowMatchesPcp) {
  std::istringstream in = OpenOracleTable(PMAPI_TEST_DATA_DIR "/oracle/convscale.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::string line;
  int rows = 0, traps = 0, failures = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f = Fields(line);
    ASSERT_EQ(f.size(), 6u) << line;
    int type = std::stoi(f[0]);
    absl::StatusOr<AtomValue> r =
        ConvScale(type, ParseNumber(type, f[3]), ParseUnits(f[1]), ParseUnits(f[2]));
    std::string got = Outcome(r, r.ok() ? FormatNumber(type, *r) : "");
    std::string want = f[4] + "\t" + f[5];
    if (f[4] == "SIGFPE") {
      // PCP divides by a zero factor and traps; the library refuses.
      want = std::to_string(kErrConv) + "\t-";
      ++traps;
    }
    if (got != want && ++failures <= 20) ADD_FAILURE() << line << "\n  got: " << got;
    ++rows;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(rows, 20000);
  EXPECT_GT(traps, 0);
}

TEST(ExtractTest, ShortAndLongPayloadsAreRefused) {
  const uint8_t bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  for (int itype : {kType64, kTypeU64, kTypeDouble, kTypeFloat}) {
    for (size_t n = 0; n <= sizeof bytes; ++n) {
      ValueView v;
      v.vtype = itype;
      v.payload = std::span<const uint8_t>(bytes, n);
      size_t want = itype == kTypeFloat ? 4 : 8;
      absl::StatusOr<AtomValue> r = ExtractValue(kValDptr, v, itype, itype);
      EXPECT_EQ(r.ok(), n == want) << itype << " " << n;
      if (!r.ok()) {
        EXPECT_EQ(PcpCode(r.status()), kErrConv);
      }
    }
  }
}

TEST(ExtractTest, PayloadBeyondBlockLengthIsRefused) {
  std::vector<uint8_t> big(kValVlenMax - kValHdrSize + 1, 'a');
  ValueView v;
  v.vtype = kTypeAggregate;
  v.payload = big;
  EXPECT_EQ(PcpCode(ExtractValue(kValDptr, v, kTypeAggregate, kTypeAggregate).status()),
            kErrConv);
  big.pop_back();
  v.payload = big;
  absl::StatusOr<AtomValue> r = ExtractValue(kValDptr, v, kTypeAggregate, kTypeAggregate);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->bytes.size(), big.size());
}

TEST(ExtractTest, StringStopsAtNulAndWithoutOne) {
  const uint8_t text[] = {'a', 'b', 'c'};
  ValueView v;
  v.vtype = kTypeString;
  v.payload = text;
  absl::StatusOr<AtomValue> r = ExtractValue(kValDptr, v, kTypeString, kTypeString);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->bytes, "abc");
}

TEST(ConvScaleTest, HeaderExample) {
  ValueView v;
  v.lval = 1536;
  absl::StatusOr<AtomValue> d = ExtractValue(kValInsitu, v, kTypeU32, kTypeDouble);
  ASSERT_TRUE(d.ok());
  absl::StatusOr<AtomValue> m = ConvScale(kTypeDouble, *d, Units{1, 0, 0, kSpaceKByte, 0, 0},
                                          Units{1, 0, 0, kSpaceMByte, 0, 0});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->d, 1.5);
}

TEST(ConvScaleTest, FieldsAreReadAsFourBits) {
  // dim_space 17 is 1 in PCP's 4-bit field, so Kbyte -> byte applies.
  AtomValue one;
  one.l = 1;
  absl::StatusOr<AtomValue> r =
      ConvScale(kType32, one, Units{17, 0, 0, kSpaceKByte, 0, 0}, Units{1, 0, 0, kSpaceByte, 0, 0});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->l, 1024);
}

}  // namespace
}  // namespace pmapi
