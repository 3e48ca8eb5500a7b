#include "interp.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>

#include "pmapi/errors.h"
#include "pmapi/interval.h"

extern "C" char* pmGetProgname(void);

namespace pmapi {
namespace {

constexpr size_t kCachedRecords = 8;  // (record, metric) pairs
// Whole records (decoded for the metrics sampled together, when they are
// many) cached: enough for the records around a sample and the last
// records of the instances that have gone.
constexpr size_t kCachedWholeRecords = 32;
// Asked for more metrics at once than this, the engine keeps no values and
// reads them from whole records, so its memory does not grow with the
// archive's values.
constexpr size_t kFewMetrics = 16;

bool CounterWrapEnabled() {
  static const bool wrap = std::getenv("PCP_COUNTER_WRAP") != nullptr;
  return wrap;
}

// True when a value set's format suits the metric's type: 32-bit integers
// in place, floats either way (the old in-place form), all else in blocks.
bool FormatFitsType(int valfmt, int type) {
  if (type == kType32 || type == kTypeU32) return valfmt == kValInsitu;
  if (type == kTypeFloat) return true;
  return valfmt != kValInsitu;
}

bool IsArithmetic(int type) {
  return type == kType32 || type == kTypeU32 || type == kType64 || type == kTypeU64 ||
         type == kTypeFloat || type == kTypeDouble;
}

// Seconds from `origin_ns` to `t_ns`, computed as PCP computes the
// difference of two timestamps, so rounding agrees.
double RelSeconds(int64_t t_ns, int64_t origin_ns) {
  int64_t sec = t_ns / 1000000000 - origin_ns / 1000000000;
  int64_t nsec = t_ns % 1000000000 - origin_ns % 1000000000;
  return static_cast<double>(sec) + static_cast<double>(nsec) / 1e9;
}

// The conversions C performs on x86-64 when a double is assigned to an
// integer, without the undefined behaviour of out-of-range values.
int32_t DoubleToInt32(double d) {
  if (!(d > -2147483649.0 && d < 2147483648.0)) return INT32_MIN;
  return static_cast<int32_t>(d);
}
uint32_t DoubleToUint32(double d) {
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return 0;
  return static_cast<uint32_t>(static_cast<int64_t>(d));
}
int64_t DoubleToInt64(double d) {
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(d);
}
// x86-64 converts to unsigned through the signed conversion: below 2^63
// directly (a negative value wraps; out of range gives 2^63), from 2^63 on
// after subtracting 2^63 (so 2^64 and beyond give 0).
uint64_t DoubleToUint64(double d) {
  constexpr double k2p63 = 9223372036854775808.0;
  if (d >= k2p63) {
    const double rest = d - k2p63;
    const uint64_t low = rest < k2p63 ? static_cast<uint64_t>(static_cast<int64_t>(rest))
                                      : 0x8000000000000000ull;
    return low ^ 0x8000000000000000ull;
  }
  if (d >= -k2p63 && d < k2p63) return static_cast<uint64_t>(static_cast<int64_t>(d));
  return 0x8000000000000000ull;
}

template <typename T>
T Load(std::span<const uint8_t> p) {
  T v{};
  if (p.size() >= sizeof(T)) std::memcpy(&v, p.data(), sizeof(T));
  return v;
}

template <typename T>
std::vector<uint8_t> Store(T v) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

// Linear interpolation of a counter between two observations, with PCP's
// arithmetic for each type. `frac` is (t - t_prior) / (t_next - t_prior)
// expressed as its two factors to keep PCP's order of operations.
struct CounterSpan {
  double dt;    // t - t_prior, seconds
  double span;  // t_next - t_prior, seconds
};

int32_t Interp32(int32_t prior, int32_t next, CounterSpan s) {
  if (next >= prior || !CounterWrapEnabled()) {
    int32_t diff = static_cast<int32_t>(static_cast<uint32_t>(next) - static_cast<uint32_t>(prior));
    return DoubleToInt32(0.5 + prior + s.dt * diff / s.span);
  }
  int32_t wrapped = static_cast<int32_t>(0xffffffffu - static_cast<uint32_t>(prior) + 1u +
                                         static_cast<uint32_t>(next));
  int32_t v = DoubleToInt32(0.5 + s.dt * wrapped / s.span);
  return static_cast<int32_t>(static_cast<uint32_t>(v) + static_cast<uint32_t>(prior));
}

uint32_t InterpU32(uint32_t prior, uint32_t next, CounterSpan s) {
  if (next >= prior) return DoubleToUint32(0.5 + prior + s.dt * (next - prior) / s.span);
  if (CounterWrapEnabled()) {
    uint32_t wrapped = 0xffffffffu - prior + 1u + next;
    return DoubleToUint32(0.5 + s.dt * wrapped / s.span) + prior;
  }
  uint32_t drop = prior - next;
  return DoubleToUint32(0.5 + prior - s.dt * drop / s.span);
}

int64_t Interp64(int64_t prior, int64_t next, CounterSpan s) {
  uint64_t diff = static_cast<uint64_t>(next) - static_cast<uint64_t>(prior);
  if (next < prior && CounterWrapEnabled()) {
    diff = 0xffffffffffffffffull - static_cast<uint64_t>(prior) + 1u + static_cast<uint64_t>(next);
  }
  double d = static_cast<double>(static_cast<int64_t>(diff));
  return DoubleToInt64(0.5 + static_cast<double>(prior) + s.dt * d / s.span);
}

// As Debian's libpcp computes it (measured against it on PCP's QA
// archives): the prior observation and the difference taken as signed,
// as for a signed counter, the result converted to unsigned.
uint64_t InterpU64(uint64_t prior_bits, uint64_t next_bits, CounterSpan s) {
  const double base = static_cast<double>(static_cast<int64_t>(prior_bits));
  uint64_t diff = next_bits - prior_bits;
  if (next_bits < prior_bits && CounterWrapEnabled()) {
    diff = 0xffffffffffffffffull - prior_bits + 1u + next_bits;
  }
  const double step = static_cast<double>(static_cast<int64_t>(diff));
  return DoubleToUint64(0.5 + base + s.dt * step / s.span);
}

// The instances in the order PCP's interpolated results list them: its
// per-metric hash table of instances, sized to the instance count, each
// instance in bucket (unsigned)inst % size at the head of the chain in the
// order of `all`; the buckets are walked in order.
std::vector<Inst> ResultOrder(const std::vector<Inst>& all) {
  const size_t size = all.size();
  std::vector<size_t> index(size);
  for (size_t i = 0; i < size; ++i) index[i] = i;
  auto bucket = [&](size_t i) { return static_cast<uint32_t>(ToPcp(all[i])) % size; };
  std::sort(index.begin(), index.end(), [&](size_t a, size_t b) {
    return bucket(a) != bucket(b) ? bucket(a) < bucket(b) : a > b;
  });
  std::vector<Inst> out(size);
  for (size_t i = 0; i < size; ++i) out[i] = all[index[i]];
  return out;
}

// PCP_IGNORE_MARK_RECORDS, read once as PCP reads it: unset, every <mark>
// counts; empty (or a zero interval), none does; an interval, a <mark>
// between records at most that far apart does not. A malformed interval
// is reported and the variable ignored.
std::optional<int64_t> IgnoreMarkGapNs() {
  static const std::optional<int64_t> gap = []() -> std::optional<int64_t> {
    const char* text = std::getenv("PCP_IGNORE_MARK_RECORDS");
    if (text == nullptr) return std::nullopt;
    if (*text == '\0') return 0;
    absl::StatusOr<absl::Duration> d = ParseInterval(text);
    if (!d.ok()) {
      std::fprintf(stderr,
                   "%s: Warning: bad $PCP_IGNORE_MARK_RECORDS: not in pmParseInterval(3) "
                   "format:\n%s\n",
                   pmGetProgname(), std::string(d.status().message()).c_str());
      return std::nullopt;
    }
    return absl::ToInt64Nanoseconds(*d);
  }();
  return gap;
}

}  // namespace

const std::vector<Inst>& InterpEngine::Order(const Desc& desc, Timeline* tl) {
  if (!tl->order) {
    tl->order = desc.indom == kInDomNull ? std::vector<Inst>{kInNull}
                                         : ResultOrder(metadata_->AllInstances(desc.indom));
  }
  return *tl->order;
}

bool InterpEngine::OutsideLife(const Desc& desc, Inst inst, int64_t t_ns) {
  if (desc.indom == kInDomNull) return false;
  const InterpMetadata::Lifetimes* lives = metadata_->InstanceLifetimes(desc.indom);
  if (lives == nullptr) return false;
  auto it = lives->find(inst);
  if (it == lives->end()) return false;
  return t_ns < it->second.birth_ns || (it->second.death_ns && t_ns > *it->second.death_ns);
}

bool InterpEngine::FindValue(CachedResult& c, PmID pmid, Inst inst, bool singular,
                             ValueView* out) {
  if (c.indexed != pmid) {
    c.indexed = pmid;
    c.set = nullptr;
    c.by_inst.clear();
    if (c.pmid == kPmIDNull) {
      auto k = c.set_of.find(pmid);
      if (k != c.set_of.end()) c.set = &c.result.sets()[k->second];
    } else {
      for (const ValueSet& vs : c.result.sets()) {
        if (vs.pmid == pmid) {
          c.set = &vs;
          break;
        }
      }
    }
    if (c.set != nullptr) {
      // The first value of each instance, as a forward search finds it.
      for (int j = c.set->numval - 1; j >= 0; --j) c.by_inst[c.result.value(*c.set, j).inst] = j;
    }
  }
  if (c.set == nullptr || c.set->numval <= 0) return false;
  if (singular) {
    *out = c.result.value(*c.set, 0);
    return true;
  }
  auto it = c.by_inst.find(inst);
  if (it == c.by_inst.end()) return false;
  *out = c.result.value(*c.set, it->second);
  return true;
}

InterpEngine::PendingValue InterpEngine::FromView(Inst inst, const ValueView& v) {
  PendingValue p;
  p.inst = inst;
  p.lval = v.lval;
  p.vtype = v.vtype;
  p.payload.assign(v.payload.begin(), v.payload.end());
  return p;
}

// libpcp builds a fresh block for a number it returns: of the metric's
// own type (old archives wrote vtype 0) and the type's size.
void InterpEngine::AsDescribed(int type, PendingValue* v) {
  size_t size = 0;
  if (type == kType64 || type == kTypeU64 || type == kTypeDouble) size = 8;
  if (type == kTypeFloat) size = 4;
  if (size == 0) return;
  v->vtype = type;
  v->payload.resize(size, 0);
}

InterpEngine::PendingValue InterpEngine::InterpolateCounter(int type, int valfmt, Inst inst,
                                                           const ValueView& a, const ValueView& b,
                                                           double dt, double span) {
  CounterSpan s{dt, span};
  PendingValue p;
  p.inst = inst;
  p.vtype = type;
  switch (type) {
    case kType32:
      p.lval = Interp32(a.lval, b.lval, s);
      break;
    case kTypeU32:
      p.lval = static_cast<int32_t>(
          InterpU32(static_cast<uint32_t>(a.lval), static_cast<uint32_t>(b.lval), s));
      break;
    case kType64:
      p.payload = Store(Interp64(Load<int64_t>(a.payload), Load<int64_t>(b.payload), s));
      break;
    case kTypeU64:
      p.payload = Store(InterpU64(Load<uint64_t>(a.payload), Load<uint64_t>(b.payload), s));
      break;
    case kTypeFloat: {
      float fa, fb;
      if (valfmt == kValInsitu) {
        std::memcpy(&fa, &a.lval, sizeof fa);
        std::memcpy(&fb, &b.lval, sizeof fb);
      } else {
        fa = Load<float>(a.payload);
        fb = Load<float>(b.payload);
      }
      float f = static_cast<float>(fa + s.dt * (fb - fa) / s.span);
      if (valfmt == kValInsitu) {
        std::memcpy(&p.lval, &f, sizeof f);
      } else {
        p.payload = Store(f);
      }
      break;
    }
    case kTypeDouble: {
      double da = Load<double>(a.payload), db = Load<double>(b.payload);
      p.payload = Store(da + s.dt * (db - da) / s.span);
      break;
    }
  }
  return p;
}

absl::Status RecordSource::Scan(std::span<const PmID> only,
                                const std::function<void(size_t, const Result&)>& visit) {
  absl::StatusOr<size_t> n = Count();
  if (!n.ok()) return n.status();
  Result r;
  for (size_t i = 0; i < *n; ++i) {
    if (IsMark(i)) continue;
    if (absl::Status s = ReadOnly(i, only, &r); !s.ok()) return s;
    visit(i, r);
  }
  return absl::OkStatus();
}

void InterpEngine::ResetHistory() {
  have_last_ = false;
  last_numval_.clear();
}

absl::Status InterpEngine::EnsureRecordTimes() {
  if (have_times_) return absl::OkStatus();
  absl::StatusOr<size_t> n = records_->Count();
  if (!n.ok()) return n.status();
  times_.resize(*n);
  for (size_t i = 0; i < *n; ++i) times_[i] = records_->TimeNs(i);
  for (size_t i = 0; i < *n; ++i) {
    if (!records_->IsMark(i) || IgnoredMark(i)) continue;
    marks_.push_back(static_cast<uint32_t>(i));
    mark_back_ns_.push_back(records_->MarkTimeBackNs(i));
  }
  have_times_ = true;
  return absl::OkStatus();
}

absl::Status InterpEngine::EnsureTimelines(std::span<const PmID> pmids) {
  absl::flat_hash_map<PmID, const Desc*> wanted;
  for (PmID id : pmids) {
    if (timelines_.contains(id)) continue;
    const Desc* d = metadata_->FindDesc(id);
    if (d != nullptr) wanted[id] = d;
  }
  if (wanted.empty()) return absl::OkStatus();
  std::vector<PmID> only;
  for (const auto& [id, desc] : wanted) {
    timelines_[id];
    only.push_back(id);
  }
  const bool many = wanted.size() > kFewMetrics;
  for (const auto& [id, desc] : wanted) {
    Timeline& tl = timelines_[id];
    tl.whole = many;
    tl.kept = !many;
  }
  if (many) {
    // Whole records decoded before hold none of these metrics.
    whole_ids_.insert(whole_ids_.end(), only.begin(), only.end());
    std::sort(whole_ids_.begin(), whole_ids_.end());
    cache_.remove_if([](const CachedResult& c) { return c.pmid == kPmIDNull; });
  }
  // Records usually list a metric's instances in the same order as the
  // record before, so each metric remembers where the last record's
  // instances went and looks an instance up only when the order changes.
  absl::flat_hash_map<PmID, InstanceOrder> orders;
  // One pass over the records, decoding only these metrics' value sets; on
  // a fresh source it is the pass that lists them.
  absl::Status scanned = records_->Scan(only, [&](size_t i, const Result& r) {
    for (const ValueSet& vs : r.sets()) {
      auto w = wanted.find(vs.pmid);
      if (w == wanted.end() || vs.numval <= 0) continue;
      Timeline& tl = timelines_[vs.pmid];
      InstanceOrder& order = orders[vs.pmid];
      if (!tl.first_misfit && !FormatFitsType(vs.valfmt, w->second->type)) {
        tl.first_misfit = static_cast<uint32_t>(i);
      }
      if (tl.valfmt < 0) tl.valfmt = vs.valfmt;
      if (tl.valfmt != vs.valfmt) tl.kept = false;
      if (tl.records.empty() || tl.records.back() != i) tl.records.push_back(static_cast<uint32_t>(i));
      const uint32_t pos = static_cast<uint32_t>(tl.records.size() - 1);
      for (int j = 0; j < vs.numval; ++j) {
        ValueView v = r.value(vs, j);
        Observations& obs = order.Find(&tl, j, w->second->indom == kInDomNull ? kInNull : v.inst);
        if (!obs.runs.empty() && obs.runs.back().last == pos) continue;
        Observe(&obs, pos);
        if (tl.kept) Keep(v, &tl, &obs);
      }
    }
  });
  for (const auto& [id, desc] : wanted) {
    Timeline& tl = timelines_[id];
    tl.records.shrink_to_fit();
    for (auto& [inst, obs] : tl.by_inst) {
      obs.runs.shrink_to_fit();
      if (!tl.kept) std::vector<uint64_t>().swap(obs.bits);
    }
  }
  return scanned;
}

InterpEngine::Observations& InterpEngine::InstanceOrder::Find(Timeline* tl, int j, Inst inst) {
  const size_t k = static_cast<size_t>(j);
  if (k < insts.size() && insts[k] == inst && where[k] != nullptr && known == tl->by_inst.size()) {
    return *where[k];
  }
  Observations& obs = tl->by_inst[inst];
  // An instance seen for the first time may have moved every other.
  if (known != tl->by_inst.size()) {
    insts.clear();
    where.clear();
    known = tl->by_inst.size();
  }
  if (k >= insts.size()) {
    insts.resize(k + 1, kInNull);
    where.resize(k + 1, nullptr);
  }
  insts[k] = inst;
  where[k] = &obs;
  return obs;
}

void InterpEngine::Observe(Observations* obs, uint32_t pos) {
  if (!obs->runs.empty() && obs->runs.back().last + 1 == pos) {
    obs->runs.back().last = pos;
    return;
  }
  uint32_t before = 0;
  if (!obs->runs.empty()) {
    const Run& r = obs->runs.back();
    before = r.before + (r.last - r.first + 1);
  }
  obs->runs.push_back(Run{pos, pos, before});
}

void InterpEngine::Keep(const ValueView& v, Timeline* tl, Observations* obs) {
  if (tl->valfmt == kValInsitu) {
    obs->bits.push_back(static_cast<uint32_t>(v.lval));
    return;
  }
  if (tl->vtype == kTypeUnknown) tl->vtype = v.vtype;
  if (v.payload.size() != sizeof(uint64_t) || v.vtype != tl->vtype) {
    tl->kept = false;
    return;
  }
  uint64_t bits;
  std::memcpy(&bits, v.payload.data(), sizeof bits);
  obs->bits.push_back(bits);
}

absl::StatusOr<bool> InterpEngine::ValueAt(const Desc& desc, const Timeline& tl,
                                           const Observations& obs, const Bound& b, Inst inst,
                                           ValueView* out) {
  if (tl.kept) {
    ValueView v;
    v.inst = inst;
    if (tl.valfmt == kValInsitu) {
      v.lval = static_cast<int32_t>(static_cast<uint32_t>(obs.bits[b.pos]));
    } else {
      v.vtype = tl.vtype;
      v.payload = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&obs.bits[b.pos]),
                                           sizeof(uint64_t));
    }
    *out = v;
    return true;
  }
  absl::StatusOr<CachedResult*> c = CachedRecord(b.record, tl.whole ? kPmIDNull : desc.pmid);
  if (!c.ok()) return c.status();
  return FindValue(**c, desc.pmid, inst, desc.indom == kInDomNull, out);
}

