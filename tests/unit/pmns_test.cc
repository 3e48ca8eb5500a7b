// Replays every row of the golden tables made by tests/oracle/pmns.c and
// pmns_add.c (PCP 6.0.3's own PMNS services) against pmapi::Pmns.
#include "pmapi/pmns.h"

#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

std::vector<std::string> Fields(const std::string& line) {
  return absl::StrSplit(line, '\t');
}

// pmIDStr's forms: "d.c.i", "d.*.*" for a dynamic root, "PM_ID_NULL".
PmID ParsePmid(const std::string& s) {
  if (s == "PM_ID_NULL") return kPmIDNull;
  std::vector<std::string> p = absl::StrSplit(s, '.');
  unsigned d = 0, c = 0, i = 0;
  EXPECT_EQ(p.size(), 3u) << s;
  EXPECT_TRUE(absl::SimpleAtoi(p[0], &d)) << s;
  if (p[1] == "*") return MakeDynamicRoot(d);
  EXPECT_TRUE(absl::SimpleAtoi(p[1], &c) && absl::SimpleAtoi(p[2], &i)) << s;
  return MakePmID(d, c, i);
}

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

int Code(const absl::Status& s) { return PcpCode(s); }

bool CheckOk(const absl::Status& s) {
  EXPECT_TRUE(s.ok()) << s;
  return s.ok();
}

class PmnsGolden : public ::testing::Test {
 protected:
  // The tables name files relative to tests/data/pmns, as PCP saw them.
  static void SetUpTestSuite() { ASSERT_EQ(chdir(PMAPI_TEST_DATA_DIR "/pmns"), 0); }

  // Checks every query row of `table` against `ns`; returns the row count.
  static int Replay(const std::string& table, Pmns* ns);
};

int PmnsGolden::Replay(const std::string& table, Pmns* ns) {
  std::ifstream in(std::string(PMAPI_TEST_DATA_DIR "/oracle/") + table);
  EXPECT_TRUE(in) << table;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  int rows = 0;
  for (size_t n = 0; n < lines.size(); ++n) {
    std::vector<std::string> f = Fields(lines[n]);
    const std::string& kind = f[0];
    SCOPED_TRACE(table + ": " + lines[n]);
    int rc = f.size() > 2 ? std::stoi(f[2]) : 0;
    if (kind == "traverse") {
      std::vector<std::string> want;
      while (n + 1 < lines.size() && lines[n + 1].rfind("tleaf\t", 0) == 0) {
        want.push_back(lines[++n].substr(6));
      }
      auto got = ns->Traverse(f[1]);
      if (rc < 0) {
        EXPECT_EQ(Code(got.status()), rc);
      } else if (CheckOk(got.status())) {
        EXPECT_EQ(*got, want);
        EXPECT_EQ(static_cast<int>(got->size()), rc);
      }
    } else if (kind == "children") {
      auto got = ns->Children(f[1]);
      if (rc < 0) {
        EXPECT_EQ(Code(got.status()), rc);
      } else if (CheckOk(got.status())) {
        std::vector<PmnsChild> want;
        for (size_t i = 3; i < f.size(); ++i) {
          size_t eq = f[i].rfind('=');
          want.push_back(PmnsChild{f[i].substr(0, eq), std::stoi(f[i].substr(eq + 1))});
        }
        EXPECT_EQ(*got, want);
      }
    } else if (kind == "lookup") {
      auto got = ns->LookupName(f[1]);
      if (rc < 0) {
        EXPECT_EQ(Code(got.status()), rc);
      } else if (CheckOk(got.status())) {
        EXPECT_EQ(*got, ParsePmid(f[3]));
      }
    } else if (kind == "nameall") {
      auto got = ns->NameAll(ParsePmid(f[1]));
      if (rc < 0) {
        EXPECT_EQ(Code(got.status()), rc);
      } else if (CheckOk(got.status())) {
        EXPECT_EQ(*got, std::vector<std::string>(f.begin() + 3, f.end()));
      }
    } else if (kind == "nameid") {
      auto got = ns->NameID(ParsePmid(f[1]));
      if (rc < 0) {
        EXPECT_EQ(Code(got.status()), rc);
      } else if (CheckOk(got.status())) {
        EXPECT_EQ(*got, f[3]);
      }
    } else if (kind == "add") {
      EXPECT_EQ(Code(ns->AddName(f[1], ParsePmid(f[2]))), std::stoi(f[3]));
    } else {
      continue;  // load and fix rows carry no query
    }
    ++rows;
  }
  return rows;
}

