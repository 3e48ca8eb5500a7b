// Replays tests/data/oracle/events.tsv (event arrays built with PCP's
// pmdaEvent* routines and unpacked with pmUnpack[HighRes]EventRecords, by
// tests/oracle/events.c) against EventArrays and UnpackEventRecords; then
// round-trips every parameter type and feeds arbitrary bytes to the
// unpacker.
#include "pmapi/events.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

std::string Hex(std::span<const uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (uint8_t b : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

std::vector<uint8_t> Unhex(const std::string& s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < s.size(); i += 2) out.push_back(std::stoi(s.substr(i, 2), nullptr, 16));
  return out;
}

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    if (c == 'n') out += '\n';
    else if (c == 't') out += '\t';
    else if (c == 'x' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string Code(const absl::Status& s) { return std::to_string(PcpCode(s)); }

// Formats unpacked records as the oracle prints them.
std::string Records(const absl::StatusOr<std::vector<Result>>& r) {
  if (!r.ok()) return Code(r.status());
  std::string out = "n=" + std::to_string(r->size());
  for (const Result& rec : *r) {
    out += " | ns=" + std::to_string(rec.timestamp_ns());
    for (const ValueSet& vs : rec.sets()) {
      out += " " + std::to_string(PmIDDomain(vs.pmid)) + "." + std::to_string(PmIDCluster(vs.pmid)) + "." +
             std::to_string(PmIDItem(vs.pmid)) + "=";
      ValueView v = rec.value(vs, 0);
      if (vs.valfmt == kValInsitu) out += "i:" + std::to_string(v.lval);
      else out += "b" + std::to_string(v.vtype) + ":" + Hex(v.payload);
    }
  }
  return out;
}

// Unpacks a whole value block (header word first), as a client would.
std::string UnpackBlock(std::span<const uint8_t> block, bool highres) {
  uint32_t word = 0;
  std::memcpy(&word, block.data(), std::min<size_t>(4, block.size()));
  size_t len = word & 0xffffff;
  std::vector<uint8_t> payload(len > 4 ? len - 4 : 0);
  for (size_t i = 0; i < payload.size() && 4 + i < block.size(); i++) payload[i] = block[4 + i];
  ValueView v;
  v.vtype = static_cast<int>(word >> 24);
  v.payload = payload;
  return Records(highres ? UnpackHighResEventRecords(v) : UnpackEventRecords(v));
}

class EventScript {
 public:
  std::string Run(const std::string& line);

 private:
  std::string Param(int idx, std::istringstream& words, const std::string& line, bool highres);
  EventArrays arrays_;
};

std::string EventScript::Param(int idx, std::istringstream& words, const std::string& line, bool highres) {
  std::string id, type_text;
  words >> id >> type_text;
  unsigned d = 0, c = 0, i = 0;
  std::sscanf(id.c_str(), "%u.%u.%u", &d, &c, &i);
  int type = std::stoi(type_text);
  // The value is the rest of the line after the fifth word.
  size_t at = 0;
  for (int w = 0; w < 4 && at != std::string::npos; w++) at = line.find(' ', at) + 1;
  std::string rest = at == 0 ? "" : line.substr(at);
  AtomValue v;
  switch (type) {
    case kType32: v.l = static_cast<int32_t>(std::strtol(rest.c_str(), nullptr, 0)); break;
    case kTypeU32: v.ul = static_cast<uint32_t>(std::strtoul(rest.c_str(), nullptr, 0)); break;
    case kType64: v.ll = std::strtoll(rest.c_str(), nullptr, 0); break;
    case kTypeU64: v.ull = std::strtoull(rest.c_str(), nullptr, 0); break;
    case kTypeFloat: v.f = std::strtof(rest.c_str(), nullptr); break;
    case kTypeDouble: v.d = std::strtod(rest.c_str(), nullptr); break;
    case kTypeString: v.bytes = Unescape(rest); break;
    default: {
      std::vector<uint8_t> b = Unhex(rest);
      v.bytes.assign(b.begin(), b.end());
    }
  }
  PmID pmid = MakePmID(d, c, i);
  return Code(highres ? arrays_.AddHighResParam(idx, pmid, type, v) : arrays_.AddParam(idx, pmid, type, v));
}

std::string EventScript::Run(const std::string& line) {
  std::istringstream words(line);
  std::string cmd;
  words >> cmd;
  bool highres = cmd.size() > 2 && cmd.compare(cmd.size() - 2, 2, "hr") == 0;
  if (cmd == "new" || cmd == "newhr") {
    return std::to_string(highres ? arrays_.NewHighResArray() : arrays_.NewArray());
  }
  if (cmd == "unpack" || cmd == "unpackhr") {
    std::string hex;
    words >> hex;
    return UnpackBlock(Unhex(hex), highres);
  }
  int idx;
  words >> idx;
  if (cmd.rfind("reset", 0) == 0) return Code(arrays_.ResetArray(idx));
  if (cmd.rfind("release", 0) == 0) return Code(arrays_.ReleaseArray(idx));
  if (cmd.rfind("rec", 0) == 0 || cmd.rfind("missed", 0) == 0) {
    long long sec, frac;
    long n;
    words >> sec >> frac >> n;
    bool missed = cmd[0] == 'm';
    int count = static_cast<int>(n);
    if (highres) {
      return Code(missed ? arrays_.AddHighResMissedRecord(idx, sec, frac, count)
                         : arrays_.AddHighResRecord(idx, sec, frac, count));
    }
    return Code(missed ? arrays_.AddMissedRecord(idx, sec, frac, count) : arrays_.AddRecord(idx, sec, frac, count));
  }
  if (cmd.rfind("param", 0) == 0) return Param(idx, words, line, highres);
  if (cmd.rfind("get", 0) == 0) {
    absl::StatusOr<std::span<const uint8_t>> block = highres ? arrays_.GetHighResAddr(idx) : arrays_.GetAddr(idx);
    if (!block.ok()) return "NULL";
    return Hex(*block) + " " + UnpackBlock(*block, highres);
  }
  return "unknown command";
}

TEST(EventsGolden, EveryScriptLineMatchesPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/events.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  EventScript script;
  std::string row;
  int rows = 0;
  while (std::getline(in, row)) {
    size_t tab = row.find('\t');
    ASSERT_NE(tab, std::string::npos) << row;
    EXPECT_EQ(script.Run(row.substr(0, tab)), row.substr(tab + 1)) << row.substr(0, tab);
    rows++;
  }
  EXPECT_GT(rows, 100);
}

// ---- round trips and hostile input

struct TypedValue {
  int type;
  AtomValue value;
};

std::vector<TypedValue> EveryType() {
  std::vector<TypedValue> out(8);
  out[0].type = kType32, out[0].value.l = -7;
  out[1].type = kTypeU32, out[1].value.ul = 4000000000u;
  out[2].type = kType64, out[2].value.ll = -(int64_t{1} << 40);
  out[3].type = kTypeU64, out[3].value.ull = ~uint64_t{0};
  out[4].type = kTypeFloat, out[4].value.f = 0.25f;
  out[5].type = kTypeDouble, out[5].value.d = -1e-300;
  out[6].type = kTypeString, out[6].value.bytes = "five!";
  out[7].type = kTypeAggregate, out[7].value.bytes = std::string("\x00\x01\x02", 3);
  return out;
}

// Returns the value of a set as the bytes it was packed from.
std::string Unpacked(const Result& r, const ValueSet& vs) {
  ValueView v = r.value(vs, 0);
  if (vs.valfmt == kValInsitu) return std::string(reinterpret_cast<const char*>(&v.lval), 4);
  return std::string(v.payload.begin(), v.payload.end());
}

std::string Packed(const TypedValue& t) {
  switch (t.type) {
    case kType32:
    case kTypeU32:
    case kTypeFloat:
      return std::string(reinterpret_cast<const char*>(&t.value.l), 4);
    case kType64:
    case kTypeU64:
    case kTypeDouble:
      return std::string(reinterpret_cast<const char*>(&t.value.ll), 8);
    default:
      return t.value.bytes;
  }
}

void RoundTrip(bool highres) {
  EventArrays arrays;
  int a = highres ? arrays.NewHighResArray() : arrays.NewArray();
  std::vector<TypedValue> types = EveryType();
  for (size_t i = 0; i < types.size(); i++) {
    int64_t frac = highres ? 123456789 : 123456;
    ASSERT_TRUE((highres ? arrays.AddHighResRecord(a, 1700000000 + i, frac, i == 0 ? 0 : kEventFlagStart)
                         : arrays.AddRecord(a, 1700000000 + i, frac, i == 0 ? 0 : kEventFlagStart))
                    .ok());
    PmID pmid = MakePmID(245, 1, static_cast<unsigned>(i));
    ASSERT_TRUE((highres ? arrays.AddHighResParam(a, pmid, types[i].type, types[i].value)
                         : arrays.AddParam(a, pmid, types[i].type, types[i].value))
                    .ok());
  }
  ASSERT_TRUE((highres ? arrays.AddHighResMissedRecord(a, 1, 2, 9) : arrays.AddMissedRecord(a, 1, 2, 9)).ok());
  absl::StatusOr<std::span<const uint8_t>> block = highres ? arrays.GetHighResAddr(a) : arrays.GetAddr(a);
  ASSERT_TRUE(block.ok());
  ValueView v;
  v.vtype = highres ? kTypeHighResEvent : kTypeEvent;
  v.payload = block->subspan(4);
  absl::StatusOr<std::vector<Result>> records = highres ? UnpackHighResEventRecords(v) : UnpackEventRecords(v);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), types.size() + 1);
  for (size_t i = 0; i < types.size(); i++) {
    const Result& r = (*records)[i];
    int64_t frac_ns = highres ? 123456789 : 123456000;
    EXPECT_EQ(r.timestamp_ns(), (1700000000 + static_cast<int64_t>(i)) * 1000000000 + frac_ns);
    std::span<const ValueSet> sets = r.sets();
    ASSERT_EQ(sets.size(), i == 0 ? 1u : 2u) << "type " << types[i].type;
    if (i > 0) {
      EXPECT_EQ(sets[0].pmid, kEventFlagsPmid);
      EXPECT_EQ(r.value(sets[0], 0).lval, static_cast<int32_t>(kEventFlagStart));
    }
    const ValueSet& param = sets.back();
    EXPECT_EQ(param.pmid, MakePmID(245, 1, static_cast<unsigned>(i)));
    EXPECT_EQ(param.valfmt, types[i].type <= kTypeU32 ? kValInsitu : kValDptr);
    if (param.valfmt == kValDptr) {
      EXPECT_EQ(r.value(param, 0).vtype, types[i].type);
    }
    EXPECT_EQ(Unpacked(r, param), Packed(types[i])) << "type " << types[i].type;
  }
  const Result& missed = records->back();
  ASSERT_EQ(missed.sets().size(), 2u);
  EXPECT_EQ(missed.sets()[0].pmid, kEventFlagsPmid);
  EXPECT_EQ(missed.sets()[1].pmid, kEventMissedPmid);
  EXPECT_EQ(missed.value(missed.sets()[1], 0).lval, 9);
}

