#include "pmdas/test/test_agent.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/pmda_cache.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

enum : unsigned { kColourIndom = 0, kBinIndom = 1, kEmptyIndom = 2, kCacheIndom = 3 };
enum : unsigned {
  kValues = 0,
  kStorable = 1,
  kBehaviour = 2,
  kDynamic = 3,
  kEvents = 4,
  kCache = 5
};

// The event parameters: one metric of each type a parameter may have.
constexpr int kParamTypes[] = {kType32,    kTypeU32,   kType64,     kTypeU64,
                               kTypeFloat, kTypeDouble, kTypeString, kTypeAggregate};
constexpr unsigned kFirstParamItem = 2;

// The cache-backed instance domain: its instances live in a pmdaCache and
// come and go through stores to test.cache.control.
class CacheIndom : public PmdaIndomSource {
 public:
  bool Handles(InDom indom) const override { return indom == indom_; }
  std::vector<PmdaInstid> Active(InDom indom) const override {
    std::vector<PmdaInstid> out;
    if (indom != indom_) return out;
    (void)caches_.Op(indom_, kCacheWalkRewind);
    for (;;) {
      absl::StatusOr<int> next = caches_.Op(indom_, kCacheWalkNext);
      if (!next.ok() || *next < 0) break;
      const Inst inst{*next};
      absl::StatusOr<CacheEntryInfo> e = caches_.Lookup(indom_, inst);
      if (e.ok()) out.push_back({inst, e->name});
    }
    return out;
  }
  void Start(InDom indom) {
    indom_ = indom;
    for (const char* name : {"alpha", "beta", "gamma"}) (void)caches_.Store(indom_, kCacheAdd, name, nullptr);
  }
  // "add NAME", "hide NAME" or "cull NAME".
  absl::Status Control(const std::string& command) {
    const size_t space = command.find(' ');
    if (space == std::string::npos || space + 1 >= command.size()) return PcpError(kErrConv);
    const std::string verb = command.substr(0, space), name = command.substr(space + 1);
    int flags = 0;
    if (verb == "add") flags = kCacheAdd;
    else if (verb == "hide") flags = kCacheHide;
    else if (verb == "cull") flags = kCacheCull;
    else return PcpError(kErrConv);
    absl::StatusOr<Inst> inst = caches_.Store(indom_, flags, name, nullptr);
    return inst.ok() ? absl::OkStatus() : inst.status();
  }
  // Returns the entry of an active instance; PM_ERR_INST otherwise.
  absl::StatusOr<CacheEntryInfo> Find(Inst inst) const {
    absl::StatusOr<CacheEntryInfo> e = caches_.Lookup(indom_, inst);
    if (e.ok() && e->state != kCacheActive) return PcpError(kErrInst);
    return e;
  }

 private:
  InDom indom_ = kInDomNull;
  mutable InDomCaches caches_;
};

// What the agent remembers between requests.
struct TestState {
  int32_t write_me = 2;
  int32_t dial[3] = {0, 100, 200};
  std::string note = "unset";
  uint32_t numfetch = 0;
  EventArrays events;
  int records = -1;          // the array of test.event.records
  int highres_records = -1;  // the array of test.event.highres_records
  CacheIndom cache;
};

constexpr Units kNone{};
constexpr Units kCount{0, 0, 1, 0, 0, kCountOne};

PmdaMetric Metric(unsigned cluster, unsigned item, int type, InDom indom, int sem, Units u = kNone) {
  return PmdaMetric{nullptr, Desc{PmdaPmid(cluster, item), type, indom, sem, u}};
}

