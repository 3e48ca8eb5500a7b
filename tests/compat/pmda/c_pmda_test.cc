// Checks C agents written against <pcp/pmda.h>: the Guide's "simple" and
// "trivial" agents loaded as shared objects in a local context and driven
// through the library's API (fetch, store, instances, text, labels,
// profile), and the C PMDA functions called directly (pmdaInit's rules,
// pmdaFetch's results, pmdaInstance, labels, private data, pmdaCache and
// pmdaEvent, whose arrays must unpack as PCP's do).
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_pmda_internal.h"
#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

const std::string kAgents = PMAPI_C_AGENT_DIR;

absl::StatusOr<Context> OpenWith(const std::string& dir, const std::string& lines,
                                 std::vector<std::string>* warnings) {
  // one file per test and process: CTest runs the tests in parallel
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = dir + "/pmcd-" + test->test_suite_name() + "." + test->name() + "." +
                     std::to_string(getpid()) + ".conf";
  std::ofstream(path) << lines;
  LocalOptions opts;
  opts.config_path = path;
  opts.warnings = warnings;
  absl::StatusOr<Context> ctx = OpenLocalContext(opts);
  std::remove(path.c_str());  // read at open
  return ctx;
}

std::string SimpleLine(const std::string& dir) {
  return "simple\t254\tdso\tsimple_init\t" + dir + "/pmda_simple.so\tpmns=" + dir + "/root_simple\n";
}

std::string TrivialLine(const std::string& dir) {
  return "trivial\t253\tdso\ttrivial_init\t" + dir + "/pmda_trivial.so\tpmns=" + dir + "/root_trivial\n";
}

// The value of instance `inst` of set `k`, or -1 when absent.
int32_t ValueOf(const Result& r, size_t k, Inst inst) {
  const ValueSet& vs = r.sets()[k];
  for (int j = 0; j < vs.numval; ++j) {
    if (r.value(vs, j).inst == inst) return r.value(vs, j).lval;
  }
  return -1;
}

Result OneValue(PmID id, Inst inst, int32_t value) {
  Result r;
  r.AddSet(id, 1, kValInsitu);
  r.AddInsitu(inst, value);
  return r;
}

class SimpleAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Context> c = OpenWith(testing::TempDir(), SimpleLine(kAgents) + TrivialLine(kAgents), &warnings_);
    ASSERT_TRUE(c.ok()) << c.status();
    ctx_.emplace(*std::move(c));
    ASSERT_TRUE(warnings_.empty()) << warnings_[0];
  }
  PmID Id(const char* name) { return ctx_->LookupName(name).value_or(kPmIDNull); }

  std::vector<std::string> warnings_;
  std::optional<Context> ctx_;
};

TEST_F(SimpleAgentTest, DescriptorsCarryTheConfiguredDomain) {
  EXPECT_EQ(Id("simple.color"), MakePmID(254, 0, 1));
  absl::StatusOr<Desc> d = ctx_->LookupDesc(Id("simple.time.user"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->type, kTypeDouble);
  EXPECT_EQ(d->sem, kSemCounter);
  EXPECT_EQ(d->units, (Units{0, 1, 0, 0, kTimeSec, 0}));
  EXPECT_EQ(ctx_->LookupDesc(Id("simple.now"))->indom, MakeInDom(254, 1));
  EXPECT_EQ(PcpCode(ctx_->LookupDesc(MakePmID(254, 7, 7)).status()), kErrPmid);
}

TEST_F(SimpleAgentTest, ColoursStepOnEachFetchAndTakeStores) {
  PmID ids[] = {Id("simple.numfetch"), Id("simple.color")};
  absl::StatusOr<Result> a = ctx_->Fetch(ids);
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->sets()[1].numval, 3);
  absl::StatusOr<Result> b = ctx_->Fetch(ids);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(ValueOf(*b, 0, kInNull), ValueOf(*a, 0, kInNull) + 1);
  for (int32_t i = 0; i < 3; ++i) EXPECT_EQ(ValueOf(*b, 1, Inst{i}), (ValueOf(*a, 1, Inst{i}) + 1) % 256);

  ASSERT_TRUE(ctx_->Store(OneValue(ids[1], Inst{1}, 7)).ok());
  absl::StatusOr<Result> c = ctx_->Fetch(ids);
  EXPECT_EQ(ValueOf(*c, 1, Inst{1}), 8);
  ASSERT_TRUE(ctx_->Store(OneValue(ids[0], kInNull, 1000)).ok());
  EXPECT_EQ(ValueOf(*ctx_->Fetch(ids), 0, kInNull), 1001);
}

TEST_F(SimpleAgentTest, StoreErrorsAreTheAgentsCodes) {
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.numfetch"), kInNull, -1))), kErrSign);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.color"), Inst{0}, 256))), kErrConv);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.color"), Inst{0}, -5))), kErrSign);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.color"), Inst{9}, 5))), kErrInst);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.time.sys"), kInNull, 5))), kErrPermission);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("simple.now"), Inst{0}, 5))), kErrPermission);
  EXPECT_EQ(PcpCode(ctx_->Store(OneValue(Id("trivial.time"), kInNull, 5))), kErrPermission);
}

