// Pmns::AddAgentNames and Pmns::Resolve: the name space a local context
// builds from its agents' name-space files.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

using Kind = PmnsMatch::Kind;

constexpr char kAgent[] = R"(/*
 * An agent's file; AGENT stands for its domain.
 */
root {
    agent
}
# a comment line
agent {
    one     AGENT:0:1
    two     7:1:2
    dyn     AGENT:*:*
    inner
    empty
}
agent.inner {
    three   AGENT:2:3
}
)";

std::vector<std::string> ChildNames(const Pmns& ns, std::string_view name) {
  std::vector<std::string> out;
  absl::StatusOr<std::vector<PmnsChild>> kids = ns.Children(name);
  EXPECT_TRUE(kids.ok()) << kids.status();
  if (!kids.ok()) return out;
  for (const PmnsChild& k : *kids) out.push_back(k.name + (k.status == kPmnsLeafStatus ? "" : "/"));
  return out;
}

TEST(PmnsAgentTest, SymbolsStandForTheDomain) {
  Pmns ns = Pmns::ForAgents();
  ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
  EXPECT_EQ(*ns.LookupName("agent.one"), MakePmID(42, 0, 1));
  EXPECT_EQ(*ns.LookupName("agent.two"), MakePmID(7, 1, 2));
  EXPECT_EQ(*ns.LookupName("agent.inner.three"), MakePmID(42, 2, 3));
  EXPECT_EQ(*ns.NameAll(MakePmID(42, 0, 1)), std::vector<std::string>{"agent.one"});
}

TEST(PmnsAgentTest, ResolveWalksFromTheTop) {
  Pmns ns = Pmns::ForAgents();
  ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
  EXPECT_EQ(ns.Resolve("").kind, Kind::kNonLeaf);
  EXPECT_EQ(ns.Resolve("agent").kind, Kind::kNonLeaf);
  EXPECT_EQ(ns.Resolve("agent.empty").kind, Kind::kNonLeaf);
  PmnsMatch leaf = ns.Resolve("agent.inner.three");
  EXPECT_EQ(leaf.kind, Kind::kLeaf);
  EXPECT_EQ(leaf.pmid, MakePmID(42, 2, 3));
  for (const char* below : {"agent.dyn", "agent.dyn.x", "agent.dyn.x.y"}) {
    PmnsMatch m = ns.Resolve(below);
    EXPECT_EQ(m.kind, Kind::kDynamic) << below;
    EXPECT_EQ(DynamicRootDomain(m.pmid), 42u) << below;
  }
  EXPECT_EQ(ns.Resolve("agent.one.more").kind, Kind::kMissing);
  EXPECT_EQ(ns.Resolve("agent.none").kind, Kind::kMissing);
  EXPECT_EQ(ns.Resolve("agent.").kind, Kind::kMissing);
}

TEST(PmnsAgentTest, EmptyNodesStayVisibleInFileOrder) {
  Pmns ns = Pmns::ForAgents();
  ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
  EXPECT_EQ(ChildNames(ns, "agent"),
            (std::vector<std::string>{"one", "two", "dyn/", "inner/", "empty/"}));
  EXPECT_TRUE(ChildNames(ns, "agent.empty").empty());
  std::vector<std::pair<std::string, PmID>> walked;
  ASSERT_TRUE(ns.Walk("", [&](const std::string& n, PmID id) {
                  walked.emplace_back(n, id);
                  return absl::OkStatus();
                }).ok());
  EXPECT_EQ(walked, (std::vector<std::pair<std::string, PmID>>{{"agent.one", MakePmID(42, 0, 1)},
                                                               {"agent.two", MakePmID(7, 1, 2)},
                                                               {"agent.dyn", MakeDynamicRoot(42)},
                                                               {"agent.inner.three", MakePmID(42, 2, 3)}}));
}