std::vector<PmdaMetric> Metrics() {
  return {
      Metric(kValues, 0, kType32, kInDomNull, kSemDiscrete),
      Metric(kValues, 1, kTypeU32, kInDomNull, kSemDiscrete),
      Metric(kValues, 2, kType64, kInDomNull, kSemDiscrete),
      Metric(kValues, 3, kTypeU64, kInDomNull, kSemDiscrete),
      Metric(kValues, 4, kTypeFloat, kInDomNull, kSemDiscrete),
      Metric(kValues, 5, kTypeDouble, kInDomNull, kSemDiscrete),
      Metric(kValues, 6, kTypeString, kInDomNull, kSemDiscrete),
      Metric(kValues, 7, kTypeAggregate, kInDomNull, kSemDiscrete),
      Metric(kValues, 8, kType32, PmdaInDom(kColourIndom), kSemInstant),
      Metric(kValues, 9, kTypeU32, PmdaInDom(kBinIndom), kSemInstant, kCount),
      Metric(kValues, 10, kType64, kInDomNull, kSemInstant),
      Metric(kStorable, 0, kType32, kInDomNull, kSemInstant),
      Metric(kStorable, 1, kType32, PmdaInDom(kColourIndom), kSemInstant),
      Metric(kStorable, 2, kTypeString, kInDomNull, kSemDiscrete),
      Metric(kStorable, 3, kTypeU32, kInDomNull, kSemDiscrete),
      Metric(kBehaviour, 0, kTypeU32, kInDomNull, kSemCounter, kCount),
      Metric(kBehaviour, 1, kType32, PmdaInDom(kEmptyIndom), kSemInstant),
      Metric(kBehaviour, 2, kType32, kInDomNull, kSemInstant),
      Metric(kBehaviour, 3, kType32, kInDomNull, kSemInstant),
      Metric(kBehaviour, 4, kType32, PmdaInDom(kColourIndom), kSemInstant),
      Metric(kEvents, 0, kTypeEvent, kInDomNull, kSemInstant),
      Metric(kEvents, 1, kTypeHighResEvent, kInDomNull, kSemInstant),
      Metric(kEvents, 2, kType32, kInDomNull, kSemInstant),
      Metric(kEvents, 3, kTypeU32, kInDomNull, kSemInstant),
      Metric(kEvents, 4, kType64, kInDomNull, kSemInstant),
      Metric(kEvents, 5, kTypeU64, kInDomNull, kSemInstant),
      Metric(kEvents, 6, kTypeFloat, kInDomNull, kSemInstant),
      Metric(kEvents, 7, kTypeDouble, kInDomNull, kSemInstant),
      Metric(kEvents, 8, kTypeString, kInDomNull, kSemInstant),
      Metric(kEvents, 9, kTypeAggregate, kInDomNull, kSemInstant),
      Metric(kCache, 0, kTypeU32, PmdaInDom(kCacheIndom), kSemInstant),
      Metric(kCache, 1, kTypeString, kInDomNull, kSemDiscrete),
  };
}

std::vector<PmdaIndom> Indoms() {
  std::vector<PmdaIndom> out(4);
  out[0] = PmdaIndom{PmdaInDom(kColourIndom),
                     {{Inst{0}, "red"}, {Inst{1}, "green"}, {Inst{2}, "blue"}}};
  out[1].indom = PmdaInDom(kBinIndom);
  for (int i = 1; i <= 9; ++i) out[1].set.push_back({Inst{i * 100}, absl::StrCat("bin-", i * 100)});
  out[2].indom = PmdaInDom(kEmptyIndom);
  out[3].indom = PmdaInDom(kCacheIndom);  // its instances come from the cache
  return out;
}

int FetchValue(const TestState& st, unsigned item, Inst inst, AtomValue* atom) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  switch (item) {
    case 0: atom->l = -1; return 1;
    case 1: atom->ul = 4000000000u; return 1;
    case 2: atom->ll = -5000000000LL; return 1;
    case 3: atom->ull = 18000000000000000000ULL; return 1;
    case 4: atom->f = 1.5f; return 1;
    case 5: atom->d = 3.25; return 1;
    case 6: atom->bytes = "hullo world!"; return 1;
    case 7: atom->bytes = std::string("\x01\x02\x00\xff", 4); return kPmdaFetchDynamic;
    case 8:
      if (i > 2) return kErrInst;
      atom->l = 101 * static_cast<int32_t>(i + 1);
      return 1;
    case 9:
      if (i < 100 || i > 900 || i % 100 != 0) return kErrInst;
      atom->ul = i;
      return 1;
    case 10: atom->ll = st.numfetch; return 1;
  }
  return kErrPmid;
}

