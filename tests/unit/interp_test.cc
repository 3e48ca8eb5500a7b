// The interpolation engine on an in-memory archive: the Guide's semantics
// table (raw 10 30 60 80 90 at t = 1 3 5 7 9), prior-observation rules,
// instances that come and go, and <mark> records.
#include "interp.h"

#include <map>
#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr int64_t kSec = 1000000000;
constexpr PmID kCounter = MakePmID(29, 0, 1);
constexpr PmID kInstant = MakePmID(29, 0, 2);
constexpr PmID kDiscrete = MakePmID(29, 0, 3);
constexpr PmID kPerInst = MakePmID(29, 0, 4);
constexpr PmID kDoubleCounter = MakePmID(29, 0, 5);
constexpr PmID kStringCounter = MakePmID(29, 0, 6);
constexpr InDom kIndom = MakeInDom(29, 1);

struct Obs {
  PmID pmid;
  std::vector<std::pair<Inst, int32_t>> values;  // inst, lval
};

class FakeArchive : public RecordSource, public InterpMetadata {
 public:
  void AddRecord(int64_t t_ns, std::vector<Obs> obs) {
    Result r;
    r.set_timestamp_ns(t_ns);
    for (const Obs& o : obs) {
      r.AddSet(o.pmid, static_cast<int>(o.values.size()), kValInsitu);
      for (auto [inst, v] : o.values) r.AddInsitu(inst, v);
    }
    records_.push_back(std::move(r));
  }
  void AddDoubleRecord(int64_t t_ns, PmID pmid, double v) {
    Result r;
    r.set_timestamp_ns(t_ns);
    r.AddSet(pmid, 1, kValDptr);
    r.AddBlock(kInNull, kTypeDouble, {reinterpret_cast<const uint8_t*>(&v), sizeof v});
    records_.push_back(std::move(r));
  }
  void AddMark(int64_t t_ns) {
    Result r;
    r.set_timestamp_ns(t_ns);
    records_.push_back(std::move(r));
  }
  void AddDesc(PmID pmid, int type, int sem, InDom indom = kInDomNull) {
    descs_[pmid] = Desc{pmid, type, indom, sem, Units{}};
  }

  absl::StatusOr<size_t> Count() override { return records_.size(); }
  int64_t TimeNs(size_t i) override { return records_[i].timestamp_ns(); }
  bool IsMark(size_t i) override { return records_[i].is_mark(); }
  absl::Status Read(size_t i, Result* out) override {
    ++reads;
    *out = records_[i];
    return absl::OkStatus();
  }
  const Desc* FindDesc(PmID pmid) override {
    auto it = descs_.find(pmid);
    return it == descs_.end() ? nullptr : &it->second;
  }
  const std::vector<Inst>& AllInstances(InDom) override { return all_instances_; }
  const Lifetimes* InstanceLifetimes(InDom) override { return lives_.empty() ? nullptr : &lives_; }
  void SetInstances(std::vector<Inst> all) { all_instances_ = std::move(all); }
  void SetLife(Inst inst, int64_t birth_ns, std::optional<int64_t> death_ns) {
    lives_[inst] = Lifetime{birth_ns, death_ns};
  }

  int reads = 0;

 private:
  std::vector<Result> records_;
  std::map<PmID, Desc> descs_;
  std::vector<Inst> all_instances_{Inst{0}, Inst{1}, Inst{2}};
  Lifetimes lives_;
};

// Returns the in-situ values of set 0 of r as inst -> value.
std::map<Inst, int32_t> Values(const Result& r, int set = 0) {
  std::map<Inst, int32_t> out;
  const ValueSet& vs = r.sets()[set];
  for (int j = 0; j < vs.numval; ++j) out[r.value(vs, j).inst] = r.value(vs, j).lval;
  return out;
}

class InterpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const int32_t raw[] = {10, 30, 60, 80, 90};
    for (int i = 0; i < 5; ++i) {
      archive_.AddRecord((1 + 2 * i) * kSec, {{kCounter, {{kInNull, raw[i]}}},
                                              {kInstant, {{kInNull, raw[i]}}},
                                              {kDiscrete, {{kInNull, raw[i]}}}});
    }
    archive_.AddDesc(kCounter, kType32, kSemCounter);
    archive_.AddDesc(kInstant, kType32, kSemInstant);
    archive_.AddDesc(kDiscrete, kType32, kSemDiscrete);
    engine_.set_origin_ns(1 * kSec);
  }

  int32_t At(PmID pmid, int64_t t_ns, bool* present) {
    PmID ids[] = {pmid};
    absl::StatusOr<Result> r = engine_.Fetch(t_ns, ids, profile_, true);
    EXPECT_TRUE(r.ok()) << r.status();
    auto v = Values(*r);
    *present = !v.empty();
    return *present ? v.begin()->second : 0;
  }

  FakeArchive archive_;
  InterpEngine engine_{&archive_, &archive_};
  Profile profile_;
};

