// FetchGroup rules on a scripted source, whose fetches return a fixed
// sequence of results: the Guide's rate table (raw 10 30 60 80 90, then no
// value, at t = 1 3 5 7 9 11), wrap handling, capacity, sentinels, the
// profile and Clear. The golden replay against PCP is fetchgroup_golden_test.
#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/fetchgroup.h"
#include "source.h"

namespace pmapi {
namespace {

constexpr InDom kIndom = MakeInDom(29, 1);
constexpr int64_t kSec = 1000000000;

struct Metric {
  std::string name;
  Desc desc;
};

// Answers names and descriptors from a list and fetches from a script.
class ScriptedSource : public Source {
 public:
  ScriptedSource(std::vector<Metric> metrics, std::vector<Result> script)
      : metrics_(std::move(metrics)), script_(std::move(script)) {}
  ContextKind kind() const override { return ContextKind::kLocal; }
  std::string HostName() override { return "script"; }
  absl::StatusOr<PmID> LookupName(std::string_view name) override {
    for (const Metric& m : metrics_) {
      if (m.name == name) return m.desc.pmid;
    }
    return PcpError(kErrName);
  }
  absl::StatusOr<std::vector<std::string>> NameAll(PmID) override { return PcpError(kErrPmid); }
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view) override {
    return PcpError(kErrName);
  }
  absl::Status Traverse(std::string_view, const std::function<void(const std::string&)>&) override {
    return PcpError(kErrName);
  }
  absl::StatusOr<Desc> LookupDesc(PmID id) override {
    for (const Metric& m : metrics_) {
      if (m.desc.pmid == id) return m.desc;
    }
    return PcpError(kErrPmid);
  }
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom) override {
    return std::vector<Instance>{{Inst{0}, "a"}, {Inst{1}, "b"}, {Inst{2}, "c"}};
  }
  absl::StatusOr<std::string> NameInDom(InDom, Inst) override { return PcpError(kErrInst); }
  absl::StatusOr<Inst> LookupInDom(InDom, std::string_view name) override {
    if (name == "a") return Inst{0};
    if (name == "b") return Inst{1};
    if (name == "c") return Inst{2};
    return PcpError(kErrInst);
  }
  absl::StatusOr<std::string> LookupText(uint32_t, int) override { return PcpError(kErrText); }
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int, uint32_t) override {
    return std::vector<LabelSet>{};
  }
  absl::StatusOr<Result> Fetch(std::span<const PmID>, const Profile&, int*) override {
    if (next_ >= script_.size()) return PcpError(kErrEol);
    return script_[next_++];
  }

 private:
  std::vector<Metric> metrics_;
  std::vector<Result> script_;
  size_t next_ = 0;
};

constexpr PmID kCounter = MakePmID(29, 0, 1);
constexpr PmID kInstant = MakePmID(29, 0, 2);
constexpr PmID kDiscrete = MakePmID(29, 0, 3);
constexpr PmID kPerInst = MakePmID(29, 0, 4);

std::vector<Metric> Metrics(int counter_type = kType32) {
  return {{"c", {kCounter, counter_type, kInDomNull, kSemCounter, {}}},
          {"i", {kInstant, kType32, kInDomNull, kSemInstant, {}}},
          {"d", {kDiscrete, kType32, kInDomNull, kSemDiscrete, {}}},
          {"p", {kPerInst, kType32, kIndom, kSemInstant, {}}}};
}

// One record at `t` seconds; `v` < 0 means the three metrics have no value.
Result Record(int64_t t, int32_t v) {
  Result r;
  r.set_timestamp_ns(t * kSec);
  for (PmID id : {kCounter, kInstant, kDiscrete}) {
    r.AddSet(id, v < 0 ? 0 : 1, kValInsitu);
    if (v >= 0) r.AddInsitu(kInNull, v);
  }
  r.AddSet(kPerInst, 3, kValInsitu);
  for (int32_t inst : {2, 0, 1}) r.AddInsitu(Inst{inst}, inst * 100 + static_cast<int32_t>(t));
  return r;
}

std::unique_ptr<FetchGroup> Group(std::vector<Result> script, FetchGroupOptions o = {},
                                  int counter_type = kType32) {
  Context ctx(std::make_unique<ScriptedSource>(Metrics(counter_type), std::move(script)));
  return FetchGroup::FromContext(std::move(ctx), o);
}

std::vector<Result> GuideTable() {
  std::vector<Result> s;
  int32_t raw[] = {10, 30, 60, 80, 90, -1};
  for (int i = 0; i < 6; ++i) s.push_back(Record(1 + 2 * i, raw[i]));
  return s;
}

TEST(FetchGroupTest, GuideRateTable) {
  auto fg = Group(GuideTable());
  auto counter = fg->AddItem("c", std::nullopt, std::nullopt, kTypeDouble);
  auto instant = fg->AddItem("i", std::nullopt, std::nullopt, kTypeDouble);
  auto discrete = fg->AddItem("d", std::nullopt, std::nullopt, kTypeDouble);
  ASSERT_TRUE(counter.ok() && instant.ok() && discrete.ok());
  const double kRates[] = {0, 10, 15, 10, 5};
  const double kRaw[] = {10, 30, 60, 80, 90};
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(fg->Fetch().ok());
    if (i == 0) {
      EXPECT_EQ((*counter)->status, kErrAgain);
      EXPECT_TRUE(std::isnan((*counter)->value.atom.d));
    } else {
      EXPECT_EQ((*counter)->status, 0);
      EXPECT_DOUBLE_EQ((*counter)->value.atom.d, kRates[i]);
    }
    EXPECT_DOUBLE_EQ((*instant)->value.atom.d, kRaw[i]);
    EXPECT_DOUBLE_EQ((*discrete)->value.atom.d, kRaw[i]);
  }
  ASSERT_TRUE(fg->Fetch().ok());  // t = 11: no values
  EXPECT_EQ((*counter)->status, kErrValue);
  EXPECT_EQ((*instant)->status, kErrValue);
  EXPECT_TRUE(std::isnan((*instant)->value.atom.d));
  EXPECT_EQ((*discrete)->status, 0);  // keeps its last value
  EXPECT_DOUBLE_EQ((*discrete)->value.atom.d, 90);
}