TEST_F(SimpleAgentTest, ProfileChoosesTheInstances) {
  PmID color = Id("simple.color");
  const InDom indom = MakeInDom(254, 0);
  ASSERT_TRUE(ctx_->DelProfile(indom, {}).ok());
  const Inst blue{2};
  ASSERT_TRUE(ctx_->AddProfile(indom, {&blue, 1}).ok());
  absl::StatusOr<Result> r = ctx_->Fetch({&color, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  EXPECT_EQ(r->value(r->sets()[0], 0).inst, Inst{2});
}

TEST_F(SimpleAgentTest, InstancesComeFromTheTableAndTheCache) {
  const InDom colours = MakeInDom(254, 0), now = MakeInDom(254, 1);
  absl::StatusOr<std::vector<Instance>> all = ctx_->GetInDom(colours);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<Instance>{{Inst{0}, "red"}, {Inst{1}, "green"}, {Inst{2}, "blue"}}));
  EXPECT_EQ(*ctx_->LookupInDom(colours, "blue"), Inst{2});
  EXPECT_EQ(*ctx_->NameInDom(now, Inst{1}), "min");
  EXPECT_EQ(*ctx_->LookupInDom(now, "hour"), Inst{2});
  EXPECT_EQ(PcpCode(ctx_->LookupInDom(now, "day").status()), kErrInst);
  EXPECT_EQ(PcpCode(ctx_->NameInDom(colours, Inst{3}).status()), kErrInst);
  EXPECT_EQ(PcpCode(ctx_->GetInDom(MakeInDom(254, 9)).status()), kErrIndom);
}

TEST_F(SimpleAgentTest, HelpTextFromTheHelpFile) {
  EXPECT_EQ(*ctx_->LookupText(Id("simple.numfetch"), TextKind::kOneline), "How many fetches the agent has answered");
  EXPECT_EQ(*ctx_->LookupInDomText(MakeInDom(254, 0), TextKind::kOneline), "The three colours");
  absl::StatusOr<std::string> help = ctx_->LookupInDomText(MakeInDom(254, 1), TextKind::kHelp);
  ASSERT_TRUE(help.ok());
  EXPECT_NE(help->find("\"sec\", \"min\" and \"hour\""), std::string::npos);
  EXPECT_EQ(PcpCode(ctx_->LookupText(MakePmID(254, 3, 3), TextKind::kOneline).status()), kErrText);
  EXPECT_EQ(*ctx_->LookupText(Id("trivial.time"), TextKind::kOneline), "The time of day, in seconds");
}

TEST_F(SimpleAgentTest, LabelsAtEachLevel) {
  absl::StatusOr<std::vector<LabelSet>> dom =
      ctx_->LookupLabels(LabelLevel::kDomain, MakePmID(254, 0, 0));
  ASSERT_TRUE(dom.ok());
  ASSERT_EQ(dom->size(), 1u);
  // the agent's own domain label replaces the default "agent" label
  EXPECT_EQ((*dom)[0].json, R"({"role":"testing"})");
  absl::StatusOr<std::vector<LabelSet>> trivial =
      ctx_->LookupLabels(LabelLevel::kDomain, MakePmID(253, 0, 0));
  ASSERT_TRUE(trivial.ok());
  ASSERT_EQ(trivial->size(), 1u);
  // an agent before interface 7: PCP's default label names the object
  EXPECT_EQ((*trivial)[0].json, absl::StrCat(R"({"agent":")", PMAPI_C_AGENT_DIR, R"(/pmda_trivial.so"})"));
  absl::StatusOr<std::vector<LabelSet>> indom = ctx_->LookupLabels(LabelLevel::kInDom, MakeInDom(254, 0));
  ASSERT_TRUE(indom.ok());
  ASSERT_EQ(indom->size(), 1u);
  EXPECT_EQ((*indom)[0].json, R"({"indom_name":"color","model":"RGB"})");
  ASSERT_EQ((*indom)[0].labels.size(), 2u);
  EXPECT_EQ((*indom)[0].labels[0].flags & kLabelInDom, kLabelInDom);
  absl::StatusOr<std::vector<LabelSet>> insts = ctx_->LookupLabels(LabelLevel::kInstances, MakeInDom(254, 1));
  ASSERT_TRUE(insts.ok());
  ASSERT_EQ(insts->size(), 3u);
  EXPECT_EQ((*insts)[0].inst, Inst{0});
  EXPECT_EQ((*insts)[0].json, R"({"units":"sec"})");
  EXPECT_EQ((*insts)[2].json, R"({"units":"hour"})");
  absl::StatusOr<std::vector<LabelSet>> colours = ctx_->LookupLabels(LabelLevel::kInstances, MakeInDom(254, 0));
  ASSERT_TRUE(colours.ok());
  ASSERT_EQ(colours->size(), 3u);
  EXPECT_TRUE((*colours)[1].json.empty());
}

