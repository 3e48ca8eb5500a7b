// Microbenchmarks of the hot paths: value-set decode, ExtractValue,
// ConvScale, one interpolation step and a fetchgroup conversion. Values
// per second are reported as items_per_second, to set against the raw
// decode ceiling in docs/performance.md.
#include <cstring>
#include <vector>

#include "benchmark/benchmark.h"
#include "fetchgroup_convert.h"
#include "interp.h"
#include "pmapi/extract.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"
#include "result_codec.h"

namespace pmapi {
namespace {

constexpr int kInstances = 200;
constexpr PmID kCounter = MakePmID(60, 0, 4);
constexpr PmID kGauge = MakePmID(60, 0, 5);
constexpr InDom kIndom = MakeInDom(60, 1);

// A record like a busy archive's: a 64-bit counter and a double gauge over
// kInstances instances, at time t seconds.
Result MakeRecord(int64_t t) {
  Result r;
  r.set_timestamp_ns(t * 1000000000);
  r.AddSet(kCounter, kInstances, kValDptr);
  for (int i = 0; i < kInstances; ++i) {
    uint64_t v = static_cast<uint64_t>(t * 1000 + i);
    uint8_t b[8];
    std::memcpy(b, &v, 8);
    r.AddBlock(i, kTypeU64, b);
  }
  r.AddSet(kGauge, kInstances, kValDptr);
  for (int i = 0; i < kInstances; ++i) {
    double v = static_cast<double>(t) + i * 0.5;
    uint8_t b[8];
    std::memcpy(b, &v, 8);
    r.AddBlock(i, kTypeDouble, b);
  }
  return r;
}

void BM_DecodeValueSets(benchmark::State& state) {
  const std::vector<uint8_t> body = EncodeResult(MakeRecord(1), ResultLayout::kTimeval);
  Result out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodeResult(body, ResultLayout::kTimeval, -1, &out).ok());
  }
  state.SetItemsProcessed(state.iterations() * 2 * kInstances);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(body.size()));
}
BENCHMARK(BM_DecodeValueSets);

void BM_ExtractValue(benchmark::State& state) {
  const Result r = MakeRecord(1);
  const ValueSet& vs = r.sets()[0];
  for (auto _ : state) {
    for (int j = 0; j < vs.numval; ++j) {
      benchmark::DoNotOptimize(ExtractValue(vs.valfmt, r.value(vs, j), kTypeU64, kTypeDouble));
    }
  }
  state.SetItemsProcessed(state.iterations() * kInstances);
}
BENCHMARK(BM_ExtractValue);

void BM_ConvScale(benchmark::State& state) {
  Units kb;
  kb.dim_space = 1;
  kb.scale_space = 1;
  Units mb = kb;
  mb.scale_space = 2;
  AtomValue in;
  in.d = 1536.0;
  for (auto _ : state) benchmark::DoNotOptimize(ConvScale(kTypeDouble, in, kb, mb));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ConvScale);

// An archive of 3600 one-second records held in memory.
class MemoryRecords : public RecordSource, public InterpMetadata {
 public:
  MemoryRecords() {
    for (int t = 0; t < 3600; ++t) bodies_.push_back(EncodeResult(MakeRecord(t), ResultLayout::kTimeval));
    counter_ = Desc{kCounter, kTypeU64, kIndom, kSemCounter, Units{}};
  }
  absl::StatusOr<size_t> Count() override { return bodies_.size(); }
  int64_t TimeNs(size_t i) override { return static_cast<int64_t>(i) * 1000000000; }
  bool IsMark(size_t) override { return false; }
  absl::Status Read(size_t i, Result* out) override {
    return DecodeResult(bodies_[i], ResultLayout::kTimeval, -1, out);
  }
  const Desc* FindDesc(PmID pmid) override { return pmid == kCounter ? &counter_ : nullptr; }
  const std::vector<int32_t>& AllInstances(InDom) override {
    if (all_.empty()) {
      for (int i = 0; i < kInstances; ++i) all_.push_back(i);
    }
    return all_;
  }

 private:
  std::vector<std::vector<uint8_t>> bodies_;
  std::vector<int32_t> all_;
  Desc counter_;
};

void BM_InterpolationStep(benchmark::State& state) {
  MemoryRecords records;
  InterpEngine engine(&records, &records);
  const PmID pmids[] = {kCounter};
  Profile all;
  int64_t t = 500000000;  // half way between records
  for (auto _ : state) {
    absl::StatusOr<Result> r = engine.Fetch(t, pmids, all, true);
    benchmark::DoNotOptimize(r.ok());
    t += static_cast<int64_t>(state.range(0)) * 1000000000;
    if (t >= 3598LL * 1000000000) t = 500000000;
  }
  state.SetItemsProcessed(state.iterations() * kInstances);
}
// Steps of 1 s and of 60 s: the cost must not grow with the step.
BENCHMARK(BM_InterpolationStep)->Arg(1)->Arg(60);

void BM_FetchGroupConversion(benchmark::State& state) {
  const Result r = MakeRecord(1);
  const ValueSet& vs = r.sets()[1];
  FetchGroupValue out;
  for (auto _ : state) {
    for (int j = 0; j < vs.numval; ++j) {
      benchmark::DoNotOptimize(CastValue(vs.valfmt, r.value(vs, j), kTypeDouble, kTypeU32, &out));
    }
  }
  state.SetItemsProcessed(state.iterations() * kInstances);
}
BENCHMARK(BM_FetchGroupConversion);

}  // namespace
}  // namespace pmapi
