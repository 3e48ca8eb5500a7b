// Checks the PMDA library's rules on agents built in the test itself:
// pmdaInit's domain stamping and checks, the PMID lookup strategies, the
// fetch callback contract, pmdaInstance, help text, labels and store.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"
#include "pmapi/pmda.h"
#include "pmda_help.h"

namespace pmapi {
namespace {

constexpr int kDomain = 123;

// The example of pmdaInit(3): A singular, B over X (serial 0), C over Y
// (serial 3, the second table entry).
std::vector<PmdaIndom> ExampleIndoms() {
  return {PmdaIndom{PmdaInDom(0), {{Inst{0}, "X1"}, {Inst{1}, "X2"}}}, PmdaIndom{PmdaInDom(3), {{Inst{0}, "Y1"}, {Inst{1}, "Y2"}}}};
}
std::vector<PmdaMetric> ExampleMetrics() {
  return {{nullptr, {PmdaPmid(0, 0), kType32, kInDomNull, kSemInstant, Units{}}},
          {nullptr, {PmdaPmid(0, 1), kType32, PmdaInDom(0), kSemInstant, Units{}}},
          {nullptr,
           {PmdaPmid(0, 2), kTypeDouble, PmdaInDom(3), kSemInstant, Units{0, 1, 0, 0, kTimeSec, 0}}}};
}

int ConstantCallback(const PmdaMetric& m, Inst inst, AtomValue* atom) {
  if (m.desc.type == kTypeDouble) {
    atom->d = 0.5 + ToPcp(inst);
  } else {
    atom->l = static_cast<int32_t>(PmIDItem(m.desc.pmid) * 100 + (inst == kInNull ? 0 : ToPcp(inst)));
  }
  return 1;
}

void InitExample(Pmda& p, int interface = kPmdaInterface7) {
  p.Dso(interface, "example DSO", "");
  p.SetFetchCallback(ConstantCallback);
  p.Init(ExampleIndoms(), ExampleMetrics());
}

TEST(PmdaInitTest, StampsDomainIntoPmidsAndIndoms) {
  Pmda p(kDomain);
  InitExample(p);
  ASSERT_EQ(p.status(), 0);
  EXPECT_EQ(p.indoms()[0].indom, MakeInDom(kDomain, 0));
  EXPECT_EQ(p.indoms()[1].indom, MakeInDom(kDomain, 3));
  EXPECT_EQ(p.metrics()[0].desc.pmid, MakePmID(kDomain, 0, 0));
  EXPECT_EQ(p.metrics()[0].desc.indom, kInDomNull);
  EXPECT_EQ(p.metrics()[1].desc.indom, MakeInDom(kDomain, 0));
  // matched by serial, not by table position
  EXPECT_EQ(p.metrics()[2].desc.indom, MakeInDom(kDomain, 3));
  EXPECT_EQ(p.metric_lookup(), PmdaMetricLookup::kDirect);
}

TEST(PmdaInitTest, UndefinedIndomSerialIsFatal) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "bad DSO", "");
  p.SetFetchCallback(ConstantCallback);
  std::vector<PmdaMetric> m = ExampleMetrics();
  m[2].desc.indom = InDom{7};
  p.Init(ExampleIndoms(), m);
  EXPECT_EQ(p.status(), kErrGeneric);
  ASSERT_FALSE(p.diagnostics().empty());
  EXPECT_NE(p.diagnostics().back().find("Undefined instance domain serial (7)"), std::string::npos);
}

TEST(PmdaInitTest, EmptyIndomTableSkipsTheSerialCheck) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "cache DSO", "");
  p.SetFetchCallback(ConstantCallback);
  p.Init({}, ExampleMetrics());
  EXPECT_EQ(p.status(), 0);
  EXPECT_EQ(p.metrics()[2].desc.indom, MakeInDom(kDomain, 3));
}

TEST(PmdaInitTest, DefaultFetchNeedsACallback) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "nocb DSO", "");
  p.Init(ExampleIndoms(), ExampleMetrics());
  EXPECT_EQ(p.status(), kErrGeneric);
  // an agent with its own fetch handler needs none
  Pmda q(kDomain);
  q.Dso(kPmdaInterface7, "own DSO", "");
  q.dispatch().fetch = [](std::span<const PmID>, Result*, Pmda&) { return absl::OkStatus(); };
  q.Init(ExampleIndoms(), ExampleMetrics());
  EXPECT_EQ(q.status(), 0);
}

