#include "archive_source.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// PCP allows a millisecond of slop at either end of an archive.
constexpr int64_t kEndSlopNs = 1000000;

int64_t ToNs(const ArchiveTime& t) { return t.nanos(); }

// a + b, held at the ends of the range: corrupt archives carry absurd
// times, and time arithmetic must not overflow on them.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

// Copies set `vs` of `from` into `out`, keeping the instances the profile
// admits (all of them for a singular metric or an error set).
void CopySet(const Result& from, const ValueSet& vs, const Desc* desc, const Profile& profile,
             Result* out) {
  if (vs.numval <= 0 || desc == nullptr || desc->indom == kInDomNull) {
    out->AddSet(vs.pmid, vs.numval, vs.valfmt);
    for (int j = 0; j < vs.numval; ++j) {
      ValueView v = from.value(vs, j);
      if (vs.valfmt == kValInsitu) {
        out->AddInsitu(v.inst, v.lval);
      } else {
        out->AddBlock(v.inst, v.vtype, v.payload);
      }
    }
    return;
  }
  int admitted = 0;
  for (int j = 0; j < vs.numval; ++j) {
    if (profile.Admits(desc->indom, from.value(vs, j).inst)) ++admitted;
  }
  out->AddSet(vs.pmid, admitted, vs.valfmt);
  for (int j = 0; j < vs.numval; ++j) {
    ValueView v = from.value(vs, j);
    if (!profile.Admits(desc->indom, v.inst)) continue;
    if (vs.valfmt == kValInsitu) {
      out->AddInsitu(v.inst, v.lval);
    } else {
      out->AddBlock(v.inst, v.vtype, v.payload);
    }
  }
}

// The label record type for a pmLookupLabels level, and the identifier the
// archive files it under.
uint32_t LabelIdent(int level, uint32_t ident) {
  if (level == kLabelContext) return kPmIDNull;
  if (level == kLabelDomain) return PmIDDomain(ident);
  if (level == kLabelCluster) return MakePmID(PmIDDomain(ident), PmIDCluster(ident), 0);
  return ident;
}

}  // namespace

ArchiveSource::ArchiveSource(std::unique_ptr<ArchiveSet> set)
    : set_(std::move(set)), interp_(this, this) {
  origin_ns_ = ToNs(set_->label().start);
  mode_ = kModeForw;
  interp_.set_origin_ns(origin_ns_);
}

absl::StatusOr<std::unique_ptr<ArchiveSource>> ArchiveSource::Open(std::string_view spec) {
  absl::StatusOr<std::unique_ptr<ArchiveSet>> set = ArchiveSet::Open(spec);
  if (!set.ok()) return set.status();
  std::unique_ptr<ArchiveSource> src(new ArchiveSource(std::move(*set)));
  src->pmns_ = src->set_->pmns();
  return src;
}

absl::StatusOr<Context> Context::OpenArchive(std::string_view spec) {
  absl::StatusOr<std::unique_ptr<ArchiveSource>> src = ArchiveSource::Open(spec);
  if (!src.ok()) return src.status();
  return Context(std::move(*src));
}

absl::StatusOr<PmID> ArchiveSource::LookupName(std::string_view name) {
  return pmns_->LookupName(name);
}

absl::StatusOr<std::vector<std::string>> ArchiveSource::NameAll(PmID id) {
  return pmns_->NameAll(id);
}

absl::StatusOr<std::vector<PmnsChild>> ArchiveSource::Children(std::string_view name) {
  return pmns_->Children(name);
}

absl::Status ArchiveSource::Traverse(std::string_view name,
                                     const std::function<void(const std::string&)>& visit) {
  return pmns_->Walk(name, [&visit](const std::string& n, PmID) {
    visit(n);
    return absl::OkStatus();
  });
}

absl::StatusOr<Desc> ArchiveSource::LookupDesc(PmID id) {
  const MetricDesc* md = set_->FindDesc(id);
  if (md == nullptr) return PcpError(kErrPmidLog);
  return md->desc;
}

const InDomSnapshot* ArchiveSource::InDomAt(InDom indom) const {
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr || h->empty()) return nullptr;
  ArchiveTime t = ArchiveTime::FromNanos(origin_ns_);
  const InDomSnapshot* found = nullptr;
  for (const InDomSnapshot& s : *h) {
    if (s.stamp <= t) found = &s;
  }
  return found;
}

