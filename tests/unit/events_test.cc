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

}  // namespace
}  // namespace pmapi