TEST(PmdaInitTest, UnsupportedInterfaceVersions) {
  for (int v : {0, 1, 8, 255}) {
    Pmda p(kDomain);
    p.Dso(v, "old DSO", "");
    EXPECT_EQ(p.status(), kErrGeneric) << v;
  }
}

TEST(PmdaInitTest, NoHelpPathWarnsOnlyWithTheDefaultTextHandler) {
  Pmda p(kDomain);
  InitExample(p);
  ASSERT_FALSE(p.diagnostics().empty());
  EXPECT_NE(p.diagnostics().back().find("No help text file specified"), std::string::npos);
}

TEST(PmdaLookupTest, LinearWhenItemsAreNotPositions) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "lin DSO", "");
  p.SetFlags(kPmdaExtFlagDirect);
  p.SetFetchCallback(ConstantCallback);
  std::vector<PmdaMetric> m = ExampleMetrics();
  m[1].desc.pmid = PmdaPmid(5, 9);
  p.Init(ExampleIndoms(), m);
  EXPECT_EQ(p.metric_lookup(), PmdaMetricLookup::kLinear);
  EXPECT_NE(p.diagnostics().back().find("Direct mapping"), std::string::npos);
  ASSERT_NE(p.FindMetric(MakePmID(kDomain, 5, 9)), nullptr);
  EXPECT_EQ(p.FindMetric(MakePmID(kDomain, 0, 1)), nullptr);
}

TEST(PmdaLookupTest, DirectChecksTheCluster) {
  Pmda p(kDomain);
  InitExample(p);
  EXPECT_NE(p.FindMetric(MakePmID(kDomain, 0, 2)), nullptr);
  EXPECT_EQ(p.FindMetric(MakePmID(kDomain, 1, 2)), nullptr);
  EXPECT_EQ(p.FindMetric(MakePmID(kDomain, 0, 3)), nullptr);
}

TEST(PmdaLookupTest, HashedWhenAsked) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "hash DSO", "");
  p.SetFlags(kPmdaExtFlagHashed);
  p.SetFetchCallback(ConstantCallback);
  p.Init(ExampleIndoms(), ExampleMetrics());
  EXPECT_EQ(p.metric_lookup(), PmdaMetricLookup::kHashed);
  EXPECT_EQ(p.FindMetric(MakePmID(kDomain, 0, 2)), &p.metrics()[2]);
  // Rehash installs a new table
  std::vector<PmdaMetric> more = ExampleMetrics();
  more.push_back({nullptr, {PmdaPmid(9, 9), kTypeU32, kInDomNull, kSemInstant, Units{}}});
  p.Rehash(more);
  EXPECT_NE(p.FindMetric(MakePmID(kDomain, 9, 9)), nullptr);
}

// --- fetch ---

Result FetchAll(Pmda& p, std::vector<PmID> ids) {
  Result r;
  EXPECT_TRUE(p.dispatch().fetch(ids, &r, p).ok());
  return r;
}

TEST(PmdaFetchTest, ValuesPerInstanceInTableOrder) {
  Pmda p(kDomain);
  InitExample(p);
  Result r = FetchAll(p, {MakePmID(kDomain, 0, 0), MakePmID(kDomain, 0, 1), MakePmID(kDomain, 0, 2)});
  ASSERT_EQ(r.numpmid(), 3);
  const ValueSet& a = r.sets()[0];
  ASSERT_EQ(a.numval, 1);
  EXPECT_EQ(a.valfmt, kValInsitu);
  EXPECT_EQ(r.value(a, 0).inst, kInNull);
  EXPECT_EQ(r.value(a, 0).lval, 0);
  const ValueSet& b = r.sets()[1];
  ASSERT_EQ(b.numval, 2);
  EXPECT_EQ(r.value(b, 1).inst, Inst{1});
  EXPECT_EQ(r.value(b, 1).lval, 101);
  const ValueSet& c = r.sets()[2];
  ASSERT_EQ(c.numval, 2);
  EXPECT_EQ(c.valfmt, kValDptr);
  ValueView v = r.value(c, 1);
  EXPECT_EQ(v.vtype, kTypeDouble);
  ASSERT_EQ(v.payload.size(), sizeof(double));
  double d;
  std::memcpy(&d, v.payload.data(), sizeof d);
  EXPECT_EQ(d, 1.5);
}

TEST(PmdaFetchTest, UnknownPmidGivesPmErrPmid) {
  Pmda p(kDomain);
  InitExample(p);
  Result r = FetchAll(p, {MakePmID(kDomain, 4, 4)});
  EXPECT_EQ(r.sets()[0].numval, kErrPmid);
}