absl::StatusOr<std::vector<Instance>> ArchiveSource::GetInDom(InDom indom) {
  const InDomSnapshot* s = InDomAt(indom);
  if (s == nullptr) return PcpError(kErrIndomLog);
  std::vector<Instance> out;
  out.reserve(s->size());
  for (size_t i = 0; i < s->size(); ++i) out.push_back({s->inst(i), std::string(s->name(i))});
  return out;
}

absl::StatusOr<std::string> ArchiveSource::NameInDom(InDom indom, int32_t inst) {
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr) return PcpError(kErrIndomLog);
  // Before the domain's first record it is unknown, as in PCP.
  if (InDomAt(indom) == nullptr) return PcpError(kErrIndomLog);
  ArchiveTime t = ArchiveTime::FromNanos(origin_ns_);
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    if (t < it->stamp) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      if (it->inst(i) == inst) return std::string(it->name(i));
    }
  }
  return PcpError(kErrInstLog);
}

absl::StatusOr<int32_t> ArchiveSource::LookupInDom(InDom indom, std::string_view name) {
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr) return PcpError(kErrIndomLog);
  // Before the domain's first record it is unknown, as in PCP.
  if (InDomAt(indom) == nullptr) return PcpError(kErrIndomLog);
  ArchiveTime t = ArchiveTime::FromNanos(origin_ns_);
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    if (t < it->stamp) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      std::string_view full = it->name(i);
      if (full == name || full.substr(0, full.find(' ')) == name) return it->inst(i);
    }
  }
  return PcpError(kErrInstLog);
}

absl::StatusOr<std::string> ArchiveSource::LookupText(uint32_t ident, int kind) {
  // An archive that carries no help text at all sends the question to a
  // host, as PCP does.
  if (set_->help_texts().empty()) return PcpError(kErrNothost);
  for (const HelpText* h : set_->help_texts()) {
    if (h->ident == ident && static_cast<int>(h->type) == kind) return h->text;
  }
  return PcpError(kErrText);
}

absl::StatusOr<std::vector<LabelSet>> ArchiveSource::LookupLabels(int level, uint32_t ident) {
  // PCP 6.0.3 never finds an archive's cluster labels when it merges a
  // metric's labels (pminfo -l shows none), so neither do we.
  if (level == kLabelCluster) return std::vector<LabelSet>{};
  uint32_t want = LabelIdent(level, ident);
  // PCP remembers the first answer for each level and identifier for the
  // life of the context, found or not, whatever the collection time later.
  auto cached = label_cache_.find({level, want});
  if (cached != label_cache_.end()) return cached->second;
  std::vector<LabelSet> sets = LabelsAt(level, want);
  label_cache_.emplace(std::make_pair(level, want), sets);
  return sets;
}

std::vector<LabelSet> ArchiveSource::LabelsAt(int level, uint32_t want) const {
  ArchiveTime t = ArchiveTime::FromNanos(origin_ns_);
  // The labels in force: the latest record at or before the collection time.
  const LabelRecord* found = nullptr;
  for (const LabelRecord* rp : set_->label_records()) {
    const LabelRecord& r = *rp;
    if (static_cast<int>(r.type) != level || (level != kLabelContext && r.ident != want)) continue;
    if (t < r.stamp) continue;
    if (found == nullptr || !(r.stamp < found->stamp)) found = &r;
  }
  if (found == nullptr) return {};
  return found->sets;
}