// One full table per good input: load it, then replay every answer.
class PmnsFileTest : public PmnsGolden, public ::testing::WithParamInterface<const char*> {};

TEST_P(PmnsFileTest, MatchesPcp) {
  PmnsLoadOptions opts;
  absl::StatusOr<Pmns> ns = Pmns::LoadFile(GetParam(), opts);
  ASSERT_TRUE(ns.ok()) << ns.status();
  int rows = Replay(std::string("pmns_") + GetParam() + ".tsv", &*ns);
  EXPECT_GT(rows, 10);
  std::cout << GetParam() << ": " << rows << " golden rows\n";
}

INSTANTIATE_TEST_SUITE_P(Files, PmnsFileTest,
                         ::testing::Values("root", "root_linux", "root_pmcd", "root_proc",
                                           "root_xfs", "root_mmv", "root_kvm", "root_root",
                                           "sample_root", "features", "unclosed", "empty_root"));

class PmnsAddTest : public PmnsGolden, public ::testing::WithParamInterface<const char*> {};

TEST_P(PmnsAddTest, MatchesPcp) {
  Pmns ns;
  int rows = Replay(std::string("pmns_add_") + GetParam() + ".tsv", &ns);
  EXPECT_GT(rows, 10);
  std::cout << GetParam() << ": " << rows << " golden rows\n";
}

INSTANTIATE_TEST_SUITE_P(Files, PmnsAddTest, ::testing::Values("clash", "sample"));

// Every bad input: PCP's return code and, byte for byte, its stderr.
TEST_F(PmnsGolden, LoadErrorsMatchPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/pmns_errors.tsv");
  ASSERT_TRUE(in);
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f = Fields(line);
    ASSERT_EQ(f.size(), 5u) << line;
    SCOPED_TRACE(line);
    PmnsLoadOptions opts;
    opts.allow_duplicate_pmids = f[2] != "0";
    absl::StatusOr<Pmns> ns = Pmns::LoadFile(f[1], opts);
    int rc = std::stoi(f[3]);
    EXPECT_EQ(Code(ns.status()), rc);
    if (rc < 0) {
      EXPECT_EQ(ns.status().message(), Unescape(f[4]));
    }
    ++rows;
  }
  EXPECT_GT(rows, 50);
  std::cout << "errors: " << rows << " golden rows\n";
}

// A PMID with many names (a name space that allows duplicate PMIDs): the
// names come last-in-tree-order first, whatever their number, and fast.
TEST(PmnsNameAll, ManyNamesInReverseTreeOrder) {
  std::string text = "root {\n";
  for (int g = 0; g < 40; ++g) text += "    g" + std::to_string(39 - g) + "\n";
  text += "}\n";
  std::vector<std::string> expected;
  for (int g = 0; g < 40; ++g) {
    text += "g" + std::to_string(39 - g) + " {\n";
    for (int m = 0; m < 50; ++m) {
      const std::string leaf = "m" + std::to_string((m * 7) % 50);
      text += "    " + leaf + " 1:0:1\n";
      expected.push_back("g" + std::to_string(39 - g) + "." + leaf);
    }
    text += "}\n";
  }
  const std::string path = testing::TempDir() + "/many_names.pmns";
  std::ofstream(path) << text;
  PmnsLoadOptions opts;
  opts.allow_duplicate_pmids = true;
  absl::StatusOr<Pmns> ns = Pmns::LoadFile(path, opts);
  ASSERT_TRUE(ns.ok()) << ns.status();
  absl::StatusOr<std::vector<std::string>> names = ns->NameAll(MakePmID(1, 0, 1));
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>(expected.rbegin(), expected.rend()));
  absl::StatusOr<std::vector<std::string>> walk = ns->Traverse("");
  ASSERT_TRUE(walk.ok());
  EXPECT_EQ(*walk, expected);
}

}  // namespace
}  // namespace pmapi
