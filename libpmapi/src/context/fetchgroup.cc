#include "pmapi/fetchgroup.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "fetchgroup_convert.h"
#include "pmapi/events.h"
#include "pmapi/extract.h"

namespace pmapi {

struct FetchGroup::Entry {
  enum class Kind { kItem, kIndom, kEvent, kTimestamp };
  Kind kind = Kind::kItem;
  PmID pmid = kPmIDNull;
  Desc desc;
  Inst inst = kInNull;
  PmID field_pmid = kPmIDNull;
  Desc field_desc;
  ScaleRequest conv;
  int out_type = kTypeDouble;
  FetchGroupItem item;
  FetchGroupIndom indom;
  FetchGroupEvent event;
  FetchGroupTimestamp stamp;
  // Instance names of the indom as last read (inst, name), for kIndom.
  std::vector<Instance> names;
  bool names_read = false;

  bool preserved(bool discrete_once) const {
    return desc.sem == kSemDiscrete && !discrete_once;
  }
};

namespace {

using Entry = FetchGroup::Entry;

// As in PCP, only the value is reset: the status keeps what the last
// fetch said until this fetch says otherwise.
void ReinitItem(Entry& e) { SetSentinel(e.out_type, &e.item.value); }

void ReinitIndom(Entry& e) { e.indom.instances.clear(); }

void ReinitEvent(Entry& e) { e.event.fields.clear(); }

// Returns the value set of `pmid` at or after set `first`, or nullptr.
const ValueSet* FindSet(const Result& r, PmID pmid, size_t first = 0) {
  std::span<const ValueSet> sets = r.sets();
  for (size_t i = first; i < sets.size(); ++i) {
    if (sets[i].pmid == pmid) return &sets[i];
  }
  return nullptr;
}

// Returns 0 and the value of instance `inst` (any instance for a singular
// metric) of `pmid`, the set's error, or PM_ERR_VALUE when there is none.
int FindValue(const Result& r, PmID pmid, const Desc& desc, Inst inst, size_t first,
              ValueView* v, int* valfmt) {
  const ValueSet* vs = FindSet(r, pmid, first);
  if (vs == nullptr) return kErrValue;
  if (vs->numval < 0) return vs->numval;
  for (int j = 0; j < vs->numval; ++j) {
    ValueView cand = r.value(*vs, j);
    if (desc.indom == kInDomNull || cand.inst == inst) {
      *v = cand;
      *valfmt = vs->valfmt;
      return 0;
    }
  }
  return kErrValue;
}

int ExtractAs(const Result& r, PmID pmid, const Desc& desc, Inst inst, size_t first,
              int otype, FetchGroupValue* out) {
  ValueView v;
  int valfmt = kValInsitu;
  int sts = FindValue(r, pmid, desc, inst, first, &v, &valfmt);
  if (sts != 0) return sts;
  return CastValue(valfmt, v, desc.type, otype, out);
}

int ExtractDouble(const Result& r, PmID pmid, const Desc& desc, Inst inst, size_t first,
                  double* out) {
  FetchGroupValue v;
  int sts = ExtractAs(r, pmid, desc, inst, first, kTypeDouble, &v);
  if (sts == 0) *out = v.atom.d;
  return sts;
}

int Rescale(const Desc& desc, const ScaleRequest& conv, double* value) {
  if (!conv.units) return 0;
  AtomValue in;
  in.d = *value;
  absl::StatusOr<AtomValue> scaled = ConvScale(kTypeDouble, in, desc.units, conv.output);
  if (!scaled.ok()) return PcpCode(scaled.status());
  *value = scaled->d * conv.multiplier;
  return 0;
}

// What a value is converted with: the rate reference and wrap handling.
struct RateContext {
  const Result* previous = nullptr;
  bool counter_wrap = false;
};

int Rate(const Result& r, const RateContext& rc, PmID pmid, const Desc& desc, Inst inst,
         size_t first, double current, double* out) {
  if (rc.previous == nullptr) return kErrAgain;
  // The nanoseconds apart, in seconds: rounded as PCP 6.0.3 rounds it.
  double dt = static_cast<double>(r.timestamp_ns() - rc.previous->timestamp_ns()) / 1e9;
  // A zero interval would divide by zero; PCP uses a nanosecond instead.
  if (dt < 1e-9) dt = 1e-9;
  double before = 0;
  int sts = ExtractDouble(*rc.previous, pmid, desc, inst, first, &before);
  if (sts != 0) return sts;
  double delta = current - before;
  if (delta < 0.0) {
    if (!rc.counter_wrap) return kErrValue;
    if (desc.type == kType32 || desc.type == kTypeU32) delta += 4294967296.0;
    if (desc.type == kType64 || desc.type == kTypeU64) delta += 18446744073709551616.0;
  }
  *out = delta / dt;
  return 0;
}

int ExtractConverted(const Result& r, const RateContext& rc, PmID pmid, const Desc& desc,
                     Inst inst, size_t first, const ScaleRequest& conv, int otype,
                     FetchGroupValue* out) {
  if (!conv.rate && !conv.units) return ExtractAs(r, pmid, desc, inst, first, otype, out);
  double value = 0;
  int sts = ExtractDouble(r, pmid, desc, inst, first, &value);
  if (sts != 0) return sts;
  if (conv.rate) {
    sts = Rate(r, rc, pmid, desc, inst, first, value, &value);
    if (sts != 0) return sts;
  }
  sts = Rescale(desc, conv, &value);
  if (sts != 0) return sts;
  return StoreDouble(value, otype, out);
}

}  // namespace

FetchGroupOptions FetchGroupOptions::FromEnvironment() {
  FetchGroupOptions o;
  o.counter_wrap = std::getenv("PCP_COUNTER_WRAP") != nullptr;
  o.discrete_once = std::getenv("PCP_DISCRETE_ONCE") != nullptr;
  return o;
}

FetchGroup::FetchGroup(Context ctx, const FetchGroupOptions& options)
    : ctx_(std::move(ctx)), options_(options) {
  if (ctx_.kind() != ContextKind::kArchive) mode_ = Mode::kLive;
}

FetchGroup::~FetchGroup() = default;

absl::StatusOr<std::unique_ptr<FetchGroup>> FetchGroup::Create(ContextKind kind, std::string_view source) {
  absl::StatusOr<Context> ctx = Context::Open(kind, source);
  if (!ctx.ok()) return ctx.status();
  return FromContext(std::move(*ctx));
}

std::unique_ptr<FetchGroup> FetchGroup::FromContext(Context ctx) {
  return FromContext(std::move(ctx), FetchGroupOptions::FromEnvironment());
}

std::unique_ptr<FetchGroup> FetchGroup::FromContext(Context ctx, const FetchGroupOptions& options) {
  return std::unique_ptr<FetchGroup>(new FetchGroup(std::move(ctx), options));
}

absl::Status FetchGroup::SetMode(Mode mode, absl::Time when, absl::Duration delta) {
  absl::Status st = ctx_.SetMode(mode, when, delta);
  if (!st.ok()) return st;
  mode_ = mode;
  origin_ = when;
  delta_ = delta;
  previous_.reset();
  return st;
}

absl::StatusOr<PmID> FetchGroup::LookupMetric(std::string_view metric, Desc* desc) {
  absl::StatusOr<PmID> id = ctx_.LookupName(metric);
  if (!id.ok()) return id.status();
  absl::StatusOr<Desc> d = ctx_.LookupDesc(*id);
  if (!d.ok()) return d.status();
  *desc = *d;
  return *id;
}

absl::StatusOr<Inst> FetchGroup::LookupInstance(const Desc& desc,
                                                   std::optional<std::string_view> instance) {
  if ((desc.indom == kInDomNull) == instance.has_value()) return PcpError(kErrIndom);
  if (desc.indom == kInDomNull) return kInNull;
  return ctx_.LookupInDom(desc.indom, *instance);
}

// An instance absent at the current time may exist later in an archive:
// PCP looks again at the archive's end, then returns to where it was.
absl::Status FetchGroup::RetryAtEnd(const std::function<absl::Status()>& lookup) {
  absl::Status first = lookup();
  if (first.ok() || ctx_.kind() != ContextKind::kArchive) return first;
  absl::StatusOr<absl::Time> end = ctx_.GetArchiveEnd();
  if (!end.ok()) return end.status();
  absl::Status st = ctx_.SetMode(Mode::kBack, *end, absl::ZeroDuration());
  if (!st.ok()) return st;
  absl::Status again = lookup();
  absl::Time back = absl::UnixEpoch();
  if (origin_.has_value()) {
    back = *origin_;
  } else {
    absl::StatusOr<ArchiveLabel> label = ctx_.GetArchiveLabel();
    if (label.ok()) back = absl::FromUnixNanos(label->start.nanos());
  }
  absl::Status restored = ctx_.SetMode(mode_, back, delta_);
  if (!again.ok()) return again;
  return restored;
}

void FetchGroup::AddPmid(PmID id) {
  if (std::find(pmids_.begin(), pmids_.end(), id) == pmids_.end()) pmids_.push_back(id);
}

// Makes the profile admit exactly the registered instances of each
// registered indom (all of them once a whole indom is registered).
absl::Status FetchGroup::NarrowProfile() {
  for (const auto& [indom, insts] : profile_) {
    absl::Status st = ctx_.DelProfile(indom, {});
    if (st.ok()) st = ctx_.AddProfile(indom, insts);
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

namespace {

void NoteInstance(std::vector<std::pair<InDom, std::vector<Inst>>>* profile, InDom indom,
                  std::optional<Inst> inst) {
  auto it = std::find_if(profile->begin(), profile->end(),
                         [&](const auto& p) { return p.first == indom; });
  if (it == profile->end()) {
    profile->push_back({indom, {}});
    it = profile->end() - 1;
    if (inst.has_value()) it->second.push_back(*inst);
    return;
  }
  // An empty list already admits everything.
  if (it->second.empty()) return;
  if (!inst.has_value()) {
    it->second.clear();
  } else if (std::find(it->second.begin(), it->second.end(), *inst) == it->second.end()) {
    it->second.push_back(*inst);
  }
}

}  // namespace

absl::StatusOr<const FetchGroupItem*> FetchGroup::AddItem(std::string_view metric,
                                                          std::optional<std::string_view> instance,
                                                          std::optional<std::string_view> scale,
                                                          int out_type) {
  auto e = std::make_unique<Entry>();
  e->kind = Entry::Kind::kItem;
  absl::Status st = RetryAtEnd([&]() -> absl::Status {
    absl::StatusOr<PmID> id = LookupMetric(metric, &e->desc);
    if (!id.ok()) return id.status();
    e->pmid = *id;
    absl::StatusOr<Inst> inst = LookupInstance(e->desc, instance);
    if (!inst.ok()) return inst.status();
    e->inst = *inst;
    return absl::OkStatus();
  });
  if (!st.ok()) return st;
  absl::StatusOr<ScaleRequest> conv = ParseScale(e->desc, scale, out_type);
  if (!conv.ok()) return conv.status();
  e->conv = *conv;
  e->out_type = out_type;
  if (e->desc.indom != kInDomNull) {
    NoteInstance(&profile_, e->desc.indom, e->inst);
    st = NarrowProfile();
    if (!st.ok()) return st;
  }
  AddPmid(e->pmid);
  ReinitItem(*e);
  entries_.push_back(std::move(e));
  return &entries_.back()->item;
}

absl::StatusOr<const FetchGroupIndom*> FetchGroup::AddIndom(std::string_view metric,
                                                            std::optional<std::string_view> scale,
                                                            int out_type, unsigned maxnum) {
  auto e = std::make_unique<Entry>();
  e->kind = Entry::Kind::kIndom;
  absl::StatusOr<PmID> id = LookupMetric(metric, &e->desc);
  if (!id.ok()) return id.status();
  e->pmid = *id;
  absl::StatusOr<ScaleRequest> conv = ParseScale(e->desc, scale, out_type);
  if (!conv.ok()) return conv.status();
  e->conv = *conv;
  e->out_type = out_type;
  e->indom.maxnum = maxnum;
  if (e->desc.indom != kInDomNull) {
    NoteInstance(&profile_, e->desc.indom, std::nullopt);
    absl::Status st = NarrowProfile();
    if (!st.ok()) return st;
  }
  AddPmid(e->pmid);
  entries_.push_back(std::move(e));
  return &entries_.back()->indom;
}

absl::StatusOr<const FetchGroupEvent*> FetchGroup::AddEvent(
    std::string_view metric, std::optional<std::string_view> instance, std::string_view field,
    std::optional<std::string_view> scale, int out_type, unsigned maxnum) {
  auto e = std::make_unique<Entry>();
  e->kind = Entry::Kind::kEvent;
  absl::Status st = RetryAtEnd([&]() -> absl::Status {
    absl::StatusOr<PmID> id = LookupMetric(metric, &e->desc);
    if (!id.ok()) return id.status();
    e->pmid = *id;
    absl::StatusOr<Inst> inst = LookupInstance(e->desc, instance);
    if (!inst.ok()) return inst.status();
    e->inst = *inst;
    absl::StatusOr<PmID> fid = LookupMetric(field, &e->field_desc);
    if (!fid.ok()) return fid.status();
    e->field_pmid = *fid;
    // Fields with instance domains of their own are not supported.
    if (e->field_desc.indom != kInDomNull) return PcpError(kErrIndom);
    return absl::OkStatus();
  });
  if (!st.ok()) return st;
  if (e->desc.type != kTypeEvent && e->desc.type != kTypeHighResEvent) return PcpError(kErrType);
  absl::StatusOr<ScaleRequest> conv = ParseScale(e->field_desc, scale, out_type);
  if (!conv.ok()) return conv.status();
  // No rate: which earlier field value it would be taken from is unclear.
  if (conv->rate) return PcpError(kErrConv);
  e->conv = *conv;
  e->out_type = out_type;
  e->event.maxnum = maxnum;
  if (e->desc.indom != kInDomNull) {
    NoteInstance(&profile_, e->desc.indom, e->inst);
    st = NarrowProfile();
    if (!st.ok()) return st;
  }
  AddPmid(e->pmid);
  entries_.push_back(std::move(e));
  return &entries_.back()->event;
}

const FetchGroupTimestamp* FetchGroup::AddTimestamp() {
  auto e = std::make_unique<Entry>();
  e->kind = Entry::Kind::kTimestamp;
  entries_.push_back(std::move(e));
  return &entries_.back()->stamp;
}

void FetchGroup::FetchItem(Entry& e, const Result& r) {
  if (e.preserved(options_.discrete_once)) {
    const ValueSet* vs = FindSet(r, e.pmid);
    if (vs != nullptr && vs->numval == 0) return;
    if (vs != nullptr && vs->numval > 0) ReinitItem(e);
  }
  RateContext rc{previous_ ? &*previous_ : nullptr, options_.counter_wrap};
  FetchGroupValue v;
  int sts = ExtractConverted(r, rc, e.pmid, e.desc, e.inst, 0, e.conv, e.out_type, &v);
  if (sts == 0) e.item.value = std::move(v);
  e.item.status = sts;
}

void FetchGroup::FetchIndom(Entry& e, const Result& r) {
  const ValueSet* vs = FindSet(r, e.pmid);
  if (vs == nullptr || vs->numval < 0) {
    e.indom.status = vs == nullptr ? kErrValue : vs->numval;
    return;
  }
  if (e.preserved(options_.discrete_once)) {
    if (vs->numval == 0) return;
    ReinitIndom(e);
  }
  std::vector<int> order(vs->numval);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return r.value(*vs, a).inst < r.value(*vs, b).inst; });
  // Names are read again when an instance appears that was not known.
  if (e.desc.indom != kInDomNull) {
    bool stale = !e.names_read;
    for (int j : order) {
      Inst inst = r.value(*vs, j).inst;
      if (std::none_of(e.names.begin(), e.names.end(), [&](const Instance& i) { return i.id == inst; }))
        stale = true;
    }
    if (stale) {
      absl::StatusOr<std::vector<Instance>> all = ctx_.GetInDom(e.desc.indom);
      e.names = all.ok() ? std::move(*all) : std::vector<Instance>{};
      e.names_read = all.ok();
    }
  }
  RateContext rc{previous_ ? &*previous_ : nullptr, options_.counter_wrap};
  std::vector<FetchGroupInstance> out;
  for (int j : order) {
    if (out.size() >= e.indom.maxnum) {
      // PCP reports none of the instances it did store.
      e.indom.instances.clear();
      e.indom.status = kErrToobig;
      return;
    }
    FetchGroupInstance fi;
    fi.inst = r.value(*vs, j).inst;
    for (const Instance& i : e.names) {
      if (i.id == fi.inst) fi.name = i.name;
    }
    SetSentinel(e.out_type, &fi.value);
    FetchGroupValue v;
    fi.status = ExtractConverted(r, rc, e.pmid, e.desc, fi.inst, 0, e.conv, e.out_type, &v);
    if (fi.status == 0) fi.value = std::move(v);
    out.push_back(std::move(fi));
  }
  e.indom.instances = std::move(out);
  e.indom.status = 0;
}

namespace {

// Appends the field values of one unpacked record; returns PM_ERR_TOOBIG
// when the output is full.
int AddEventFields(Entry& e, const Result& record) {
  RateContext none;
  std::span<const ValueSet> sets = record.sets();
  for (size_t i = 0; i < sets.size(); ++i) {
    if (sets[i].pmid != e.field_pmid || sets[i].numval != 1) continue;
    if (e.event.fields.size() >= e.event.maxnum) return kErrToobig;
    FetchGroupEventField f;
    f.sec = record.timestamp_ns() / 1000000000;
    f.nsec = record.timestamp_ns() % 1000000000;
    if (f.nsec < 0) {
      f.nsec += 1000000000;
      --f.sec;
    }
    SetSentinel(e.out_type, &f.value);
    FetchGroupValue v;
    f.status = ExtractConverted(record, none, e.field_pmid, e.field_desc, kInNull, i, e.conv,
                                e.out_type, &v);
    if (f.status == 0) f.value = std::move(v);
    e.event.fields.push_back(std::move(f));
  }
  return 0;
}

}  // namespace

void FetchGroup::FetchEvent(Entry& e, const Result& r) {
  const ValueSet* vs = FindSet(r, e.pmid);
  if (vs == nullptr || vs->numval < 0) {
    e.event.status = vs == nullptr ? kErrValue : vs->numval;
    return;
  }
  e.event.status = 0;
  int found = -1;
  Inst lowest{};
  // The result's instances are taken in ascending order, as PCP sorts them.
  for (int j = 0; j < vs->numval; ++j) {
    Inst inst = r.value(*vs, j).inst;
    if ((e.desc.indom == kInDomNull || inst == e.inst) && (found < 0 || inst < lowest)) {
      found = j;
      lowest = inst;
    }
  }
  if (found < 0) return;
  // The result codec delivers event arrays in host order.
  ValueView v = r.value(*vs, found);
  absl::StatusOr<std::vector<Result>> records =
      e.desc.type == kTypeHighResEvent ? UnpackHighResEventRecords(v, vs->valfmt)
                                       : UnpackEventRecords(v, vs->valfmt);
  if (!records.ok()) {
    e.event.status = PcpCode(records.status());
    return;
  }
  for (const Result& rec : *records) {
    int sts = AddEventFields(e, rec);
    if (sts != 0) {
      e.event.status = sts;
      return;
    }
  }
}

absl::StatusOr<int> FetchGroup::Fetch() {
  for (auto& e : entries_) {
    switch (e->kind) {
      case Entry::Kind::kTimestamp: e->stamp = {}; break;
      case Entry::Kind::kItem:
        if (!e->preserved(options_.discrete_once)) ReinitItem(*e);
        break;
      case Entry::Kind::kIndom:
        if (!e->preserved(options_.discrete_once)) ReinitIndom(*e);
        break;
      case Entry::Kind::kEvent: ReinitEvent(*e); break;
    }
  }
  int state = 0;
  absl::StatusOr<Result> fetched = ctx_.Fetch(pmids_, &state);
  Result empty;
  // A failed fetch still gives every output its error, against no values
  // stamped with the time of the failure.
  if (!fetched.ok()) empty.set_timestamp_ns(absl::ToUnixNanos(absl::Now()));
  const Result& r = fetched.ok() ? *fetched : empty;
  for (auto& e : entries_) {
    switch (e->kind) {
      case Entry::Kind::kTimestamp:
        e->stamp.sec = r.timestamp_ns() / 1000000000;
        e->stamp.nsec = r.timestamp_ns() % 1000000000;
        break;
      case Entry::Kind::kItem: FetchItem(*e, r); break;
      case Entry::Kind::kIndom: FetchIndom(*e, r); break;
      case Entry::Kind::kEvent: FetchEvent(*e, r); break;
    }
  }
  if (!fetched.ok()) return fetched.status();
  if (mode_ != Mode::kLive) {
    absl::Time t = absl::FromUnixNanos(fetched->timestamp_ns());
    if (mode_ == Mode::kInterp) origin_ = t + delta_;
    if (mode_ == Mode::kForw) origin_ = t + absl::Nanoseconds(1);
    if (mode_ == Mode::kBack) origin_ = t - absl::Nanoseconds(1);
  }
  previous_ = std::move(*fetched);
  return state > 0 ? state : 0;
}

absl::Status FetchGroup::Clear() {
  entries_.clear();
  pmids_.clear();
  previous_.reset();
  absl::Status result = absl::OkStatus();
  for (const auto& p : profile_) {
    absl::Status st = ctx_.DelProfile(p.first, {});
    if (!st.ok() && result.ok()) result = st;
  }
  profile_.clear();
  return result;
}

}  // namespace pmapi