bool InterpEngine::IgnoredMark(size_t i) const {
  std::optional<int64_t> gap = IgnoreMarkGapNs();
  if (!gap) return false;
  if (*gap == 0) return true;
  // The records either side of it, as PCP peeks at them.
  if (i == 0 || i + 1 >= times_.size()) return false;
  return times_[i + 1] - times_[i - 1] <= *gap;
}

bool InterpEngine::MarkBetween(int64_t from_ns, int64_t to_ns, bool inclusive_from) {
  for (size_t k = 0; k < marks_.size(); ++k) {
    int64_t t = backward_ ? mark_back_ns_[k] : times_[marks_[k]];
    bool after_from = inclusive_from ? t >= from_ns : t > from_ns;
    if (after_from && t <= to_ns) return true;
  }
  return false;
}

InterpEngine::Bound InterpEngine::Prior(const Timeline& tl, const Observations& obs,
                                        int64_t t_ns) {
  Bound b;
  // The last of the metric's records at or before t, then the last
  // observation of the instance at or before that.
  auto rec = std::upper_bound(tl.records.begin(), tl.records.end(), t_ns,
                              [this](int64_t t, uint32_t r) { return t < times_[r]; });
  if (rec == tl.records.begin()) return b;
  const uint32_t k = static_cast<uint32_t>(rec - 1 - tl.records.begin());
  auto run = std::upper_bound(obs.runs.begin(), obs.runs.end(), k,
                              [](uint32_t p, const Run& r) { return p < r.first; });
  if (run == obs.runs.begin()) return b;
  --run;
  const uint32_t pos = std::min(k, run->last);
  b.pos = run->before + (pos - run->first);
  b.record = tl.records[pos];
  b.time_ns = times_[b.record];
  b.value = !MarkBetween(b.time_ns, t_ns, true);
  return b;
}