int FetchStorable(const TestState& st, unsigned item, Inst inst, AtomValue* atom) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  switch (item) {
    case 0: atom->l = st.write_me; return 1;
    case 1:
      if (i > 2) return kErrInst;
      atom->l = st.dial[i];
      return 1;
    case 2: atom->bytes = st.note; return 1;
    case 3: atom->ul = 7; return 1;
  }
  return kErrPmid;
}

int FetchBehaviour(const TestState& st, unsigned item, Inst inst, AtomValue* atom) {
  switch (item) {
    case 0: atom->ul = st.numfetch; return 1;
    case 1: return kErrInst;                     // never called: no instances
    case 2: return kPmdaFetchNoValues;           // no value right now
    case 3: return kErrAgain;                    // temporarily unavailable
    case 4: return inst == Inst{1} ? kPmdaFetchNoValues : (atom->l = ToPcp(inst), 1);
  }
  return kErrPmid;
}

// The value every parameter metric carries in the first record.
AtomValue ParamValue(int type) {
  AtomValue v;
  switch (type) {
    case kType32: v.l = -3; break;
    case kTypeU32: v.ul = 4000000000u; break;
    case kType64: v.ll = -5000000000LL; break;
    case kTypeU64: v.ull = 18000000000000000000ULL; break;
    case kTypeFloat: v.f = 1.5f; break;
    case kTypeDouble: v.d = -2.25; break;
    case kTypeString: v.bytes = "event string"; break;
    default: v.bytes = std::string("\x01\x02\x00\xff", 4); break;
  }
  return v;
}

// Fills one array with the agent's fixed records: a point with a
// parameter of every type, seven missed records, and a start record with
// one string parameter, at fixed times (microsecond or nanosecond).
absl::Status FillRecords(EventArrays& ev, int idx, bool highres, int domain) {
  constexpr int64_t kSec = 1700000000;
  if (absl::Status s = ev.ResetArray(idx); !s.ok()) return s;
  auto record = [&](int64_t sec, int64_t frac, int flags) {
    return highres ? ev.AddHighResRecord(idx, sec, frac, flags) : ev.AddRecord(idx, sec, frac / 1000, flags);
  };
  auto param = [&](unsigned item, int type, const AtomValue& v) {
    const PmID id = MakePmID(domain, kEvents, item);
    return highres ? ev.AddHighResParam(idx, id, type, v) : ev.AddParam(idx, id, type, v);
  };
  absl::Status s = record(kSec, 123456789, kEventFlagPoint);
  for (unsigned i = 0; s.ok() && i < std::size(kParamTypes); ++i) {
    s = param(kFirstParamItem + i, kParamTypes[i], ParamValue(kParamTypes[i]));
  }
  if (s.ok()) {
    s = highres ? ev.AddHighResMissedRecord(idx, kSec + 1, 0, 7) : ev.AddMissedRecord(idx, kSec + 1, 0, 7);
  }
  if (s.ok()) s = record(kSec + 2, 500000000, kEventFlagStart | kEventFlagId);
  AtomValue last;
  last.bytes = "last";
  if (s.ok()) s = param(kFirstParamItem + 6, kTypeString, last);
  return s;
}

int FetchEvents(TestState& st, unsigned item, int domain, AtomValue* atom) {
  if (item >= kFirstParamItem) return item < kFirstParamItem + std::size(kParamTypes) ? kPmdaFetchNoValues : kErrPmid;
  const bool highres = item == 1;
  int& idx = highres ? st.highres_records : st.records;
  if (idx < 0) idx = highres ? st.events.NewHighResArray() : st.events.NewArray();
  if (!FillRecords(st.events, idx, highres, domain).ok()) return kErrGeneric;
  absl::StatusOr<std::span<const uint8_t>> block =
      highres ? st.events.GetHighResAddr(idx) : st.events.GetAddr(idx);
  if (!block.ok() || block->size() < 4) return kErrGeneric;
  // the value is the array after its block header word
  atom->bytes.assign(reinterpret_cast<const char*>(block->data()) + 4, block->size() - 4);
  return kPmdaFetchDynamic;
}

int FetchCache(const TestState& st, unsigned item, Inst inst, AtomValue* atom) {
  if (item == 1) {
    atom->bytes = "add NAME, hide NAME or cull NAME";
    return 1;
  }
  if (item != 0) return kErrPmid;
  absl::StatusOr<CacheEntryInfo> e = st.cache.Find(inst);
  if (!e.ok()) return kErrInst;
  atom->ul = static_cast<uint32_t>(e->name.size()) * 10 + static_cast<uint32_t>(ToPcp(inst));
  return 1;
}