absl::Status ArchiveSource::SetMode(int mode, absl::Time when, absl::Duration delta) {
  if (mode != kModeInterp && mode != kModeForw && mode != kModeBack) return PcpError(kErrMode);
  mode_ = mode;
  origin_ns_ = absl::ToUnixNanos(when);
  delta_ns_ = absl::ToInt64Nanoseconds(delta);
  positioned_ = false;
  interp_.ResetHistory();
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ArchiveSource::EndNs() {
  if (!have_end_) {
    absl::StatusOr<ArchiveTime> end = set_->End();
    if (!end.ok()) return end.status();
    end_ns_ = ToNs(*end);
    have_end_ = true;
  }
  return end_ns_;
}

absl::StatusOr<absl::Time> ArchiveSource::GetArchiveEnd() {
  absl::StatusOr<int64_t> end = EndNs();
  if (!end.ok()) return end.status();
  return absl::FromUnixNanos(*end);
}

absl::StatusOr<size_t> ArchiveSource::Count() {
  if (!have_catalog_) {
    // Records before a corrupt one stay readable; reading past them reports
    // the corruption, as PCP's sequential reads do.
    catalog_ = set_->Catalog(&catalog_error_);
    have_catalog_ = true;
  }
  return catalog_.size();
}

int64_t ArchiveSource::MarkTimeBackNs(size_t i) {
  const ArchiveSet::Record& r = catalog_[i];
  // A mark of the set (not one of a member's own records).
  if (!r.mark || r.pos.offset != 0) return r.time_ns;
  return ToNs(set_->member(r.member).label().start) - kEndSlopNs;
}

absl::Status ArchiveSource::Read(size_t i, Result* out) { return set_->Read(catalog_[i], out); }
absl::Status ArchiveSource::ReadOnly(size_t i, std::span<const PmID> only, Result* out) {
  return set_->ReadOnly(catalog_[i], only, out);
}

absl::Status ArchiveSource::Scan(std::span<const PmID> only,
                                 const std::function<void(size_t, const Result&)>& visit) {
  if (have_catalog_) return RecordSource::Scan(only, visit);
  catalog_ = set_->Catalog(&catalog_error_, only, visit);
  have_catalog_ = true;
  return absl::OkStatus();
}

const Desc* ArchiveSource::FindDesc(PmID pmid) {
  const MetricDesc* md = set_->FindDesc(pmid);
  return md == nullptr ? nullptr : &md->desc;
}

const ArchiveSource::EverySeen* ArchiveSource::EveryInstance(InDom indom) {
  auto cached = every_instance_.find(indom);
  if (cached != every_instance_.end()) return &cached->second;
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr) return nullptr;
  // Newest first: an instance keeps the name of its latest appearance.
  EverySeen& all = every_instance_[indom];
  absl::flat_hash_set<int32_t> seen;
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    for (size_t i = 0; i < it->size(); ++i) {
      if (!seen.insert(it->inst(i)).second) continue;
      all.ids.push_back(it->inst(i));
      all.names.emplace_back(it->name(i));
    }
  }
  return &all;
}

const std::vector<int32_t>& ArchiveSource::AllInstances(InDom indom) {
  static const std::vector<int32_t> kNone;
  const EverySeen* all = EveryInstance(indom);
  return all == nullptr ? kNone : all->ids;
}

const InterpMetadata::Lifetimes* ArchiveSource::InstanceLifetimes(InDom indom) {
  // PCP bounds lives only in an indom that some record shows with at least
  // this many instances.
  constexpr size_t kLifetimeThreshold = 16;
  auto cached = lifetimes_.find(indom);
  if (cached != lifetimes_.end()) return cached->second.get();
  std::unique_ptr<Lifetimes>& lives = lifetimes_[indom];
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr || std::none_of(h->begin(), h->end(), [](const InDomSnapshot& s) {
        return s.size() >= kLifetimeThreshold;
      })) {
    return nullptr;
  }
  lives = std::make_unique<Lifetimes>();
  // Newest first: the first sighting sets the death, every one the birth.
  std::optional<int64_t> newer;
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    int64_t t = ToNs(it->stamp);
    for (size_t i = 0; i < it->size(); ++i) {
      auto [life, added] = lives->try_emplace(it->inst(i));
      if (added) life->second.death_ns = newer;
      life->second.birth_ns = t;
    }
    newer = t;
  }
  return lives.get();
}

absl::StatusOr<std::vector<Instance>> ArchiveSource::GetInDomArchive(InDom indom) {
  const EverySeen* all = EveryInstance(indom);
  if (all == nullptr) return PcpError(kErrIndomLog);
  std::vector<Instance> out;
  out.reserve(all->ids.size());
  for (size_t i = 0; i < all->ids.size(); ++i) out.push_back({all->ids[i], all->names[i]});
  return out;
}

absl::Status ArchiveSource::CheckIndexedPosition() const {
  if (set_->size() != 1) return absl::OkStatus();
  return set_->member(0).CheckIndexedPosition(ArchiveTime::FromNanos(origin_ns_));
}

