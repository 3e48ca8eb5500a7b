// Replays tests/oracle/fetchgroup_cases.txt through FetchGroup and compares
// every output, fetch by fetch, with what PCP's own fetchgroups gave
// (tests/data/oracle/fetchgroup.tsv, made by tests/oracle/fetchgroup.c).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "pmapi/fetchgroup.h"

namespace pmapi {
namespace {

const std::string kData = PMAPI_TEST_DATA_DIR;

struct Case {
  std::vector<std::string> f;  // the ten fields of the case line
};

std::vector<Case> ReadCases() {
  std::ifstream in(kData + "/../oracle/fetchgroup_cases.txt");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Case c;
    c.f = absl::StrSplit(line, '\t');
    if (c.f.size() == 10) cases.push_back(c);
  }
  return cases;
}

// Expected rows grouped by case number.
std::map<int, std::string> ReadGolden() {
  std::ifstream in(kData + "/oracle/fetchgroup.tsv");
  std::map<int, std::string> rows;
  std::string line;
  while (std::getline(in, line)) {
    int n = std::atoi(line.c_str());
    rows[n] += line + "\n";
  }
  return rows;
}

int TypeOf(const std::string& s) {
  static const char* kNames[] = {"32", "U32", "64", "U64", "FLOAT", "DOUBLE", "STRING", "AGGREGATE"};
  for (int i = 0; i < 8; ++i) {
    if (s == kNames[i]) return i;
  }
  return -1;
}

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

std::string ValueText(const FetchGroupValue& v, int type) {
  const AtomValue& a = v.atom;
  switch (type) {
    case kType32: return absl::StrCat(a.l);
    case kTypeU32: return absl::StrCat(a.ul);
    case kType64: return absl::StrCat(a.ll);
    case kTypeU64: return absl::StrCat(a.ull);
    case kTypeFloat: return std::isnan(a.f) ? "nan" : Format("%.9g", a.f);
    case kTypeDouble: return std::isnan(a.d) ? "nan" : Format("%.17g", a.d);
    case kTypeString: return v.null ? "(null)" : absl::StrCat("\"", a.bytes, "\"");
    default: return "?";
  }
}

std::optional<std::string_view> Opt(const std::string& s) {
  if (s == "-") return std::nullopt;
  return std::string_view(s);
}

// Runs one case and returns its rows in the oracle's layout.
std::string RunCase(int n, const Case& c) {
  const std::vector<std::string>& f = c.f;
  std::string out;
  absl::StatusOr<std::unique_ptr<FetchGroup>> fg =
      FetchGroup::Create(ContextKind::kArchive, kData + "/archives/" + f[0]);
  if (!fg.ok()) return absl::StrCat(n, "\treg\t", PcpCode(fg.status()), "\n");
  int type = TypeOf(f[5]);
  if (f[6].rfind("interp:", 0) == 0) {
    absl::StatusOr<ArchiveLabel> label = (*fg)->context().GetArchiveLabel();
    double d = std::atof(f[6].c_str() + 7);
    int64_t usec = static_cast<int64_t>(std::llround(d * 1e6));
    // pmSetMode of PCP 6 takes the start as a timeval.
    int64_t start_ns = label->start.sec * 1000000000 + label->start.nsec / 1000 * 1000;
    EXPECT_TRUE((*fg)->SetMode(Mode::kInterp, absl::FromUnixNanos(start_ns), absl::Microseconds(usec)).ok());
  }
  const FetchGroupTimestamp* stamp = (*fg)->AddTimestamp();
  int fetches = std::atoi(f[7].c_str());
  unsigned maxnum = static_cast<unsigned>(std::atoi(f[8].c_str()));
  const FetchGroupItem* item = nullptr;
  const FetchGroupIndom* indom = nullptr;
  const FetchGroupEvent* event = nullptr;
  absl::Status reg;
  if (f[1] == "item") {
    auto r = (*fg)->AddItem(f[2], Opt(f[3]), Opt(f[4]), type);
    reg = r.status();
    if (r.ok()) item = *r;
  } else if (f[1] == "indom") {
    auto r = (*fg)->AddIndom(f[2], Opt(f[4]), type, maxnum);
    reg = r.status();
    if (r.ok()) indom = *r;
  } else {
    auto r = (*fg)->AddEvent(f[2], Opt(f[3]), f[9], Opt(f[4]), type, maxnum);
    reg = r.status();
    if (r.ok()) event = *r;
  }
  absl::StrAppend(&out, n, "\treg\t", PcpCode(reg), "\n");
  if (!reg.ok()) return out;
  for (int k = 1; k <= fetches; ++k) {
    absl::StatusOr<int> sts = (*fg)->Fetch();
    absl::StrAppend(&out, n, "\t", k, "\tfetch\t", sts.ok() ? *sts : PcpCode(sts.status()), "\t");
    if (sts.ok()) {
      absl::StrAppend(&out, stamp->sec, ".", Format("%06.0f", static_cast<double>(stamp->nsec / 1000)), "\n");
    } else {
      absl::StrAppend(&out, "-\n");
    }
    if (item != nullptr) {
      absl::StrAppend(&out, n, "\t", k, "\titem\t", item->status, "\t", ValueText(item->value, type), "\n");
    } else if (indom != nullptr) {
      absl::StrAppend(&out, n, "\t", k, "\tindom\t", indom->status, "\t", indom->instances.size(), "\n");
      for (const FetchGroupInstance& i : indom->instances) {
        absl::StrAppend(&out, n, "\t", k, "\tinst\t", ToPcp(i.inst), "\t", i.name.value_or("(null)"), "\t",
                        i.status, "\t", ValueText(i.value, type), "\n");
      }
    } else {
      absl::StrAppend(&out, n, "\t", k, "\tevent\t", event->status, "\t", event->fields.size(), "\n");
      for (const FetchGroupEventField& e : event->fields) {
        char t[48];
        std::snprintf(t, sizeof(t), "%lld.%09lld", static_cast<long long>(e.sec),
                      static_cast<long long>(e.nsec));
        absl::StrAppend(&out, n, "\t", k, "\tfield\t", t, "\t", e.status, "\t",
                        ValueText(e.value, type), "\n");
      }
    }
  }
  return out;
}

TEST(FetchGroupGolden, EveryCaseMatchesPcp) {
  std::vector<Case> cases = ReadCases();
  std::map<int, std::string> golden = ReadGolden();
  ASSERT_GE(cases.size(), 70u);
  ASSERT_EQ(golden.size(), cases.size());
  int rows = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    int n = static_cast<int>(i + 1);
    EXPECT_EQ(RunCase(n, cases[i]), golden[n]) << "case " << n << ": " << absl::StrJoin(cases[i].f, " ");
    rows += static_cast<int>(std::count(golden[n].begin(), golden[n].end(), '\n'));
  }
  EXPECT_GT(rows, 900);
}

}  // namespace
}  // namespace pmapi
