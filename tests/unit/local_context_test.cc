// Checks a local context running the test agent from the build tree's
// pmdas/pmcd.conf: names (static and dynamic), descriptors, values of
// every type, instances, help text, labels, store rules, and
// PM_ERR_NOAGENT for domains without an agent.
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "local_fixture.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmda_config.h"

namespace pmapi {
namespace {

const std::string& kConfig = kLocalTestConfig;

class LocalContextTest : public LocalFixture {
 protected:
  std::string Payload(const Result& r) {
    ValueView v = r.value(r.sets()[0], 0);
    return std::string(v.payload.begin(), v.payload.end());
  }
  absl::Status StoreInsitu(const std::string& name, std::vector<std::pair<Inst, int32_t>> values) {
    Result r;
    r.AddSet(Id(name), static_cast<int>(values.size()), kValInsitu);
    for (auto [inst, v] : values) r.AddInsitu(inst, v);
    return ctx_->Store(r);
  }
};

TEST_F(LocalContextTest, IsLocalAndLoadsBothAgents) {
  EXPECT_EQ(ctx_->kind(), ContextKind::kLocal);
  EXPECT_EQ(Id("test.long.minus_one"), MakePmID(250, 0, 0));
  EXPECT_EQ(Id("kernel.all.load"), MakePmID(60, 2, 0));
}

TEST_F(LocalContextTest, NameErrors) {
  EXPECT_EQ(PcpCode(ctx_->LookupName("test.nonesuch").status()), kErrName);
  EXPECT_EQ(PcpCode(ctx_->LookupName("test.long").status()), kErrNonleaf);
  EXPECT_EQ(PcpCode(ctx_->LookupName("test.long.minus_one.x").status()), kErrName);
  EXPECT_EQ(PcpCode(ctx_->NameAll(MakePmID(250, 7, 7)).status()), kErrPmid);
  EXPECT_EQ(*ctx_->NameAll(MakePmID(250, 0, 8)), std::vector<std::string>{"test.colour"});
}

TEST_F(LocalContextTest, ChildrenAndTraverse) {
  absl::StatusOr<std::vector<PmnsChild>> kids = ctx_->Children("test.long");
  ASSERT_TRUE(kids.ok());
  ASSERT_EQ(kids->size(), 1u);
  EXPECT_EQ((*kids)[0].name, "minus_one");
  EXPECT_EQ((*kids)[0].status, kPmnsLeafStatus);
  std::vector<std::string> names;
  ASSERT_TRUE(ctx_->Traverse("test", [&](const std::string& n) { names.push_back(n); }).ok());
  EXPECT_EQ(names.size(), 34u);
  EXPECT_EQ(names.front(), "test.long.minus_one");
  EXPECT_EQ(names.back(), "test.cache.control");
  EXPECT_EQ(PcpCode(ctx_->Children("nope").status()), kErrName);
  EXPECT_TRUE(ctx_->Children("test.colour")->empty());
}

TEST_F(LocalContextTest, DynamicNamesComeFromTheAgent) {
  EXPECT_EQ(Id("test.dynamic.beta"), MakePmID(250, 3, 1));
  EXPECT_EQ(PcpCode(ctx_->LookupName("test.dynamic.gamma").status()), kErrName);
  EXPECT_EQ(*ctx_->NameAll(MakePmID(250, 3, 0)), std::vector<std::string>{"test.dynamic.alpha"});
  absl::StatusOr<std::vector<PmnsChild>> kids = ctx_->Children("test.dynamic");
  ASSERT_TRUE(kids.ok());
  ASSERT_EQ(kids->size(), 2u);
  EXPECT_EQ((*kids)[1].name, "beta");
  Result r = FetchOne("test.dynamic.beta");
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, 11);
}

// The subtree root's own name looks up to the root's PMID, as libpcp's
// local context answers it; that PMID has no name back and no descriptor.
TEST_F(LocalContextTest, DynamicRootNameIsTheRootPmid) {
  EXPECT_EQ(Id("test.dynamic"), MakeDynamicRoot(250));
  EXPECT_EQ(PcpCode(ctx_->NameAll(MakeDynamicRoot(250)).status()), kErrPmid);
  EXPECT_EQ(PcpCode(ctx_->LookupDesc(MakeDynamicRoot(250)).status()), kErrNoagent);
}

// Writes `text` to a file in the test's temporary directory; returns its path.
std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  FILE* f = std::fopen(path.c_str(), "w");
  EXPECT_NE(f, nullptr);
  if (f != nullptr) {
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  return path;
}

// A name space loaded in its place (pminfo -n) still takes the names below
// a dynamic node from the agent.
TEST_F(LocalContextTest, LoadedNameSpaceAsksTheAgentBelowADynamicNode) {
  const std::string path = TempFile("loaded_root", "root { test }\ntest { dynamic 250:*:* long }\n"
                                                   "test.long { minus_one 250:0:0 }\n");
  absl::StatusOr<std::shared_ptr<const Pmns>> names = LoadNameSpace(path, false);
  ASSERT_TRUE(names.ok()) << names.status();
  ctx_->UseNameSpace(*names);
  EXPECT_EQ(Id("test.dynamic.beta"), MakePmID(250, 3, 1));
  EXPECT_EQ(Id("test.long.minus_one"), MakePmID(250, 0, 0));
  EXPECT_EQ(*ctx_->NameAll(MakePmID(250, 3, 0)), std::vector<std::string>{"test.dynamic.alpha"});
  std::vector<std::string> all;
  ASSERT_TRUE(ctx_->Traverse("test", [&](const std::string& n) { all.push_back(n); }).ok());
  EXPECT_EQ(all, (std::vector<std::string>{"test.dynamic.alpha", "test.dynamic.beta", "test.long.minus_one"}));
  absl::StatusOr<std::vector<PmnsChild>> kids = ctx_->Children("test.dynamic");
  ASSERT_TRUE(kids.ok());
  EXPECT_EQ(kids->size(), 2u);
}

// The default name space's names of domains without an agent here are
// known, and have no agent; names the agents hold stay the agents'.
TEST(LocalDefaultNames, NamesOfDomainsWithoutAnAgent) {
  const std::string path = TempFile("default_root",
                                    "root { sample test }\nsample { long secret 29:*:* }\nsample.long { one 29:0:1 }\n"
                                    "test { long other 250:9:9 }\ntest.long { minus_one 250:0:0 }\n");
  setenv("PMNS_DEFAULT", path.c_str(), 1);
  LocalOptions opts;
  opts.config_path = kConfig;
  absl::StatusOr<Context> ctx = OpenLocalContext(opts);
  unsetenv("PMNS_DEFAULT");
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> one = ctx->LookupName("sample.long.one");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(*one, MakePmID(29, 0, 1));
  EXPECT_EQ(PcpCode(ctx->LookupDesc(*one).status()), kErrNoagent);
  // below a dynamic node without its agent: no agent; a walk passes it over
  EXPECT_EQ(PcpCode(ctx->LookupName("sample.secret.bar").status()), kErrNoagent);
  std::vector<std::string> all;
  ASSERT_TRUE(ctx->Traverse("sample", [&](const std::string& n) { all.push_back(n); }).ok());
  EXPECT_EQ(all, std::vector<std::string>{"sample.long.one"});
  // domain 250 has its agent: its names are the agent's alone
  EXPECT_EQ(PcpCode(ctx->LookupName("test.other").status()), kErrName);
  EXPECT_EQ(*ctx->LookupName("test.long.minus_one"), MakePmID(250, 0, 0));
}

TEST_F(LocalContextTest, DescriptorsOfEveryType) {
  struct Want {
    const char* name;
    int type;
  } wants[] = {{"test.long.minus_one", kType32},       {"test.ulong.big", kTypeU32},
               {"test.longlong.minus_five_billion", kType64}, {"test.ulonglong.big", kTypeU64},
               {"test.float.one_and_a_half", kTypeFloat}, {"test.double.three_and_a_quarter", kTypeDouble},
               {"test.string.hullo", kTypeString},       {"test.aggregate.bytes", kTypeAggregate}};
  for (const Want& w : wants) {
    absl::StatusOr<Desc> d = ctx_->LookupDesc(Id(w.name));
    ASSERT_TRUE(d.ok()) << w.name;
    EXPECT_EQ(d->type, w.type) << w.name;
    EXPECT_EQ(d->indom, kInDomNull);
  }
  absl::StatusOr<Desc> bin = ctx_->LookupDesc(Id("test.bin"));
  EXPECT_EQ(bin->indom, MakeInDom(250, 1));
  EXPECT_EQ(bin->units, (Units{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(PcpCode(ctx_->LookupDesc(MakePmID(250, 9, 9)).status()), kErrPmid);
}

TEST_F(LocalContextTest, ValuesOfEveryType) {
  Result r = FetchOne("test.long.minus_one");
  EXPECT_EQ(r.value(r.sets()[0], 0).lval, -1);
  r = FetchOne("test.ulong.big");
  EXPECT_EQ(static_cast<uint32_t>(r.value(r.sets()[0], 0).lval), 4000000000u);
  int64_t ll;
  r = FetchOne("test.longlong.minus_five_billion");
  std::memcpy(&ll, Payload(r).data(), 8);
  EXPECT_EQ(ll, -5000000000LL);
  uint64_t ull;
  r = FetchOne("test.ulonglong.big");
  std::memcpy(&ull, Payload(r).data(), 8);
  EXPECT_EQ(ull, 18000000000000000000ULL);
  float f;
  r = FetchOne("test.float.one_and_a_half");
  std::memcpy(&f, Payload(r).data(), 4);
  EXPECT_EQ(f, 1.5f);
  double d;
  r = FetchOne("test.double.three_and_a_quarter");
  std::memcpy(&d, Payload(r).data(), 8);
  EXPECT_EQ(d, 3.25);
  EXPECT_EQ(Payload(FetchOne("test.string.hullo")), std::string("hullo world!\0", 13));
  EXPECT_EQ(Payload(FetchOne("test.aggregate.bytes")), std::string("\x01\x02\x00\xff", 4));
}

TEST_F(LocalContextTest, FetchBehaviours) {
  EXPECT_EQ(FetchOne("test.noinst").sets()[0].numval, 0);
  EXPECT_EQ(FetchOne("test.novalue").sets()[0].numval, 0);
  EXPECT_EQ(FetchOne("test.again").sets()[0].numval, kErrAgain);
  Result gappy = FetchOne("test.gappy");
  ASSERT_EQ(gappy.sets()[0].numval, 2);
  EXPECT_EQ(gappy.value(gappy.sets()[0], 1).inst, Inst{2});
  Result bins = FetchOne("test.bin");
  ASSERT_EQ(bins.sets()[0].numval, 9);
  EXPECT_EQ(bins.value(bins.sets()[0], 8).lval, 900);
  // ids from several agents and unknown domains, answered in request order
  PmID ids[] = {MakePmID(29, 0, 0), Id("test.colour"), Id("hinv.ncpu"), MakePmID(250, 9, 9)};
  absl::StatusOr<Result> r = ctx_->Fetch(ids);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->numpmid(), 4);
  EXPECT_EQ(r->sets()[0].numval, kErrNoagent);
  EXPECT_EQ(r->sets()[1].numval, 3);
  EXPECT_EQ(r->value(r->sets()[1], 2).lval, 303);
  EXPECT_EQ(r->sets()[2].pmid, MakePmID(60, 0, 32));
  EXPECT_EQ(r->sets()[2].numval, 1);
  EXPECT_EQ(r->sets()[3].numval, kErrPmid);
  EXPECT_GT(r->timestamp_ns(), 0);
}

TEST_F(LocalContextTest, ProfileIsHonoured) {
  const InDom colour = MakeInDom(250, 0);
  ASSERT_TRUE(ctx_->DelProfile(colour, {}).ok());
  const Inst blue{2};
  ASSERT_TRUE(ctx_->AddProfile(colour, {&blue, 1}).ok());
  Result r = FetchOne("test.colour");
  ASSERT_EQ(r.sets()[0].numval, 1);
  EXPECT_EQ(r.value(r.sets()[0], 0).inst, Inst{2});
}

TEST_F(LocalContextTest, Instances) {
  const InDom colour = MakeInDom(250, 0);
  absl::StatusOr<std::vector<Instance>> all = ctx_->GetInDom(colour);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<Instance>{{Inst{0}, "red"}, {Inst{1}, "green"}, {Inst{2}, "blue"}}));
  EXPECT_EQ(*ctx_->NameInDom(colour, Inst{1}), "green");
  EXPECT_EQ(*ctx_->LookupInDom(colour, "blue"), Inst{2});
  EXPECT_EQ(PcpCode(ctx_->LookupInDom(colour, "mauve").status()), kErrInst);
  EXPECT_EQ(PcpCode(ctx_->NameInDom(colour, Inst{9}).status()), kErrInst);
  EXPECT_EQ(PcpCode(ctx_->GetInDom(MakeInDom(250, 77)).status()), kErrIndom);
  EXPECT_EQ(PcpCode(ctx_->GetInDom(MakeInDom(29, 0)).status()), kErrNoagent);
  EXPECT_TRUE(ctx_->GetInDom(MakeInDom(250, 2))->empty());
}

TEST_F(LocalContextTest, HelpText) {
  EXPECT_EQ(*ctx_->LookupText(Id("test.write_me"), TextKind::kOneline), "A storable value, 0 to 255");
  EXPECT_EQ(*ctx_->LookupText(Id("test.long.minus_one"), TextKind::kHelp),
            "Always -1, to check sign handling of 32-bit values.\n");
  EXPECT_EQ(*ctx_->LookupInDomText(MakeInDom(250, 0), TextKind::kOneline), "Three colours");
  // No help text: its one-line text stands in, as in PCP's pmLookupText.
  absl::StatusOr<std::string> oneline = ctx_->LookupText(Id("test.ulong.big"), TextKind::kOneline);
  ASSERT_TRUE(oneline.ok());
  EXPECT_EQ(*ctx_->LookupText(Id("test.ulong.big"), TextKind::kHelp), *oneline);
  EXPECT_EQ(PcpCode(ctx_->LookupText(MakePmID(29, 0, 0), TextKind::kOneline).status()), kErrNoagent);
}

TEST_F(LocalContextTest, Labels) {
  absl::StatusOr<std::vector<LabelSet>> dom =
      ctx_->LookupLabels(LabelLevel::kDomain, MakePmID(250, 0, 0));
  ASSERT_TRUE(dom.ok());
  EXPECT_EQ((*dom)[0].json, "{\"agent\":\"test\"}");
  EXPECT_EQ((*dom)[0].labels[0].flags, kLabelDomain);
  EXPECT_EQ((*ctx_->LookupLabels(LabelLevel::kDomain, MakePmID(60, 0, 0)))[0].json,
            "{\"agent\":\"linux\"}");
  absl::StatusOr<std::vector<LabelSet>> indom = ctx_->LookupLabels(LabelLevel::kInDom, MakeInDom(250, 0));
  EXPECT_EQ((*indom)[0].json, "{\"indom_name\":\"colour\",\"model\":\"RGB\"}");
  EXPECT_EQ((*ctx_->LookupLabels(LabelLevel::kCluster, Id("test.dial")))[0].json, "{\"storable\":true}");
  EXPECT_EQ((*ctx_->LookupLabels(LabelLevel::kItem, Id("test.long.minus_one")))[0].json, "{\"sign\":\"negative\"}");
  absl::StatusOr<std::vector<LabelSet>> inst = ctx_->LookupLabels(LabelLevel::kInstances, MakeInDom(250, 0));
  ASSERT_EQ(inst->size(), 3u);
  EXPECT_EQ((*inst)[2].json, "{\"colour\":\"blue\"}");
  EXPECT_EQ((*inst)[2].inst, Inst{2});
  absl::StatusOr<std::vector<LabelSet>> context = ctx_->LookupLabels(LabelLevel::kContext);
  ASSERT_TRUE(context.ok());
  EXPECT_NE((*context)[0].json.find("\"hostname\":"), std::string::npos);
  EXPECT_EQ(PcpCode(ctx_->LookupLabels(LabelLevel::kDomain, MakePmID(29, 0, 0)).status()),
            kErrNoagent);
}

// The context labels take the administrator's files from
// $PCP_SYSCONF_DIR/labels (sorted, later files winning, malformed ones left
// out) and labels/optional, then the host's names and the user's ids.
TEST_F(LocalContextTest, ContextLabelsFromTheLabelsDirectory) {
  const std::string dir = testing::TempDir() + "/sysconf_labels";
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir + "/labels/optional").c_str()), 0);
  auto put = [&](const std::string& name, const std::string& text) {
    FILE* f = std::fopen((dir + "/labels/" + name).c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  put("a.json", R"({"site":"first","hostname":"not-this-one"})");
  put("b.json", R"({"site":"second", "rack": 7})");
  put("c.json", "not json");
  put(".hidden", R"({"hidden":true})");
  put("optional/x.json", R"({"tier":"gold"})");
  setenv("PCP_SYSCONF_DIR", dir.c_str(), 1);
  absl::StatusOr<std::vector<LabelSet>> context = ctx_->LookupLabels(LabelLevel::kContext);
  unsetenv("PCP_SYSCONF_DIR");
  ASSERT_TRUE(context.ok());
  const LabelSet& set = (*context)[0];
  EXPECT_NE(set.json.find(R"("rack":7,)"), std::string::npos) << set.json;
  EXPECT_NE(set.json.find(R"("site":"second")"), std::string::npos) << set.json;
  EXPECT_EQ(set.json.find("not-this-one"), std::string::npos) << set.json;
  EXPECT_EQ(set.json.find("hidden"), std::string::npos) << set.json;
  for (const LabelEntry& l : set.labels) {
    const std::string name = set.json.substr(l.name, l.namelen);
    const bool optional = name == "tier" || name == "userid" || name == "groupid";
    EXPECT_EQ((l.flags & kLabelOptional) != 0, optional) << name;
    EXPECT_NE(l.flags & kLabelContext, 0) << name;
  }
}

TEST_F(LocalContextTest, StoreRules) {
  EXPECT_TRUE(StoreInsitu("test.write_me", {{kInNull, 200}}).ok());
  EXPECT_EQ(FetchOne("test.write_me").value(FetchOne("test.write_me").sets()[0], 0).lval, 200);
  EXPECT_EQ(PcpCode(StoreInsitu("test.write_me", {{kInNull, -1}})), kErrSign);
  EXPECT_EQ(PcpCode(StoreInsitu("test.write_me", {{kInNull, 256}})), kErrConv);
  EXPECT_TRUE(StoreInsitu("test.dial", {{Inst{0}, 1}, {Inst{2}, 255}}).ok());
  Result dial = FetchOne("test.dial");
  EXPECT_EQ(dial.value(dial.sets()[0], 2).lval, 255);
  EXPECT_EQ(PcpCode(StoreInsitu("test.dial", {{Inst{5}, 1}})), kErrInst);
  EXPECT_EQ(PcpCode(StoreInsitu("test.readonly", {{kInNull, 1}})), kErrPermission);
  EXPECT_EQ(PcpCode(StoreInsitu("test.colour", {{Inst{0}, 1}})), kErrPermission);
  EXPECT_EQ(PcpCode(StoreInsitu("kernel.all.nprocs", {{kInNull, 1}})), kErrPermission);
  Result bad;
  bad.AddSet(MakePmID(250, 9, 9), 1, kValInsitu);
  bad.AddInsitu(kInNull, 1);
  EXPECT_EQ(PcpCode(ctx_->Store(bad)), kErrPmid);
  Result none;
  none.AddSet(MakePmID(29, 0, 0), 1, kValInsitu);
  none.AddInsitu(kInNull, 1);
  EXPECT_EQ(PcpCode(ctx_->Store(none)), kErrNoagent);
  Result note;
  const char text[] = "stored";
  note.AddSet(Id("test.note"), 1, kValDptr);
  note.AddBlock(kInNull, kTypeString, {reinterpret_cast<const uint8_t*>(text), sizeof text});
  ASSERT_TRUE(ctx_->Store(note).ok());
  EXPECT_EQ(Payload(FetchOne("test.note")), std::string("stored\0", 7));
}

TEST_F(LocalContextTest, EachContextHasItsOwnAgentState) {
  ASSERT_TRUE(StoreInsitu("test.write_me", {{kInNull, 9}}).ok());
  LocalOptions opts;
  opts.config_path = kConfig;
  absl::StatusOr<Context> other = OpenLocalContext(opts);
  ASSERT_TRUE(other.ok());
  PmID id = Id("test.write_me");
  absl::StatusOr<Result> r = other->Fetch({&id, 1});
  EXPECT_EQ(r->value(r->sets()[0], 0).lval, 2);
}

// Sets PCP_PMDAS_DIR for the life of the object, then puts back what was.
class PmdasDirFor {
 public:
  explicit PmdasDirFor(const std::string& dir) {
    const char* old = pmGetOptionalConfig("PCP_PMDAS_DIR");
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv("PCP_PMDAS_DIR", dir.c_str(), 1);
  }
  ~PmdasDirFor() {
    if (had_) {
      setenv("PCP_PMDAS_DIR", old_.c_str(), 1);
    } else {
      unsetenv("PCP_PMDAS_DIR");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(LocalConfigTest, ParsesPcpStyleLines) {
  // no PCP Linux agent in this agents directory: the built-in one
  PmdasDirFor pmdas("/nonexistent");
  std::vector<std::string> warnings;
  std::vector<AgentSpec> a = ParseAgentConfig(
      "# comment\n"
      "pmcd\t2\tdso\tpmcd_init\t/x/pmda_pmcd.so\n"
      "root 1 pipe binary /x/pmdaroot\n"
      "linux 60 pipe binary /x/pmdalinux\n"
      "mmv 70 dso mmv_init lib/pmda_mmv.so pmns=ns/root_mmv\n"
      "t 250 builtin test_init agentdir\n"
      "bad x dso\n"
      "odd 12 carrier-pigeon\n"
      "[access]\n"
      "after 99 builtin test_init\n",
      "/etc/here", &warnings);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].name, "linux");
  EXPECT_FALSE(a[0].dso);
  EXPECT_EQ(a[0].init, "linux_init");
  EXPECT_TRUE(a[1].dso);
  EXPECT_EQ(a[1].path, "/etc/here/lib/pmda_mmv.so");
  EXPECT_EQ(a[1].pmns, "/etc/here/ns/root_mmv");
  EXPECT_EQ(a[2].path, "/etc/here/agentdir");
  EXPECT_EQ(warnings.size(), 2u);
}

// Where PCP's Linux agent is installed, a linux line of any type but
// "builtin" is that shared object, as in PCP's local context.
TEST(LocalConfigTest, LinuxLineIsPcpsAgentWhereInstalled) {
  const std::string dir = testing::TempDir() + "/pmdas-with-linux";
  mkdir(dir.c_str(), 0755);
  mkdir((dir + "/linux").c_str(), 0755);
  std::ofstream(dir + "/linux/pmda_linux.so") << "";
  std::vector<AgentSpec> a;
  {
    PmdasDirFor pmdas(dir);
    a = ParseAgentConfig("linux 60 pipe binary /x/pmdalinux\nlinux 61 builtin linux_init here\n", "/etc/here",
                         nullptr);
  }
  ASSERT_EQ(a.size(), 2u);
  EXPECT_TRUE(a[0].dso);
  EXPECT_EQ(a[0].path, dir + "/linux/pmda_linux.so");
  EXPECT_EQ(a[0].init, "linux_init");
  EXPECT_FALSE(a[1].dso);
}

TEST(LocalConfigTest, MissingFileIsAnError) {
  LocalOptions opts;
  opts.config_path = "/nonexistent/pmcd.conf";
  EXPECT_EQ(PcpCode(OpenLocalContext(opts).status()), -ENOENT);
}

TEST(LocalConfigTest, EnvironmentNamesTheFile) {
  setenv("PCP_PMCDCONF_PATH", kConfig.c_str(), 1);
  absl::StatusOr<Context> c = OpenLocalContext();
  unsetenv("PCP_PMCDCONF_PATH");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->LookupName("test.colour").ok());
}

}  // namespace
}  // namespace pmapi