TEST(EventsRoundTrip, EveryParameterType) { RoundTrip(false); }
TEST(EventsRoundTrip, EveryParameterTypeHighRes) { RoundTrip(true); }

TEST(EventsRules, MissedFlagIsOnlyForMissedRecords) {
  EventArrays arrays;
  int a = arrays.NewArray();
  EXPECT_EQ(PcpCode(arrays.AddRecord(a, 0, 0, static_cast<int>(kEventFlagMissed))), kErrConv);
  EXPECT_EQ(PcpCode(arrays.ReleaseArray(a)), 0);
  EXPECT_EQ(PcpCode(arrays.AddRecord(a, 0, 0, 0)), kErrNocontext);
  EXPECT_EQ(PcpCode(arrays.GetAddr(a).status()), kErrNocontext);
  EXPECT_EQ(arrays.NewArray(), a);  // the released index is reused
}

TEST(EventsRules, ValueSetFormatAndTypeAreChecked) {
  std::vector<uint8_t> payload(4, 0);
  ValueView v;
  v.vtype = kTypeEvent;
  v.payload = payload;
  EXPECT_TRUE(UnpackEventRecords(v).ok());
  EXPECT_EQ(PcpCode(UnpackEventRecords(v, kValInsitu).status()), kErrConv);
  EXPECT_TRUE(UnpackEventRecords(v, kValSptr).ok());
  EXPECT_EQ(PcpCode(UnpackHighResEventRecords(v).status()), kErrType);
}

TEST(EventsRules, ArbitraryBytesNeverReadOutside) {
  // Every prefix and many random arrays: each result is a value or an
  // error, and (under the sanitizer build) no read leaves the payload.
  uint32_t seed = 99;
  for (int round = 0; round < 20000; round++) {
    size_t len = round % 120;
    std::vector<uint8_t> payload(len);
    for (uint8_t& b : payload) {
      seed = seed * 1664525u + 1013904223u;
      uint8_t r = static_cast<uint8_t>(seed >> 24);
      // Mostly small numbers, so counts and lengths are often plausible.
      b = (seed & 0x300) ? (r & 0x0f) : r;
    }
    ValueView v;
    v.payload = payload;
    v.vtype = kTypeEvent;
    (void)UnpackEventRecords(v);
    v.vtype = kTypeHighResEvent;
    (void)UnpackHighResEventRecords(v);
  }
}

}  // namespace
}  // namespace pmapi