TEST_F(InterpTest, ExactTimesReturnTheRecordedValues) {
  bool present;
  EXPECT_EQ(At(kCounter, 3 * kSec, &present), 30);
  EXPECT_TRUE(present);
  EXPECT_EQ(At(kInstant, 9 * kSec, &present), 90);
  EXPECT_EQ(At(kDiscrete, 1 * kSec, &present), 10);
}

TEST_F(InterpTest, CountersInterpolateLinearlyAndRound) {
  bool present;
  EXPECT_EQ(At(kCounter, 2 * kSec, &present), 20);
  EXPECT_EQ(At(kCounter, 4 * kSec, &present), 45);
  EXPECT_EQ(At(kCounter, 4 * kSec + kSec / 3, &present), 50);  // 45+5 = 50
  EXPECT_EQ(At(kCounter, 8 * kSec + kSec / 2, &present), 88);  // 87.5 rounds up
}

TEST_F(InterpTest, InstantAndDiscreteTakeThePrior) {
  bool present;
  EXPECT_EQ(At(kInstant, 3 * kSec + kSec / 2, &present), 30);
  // Nearer to the next observation, still the prior one, as PCP 6.0.3.
  EXPECT_EQ(At(kInstant, 4 * kSec + kSec / 2, &present), 30);
  EXPECT_EQ(At(kDiscrete, 4 * kSec + kSec / 2, &present), 30);
}

TEST_F(InterpTest, EndsOfTheArchive) {
  bool present;
  At(kCounter, kSec / 2, &present);  // before the first record
  EXPECT_FALSE(present);
  At(kInstant, 10 * kSec, &present);  // after the last: no next value
  EXPECT_FALSE(present);
  EXPECT_EQ(At(kDiscrete, 100 * kSec, &present), 90);  // discrete holds its last value
  EXPECT_TRUE(present);
}

TEST(InterpMarkTest, MarkSuppressesValuesAcrossIt) {
  FakeArchive a;
  a.AddDesc(kInstant, kType32, kSemInstant);
  a.AddDesc(kDiscrete, kType32, kSemDiscrete);
  a.AddRecord(1 * kSec, {{kInstant, {{kInNull, 1}}}, {kDiscrete, {{kInNull, 1}}}});
  a.AddMark(2 * kSec);
  a.AddRecord(3 * kSec, {{kInstant, {{kInNull, 3}}}, {kDiscrete, {{kInNull, 3}}}});
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kInstant, kDiscrete};
  auto r = e.Fetch(2 * kSec + kSec / 2, ids, p, true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sets()[0].numval, 0);
  EXPECT_EQ(r->sets()[1].numval, 0);  // the mark is closer than the prior value
  r = e.Fetch(1 * kSec + kSec / 2, ids, p, true);
  EXPECT_EQ(r->sets()[0].numval, 0);   // next bound is the mark
  EXPECT_EQ(Values(*r, 1)[kInNull], 1);
}

TEST(InterpMarkTest, CounterGivesNoValueOnceAfterCrossingAMark) {
  FakeArchive a;
  a.AddDesc(kCounter, kType32, kSemCounter);
  for (int i = 0; i < 3; ++i) a.AddRecord((1 + i) * kSec, {{kCounter, {{kInNull, 10 * i}}}});
  a.AddMark(3 * kSec + kSec / 2);
  for (int i = 0; i < 3; ++i) a.AddRecord((4 + i) * kSec, {{kCounter, {{kInNull, 100 + i}}}});
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kCounter};
  EXPECT_EQ(e.Fetch(2 * kSec, ids, p, true)->sets()[0].numval, 1);
  EXPECT_EQ(e.Fetch(4 * kSec + kSec / 2, ids, p, true)->sets()[0].numval, 0);
  EXPECT_EQ(e.Fetch(5 * kSec, ids, p, true)->sets()[0].numval, 1);
}

TEST(InterpInstancesTest, InstancesComeAndGoAndFollowTheProfile) {
  FakeArchive a;
  a.AddDesc(kPerInst, kType32, kSemInstant, kIndom);
  a.AddRecord(1 * kSec, {{kPerInst, {{Inst{0}, 1}, {Inst{1}, 10}}}});
  a.AddRecord(2 * kSec, {{kPerInst, {{Inst{0}, 2}, {Inst{1}, 20}, {Inst{2}, 200}}}});
  a.AddRecord(3 * kSec, {{kPerInst, {{Inst{0}, 3}, {Inst{2}, 300}}}});
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kPerInst};
  auto v = Values(*e.Fetch(2 * kSec + kSec / 4, ids, p, true));
  EXPECT_EQ(v, (std::map<Inst, int32_t>{{Inst{0}, 2}, {Inst{2}, 200}}));  // inst 1 has no next value
  const Inst only2[] = {Inst{2}};
  p.Delete(kIndom, {});
  p.Add(kIndom, only2);
  v = Values(*e.Fetch(2 * kSec + kSec * 3 / 4, ids, p, true));  // the prior, though nearer the next
  EXPECT_EQ(v, (std::map<Inst, int32_t>{{Inst{2}, 200}}));
}