InterpEngine::Bound InterpEngine::Next(const Timeline& tl, const Observations& obs,
                                       int64_t t_ns) {
  Bound b;
  auto rec = std::lower_bound(tl.records.begin(), tl.records.end(), t_ns,
                              [this](uint32_t r, int64_t t) { return times_[r] < t; });
  if (rec == tl.records.end()) return b;
  const uint32_t k = static_cast<uint32_t>(rec - tl.records.begin());
  auto run = std::lower_bound(obs.runs.begin(), obs.runs.end(), k,
                              [](const Run& r, uint32_t p) { return r.last < p; });
  if (run == obs.runs.end()) return b;
  const uint32_t pos = std::max(k, run->first);
  b.pos = run->before + (pos - run->first);
  b.record = tl.records[pos];
  b.time_ns = times_[b.record];
  b.value = !MarkBetween(t_ns, b.time_ns, true);
  return b;
}

absl::StatusOr<InterpEngine::CachedResult*> InterpEngine::CachedRecord(uint32_t i, PmID pmid) {
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if (it->record != i || it->pmid != pmid) continue;
    cache_.splice(cache_.begin(), cache_, it);
    return &cache_.front();
  }
  const size_t limit = pmid == kPmIDNull ? kCachedWholeRecords : kCachedRecords;
  if (cache_.size() >= limit) {
    cache_.splice(cache_.begin(), cache_, std::prev(cache_.end()));
  } else {
    cache_.emplace_front();
  }
  CachedResult& c = cache_.front();
  c.record = i;
  c.pmid = pmid;
  c.indexed = kPmIDNull;
  c.set = nullptr;
  c.set_of.clear();
  const PmID only[] = {pmid};
  absl::Status s = pmid == kPmIDNull ? records_->ReadOnly(i, whole_ids_, &c.result)
                                     : records_->ReadOnly(i, only, &c.result);
  if (!s.ok()) {
    cache_.pop_front();
    return s;
  }
  if (pmid == kPmIDNull) {
    const std::span<const ValueSet> sets = c.result.sets();
    // The first set of each PMID, as a forward search finds it.
    for (int k = static_cast<int>(sets.size()) - 1; k >= 0; --k) c.set_of[sets[k].pmid] = k;
  }
  return &c;
}