TEST_F(SimpleAgentTest, TrivialTimeIsNow) {
  PmID id = Id("trivial.time");
  const int64_t before = std::time(nullptr);
  absl::StatusOr<Result> r = ctx_->Fetch({&id, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  const int64_t got = static_cast<uint32_t>(r->value(r->sets()[0], 0).lval);
  EXPECT_GE(got, before);
  EXPECT_LE(got, std::time(nullptr));
}

// simple.now's instances follow simple.conf: the agent rereads it when it
// changes, hiding the fields no longer named.
TEST(SimpleNowTest, InstancesFollowTheConfigFile) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "/simple-now-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* f : {"pmda_simple.so", "simple.help", "root_simple"})
    fs::copy_file(kAgents + "/" + f, dir + "/" + f);
  const std::string conf = dir + "/simple.conf";
  std::ofstream(conf) << "hour\n";
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = OpenWith(dir, SimpleLine(dir), &warnings);
  ASSERT_TRUE(ctx.ok());
  PmID now = *ctx->LookupName("simple.now");
  const InDom indom = MakeInDom(254, 1);
  absl::StatusOr<Result> r = ctx->Fetch({&now, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  // the cache numbers instances in the order the agent adds them
  const Inst hour = r->value(r->sets()[0], 0).inst;
  EXPECT_EQ(*ctx->NameInDom(indom, hour), "hour");

  std::ofstream(conf) << "sec,min\n";
  struct utimbuf later = {std::time(nullptr) + 100, std::time(nullptr) + 100};
  ASSERT_EQ(utime(conf.c_str(), &later), 0);
  r = ctx->Fetch({&now, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 2);
  EXPECT_EQ(*ctx->NameInDom(indom, r->value(r->sets()[0], 0).inst), "sec");
  EXPECT_EQ(*ctx->NameInDom(indom, r->value(r->sets()[0], 1).inst), "min");
  // "hour" is now inactive: known to the cache, but not an instance
  EXPECT_EQ(PcpCode(ctx->NameInDom(indom, hour).status()), kErrInst);
  EXPECT_EQ(PcpCode(ctx->LookupInDom(indom, "hour").status()), kErrInst);
  ctx = absl::UnavailableError("closed");  // the agent goes before its directory
  fs::remove_all(dir);
}

TEST(CAgentLoadTest, MissingInitFunctionLeavesTheAgentOut) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = OpenWith(
      testing::TempDir(), "simple\t254\tdso\tno_such_init\t" + kAgents + "/pmda_simple.so\tpmns=" + kAgents +
                              "/root_simple\n",
      &warnings);
  ASSERT_TRUE(ctx.ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("couldn't find init function \"no_such_init\""), std::string::npos) << warnings[0];
  EXPECT_EQ(PcpCode(ctx->LookupDesc(MakePmID(254, 0, 0)).status()), kErrNoagent);
}

// ---- dyn.c: names the agent serves, event records, client contexts ----

std::string DynLine() {
  return "dyn\t249\tdso\tdyn_init\t" + kAgents + "/pmda_dyn.so\tpmns=" + kAgents + "/root_dyn\n";
}

TEST(DynAgentTest, NamesBelowTheDynamicNodeComeFromTheAgent) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = OpenWith(testing::TempDir(), DynLine(), &warnings);
  ASSERT_TRUE(ctx.ok());
  // the set-up diagnostic PCP logs for an agent without help text
  EXPECT_EQ(warnings, std::vector<std::string>{
                          "agent \"dyn\": pmdaInit: PMDA dyn DSO: No help text file specified for pmdaText"});
  EXPECT_EQ(*ctx->LookupName("dyn.sub.b"), MakePmID(249, 1, 1));
  EXPECT_EQ(PcpCode(ctx->LookupName("dyn.sub.c").status()), kErrName);
  EXPECT_EQ(*ctx->NameAll(MakePmID(249, 1, 0)), std::vector<std::string>{"dyn.sub.a"});
  EXPECT_EQ(PcpCode(ctx->NameAll(MakePmID(249, 1, 9)).status()), kErrPmid);
  absl::StatusOr<std::vector<PmnsChild>> kids = ctx->Children("dyn.sub");
  ASSERT_TRUE(kids.ok());
  ASSERT_EQ(kids->size(), 2u);
  EXPECT_EQ((*kids)[1].name, "b");
  EXPECT_EQ((*kids)[1].status, kPmnsLeafStatus);
  std::vector<std::string> leaves;
  ASSERT_TRUE(ctx->Traverse("dyn", [&](const std::string& n) { leaves.push_back(n); }).ok());
  EXPECT_EQ(leaves, (std::vector<std::string>{"dyn.events", "dyn.context", "dyn.sub.a", "dyn.sub.b"}));
  PmID b = MakePmID(249, 1, 1);
  absl::StatusOr<Result> r = ctx->Fetch({&b, 1});
  ASSERT_TRUE(r.ok());
  ValueView v = r->value(r->sets()[0], 0);
  EXPECT_EQ(std::string(v.payload.begin(), v.payload.end()), std::string("from a dynamic name\0", 20));
}

TEST(DynAgentTest, FailedInitLeavesTheAgentOut) {
  const std::string so = kAgents + "/pmda_dyn.so";
  struct Case {
    const char* init;
    std::vector<std::string> warnings;
  } cases[] = {
      {"dyn_silent_init",
       {"agent \"dyn\": initialization routine \"dyn_silent_init\" failed in DSO \"" + so +
        "\": unsupported PMDA interface version 255: Generic error, already reported above"}},
      {"dyn_failing_init",
       {"agent \"dyn\": initialization routine \"dyn_failing_init\" failed in DSO \"" + so +
            "\": No permission to perform requested operation"}},
      {"dyn_old_init",
       {"agent \"dyn\": pmdaDSO: dyn DSO PMDA: interface version 1 not supported (domain=249)",
        "agent \"dyn\": initialization routine \"dyn_old_init\" failed in DSO \"" + so +
            "\": Generic error, already reported above"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> warnings;
    absl::StatusOr<Context> ctx = OpenWith(
        testing::TempDir(), std::string("dyn\t249\tdso\t") + c.init + "\t" + so + "\tpmns=" + kAgents + "/root_dyn\n",
        &warnings);
    ASSERT_TRUE(ctx.ok());
    EXPECT_EQ(warnings, c.warnings) << c.init;
    EXPECT_EQ(PcpCode(ctx->LookupDesc(MakePmID(249, 0, 1)).status()), kErrNoagent) << c.init;
  }
}

TEST(DynAgentTest, EventRecordsReachTheClient) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = OpenWith(testing::TempDir(), DynLine(), &warnings);
  ASSERT_TRUE(ctx.ok());
  PmID events = *ctx->LookupName("dyn.events");
  absl::StatusOr<Result> r = ctx->Fetch({&events, 1});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  absl::StatusOr<std::vector<Result>> records = UnpackEventRecords(r->value(r->sets()[0], 0));
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 1u);
  const Result& rec = (*records)[0];
  EXPECT_EQ(rec.timestamp_ns(), 1700000000000500000);
  ASSERT_EQ(rec.numpmid(), 3);
  EXPECT_EQ(rec.sets()[1].pmid, MakePmID(249, 1, 0));
  EXPECT_EQ(rec.value(rec.sets()[1], 0).lval, 7);
  ValueView s = rec.value(rec.sets()[2], 0);
  EXPECT_EQ(std::string(s.payload.begin(), s.payload.end()), "hello");
}

TEST(DynAgentTest, EachContextIsAClientContextAndIsEnded) {
  const std::string ends = testing::TempDir() + "/dyn-ends-" + std::to_string(getpid());
  std::remove(ends.c_str());
  setenv("DYN_END_FILE", ends.c_str(), 1);
  std::vector<std::string> warnings;
  uint32_t first = 0, second = 0;
  {
    absl::StatusOr<Context> a = OpenWith(testing::TempDir(), DynLine(), &warnings);
    absl::StatusOr<Context> b = OpenWith(testing::TempDir(), DynLine(), &warnings);
    ASSERT_TRUE(a.ok() && b.ok());
    PmID id = MakePmID(249, 0, 1);
    first = static_cast<uint32_t>(a->Fetch({&id, 1})->value(a->Fetch({&id, 1})->sets()[0], 0).lval);
    absl::StatusOr<Result> rb = b->Fetch({&id, 1});
    second = static_cast<uint32_t>(rb->value(rb->sets()[0], 0).lval);
    EXPECT_NE(first, second);  // the contexts' numbers, as PCP's handles are
    EXPECT_EQ(second, first + 1);
  }
  unsetenv("DYN_END_FILE");
  std::ifstream in(ends);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("end " + std::to_string(first) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("end " + std::to_string(second) + "\n"), std::string::npos) << text;
  std::remove(ends.c_str());
}

// ---- The C functions called directly, with no host ----

pmdaInstid kMinutes[] = {{1, const_cast<char*>("1 minute")}, {5, const_cast<char*>("5 minute")},
                         {15, const_cast<char*>("15 minute")}};

class DirectTest : public ::testing::Test {
 protected:
  static int Fetch(pmdaMetric* m, unsigned int inst, pmAtomValue* av) {
    switch (pmID_item_of(m->m_desc.pmid)) {
      case 0:
        av->l = -7;
        return PMDA_FETCH_STATIC;
      case 1:
        if (inst == 5) return PMDA_FETCH_NOVALUES;
        av->ul = inst * 10;
        return PMDA_FETCH_STATIC;
      case 2:
        av->cp = strdup("dynamic text");
        return PMDA_FETCH_DYNAMIC;
      case 3:
        av->d = 2.5;
        return PMDA_FETCH_STATIC;
      case 4:
        av->vbp = reinterpret_cast<pmValueBlock*>(pmdaEventGetAddr(event_array));
        return PMDA_FETCH_STATIC;
    }
    return PM_ERR_PMID;
  }
  static unsigned pmID_item_of(pmID id) { return id & 0x3ff; }

  void SetUp() override {
    std::memset(&dp_, 0, sizeof(dp_));
    dp_.domain = 29;
    indoms_[0] = {3, 3, kMinutes};
    metrics_[0] = {nullptr, {PMDA_PMID(0, 0), PM_TYPE_32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}};
    metrics_[1] = {nullptr, {PMDA_PMID(0, 1), PM_TYPE_U32, 3, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, 0)}};
    metrics_[2] = {nullptr, {PMDA_PMID(0, 2), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}};
    metrics_[3] = {nullptr, {PMDA_PMID(0, 3), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0)}};
    metrics_[4] = {nullptr, {PMDA_PMID(0, 4), PM_TYPE_EVENT, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}};
    SetCPmdaLoadContext(&load_);
    load_.diagnostics = &diagnostics_;
  }
  void TearDown() override {
    SetCPmdaLoadContext(nullptr);
    FreeCPmdaExt(dp_.version.any.ext);
  }
  void InitAll() {
    pmdaDSO(&dp_, PMDA_INTERFACE_7, const_cast<char*>("direct test"), nullptr);
    ASSERT_EQ(dp_.status, 0);
    pmdaSetFetchCallBack(&dp_, Fetch);
    pmdaInit(&dp_, indoms_, 1, metrics_, 5);
    ASSERT_EQ(dp_.status, 0);
  }

  static inline int event_array = -1;
  pmdaInterface dp_;
  pmdaIndom indoms_[1];
  pmdaMetric metrics_[5];
  CPmdaLoadContext load_;
  std::vector<std::string> diagnostics_;
};