TEST(PmdaFetchTest, ProfileSelectsInstances) {
  Pmda p(kDomain);
  InitExample(p);
  Profile prof;
  prof.Delete(MakeInDom(kDomain, 0), {});
  const Inst one{1};
  prof.Add(MakeInDom(kDomain, 0), {&one, 1});
  ASSERT_TRUE(p.dispatch().profile(prof, p).ok());
  Result r = FetchAll(p, {MakePmID(kDomain, 0, 1), MakePmID(kDomain, 0, 2)});
  ASSERT_EQ(r.sets()[0].numval, 1);
  EXPECT_EQ(r.value(r.sets()[0], 0).inst, Inst{1});
  EXPECT_EQ(r.sets()[1].numval, 2);
  // nothing admitted: no values, not an error
  Profile none;
  none.Delete(kInDomNull, {});
  ASSERT_TRUE(p.dispatch().profile(none, p).ok());
  EXPECT_EQ(FetchAll(p, {MakePmID(kDomain, 0, 1)}).sets()[0].numval, 0);
  EXPECT_EQ(FetchAll(p, {MakePmID(kDomain, 0, 0)}).sets()[0].numval, 1);
}

// A callback returning `code` for instance 0 and a value for the others.
Pmda* CallbackAgent(Pmda& p, int code, int interface) {
  p.Dso(interface, "cb DSO", "");
  p.SetFetchCallback([code](const PmdaMetric&, Inst inst, AtomValue* atom) {
    atom->l = 7;
    return inst == Inst{0} || inst == kInNull ? code : 1;
  });
  p.Init(ExampleIndoms(), ExampleMetrics());
  return &p;
}

TEST(PmdaFetchTest, CallbackReturnCodes) {
  {
    Pmda p(kDomain);
    CallbackAgent(p, kErrAgain, kPmdaInterface7);
    Result r = FetchAll(p, {MakePmID(kDomain, 0, 0), MakePmID(kDomain, 0, 1)});
    EXPECT_EQ(r.sets()[0].numval, kErrAgain);  // the only value failed
    EXPECT_EQ(r.sets()[1].numval, 1);          // failures beside values are dropped
    EXPECT_EQ(r.value(r.sets()[1], 0).inst, Inst{1});
  }
  {
    Pmda p(kDomain);
    CallbackAgent(p, kPmdaFetchNoValues, kPmdaInterface7);
    Result r = FetchAll(p, {MakePmID(kDomain, 0, 0), MakePmID(kDomain, 0, 1)});
    EXPECT_EQ(r.sets()[0].numval, 0);
    EXPECT_EQ(r.sets()[1].numval, 1);
  }
  {
    // before interface 3, 0 is success
    Pmda p(kDomain);
    CallbackAgent(p, 0, kPmdaInterface2);
    Result r = FetchAll(p, {MakePmID(kDomain, 0, 0)});
    ASSERT_EQ(r.sets()[0].numval, 1);
    EXPECT_EQ(r.value(r.sets()[0], 0).lval, 7);
  }
  {
    Pmda p(kDomain);
    CallbackAgent(p, kPmdaFetchDynamic, kPmdaInterface7);
    EXPECT_EQ(FetchAll(p, {MakePmID(kDomain, 0, 0)}).sets()[0].numval, 1);
  }
}

TEST(PmdaFetchTest, EveryValueType) {
  for (int type : {kType32, kTypeU32, kType64, kTypeU64, kTypeFloat, kTypeDouble, kTypeString,
                   kTypeAggregate}) {
    Pmda p(kDomain);
    p.Dso(kPmdaInterface7, "types DSO", "");
    p.SetFetchCallback([](const PmdaMetric&, Inst, AtomValue* atom) {
      atom->ull = 0;
      atom->l = -3;
      atom->bytes = "ab";
      return 1;
    });
    p.Init({}, {{nullptr, {PmdaPmid(0, 0), type, kInDomNull, kSemInstant, Units{}}}});
    Result r = FetchAll(p, {MakePmID(kDomain, 0, 0)});
    const ValueSet& vs = r.sets()[0];
    ASSERT_EQ(vs.numval, 1) << type;
    ValueView v = r.value(vs, 0);
    if (type == kType32 || type == kTypeU32) {
      EXPECT_EQ(vs.valfmt, kValInsitu);
      EXPECT_EQ(v.lval, -3);
      continue;
    }
    EXPECT_EQ(vs.valfmt, kValDptr) << type;
    EXPECT_EQ(v.vtype, type);
    if (type == kTypeString) {
      EXPECT_EQ(std::string(v.payload.begin(), v.payload.end()), std::string("ab\0", 3));
    } else if (type == kTypeAggregate) {
      EXPECT_EQ(std::string(v.payload.begin(), v.payload.end()), "ab");
    } else {
      EXPECT_EQ(v.payload.size(), type == kTypeFloat ? 4u : 8u);
    }
  }
}