absl::Status InterpEngine::AddValue(const Desc& desc, const Timeline& tl,
                                    const Observations& obs, Inst inst, const Bound& prior,
                                    const Bound& next, int64_t t_ns) {
  ValueView pv;
  absl::StatusOr<bool> found = ValueAt(desc, tl, obs, prior, inst, &pv);
  if (!found.ok()) return found.status();
  if (!*found) return absl::OkStatus();
  bool use_prior = prior.time_ns == t_ns || desc.sem == kSemDiscrete ||
                   desc.type == kTypeString || desc.type == kTypeAggregate ||
                   desc.type == kTypeEvent || desc.type == kTypeHighResEvent;
  PendingValue value;
  if (use_prior) {
    value = FromView(inst, pv);
  } else {
    ValueView nv;
    found = ValueAt(desc, tl, obs, next, inst, &nv);
    if (!found.ok()) return found.status();
    if (!*found) return absl::OkStatus();
    // The prior record may have been evicted while reading the next one.
    if (!tl.kept) {
      found = ValueAt(desc, tl, obs, prior, inst, &pv);
      if (!found.ok()) return found.status();
    }
    double t = RelSeconds(t_ns, origin_ns_);
    double tp = RelSeconds(prior.time_ns, origin_ns_);
    double tn = RelSeconds(next.time_ns, origin_ns_);
    if (next.time_ns == t_ns) {
      value = FromView(inst, nv);
    } else if (desc.sem == kSemInstant) {
      // PCP 6.0.3 gives an instantaneous value the prior observation's
      // value whenever a next one exists (pmval -t 0.5 shows it).
      value = FromView(inst, pv);
    } else {
      value = InterpolateCounter(desc.type, tl.valfmt, inst, pv, nv, t - tp, tn - tp);
    }
  }
  if (tl.valfmt != kValInsitu) AsDescribed(desc.type, &value);
  pending_.push_back(std::move(value));
  return absl::OkStatus();
}