// pmdaLabel's default context labels are the administrator's label files
// ($PCP_SYSCONF_DIR/labels, then labels/optional), as libpcp_pmda's.
TEST_F(DirectTest, DefaultContextLabelsComeFromTheLabelFiles) {
  const std::string dir = testing::TempDir() + "/c_pmda_sysconf";
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir + "/labels/optional && " +
                         "echo '{\"QA\":562}' > " + dir + "/labels/562.json && " +
                         "echo '{\"tier\":1}' > " + dir + "/labels/optional/t.json").c_str()),
            0);
  InitAll();
  setenv("PCP_SYSCONF_DIR", dir.c_str(), 1);
  pmLabelSet* set = nullptr;
  EXPECT_EQ(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp_.version.any.ext), 1);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(std::string(set->json, set->jsonlen), R"({"QA":562,"tier":1})");
  EXPECT_EQ(set->labels[0].flags, unsigned(PM_LABEL_CONTEXT));
  EXPECT_EQ(set->labels[1].flags, unsigned(PM_LABEL_CONTEXT | PM_LABEL_OPTIONAL));
  FreeCLabelSetContents(set, 1);
  std::free(set);
  set = nullptr;
  setenv("PCP_SYSCONF_DIR", (dir + "/none").c_str(), 1);
  EXPECT_EQ(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp_.version.any.ext), 0);
  EXPECT_EQ(set, nullptr);
  unsetenv("PCP_SYSCONF_DIR");
}