TEST(PmdaFetchTest, BadDescriptorTypeGivesPmErrType) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "types DSO", "");
  p.SetFetchCallback([](const PmdaMetric&, Inst, AtomValue*) { return 1; });
  p.Init({}, {{nullptr, {PmdaPmid(0, 0), kTypeNoSupport, kInDomNull, kSemInstant, Units{}}}});
  EXPECT_EQ(FetchAll(p, {MakePmID(kDomain, 0, 0)}).sets()[0].numval, kErrType);
}

TEST(PmdaFetchTest, IndomSourceReplacesTheTable) {
  struct TwoInstances : PmdaIndomSource {
    bool Handles(InDom indom) const override { return InDomSerial(indom) == 3; }
    std::vector<PmdaInstid> Active(InDom) const override { return {{Inst{42}, "forty-two"}, {Inst{7}, "seven"}}; }
  } source;
  Pmda p(kDomain);
  p.SetIndomSource(&source);
  InitExample(p);
  Result r = FetchAll(p, {MakePmID(kDomain, 0, 2)});
  ASSERT_EQ(r.sets()[0].numval, 2);
  EXPECT_EQ(r.value(r.sets()[0], 0).inst, Inst{42});
  absl::StatusOr<PmdaInResult> all = p.DefaultInstance(MakeInDom(kDomain, 3), kInNull, nullptr);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->names, (std::vector<std::string>{"forty-two", "seven"}));
  std::string name = "seven";
  EXPECT_EQ(p.DefaultInstance(MakeInDom(kDomain, 3), kInNull, &name)->insts[0], Inst{7});
}

// --- instances ---

TEST(PmdaInstanceTest, AllByInstanceAndByName) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "load DSO", "");
  p.SetFetchCallback(ConstantCallback);
  p.Init({PmdaIndom{PmdaInDom(2),
                    {{Inst{1}, "1 minute"}, {Inst{5}, "5 minute"}, {Inst{15}, "15 minute"}}}},
         {{nullptr, {PmdaPmid(0, 0), kTypeFloat, PmdaInDom(2), kSemInstant, Units{}}}});
  const InDom load = MakeInDom(kDomain, 2);
  absl::StatusOr<PmdaInResult> all = p.dispatch().instance(load, kInNull, nullptr, p);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->insts, (std::vector<Inst>{Inst{1}, Inst{5}, Inst{15}}));
  EXPECT_EQ(all->names[2], "15 minute");
  EXPECT_EQ(p.dispatch().instance(load, Inst{5}, nullptr, p)->names, std::vector<std::string>{"5 minute"});
  EXPECT_EQ(PcpCode(p.dispatch().instance(load, Inst{6}, nullptr, p).status()), kErrInst);
  auto by_name = [&](const std::string& n) { return p.dispatch().instance(load, kInNull, &n, p); };
  EXPECT_EQ(by_name("15 minute")->insts[0], Inst{15});
  EXPECT_EQ(by_name("15")->insts[0], Inst{15});  // up to the first space
  EXPECT_EQ(PcpCode(by_name("15 min").status()), kErrInst);
  EXPECT_EQ(PcpCode(by_name("1 minute ").status()), kErrInst);
  EXPECT_EQ(PcpCode(by_name("").status()), kErrInst);
  std::string n = "5";
  EXPECT_EQ(PcpCode(p.dispatch().instance(load, Inst{5}, &n, p).status()), kErrInst);
  EXPECT_EQ(PcpCode(p.dispatch().instance(MakeInDom(kDomain, 9), kInNull, nullptr, p).status()), kErrIndom);
}

// --- help text, store, labels ---