absl::Status ArchiveSource::Position() {
  if (positioned_) return absl::OkStatus();
  if (mode_ == kModeForw) {
    if (absl::Status s = CheckIndexedPosition(); !s.ok()) return s;
  }
  stream_ = mode_ == kModeForw && !have_catalog_ && set_->size() == 1;
  if (stream_) {
    PositionStream();
    positioned_ = true;
    return absl::OkStatus();
  }
  absl::StatusOr<size_t> n = Count();
  if (!n.ok()) return n.status();
  auto by_time = [](const ArchiveSet::Record& e, int64_t t) { return e.time_ns < t; };
  size_t first_at_or_after =
      std::lower_bound(catalog_.begin(), catalog_.end(), origin_ns_, by_time) - catalog_.begin();
  if (mode_ == kModeBack) {
    // Reading backwards starts with the last record at or before origin.
    size_t k = first_at_or_after;
    while (k < catalog_.size() && catalog_[k].time_ns == origin_ns_) ++k;
    cursor_ = k;
  } else {
    cursor_ = first_at_or_after;
  }
  positioned_ = true;
  return absl::OkStatus();
}

void ArchiveSource::PositionStream() {
  Archive& a = set_->member(0);
  // Only times and framing are needed to find the place.
  a.DecodeOnly({kPmIDNull});
  Result r;
  // From the first record, not from a temporal index entry: PCP reports
  // a corrupt record ahead of the origin (QA archive badlen-1) rather than
  // jumping over it, so the records before the origin are read too, only
  // their framing and times decoded.
  a.SeekStart();
  // The first record (in file order) at or after the origin, as PCP reads
  // forward to it, or the first that cannot be read (where a listing of
  // the records would have stopped).
  for (;;) {
    stream_pos_ = a.Tell();
    if (!a.ReadNext(&r).ok() || r.timestamp_ns() >= origin_ns_) break;
  }
  a.DecodeOnly({});
}

absl::Status ArchiveSource::ReadStream(Result* out) {
  Archive& a = set_->member(0);
  a.Seek(stream_pos_);
  Result& r = *out;
  absl::Status s = a.ReadNext(&r);
  if (s.ok()) {
    stream_pos_ = a.Tell();
    return s;
  }
  if (PcpCode(s) == kErrEol) return s;
  // As a listing of the records would: a record whose framing holds is
  // passed over after reporting its error; one whose framing does not ends
  // the archive there, with that error on every read.
  a.Seek(stream_pos_);
  a.DecodeOnly({kPmIDNull});
  absl::Status framing = a.ReadNext(&r);
  a.DecodeOnly({});
  if (!framing.ok()) return framing;
  stream_pos_ = a.Tell();
  return s;
}

absl::Status ArchiveSource::ReadInDirection(Result* out) {
  if (absl::Status s = Position(); !s.ok()) return s;
  if (stream_) return ReadStream(out);
  size_t i;
  if (mode_ == kModeBack) {
    if (cursor_ == 0) return PcpError(kErrEol);
    i = --cursor_;
  } else {
    if (cursor_ >= catalog_.size()) return catalog_error_.ok() ? PcpError(kErrEol) : catalog_error_;
    i = cursor_++;
  }
  return Read(i, out);
}

void ArchiveSource::SelectFrom(const Result& rec, std::span<const PmID> ids) {
  std::span<const ValueSet> sets = rec.sets();
  // Records of one archive mostly hold the same metrics in the same order:
  // the selection is made again only when the layout or the request change.
  bool same_request = selected_ids_.size() == ids.size() &&
                      std::equal(ids.begin(), ids.end(), selected_ids_.begin());
  bool same = same_request && selected_layout_.size() == sets.size();
  for (size_t k = 0; same && k < sets.size(); ++k) same = sets[k].pmid == selected_layout_[k];
  if (same) return;
  if (!same_request) {
    selected_ids_.assign(ids.begin(), ids.end());
    request_index_.clear();
    next_same_.assign(ids.size(), -1);
    for (size_t i = ids.size(); i-- > 0;) {
      auto [it, added] = request_index_.try_emplace(ids[i], static_cast<int>(i));
      if (added) continue;
      next_same_[i] = it->second;
      it->second = static_cast<int>(i);
    }
  }
  selected_layout_.resize(sets.size());
  selected_.assign(ids.size(), -1);
  for (size_t k = 0; k < sets.size(); ++k) {
    selected_layout_[k] = sets[k].pmid;
    auto it = request_index_.find(sets[k].pmid);
    if (it == request_index_.end()) continue;
    for (int i = it->second; i >= 0; i = next_same_[i]) {
      // The first of a repeated PMID in the record.
      if (selected_[i] < 0) selected_[i] = static_cast<int>(k);
    }
  }
}