TEST_F(DirectTest, InitWritesTheDomainAndChoosesDirectLookup) {
  InitAll();
  pmdaExt* ext = dp_.version.any.ext;
  EXPECT_EQ(metrics_[1].m_desc.pmid, ToPcp(MakePmID(29, 0, 1)));
  EXPECT_EQ(metrics_[1].m_desc.indom, ToPcp(MakeInDom(29, 3)));
  EXPECT_EQ(indoms_[0].it_indom, ToPcp(MakeInDom(29, 3)));
  EXPECT_EQ(ext->e_direct, 1);
  EXPECT_EQ(ext->e_nmetrics, 5);
  EXPECT_EQ(dp_.comm.pmda_interface, 7u);
  EXPECT_EQ(dp_.version.seven.label, pmdaLabel);
  pmDesc d;
  ASSERT_EQ(pmdaDesc(ToPcp(MakePmID(29, 0, 3)), &d, ext), 0);
  EXPECT_EQ(d.type, PM_TYPE_DOUBLE);
  EXPECT_EQ(d.units.dimSpace, 1);
  EXPECT_EQ(d.units.scaleSpace, unsigned(PM_SPACE_KBYTE));
  EXPECT_EQ(pmdaDesc(ToPcp(MakePmID(29, 1, 0)), &d, ext), PM_ERR_PMID);
  // no help file was named: pmdaText has nothing, and init said so
  char* text = nullptr;
  EXPECT_EQ(pmdaText(static_cast<int>(ToPcp(MakePmID(29, 0, 0))), PM_TEXT_PMID | PM_TEXT_ONELINE,
                     &text, ext),
            PM_ERR_TEXT);
  ASSERT_FALSE(diagnostics_.empty());
  EXPECT_EQ(diagnostics_[0], "pmdaInit: PMDA direct test: No help text file specified for pmdaText");
}

TEST_F(DirectTest, InitRefusesBadTables) {
  pmdaDSO(&dp_, 1, const_cast<char*>("old"), nullptr);
  EXPECT_EQ(dp_.status, PM_ERR_GENERIC);
  pmdaDSO(&dp_, PMDA_INTERFACE_5, const_cast<char*>("nocallback"), nullptr);
  ASSERT_EQ(dp_.status, 0);
  pmdaInit(&dp_, indoms_, 1, metrics_, 5);
  EXPECT_EQ(dp_.status, PM_ERR_GENERIC);  // pmdaFetch with no fetch callback
  pmdaSetFetchCallBack(&dp_, Fetch);
  metrics_[1].m_desc.indom = 8;  // no such serial in the table
  pmdaInit(&dp_, indoms_, 1, metrics_, 5);
  EXPECT_EQ(dp_.status, PM_ERR_GENERIC);
  EXPECT_EQ(diagnostics_.back(),
            "pmdaInit: PMDA nocallback: Undefined instance domain serial (8) specified in metric 29.0.1(1)");
}