absl::Status InterpEngine::AddMetric(const Desc& desc, Timeline& tl, int64_t t_ns,
                                     const Profile& profile, bool crossed_mark, Result* out) {
  const std::vector<Inst>& candidates = Order(desc, &tl);
  pending_.clear();
  bool type_error = false;
  for (Inst inst : candidates) {
    if (desc.indom != kInDomNull && !profile.Admits(desc.indom, inst)) continue;
    auto obs = tl.by_inst.find(inst);
    if (obs == tl.by_inst.end()) continue;
    Bound prior = Prior(tl, obs->second, t_ns);
    if (!prior.value) continue;
    if (desc.sem == kSemDiscrete && OutsideLife(desc, inst, t_ns)) continue;
    Bound next;
    if (desc.sem != kSemDiscrete) {
      next = Next(tl, obs->second, t_ns);
      if (!next.value) continue;
      if (desc.sem == kSemCounter && !IsArithmetic(desc.type)) {
        type_error = true;
        continue;
      }
      if (desc.sem == kSemCounter && crossed_mark) continue;
    }
    if (absl::Status s = AddValue(desc, tl, obs->second, inst, prior, next, t_ns); !s.ok()) {
      return s;
    }
  }
  if (type_error) {
    out->AddSet(desc.pmid, kErrType, 0);
    return absl::OkStatus();
  }
  int numval = static_cast<int>(pending_.size());
  out->AddSet(desc.pmid, numval, tl.valfmt < 0 ? kValInsitu : tl.valfmt);
  for (const PendingValue& p : pending_) {
    if (tl.valfmt == kValInsitu) {
      out->AddInsitu(p.inst, p.lval);
    } else {
      out->AddBlock(p.inst, p.vtype, p.payload);
    }
  }
  return absl::OkStatus();
}