absl::StatusOr<Result> ArchiveSource::FetchRecordwise(std::span<const PmID> ids,
                                                      const Profile& profile) {
  // Derived metrics are never in a record; a fetch of nothing else takes
  // the next record as it comes rather than reading to the end.
  bool all_derived = std::all_of(ids.begin(), ids.end(),
                                 [](PmID id) { return PmIDDomain(id) == kDynamicPmidDomain; });
  // The record decodes into the buffers of a result the caller handed
  // back, when the last one gave its own away.
  if (spare_.capacity_bytes() > record_.capacity_bytes()) std::swap(record_, spare_);
  while (true) {
    if (absl::Status s = ReadInDirection(&record_); !s.ok()) return s;
    if (record_.is_mark()) continue;
    SelectFrom(record_, ids);
    std::span<const ValueSet> sets = record_.sets();
    int found = 0;
    size_t values = 0;
    for (int k : selected_) {
      if (k < 0) continue;
      ++found;
      values += std::max(sets[k].numval, 0);
    }
    if (found == 0 && !all_derived) continue;
    origin_ns_ = record_.timestamp_ns();
    return SelectSets(record_, ids, values, profile);
  }
}

void ArchiveSource::Recycle(Result&& spent) {
  // Only record-by-record fetches reuse buffers.
  if (mode_ == kModeInterp) return;
  if (spent.capacity_bytes() > spare_.capacity_bytes()) spare_ = std::move(spent);
}

Result ArchiveSource::SelectSets(Result& rec, std::span<const PmID> ids, size_t values,
                                 const Profile& profile) {
  Result out;
  out.set_timestamp_ns(rec.timestamp_ns());
  std::span<const ValueSet> sets = rec.sets();
  if (profile.AdmitsAll()) {
    // Every value is kept: the result takes the record's values and
    // payloads as they are, and its sets point at them.
    out.Reserve(ids.size(), 0, 0);
    out.SwapStorage(rec);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (selected_[i] < 0) {
        out.AddSet(ids[i], 0, kValInsitu);
      } else {
        out.AddSetAt(sets[selected_[i]]);
      }
    }
    return out;
  }
  out.Reserve(ids.size(), values, 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (selected_[i] < 0) {
      out.AddSet(ids[i], 0, kValInsitu);
    } else {
      CopySet(rec, sets[selected_[i]], FindDesc(ids[i]), profile, &out);
    }
  }
  return out;
}

absl::StatusOr<Result> ArchiveSource::Fetch(std::span<const PmID> ids, const Profile& profile,
                                            int* state_change) {
  (void)state_change;
  if (mode_ != kModeInterp) return FetchRecordwise(ids, profile);
  absl::StatusOr<int64_t> end = EndNs();
  int64_t end_ns = 0;
  if (end.ok()) {
    end_ns = *end;
  } else {
    // As PCP when the end cannot be located: interpolation ends with the
    // last record it can read (the label's time when there is none).
    absl::StatusOr<size_t> n = Count();
    if (!n.ok()) return n.status();
    end_ns = *n > 0 ? catalog_.back().time_ns : ToNs(set_->label().start);
  }
  if (!positioned_) {
    // The first sample positions through the temporal index, as PCP's does.
    if (absl::Status s = CheckIndexedPosition(); !s.ok()) return s;
    positioned_ = true;
  }
  int64_t t = origin_ns_;
  origin_ns_ = SaturatingAdd(origin_ns_, delta_ns_);
  if (t < SaturatingAdd(ToNs(set_->label().start), -kEndSlopNs) ||
      t > SaturatingAdd(end_ns, kEndSlopNs)) {
    return PcpError(kErrEol);
  }
  return interp_.Fetch(t, ids, profile, delta_ns_ >= 0);
}

absl::StatusOr<Result> ArchiveSource::FetchArchive() {
  if (mode_ == kModeInterp) return PcpError(kErrMode);
  Result rec;
  if (absl::Status s = ReadInDirection(&rec); !s.ok()) return s;
  origin_ns_ = rec.timestamp_ns();
  return rec;
}

}  // namespace pmapi
