#include "archive_source.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "id_list.h"
#include "result_builder.h"

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

}  // namespace

ArchiveSource::ArchiveSource(std::unique_ptr<ArchiveSet> set)
    : set_(std::move(set)),
      metadata_(set_.get()),
      records_(set_.get()),
      interp_(&records_, &metadata_) {
  origin_ns_ = ToNs(set_->label().start);
  mode_ = Mode::kForw;
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

absl::StatusOr<std::vector<Instance>> ArchiveSource::GetInDom(InDom indom) {
  return metadata_.GetInDom(indom, origin_ns_);
}

absl::StatusOr<std::string> ArchiveSource::NameInDom(InDom indom, Inst inst) {
  return metadata_.NameInDom(indom, inst, origin_ns_);
}

absl::StatusOr<Inst> ArchiveSource::LookupInDom(InDom indom, std::string_view name) {
  return metadata_.LookupInDom(indom, name, origin_ns_);
}

absl::StatusOr<std::vector<LabelSet>> ArchiveSource::LookupLabels(int level, uint32_t ident) {
  return metadata_.LookupLabels(level, ident, origin_ns_);
}

absl::Status ArchiveSource::SetMode(Mode mode, absl::Time when, absl::Duration delta) {
  if (mode != Mode::kInterp && mode != Mode::kForw && mode != Mode::kBack) return PcpError(kErrMode);
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

absl::Status ArchiveSource::CheckIndexedPosition(bool backward) const {
  if (set_->size() != 1) return absl::OkStatus();
  return set_->member(0).CheckIndexedPosition(ArchiveTime::FromNanos(origin_ns_), backward);
}

absl::Status ArchiveSource::Position() {
  if (positioned_) return absl::OkStatus();
  if (mode_ == Mode::kForw || mode_ == Mode::kBack) {
    if (absl::Status s = CheckIndexedPosition(mode_ == Mode::kBack); !s.ok()) return s;
  }
  records_.Place(mode_, origin_ns_);
  positioned_ = true;
  return absl::OkStatus();
}

absl::Status ArchiveSource::ReadInDirection(Result* out, const RecordFilter& filter) {
  if (absl::Status s = Position(); !s.ok()) return s;
  return records_.Step(out, filter);
}

absl::StatusOr<Result> ArchiveSource::FetchRecordwise(std::span<const PmID> ids,
                                                      const Profile& profile) {
  // Derived metrics are never in a record; a fetch of nothing else takes
  // the next record as it comes rather than reading to the end. Metrics
  // of the derived domain that pmlogger logged (the archive describes
  // them) are in records like any other.
  bool all_derived = std::all_of(ids.begin(), ids.end(), [this](PmID id) {
    return PmIDDomain(id) == kDynamicPmidDomain && set_->FindDesc(id) == nullptr;
  });
  // The record decodes into the buffers of a result the caller handed
  // back, when the last one gave its own away.
  if (ResultBuilder::CapacityBytes(spare_) > ResultBuilder::CapacityBytes(record_)) std::swap(record_, spare_);
  // Only the value sets asked for are decoded (all of them when only
  // derived metrics are asked for: any record will do).
  if (!SameIds(ids, fetch_ids_)) {
    fetch_ids_.assign(ids.begin(), ids.end());
    fetch_filter_ = all_derived ? RecordFilter() : RecordFilter(ids);
  }
  while (true) {
    if (absl::Status s = ReadInDirection(&record_, fetch_filter_); !s.ok()) return s;
    if (record_.is_mark()) continue;
    size_t values = 0;
    if (selection_.Select(record_, ids, &values) == 0 && !all_derived) continue;
    origin_ns_ = record_.timestamp_ns();
    return selection_.Take(record_, ids, values, profile, &metadata_);
  }
}

void ArchiveSource::Recycle(Result&& spent) {
  // Only record-by-record fetches reuse buffers.
  if (mode_ == Mode::kInterp) return;
  if (ResultBuilder::CapacityBytes(spent) > ResultBuilder::CapacityBytes(spare_)) spare_ = std::move(spent);
}

absl::StatusOr<Result> ArchiveSource::Fetch(std::span<const PmID> ids, const Profile& profile,
                                            int* state_change) {
  (void)state_change;
  if (mode_ != Mode::kInterp) return FetchRecordwise(ids, profile);
  return FetchInterpolated(ids, profile);
}

absl::StatusOr<Result> ArchiveSource::FetchInterpolated(std::span<const PmID> ids,
                                                        const Profile& profile) {
  absl::StatusOr<int64_t> end = EndNs();
  // As PCP when the end cannot be located: interpolation ends with the
  // last record it can read (the label's time when there is none).
  const int64_t end_ns =
      end.ok() ? *end : records_.LastTimeNs().value_or(ToNs(set_->label().start));
  if (!positioned_) {
    // The first sample positions through the temporal index, as PCP's does.
    if (absl::Status s = CheckIndexedPosition(delta_ns_ < 0); !s.ok()) return s;
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
  if (mode_ == Mode::kInterp) return PcpError(kErrMode);
  Result rec;
  if (absl::Status s = ReadInDirection(&rec); !s.ok()) return s;
  origin_ns_ = rec.timestamp_ns();
  return rec;
}

}  // namespace pmapi