TEST(FetchGroupTest, DiscreteOnceDropsTheLastValue) {
  FetchGroupOptions o;
  o.discrete_once = true;
  auto fg = Group(GuideTable(), o);
  auto discrete = fg->AddItem("d", std::nullopt, std::nullopt, kType32);
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(fg->Fetch().ok());
  EXPECT_EQ((*discrete)->status, kErrValue);
  EXPECT_EQ((*discrete)->value.atom.l, -1);
}

TEST(FetchGroupTest, DecreaseIsAnErrorUnlessWrapping) {
  std::vector<Result> s = {Record(1, 100), Record(2, 40)};
  auto plain = Group(s);
  auto c = plain->AddItem("c", std::nullopt, std::nullopt, kTypeDouble);
  ASSERT_TRUE(plain->Fetch().ok() && plain->Fetch().ok());
  EXPECT_EQ((*c)->status, kErrValue);
  FetchGroupOptions o;
  o.counter_wrap = true;
  auto wrapping = Group(s, o, kTypeU32);
  auto w = wrapping->AddItem("c", std::nullopt, std::nullopt, kTypeDouble);
  ASSERT_TRUE(wrapping->Fetch().ok() && wrapping->Fetch().ok());
  EXPECT_EQ((*w)->status, 0);
  EXPECT_DOUBLE_EQ((*w)->value.atom.d, 4294967296.0 - 60);
}

TEST(FetchGroupTest, IndomSortedNamedAndLimited) {
  auto fg = Group(GuideTable());
  auto all = fg->AddIndom("p", std::nullopt, kTypeString, 8);
  auto small = fg->AddIndom("p", std::nullopt, kType32, 2);
  auto single = fg->AddIndom("i", std::nullopt, kType32, 2);
  ASSERT_TRUE(all.ok() && small.ok() && single.ok());
  ASSERT_TRUE(fg->Fetch().ok());
  ASSERT_EQ((*all)->instances.size(), 3u);
  EXPECT_EQ((*all)->instances[0].inst, Inst{0});
  EXPECT_EQ((*all)->instances[0].name, "a");
  EXPECT_EQ((*all)->instances[2].value.atom.bytes, "201");
  EXPECT_EQ((*small)->status, kErrToobig);
  EXPECT_TRUE((*small)->instances.empty());
  ASSERT_EQ((*single)->instances.size(), 1u);
  EXPECT_FALSE((*single)->instances[0].name.has_value());
}

TEST(FetchGroupTest, RegistrationErrors) {
  auto fg = Group(GuideTable());
  EXPECT_EQ(PcpCode(fg->AddItem("p", std::nullopt, std::nullopt, kType32).status()), kErrIndom);
  EXPECT_EQ(PcpCode(fg->AddItem("i", "a", std::nullopt, kType32).status()), kErrIndom);
  EXPECT_EQ(PcpCode(fg->AddItem("p", "zz", std::nullopt, kType32).status()), kErrInst);
  EXPECT_EQ(PcpCode(fg->AddItem("nope", std::nullopt, std::nullopt, kType32).status()), kErrName);
  EXPECT_EQ(PcpCode(fg->AddItem("i", std::nullopt, std::nullopt, kTypeAggregate).status()), kErrType);
  EXPECT_EQ(PcpCode(fg->AddItem("i", std::nullopt, "byte", kType32).status()), kErrConv);
  EXPECT_EQ(PcpCode(fg->AddEvent("i", std::nullopt, "c", std::nullopt, kType32, 4).status()),
            kErrType);
}

TEST(FetchGroupTest, ProfileNarrowedThenClearedAndFailedFetch) {
  auto fg = Group({Record(1, 5)});
  ASSERT_TRUE(fg->AddItem("p", "b", std::nullopt, kType32).ok());
  EXPECT_TRUE(fg->context().ProfileAdmits(kIndom, Inst{1}));
  EXPECT_FALSE(fg->context().ProfileAdmits(kIndom, Inst{0}));
  ASSERT_TRUE(fg->AddIndom("p", std::nullopt, kType32, 4).ok());
  EXPECT_TRUE(fg->context().ProfileAdmits(kIndom, Inst{0}));
  auto item = fg->AddItem("i", std::nullopt, "instant", kTypeU32);
  const FetchGroupTimestamp* stamp = fg->AddTimestamp();
  ASSERT_TRUE(fg->Fetch().ok());
  EXPECT_EQ((*item)->value.atom.ul, 5u);
  EXPECT_EQ(stamp->sec, 1);
  absl::StatusOr<int> eol = fg->Fetch();  // the script is over
  EXPECT_EQ(PcpCode(eol.status()), kErrEol);
  EXPECT_EQ((*item)->status, kErrValue);
  EXPECT_EQ((*item)->value.atom.ul, 0xffffffffu);
  ASSERT_TRUE(fg->Clear().ok());
  EXPECT_FALSE(fg->context().ProfileAdmits(kIndom, Inst{1}));
}

}  // namespace
}  // namespace pmapi