int TestFetchCallback(TestState& st, const PmdaMetric& m, Inst inst, AtomValue* atom) {
  const unsigned cluster = PmIDCluster(m.desc.pmid), item = PmIDItem(m.desc.pmid);
  if (m.desc.indom == kInDomNull && inst != kInNull) return kErrInst;
  switch (cluster) {
    case kValues: return FetchValue(st, item, inst, atom);
    case kStorable: return FetchStorable(st, item, inst, atom);
    case kBehaviour: return FetchBehaviour(st, item, inst, atom);
    case kDynamic:
      if (item > 1) return kErrPmid;
      atom->l = static_cast<int32_t>(item) + 10;
      return 1;
    case kEvents: return FetchEvents(st, item, static_cast<int>(PmIDDomain(m.desc.pmid)), atom);
    case kCache: return FetchCache(st, item, inst, atom);
  }
  return kErrPmid;
}

// Checks a stored 32-bit value as the Guide's simple agent does.
absl::Status CheckRange(int32_t v) {
  if (v < 0) return PcpError(kErrSign);
  if (v > 255) return PcpError(kErrConv);
  return absl::OkStatus();
}

// A string stored to test.cache.control changes the cache's instances.
absl::Status StoreCache(TestState& st, const Result& r, const ValueSet& vs) {
  if (PmIDItem(vs.pmid) != 1) return PcpError(kErrPermission);
  if (vs.numval != 1) return PcpError(kErrValue);
  ValueView v = r.value(vs, 0);
  if (vs.valfmt == kValInsitu || v.vtype != kTypeString) return PcpError(kErrConv);
  std::string s(reinterpret_cast<const char*>(v.payload.data()), v.payload.size());
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return st.cache.Control(s);
}

absl::Status StoreSet(TestState& st, const Result& r, const ValueSet& vs) {
  if (PmIDCluster(vs.pmid) == kCache) return StoreCache(st, r, vs);
  if (PmIDCluster(vs.pmid) != kStorable) return PcpError(kErrPermission);
  if (vs.numval <= 0) return PcpError(kErrValue);
  switch (PmIDItem(vs.pmid)) {
    case 0: {
      if (vs.numval != 1 || vs.valfmt != kValInsitu) return PcpError(kErrConv);
      int32_t v = r.value(vs, 0).lval;
      if (absl::Status s = CheckRange(v); !s.ok()) return s;
      st.write_me = v;
      return absl::OkStatus();
    }
    case 1:
      if (vs.valfmt != kValInsitu) return PcpError(kErrConv);
      for (int j = 0; j < vs.numval; ++j) {
        ValueView v = r.value(vs, j);
        const int32_t inst = ToPcp(v.inst);
        if (inst < 0 || inst > 2) return PcpError(kErrInst);
        if (absl::Status s = CheckRange(v.lval); !s.ok()) return s;
        st.dial[inst] = v.lval;
      }
      return absl::OkStatus();
    case 2: {
      ValueView v = r.value(vs, 0);
      if (vs.valfmt == kValInsitu || v.vtype != kTypeString) return PcpError(kErrConv);
      std::string s(reinterpret_cast<const char*>(v.payload.data()), v.payload.size());
      if (!s.empty() && s.back() == '\0') s.pop_back();
      st.note = s;
      return absl::OkStatus();
    }
    case 3:
      return PcpError(kErrPermission);
  }
  return PcpError(kErrPmid);
}

absl::StatusOr<std::vector<LabelSet>> TestLabels(uint32_t ident, int type, Pmda& pmda) {
  LabelSet set;
  absl::Status s;
  if (type == kLabelInDom && InDomSerial(InDom{ident}) == kColourIndom) {
    s = PmdaAddLabels(&set, "{\"indom_name\":\"colour\"}");
    if (s.ok()) s = PmdaAddLabels(&set, "{\"model\":\"RGB\"}");
  } else if (type == kLabelCluster && PmIDCluster(PmID{ident}) == kStorable) {
    s = PmdaAddLabels(&set, "{\"storable\":true}");
  } else if (type == kLabelItem && PmID{ident} == MakePmID(pmda.domain(), kValues, 0)) {
    s = PmdaAddLabels(&set, "{\"sign\":\"negative\"}");
  } else {
    return pmda.DefaultLabel(ident, type);
  }
  if (!s.ok()) return s;
  return std::vector<LabelSet>{std::move(set)};
}