TEST(PmdaTextTest, HelpFileEntriesAndMisses) {
  const std::string path = testing::TempDir() + "/pmda_dispatch_help";
  {
    std::ofstream out(path);
    out << "# comment\n@ EXAMPLE.3 Indom Y\nTwo instances.\n\n@ 123.0.2 Metric C\nIn seconds.\nSecond line.\n"
           "@ 123.0.1 Only a line\n@ no.such.name Ignored\n";
  }
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "help DSO", path);
  p.SetFetchCallback(ConstantCallback);
  p.Init(ExampleIndoms(), ExampleMetrics());
  ASSERT_EQ(p.status(), 0);
  auto text = [&](auto id, int type) { return p.dispatch().text(ToPcp(id), type, p); };
  EXPECT_EQ(*text(MakePmID(kDomain, 0, 2), kTextOneline | kTextPmid), "Metric C");
  EXPECT_EQ(*text(MakePmID(kDomain, 0, 2), kTextHelp | kTextPmid), "In seconds.\nSecond line.\n");
  EXPECT_EQ(*text(MakeInDom(kDomain, 3), kTextOneline | kTextInDom), "Indom Y");
  EXPECT_EQ(*text(MakeInDom(kDomain, 3), kTextHelp | kTextInDom), "Two instances.\n");
  EXPECT_EQ(PcpCode(text(MakePmID(kDomain, 0, 1), kTextHelp | kTextPmid).status()), kErrText);
  EXPECT_EQ(PcpCode(text(MakePmID(kDomain, 0, 0), kTextOneline | kTextPmid).status()), kErrText);
  bool warned = false;
  for (const std::string& d : p.diagnostics()) warned = warned || d.find("no.such.name") != std::string::npos;
  EXPECT_TRUE(warned);
}

// newhelp's binary pair: an index of (PMID, one-line offset, text offset)
// records after a header, and the NUL-terminated strings they point at.
std::string NewhelpRecord(uint32_t a, uint32_t b, uint32_t c) {
  std::string r(12, '\0');
  std::memcpy(&r[0], &a, 4);
  std::memcpy(&r[4], &b, 4);
  std::memcpy(&r[8], &c, 4);
  return r;
}

TEST(NewhelpTest, MetricsAndInstanceDomainsAsPcpFindsThem) {
  const std::string pag = std::string("one\0first text\0two\0second\0dom\0dom text\0late\0", 44);
  const PmID pmid = MakePmID(11, 0, 7), past_end = MakePmID(11, 0, 9);
  const InDom indom = MakeInDom(11, 3);
  const uint32_t indom_key = ToPcp(indom) | (1u << 31);  // the file marks indoms with the top bit
  std::string dir = NewhelpRecord(0x50635068, 0x31320000, 5) + NewhelpRecord(ToPcp(pmid), 0, 4) +
                    NewhelpRecord(ToPcp(pmid), 15, 19) + NewhelpRecord(indom_key, 26, 30) +
                    NewhelpRecord(indom_key, 39, 39) + NewhelpRecord(ToPcp(past_end), 500, 34);
  absl::StatusOr<HelpFile> help = HelpFile::ParseNewhelp(dir, pag);
  ASSERT_TRUE(help.ok()) << help.status();
  ASSERT_NE(help->ForPmID(pmid), nullptr);
  EXPECT_EQ(help->ForPmID(pmid)->oneline, "one");  // the first of a metric's entries
  EXPECT_EQ(help->ForPmID(pmid)->text, "first text");
  ASSERT_NE(help->ForInDom(indom), nullptr);
  EXPECT_EQ(help->ForInDom(indom)->oneline, "late");  // the last of an indom's
  ASSERT_NE(help->ForPmID(past_end), nullptr);
  EXPECT_EQ(help->ForPmID(past_end)->oneline, "");  // past the end: empty
  EXPECT_EQ(help->ForPmID(past_end)->text, "text");
}

TEST(NewhelpTest, BadHeaderOrShortIndexIsEinval) {
  const std::string ok = NewhelpRecord(0x50635068, 0x31320000, 1);
  EXPECT_EQ(PcpCode(HelpFile::ParseNewhelp("", "").status()), -EINVAL);
  EXPECT_EQ(PcpCode(HelpFile::ParseNewhelp(NewhelpRecord(0x50635069, 0x31320000, 0), "").status()), -EINVAL);
  EXPECT_EQ(PcpCode(HelpFile::ParseNewhelp(NewhelpRecord(0x50635068, 0x31330000, 0), "").status()), -EINVAL);
  EXPECT_EQ(PcpCode(HelpFile::ParseNewhelp(ok, "").status()), -EINVAL);  // 1 entry, none there
  EXPECT_TRUE(HelpFile::ParseNewhelp(ok + NewhelpRecord(1, 0, 0), std::string(1, '\0')).ok());
  EXPECT_EQ(PcpCode(HelpFile::LoadNewhelp("/nonexistent/help").status()), -ENOENT);
}