TEST(PmnsAgentTest, WalkStopsAtTheFirstError) {
  Pmns ns = Pmns::ForAgents();
  ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
  int calls = 0;
  absl::Status s = ns.Walk("agent", [&](const std::string&, PmID) {
    ++calls;
    return PcpError(kErrNoagent);
  });
  EXPECT_EQ(PcpCode(s), kErrNoagent);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(PcpCode(ns.Walk("agent.none", [](const std::string&, PmID) { return absl::OkStatus(); })),
            kErrName);
}

TEST(PmnsAgentTest, FilesOfSeveralAgentsShareTheTree) {
  Pmns ns = Pmns::ForAgents();
  ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
  ASSERT_TRUE(ns.AddAgentNames("root { other }\nother { x OTHER:0:0 }\nagent.inner { four 9:0:4 }\n", 9,
                               "root_other")
                  .ok());
  EXPECT_EQ(ChildNames(ns, ""), (std::vector<std::string>{"agent/", "other/"}));
  EXPECT_EQ(ChildNames(ns, "agent.inner"), (std::vector<std::string>{"three", "four"}));
  EXPECT_EQ(*ns.LookupName("other.x"), MakePmID(9, 0, 0));
}

TEST(PmnsAgentTest, BadFilesAddNothing) {
  struct Case {
    const char* text;
    int code;
    const char* message;
  };
  const Case cases[] = {
      {"root { a 1:0:0 ", kErrPmns, "f: missing } for root"},
      {"root a 1:0:0 }", kErrPmns, "f: expected { after root"},
      {"root { 9a 1:0:0 }", kErrPmns, "f: bad name 9a"},
      {"a..b { x 1:0:0 }", kErrPmns, "f: bad name a..b"},
      {"root { a 1:0 }", kErrPmns, "f: bad identifier 1:0"},
      {"root { a 511:0:0 }", kErrPmns, "f: bad identifier 511:0:0"},
      {"root { a 1:4096:0 }", kErrPmns, "f: bad identifier 1:4096:0"},
      {"root { a 1:0:0 b 1:0:1 a 1:0:2 }", kErrDuppmns, "f: a"},
      {"root { agent 1:0:0 }", kErrDuppmns, "f: agent"},
      {"agent { one }", kErrDuppmns, "f: agent.one"},
      {"agent.dyn { z 1:0:0 }", kErrDuppmns, "f: agent.dyn.z"},
  };
  for (const Case& c : cases) {
    Pmns ns = Pmns::ForAgents();
    ASSERT_TRUE(ns.AddAgentNames(kAgent, 42, "root_agent").ok());
    const size_t before = ns.NumNames();
    absl::Status s = ns.AddAgentNames("root { extra 1:0:9 }\n" + std::string(c.text), 1, "f");
    EXPECT_EQ(PcpCode(s), c.code) << c.text;
    // (PcpError adds ": " and the code's text.)
    EXPECT_TRUE(absl::StartsWith(s.message(), std::string(c.message) + ": ")) << c.text << " / " << s.message();
    EXPECT_EQ(ns.NumNames(), before) << c.text;
    EXPECT_EQ(ns.Resolve("extra").kind, Kind::kMissing) << c.text;
  }
}

TEST(PmnsAgentTest, LoadedNameSpacesStillHideEmptyNodes) {
  Pmns ns;
  ASSERT_TRUE(ns.AddName("a.b", MakePmID(1, 0, 0)).ok());
  EXPECT_EQ(ns.Resolve("a").kind, Kind::kNonLeaf);
  EXPECT_EQ(ns.Resolve("a.b").kind, Kind::kLeaf);
  Pmns trimmed = ns.Trimmed([](PmID) { return false; });
  EXPECT_EQ(trimmed.Resolve("a").kind, Kind::kMissing);
  EXPECT_EQ(trimmed.Resolve("").kind, Kind::kNonLeaf);
}

}  // namespace
}  // namespace pmapi