// Names below test.dynamic, served by the agent itself.
constexpr const char* kDynamicNames[] = {"test.dynamic.alpha", "test.dynamic.beta"};

void InstallDynamicNames(Pmda& dp) {
  dp.dispatch().pmid = [](std::string_view name, Pmda& pmda) -> absl::StatusOr<PmID> {
    for (unsigned i = 0; i < 2; ++i) {
      if (name == kDynamicNames[i]) return MakePmID(pmda.domain(), kDynamic, i);
    }
    return PcpError(kErrName);
  };
  dp.dispatch().name = [](PmID id, Pmda&) -> absl::StatusOr<std::vector<std::string>> {
    if (PmIDCluster(id) == kDynamic && PmIDItem(id) < 2) return std::vector<std::string>{kDynamicNames[PmIDItem(id)]};
    return PcpError(kErrPmid);
  };
  dp.dispatch().children = [](std::string_view name, bool traverse,
                              Pmda&) -> absl::StatusOr<std::vector<PmnsChild>> {
    if (name != "test.dynamic") {
      for (const char* n : kDynamicNames) {
        if (name == n) return std::vector<PmnsChild>{};
      }
      return PcpError(kErrName);
    }
    std::vector<PmnsChild> out;
    for (const char* n : kDynamicNames) {
      out.push_back(PmnsChild{traverse ? std::string(n) : std::string(std::strrchr(n, '.') + 1), true});
    }
    return out;
  };
}

}  // namespace

void TestAgentInit(Pmda& dp) {
  dp.Dso(kPmdaInterface7, "test DSO", dp.home() + "/help");
  if (dp.status() != 0) return;
  auto state = std::make_shared<TestState>();
  dp.SetData(state.get());
  state->cache.Start(MakeInDom(dp.domain(), kCacheIndom));
  dp.SetIndomSource(&state->cache);
  dp.dispatch().fetch = [state](std::span<const PmID> ids, Result* result, Pmda& pmda) {
    ++state->numfetch;
    return pmda.DefaultFetch(ids, result);
  };
  dp.dispatch().store = [state](const Result& r, Pmda& pmda) {
    for (const ValueSet& vs : r.sets()) {
      if (pmda.FindMetric(vs.pmid) == nullptr) return PcpError(kErrPmid);
      if (absl::Status s = StoreSet(*state, r, vs); !s.ok()) return s;
    }
    return absl::OkStatus();
  };
  dp.dispatch().label = TestLabels;
  InstallDynamicNames(dp);
  dp.SetFetchCallback([state](const PmdaMetric& m, Inst inst, AtomValue* atom) {
    return TestFetchCallback(*state, m, inst, atom);
  });
  dp.SetLabelCallback([](InDom indom, Inst inst, LabelSet* labels) {
    const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
    if (InDomSerial(indom) != kColourIndom || i > 2) return 0;
    static constexpr const char* kNames[] = {"red", "green", "blue"};
    absl::Status s = PmdaAddLabels(labels, absl::StrCat("{\"colour\":\"", kNames[i], "\"}"));
    return s.ok() ? 1 : PcpCode(s);
  });
  std::vector<PmdaMetric> metrics = Metrics();
  // the dynamic metrics have descriptors in the table, names from the agent
  metrics.push_back(Metric(kDynamic, 0, kType32, kInDomNull, kSemInstant));
  metrics.push_back(Metric(kDynamic, 1, kType32, kInDomNull, kSemInstant));
  dp.Init(Indoms(), std::move(metrics));
}

}  // namespace pmapi

// The agent as a shared object: "test 250 dso test_init PATH/pmda_test.so".
PMAPI_PMDA_EXPORT_ABI
extern "C" __attribute__((visibility("default"))) void test_init(pmapi::Pmda* dp) { pmapi::TestAgentInit(*dp); }