TEST(PmdaTextTest, MissingHelpFileIsAWarningNotAFailure) {
  Pmda p(kDomain);
  p.Dso(kPmdaInterface7, "help DSO", "/nonexistent/help");
  p.SetFetchCallback(ConstantCallback);
  p.Init(ExampleIndoms(), ExampleMetrics());
  EXPECT_EQ(p.status(), 0);
  absl::StatusOr<std::string> text =
      p.dispatch().text(ToPcp(MakePmID(kDomain, 0, 0)), kTextOneline | kTextPmid, p);
  EXPECT_EQ(PcpCode(text.status()), kErrText);
}

TEST(PmdaTextTest, TextBeforeFirstEntryIsAnError) {
  EXPECT_EQ(PcpCode(HelpFile::Parse("stray\n@ 1.2.3 x\n", 1, nullptr, nullptr).status()), kErrGeneric);
}

TEST(PmdaStoreTest, DefaultRefuses) {
  Pmda p(kDomain);
  InitExample(p);
  Result r;
  r.AddSet(MakePmID(kDomain, 0, 0), 1, kValInsitu);
  r.AddInsitu(kInNull, 1);
  EXPECT_EQ(PcpCode(p.dispatch().store(r, p)), kErrPermission);
}

TEST(PmdaLabelTest, DomainAndInstanceLabels) {
  Pmda p(kDomain);
  InitExample(p);
  p.SetLabelCallback([](InDom, Inst inst, LabelSet* set) {
    if (inst != Inst{1}) return 0;
    return PmdaAddLabels(set, "{\"second\":true}").ok() ? 1 : kErrGeneric;
  });
  absl::StatusOr<std::vector<LabelSet>> dom = p.dispatch().label(kDomain, kLabelDomain, p);
  ASSERT_TRUE(dom.ok());
  ASSERT_EQ(dom->size(), 1u);
  EXPECT_EQ((*dom)[0].json, "{\"agent\":\"example\"}");
  absl::StatusOr<std::vector<LabelSet>> inst =
      p.dispatch().label(ToPcp(MakeInDom(kDomain, 0)), kLabelInstances, p);
  ASSERT_TRUE(inst.ok());
  ASSERT_EQ(inst->size(), 2u);
  EXPECT_EQ((*inst)[0].inst, Inst{0});
  EXPECT_TRUE((*inst)[0].labels.empty());
  EXPECT_EQ((*inst)[1].json, "{\"second\":true}");
  EXPECT_TRUE(p.dispatch().label(ToPcp(MakeInDom(kDomain, 0)), kLabelInDom, p)->empty());
  EXPECT_EQ(PcpCode(p.dispatch().label(0, 99, p).status()), kErrType);
}

TEST(PmdaLabelTest, AddLabelsMergesAndRejectsBadJson) {
  LabelSet set;
  ASSERT_TRUE(PmdaAddLabels(&set, "{\"b\":1}").ok());
  ASSERT_TRUE(PmdaAddLabels(&set, "{\"a\":\"x\",\"b\":2}").ok());
  EXPECT_EQ(set.json, "{\"a\":\"x\",\"b\":2}");
  EXPECT_FALSE(PmdaAddLabels(&set, "{not json").ok());
}

TEST(PmdaFlagsTest, NotificationsNeedInterface7) {
  Pmda p(kDomain);
  InitExample(p);
  p.SetFlags(kPmdaExtNamesChange | kPmdaExtLabelChange);
  EXPECT_EQ(p.TakeStateChanges(), kPmcdNamesChange | kPmcdLabelChange);
  EXPECT_EQ(p.TakeStateChanges(), 0);
  Pmda q(kDomain);
  InitExample(q, kPmdaInterface5);
  q.SetFlags(kPmdaExtNamesChange);
  EXPECT_EQ(q.TakeStateChanges(), 0);
}

TEST(PmdaFlagsTest, PrivateDataAndCommFlags) {
  Pmda p(kDomain);
  int mine = 5;
  p.SetData(&mine);
  p.SetCommFlags(kPmdaFlagAuthorize);
  EXPECT_EQ(p.data(), &mine);
  EXPECT_EQ(p.comm_flags(), kPmdaFlagAuthorize);
}

}  // namespace
}  // namespace pmapi