bool InterpEngine::LastSeenBefore(const Timeline& tl, int64_t t_ns) const {
  return !tl.records.empty() && times_[tl.records.back()] < t_ns;
}

bool InterpEngine::ReadsMisfit(const Timeline& tl, int64_t t_ns) const {
  if (!tl.first_misfit) return false;
  // PCP reads on to the first record after t (for next observations).
  const auto after = std::upper_bound(times_.begin(), times_.end(), t_ns);
  return *tl.first_misfit <= static_cast<size_t>(after - times_.begin());
}

absl::StatusOr<Result> InterpEngine::Fetch(int64_t t_ns, std::span<const PmID> pmids,
                                           const Profile& profile, bool forward) {
  if (absl::Status s = EnsureTimelines(pmids); !s.ok()) return s;
  if (absl::Status s = EnsureRecordTimes(); !s.ok()) return s;
  // PCP reads on past t for next observations: with no record after t
  // before the corruption that ended the list, it reads into it; so it
  // does for a metric last seen before t (the instances it has seen want
  // a next observation; one seen at t has its value). A fetch of nothing
  // the records hold reads nothing.
  const absl::Status cut = records_->ListError();
  if (!cut.ok() && std::upper_bound(times_.begin(), times_.end(), t_ns) == times_.end() &&
      std::any_of(pmids.begin(), pmids.end(),
                  [this](PmID id) { return metadata_->FindDesc(id) != nullptr; })) {
    return cut;
  }
  bool crossed_mark = false;
  backward_ = !forward;
  if (have_last_) {
    crossed_mark = forward ? MarkBetween(last_t_ns_, t_ns, false)
                           : (last_t_ns_ > INT64_MIN && MarkBetween(t_ns, last_t_ns_ - 1, true));
  }
  Result out;
  out.set_timestamp_ns(t_ns);
  for (PmID id : pmids) {
    const Desc* desc = metadata_->FindDesc(id);
    if (desc == nullptr) {
      out.AddSet(id, kErrPmidLog, 0);
      continue;
    }
    if (ReadsMisfit(timelines_[id], t_ns)) return PcpError(kErrLogrec);
    if (!cut.ok() && LastSeenBefore(timelines_[id], t_ns)) return cut;
    auto last = last_numval_.find(id);
    bool had_values = last != last_numval_.end() && last->second > 0;
    absl::Status s = AddMetric(*desc, timelines_[id], t_ns, profile, crossed_mark && had_values,
                               &out);
    if (!s.ok()) return s;
    last_numval_[id] = out.sets().back().numval;
  }
  have_last_ = true;
  last_t_ns_ = t_ns;
  return out;
}

}  // namespace pmapi