// libpcp's order: a hash table of 4 buckets for the 4 instances, each
// added at the head of bucket inst % 4 in pmGetInDomArchive's order.
TEST(InterpInstancesTest, ResultListsInstancesInLibpcpsHashOrder) {
  FakeArchive a;
  a.AddDesc(kPerInst, kType32, kSemInstant, kIndom);
  a.SetInstances({Inst{5}, Inst{3}, Inst{8}, Inst{1}});
  a.AddRecord(1 * kSec, {{kPerInst, {{Inst{1}, 10}, {Inst{3}, 30}, {Inst{5}, 50}, {Inst{8}, 80}}}});
  InterpEngine e(&a, &a);
  PmID ids[] = {kPerInst};
  absl::StatusOr<Result> r = e.Fetch(1 * kSec, ids, Profile(), true);
  ASSERT_TRUE(r.ok());
  std::vector<Inst> order;
  for (int j = 0; j < r->sets()[0].numval; ++j) order.push_back(r->value(r->sets()[0], j).inst);
  EXPECT_EQ(order, (std::vector<Inst>{Inst{8}, Inst{1}, Inst{5}, Inst{3}}));
}

// A discrete value is not carried past its instance's life (QA test 1288).
TEST(InterpInstancesTest, DiscreteValuesEndWithTheInstancesLife) {
  FakeArchive a;
  a.AddDesc(kPerInst, kType32, kSemDiscrete, kIndom);
  a.AddRecord(1 * kSec, {{kPerInst, {{Inst{0}, 1}, {Inst{1}, 10}}}});
  a.AddRecord(2 * kSec, {{kPerInst, {{Inst{0}, 2}}}});
  a.AddRecord(3 * kSec, {{kPerInst, {{Inst{0}, 3}}}});
  a.SetLife(Inst{0}, 1 * kSec, std::nullopt);
  a.SetLife(Inst{1}, 1 * kSec, 2 * kSec);
  InterpEngine e(&a, &a);
  PmID ids[] = {kPerInst};
  EXPECT_EQ(Values(*e.Fetch(2 * kSec, ids, Profile(), true)),
            (std::map<Inst, int32_t>{{Inst{0}, 2}, {Inst{1}, 10}}));
  EXPECT_EQ(Values(*e.Fetch(2 * kSec + 1, ids, Profile(), true)),
            (std::map<Inst, int32_t>{{Inst{0}, 2}}));
}

TEST(InterpTypesTest, DoubleCounterAndNonArithmeticCounter) {
  FakeArchive a;
  a.AddDesc(kDoubleCounter, kTypeDouble, kSemCounter);
  a.AddDesc(kStringCounter, kTypeString, kSemCounter);
  a.AddDoubleRecord(1 * kSec, kDoubleCounter, 1.0);
  a.AddDoubleRecord(3 * kSec, kDoubleCounter, 2.0);
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kDoubleCounter, MakePmID(29, 9, 9)};
  auto r = e.Fetch(2 * kSec, ids, p, true);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->sets()[0].numval, 1);
  double d;
  std::memcpy(&d, r->value(r->sets()[0], 0).payload.data(), sizeof d);
  EXPECT_DOUBLE_EQ(d, 1.5);
  EXPECT_EQ(r->sets()[1].numval, kErrPmidLog);  // not in the archive
}

TEST(InterpCacheTest, SteppingForwardReadsEachRecordAFewTimes) {
  FakeArchive a;
  a.AddDesc(kCounter, kType32, kSemCounter);
  for (int i = 0; i < 100; ++i) a.AddRecord(i * kSec, {{kCounter, {{kInNull, i}}}});
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kCounter};
  for (int i = 0; i < 99; ++i) ASSERT_TRUE(e.Fetch(i * kSec + kSec / 2, ids, p, true).ok());
  EXPECT_LT(a.reads, 100 /* timeline scan */ + 2 * 100);
}

TEST(InterpCacheTest, KeptValuesNeedNoReadAfterTheScan) {
  FakeArchive a;
  a.AddDesc(kCounter, kType32, kSemCounter);
  a.AddDoubleRecord(0, kDoubleCounter, 1.0);
  a.AddDesc(kDoubleCounter, kTypeDouble, kSemCounter);
  for (int i = 1; i < 100; ++i) {
    a.AddRecord(i * kSec, {{kCounter, {{kInNull, 10 * i}}}});
    a.AddDoubleRecord(i * kSec, kDoubleCounter, 2.0 * i);
  }
  InterpEngine e(&a, &a);
  Profile p;
  PmID ids[] = {kCounter, kDoubleCounter};
  ASSERT_TRUE(e.Fetch(kSec, ids, p, true).ok());
  const int scan_reads = a.reads;
  // Far apart and back again: no record is decoded again.
  for (int64_t t : {90 * kSec + kSec / 2, 2 * kSec + kSec / 2, 50 * kSec}) {
    absl::StatusOr<Result> r = e.Fetch(t, ids, p, true);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->sets()[0].numval, 1);
    EXPECT_EQ(r->value(r->sets()[0], 0).lval,
              static_cast<int32_t>(10 * t / kSec));
  }
  EXPECT_EQ(a.reads, scan_reads);
}

}  // namespace
}  // namespace pmapi