TEST_F(DirectTest, FetchFollowsTheCallbackCodesAndTheProfile) {
  InitAll();
  pmdaExt* ext = dp_.version.any.ext;
  pmID ids[] = {ToPcp(MakePmID(29, 0, 0)), ToPcp(MakePmID(29, 0, 1)), ToPcp(MakePmID(29, 0, 2)),
                ToPcp(MakePmID(29, 0, 3)), ToPcp(MakePmID(29, 9, 9))};
  pmResult* res = nullptr;
  ASSERT_EQ(pmdaFetch(5, ids, &res, ext), 0);
  ASSERT_EQ(res->numpmid, 5);
  EXPECT_EQ(res->vset[0]->valfmt, PM_VAL_INSITU);
  EXPECT_EQ(res->vset[0]->vlist[0].value.lval, -7);
  ASSERT_EQ(res->vset[1]->numval, 2);  // instance 5 had no value
  EXPECT_EQ(res->vset[1]->vlist[0].inst, 1);
  EXPECT_EQ(res->vset[1]->vlist[1].inst, 15);
  EXPECT_EQ(res->vset[1]->vlist[1].value.lval, 150);
  ASSERT_EQ(res->vset[2]->valfmt, PM_VAL_DPTR);
  EXPECT_EQ(res->vset[2]->vlist[0].value.pval->vtype, unsigned(PM_TYPE_STRING));
  EXPECT_STREQ(res->vset[2]->vlist[0].value.pval->vbuf, "dynamic text");
  double d;
  std::memcpy(&d, res->vset[3]->vlist[0].value.pval->vbuf, sizeof(d));
  EXPECT_EQ(d, 2.5);
  EXPECT_EQ(res->vset[4]->numval, PM_ERR_PMID);
  ext->e_resultCallBack(res);

  // a profile of instance 15 alone
  int only = 15;
  pmInDomProfile one = {indoms_[0].it_indom, PM_PROFILE_EXCLUDE, 1, &only};
  pmProfile prof = {PM_PROFILE_INCLUDE, 1, &one};
  ASSERT_EQ(pmdaProfile(&prof, ext), 0);
  ASSERT_EQ(pmdaFetch(1, &ids[1], &res, ext), 0);
  ASSERT_EQ(res->vset[0]->numval, 1);
  EXPECT_EQ(res->vset[0]->vlist[0].inst, 15);
  ext->e_resultCallBack(res);
}

TEST_F(DirectTest, InstanceByNameAllowsTheShortName) {
  InitAll();
  pmdaExt* ext = dp_.version.any.ext;
  pmInResult* r = nullptr;
  ASSERT_EQ(pmdaInstance(indoms_[0].it_indom, PM_IN_NULL, const_cast<char*>("5"), &r, ext), 0);
  ASSERT_EQ(r->numinst, 1);
  EXPECT_EQ(r->instlist[0], 5);
  EXPECT_EQ(r->namelist, nullptr);
  std::free(r->instlist);
  std::free(r);
  ASSERT_EQ(pmdaInstance(indoms_[0].it_indom, 15, nullptr, &r, ext), 0);
  EXPECT_STREQ(r->namelist[0], "15 minute");
  std::free(r->namelist[0]);
  std::free(r->namelist);
  std::free(r);
  EXPECT_EQ(pmdaInstance(indoms_[0].it_indom, PM_IN_NULL, const_cast<char*>("5 hours"), &r, ext), PM_ERR_INST);
  EXPECT_EQ(pmdaInstance(ToPcp(MakeInDom(29, 4)), PM_IN_NULL, nullptr, &r, ext), PM_ERR_INDOM);
}

TEST_F(DirectTest, PrivateDataAndFlags) {
  InitAll();
  int mine = 0;
  pmdaSetData(&dp_, &mine);
  EXPECT_EQ(pmdaExtGetData(dp_.version.any.ext), &mine);
  pmdaSetFlags(&dp_, PMDA_EXT_FLAG_HASHED);
  EXPECT_NE(dp_.version.any.ext->e_flags & PMDA_EXT_FLAG_HASHED, 0u);
  pmDesc d;
  EXPECT_EQ(pmdaDesc(ToPcp(MakePmID(29, 0, 4)), &d, dp_.version.any.ext), 0);
  EXPECT_EQ(d.type, PM_TYPE_EVENT);
  pmdaSetFlags(&dp_, PMDA_EXT_NAMES_CHANGE);
  EXPECT_EQ(CPmdaStateOf(dp_.version.any.ext)->state_changes, PMCD_NAMES_CHANGE);
}

TEST_F(DirectTest, RehashReplacesTheMetricTable) {
  InitAll();
  pmdaExt* ext = dp_.version.any.ext;
  static pmdaMetric more[] = {
      {nullptr,
       {ToPcp(MakePmID(29, 2, 5)), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER,
        PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
      {nullptr,
       {PMDA_PMID(2, 6), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER,
        PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
  };
  pmdaRehash(ext, more, 2);
  pmDesc d;
  EXPECT_EQ(pmdaDesc(ToPcp(MakePmID(29, 2, 5)), &d, ext), 0);
  // as in PCP, the new table's PMIDs are not given the domain
  EXPECT_EQ(pmdaDesc(ToPcp(MakePmID(29, 2, 6)), &d, ext), PM_ERR_PMID);
  EXPECT_EQ(d.type, PM_TYPE_U64);
  EXPECT_EQ(pmdaDesc(ToPcp(MakePmID(29, 0, 1)), &d, ext), PM_ERR_PMID);
  EXPECT_EQ(ext->e_direct, 0);
}

TEST(CLabelTest, AddLabelsMergesAndNotesAreOptional) {
  pmLabelSet* set = nullptr;
  EXPECT_EQ(pmdaAddLabels(&set, "{\"b\":%d}", 2), 1);
  EXPECT_EQ(pmdaAddNotes(&set, "{\"a\":\"%s\"}", "x"), 2);
  EXPECT_EQ(pmdaAddLabels(&set, "{\"b\":3}"), 2);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(std::string(set->json, set->jsonlen), R"({"a":"x","b":3})");
  EXPECT_EQ(set->inst, PM_IN_NULL);
  EXPECT_EQ(set->labels[0].flags, unsigned(PM_LABEL_OPTIONAL));
  EXPECT_EQ(set->labels[1].flags, 0u);
  EXPECT_EQ(pmdaAddLabelFlags(set, PM_LABEL_ITEM), 1);
  EXPECT_EQ(set->labels[1].flags, unsigned(PM_LABEL_ITEM));
  EXPECT_LT(pmdaAddLabels(&set, "{not json"), 0);
  FreeCLabelSetContents(set, 1);
  std::free(set);
}

TEST(CCacheTest, StoreLookupWalkAndCull) {
  const pmInDom indom = ToPcp(MakeInDom(29, 77));
  int payload = 5;
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_CHECK), 0);
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_ADD, "eth0", &payload), 0);
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_ADD, "eth1 second", nullptr), 1);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_CHECK), 1);
  char* name = nullptr;
  void* data = nullptr;
  EXPECT_EQ(pmdaCacheLookup(indom, 0, &name, &data), PMDA_CACHE_ACTIVE);
  EXPECT_STREQ(name, "eth0");
  EXPECT_EQ(data, &payload);
  int inst = -1;
  EXPECT_EQ(pmdaCacheLookupName(indom, "eth1", &inst, nullptr), PMDA_CACHE_ACTIVE);
  EXPECT_EQ(inst, 1);
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_HIDE, "eth0", nullptr), 0);
  EXPECT_EQ(pmdaCacheLookup(indom, 0, nullptr, nullptr), PMDA_CACHE_INACTIVE);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE), 1);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_WALK_REWIND), 0);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT), 1);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT), -1);
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_CULL, "eth1", nullptr), 1);
  EXPECT_EQ(pmdaCacheLookupName(indom, "eth9", nullptr, nullptr), PM_ERR_INST);
  EXPECT_EQ(pmdaCacheStore(PM_INDOM_NULL, PMDA_CACHE_ADD, "x", nullptr), PM_ERR_INDOM);
  EXPECT_EQ(pmdaCacheOp(indom, 99), -EINVAL);
  const char key[] = "key-bytes";
  int k = pmdaCacheStoreKey(indom, PMDA_CACHE_ADD, "keyed", sizeof(key), key, nullptr);
  ASSERT_GE(k, 0);
  EXPECT_EQ(pmdaCacheLookupKey(indom, "keyed", sizeof(key), key, &name, &inst, nullptr), PMDA_CACHE_ACTIVE);
  EXPECT_EQ(inst, k);
  EXPECT_STREQ(name, "keyed");
  EXPECT_EQ(pmdaCacheResize(indom, -1), PM_ERR_SIGN);
}

TEST(CCacheTest, SaveLoadAndPurgeThroughTheCFunctions) {
  namespace fs = std::filesystem;
  const std::string var = testing::TempDir() + "/c-cache-var-" + std::to_string(getpid());
  fs::remove_all(var);
  fs::create_directories(var + "/config");
  setenv("PCP_VAR_DIR", var.c_str(), 1);
  const pmInDom indom = ToPcp(MakeInDom(29, 78));
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_ADD, "disk0", nullptr), 0);
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_ADD, "disk1", nullptr), 1);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_SAVE), 2);
  EXPECT_TRUE(fs::exists(var + "/config/pmda/29.78"));
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_SAVE), 0);  // nothing changed
  // entries saved while active more than `recent` seconds ago are culled
  EXPECT_EQ(pmdaCachePurge(indom, 1000), 0);
  EXPECT_EQ(pmdaCachePurge(indom, -1), 2);
  int released = 0;
  static int* counter = nullptr;
  counter = &released;
  int payload = 1;
  EXPECT_EQ(pmdaCacheStore(indom, PMDA_CACHE_ADD, "disk2", &payload), 2);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_SAVE), 1);  // the one entry not culled
  // culled entries are counted again, as PCP does; the release callback
  // gets the one private pointer
  EXPECT_EQ(pmdaCachePurgeCallback(indom, -100, [](void*) { ++*counter; }), 3);
  EXPECT_EQ(released, 1);
  EXPECT_EQ(pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE), 0);
  unsetenv("PCP_VAR_DIR");
  fs::remove_all(var);
}

// An event array built with the C functions, handed out by a fetch of an
// event metric, unpacks into the records and parameters that went in.
TEST_F(DirectTest, EventArrayRoundTrip) {
  InitAll();
  event_array = pmdaEventNewArray();
  ASSERT_GE(event_array, 0);
  struct timeval tv = {1700000000, 250000};
  ASSERT_EQ(pmdaEventAddRecord(event_array, &tv, PM_EVENT_FLAG_POINT), 0);
  pmAtomValue av;
  av.l = 42;
  ASSERT_EQ(pmdaEventAddParam(event_array, ToPcp(MakePmID(29, 1, 1)), PM_TYPE_32, &av), 0);
  av.cp = const_cast<char*>("an event");
  ASSERT_EQ(pmdaEventAddParam(event_array, ToPcp(MakePmID(29, 1, 2)), PM_TYPE_STRING, &av), 0);
  ASSERT_EQ(pmdaEventAddMissedRecord(event_array, &tv, 3), 0);
  EXPECT_EQ(pmdaEventAddParam(event_array, ToPcp(MakePmID(29, 1, 3)), PM_TYPE_EVENT, &av),
            PM_ERR_TYPE);
  pmEventArray* ea = pmdaEventGetAddr(event_array);
  ASSERT_NE(ea, nullptr);
  EXPECT_EQ(ea->ea_type, unsigned(PM_TYPE_EVENT));
  EXPECT_EQ(ea->ea_nrecords, 2);
  EXPECT_EQ(ea->ea_record[0].er_nparams, 2);

  pmID id = ToPcp(MakePmID(29, 0, 4));
  pmResult* res = nullptr;
  ASSERT_EQ(pmdaFetch(1, &id, &res, dp_.version.any.ext), 0);
  ASSERT_EQ(res->vset[0]->numval, 1);
  const pmValueBlock* vb = res->vset[0]->vlist[0].value.pval;
  ASSERT_EQ(vb->vtype, unsigned(PM_TYPE_EVENT));
  ValueView view;
  view.vtype = kTypeEvent;
  view.payload = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(vb->vbuf), vb->vlen - PM_VAL_HDR_SIZE);
  absl::StatusOr<std::vector<Result>> records = UnpackEventRecords(view);
  dp_.version.any.ext->e_resultCallBack(res);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 2u);
  const Result& first = (*records)[0];
  EXPECT_EQ(first.timestamp_ns(), 1700000000250000000);
  ASSERT_EQ(first.numpmid(), 3);  // event.flags, then the two parameters
  EXPECT_EQ(first.sets()[0].pmid, kEventFlagsPmid);
  EXPECT_EQ(first.value(first.sets()[1], 0).lval, 42);
  ValueView s = first.value(first.sets()[2], 0);
  // a string parameter is its characters without the NUL, as PCP packs it
  EXPECT_EQ(std::string(s.payload.begin(), s.payload.end()), "an event");
  const Result& missed = (*records)[1];
  ASSERT_EQ(missed.numpmid(), 2);
  EXPECT_EQ(missed.value(missed.sets()[1], 0).lval, 3);

  EXPECT_EQ(pmdaEventResetArray(event_array), 0);
  EXPECT_EQ(pmdaEventGetAddr(event_array)->ea_nrecords, 0);
  EXPECT_EQ(pmdaEventReleaseArray(event_array), 0);
  EXPECT_EQ(pmdaEventReleaseArray(event_array), PM_ERR_NOCONTEXT);
  EXPECT_EQ(pmdaEventGetAddr(event_array), nullptr);
}

TEST(CEventTest, HighResolutionRecords) {
  int idx = pmdaEventNewHighResArray();
  ASSERT_GE(idx, 0);
  struct timespec ts = {1700000000, 123456789};
  ASSERT_EQ(pmdaEventAddHighResRecord(idx, &ts, 0), 0);
  pmAtomValue av;
  av.ull = 1ull << 40;
  ASSERT_EQ(pmdaEventAddHighResParam(idx, ToPcp(MakePmID(29, 1, 5)), PM_TYPE_U64, &av), 0);
  pmHighResEventArray* ea = pmdaEventGetHighResAddr(idx);
  ASSERT_NE(ea, nullptr);
  EXPECT_EQ(ea->ea_type, unsigned(PM_TYPE_HIGHRES_EVENT));
  EXPECT_EQ(ea->ea_nrecords, 1);
  EXPECT_EQ(ea->ea_record[0].er_timestamp.tv_nsec, 123456789);
  ValueView view;
  view.vtype = kTypeHighResEvent;
  view.payload = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(ea) + PM_VAL_HDR_SIZE,
                                          ea->ea_len - PM_VAL_HDR_SIZE);
  absl::StatusOr<std::vector<Result>> records = UnpackHighResEventRecords(view);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].timestamp_ns(), 1700000000123456789);
  EXPECT_EQ(pmdaEventReleaseHighResArray(idx), 0);
}

}  // namespace
}  // namespace pmapi
