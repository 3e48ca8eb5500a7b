#include "record_catalog.h"

#include <algorithm>

#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// PCP stamps the <mark> between two archives of a set, read backwards, a
// millisecond before the later one's start.
constexpr int64_t kMarkBackGapNs = 1000000;

}  // namespace

void RecordCatalog::List() {
  if (listed_) return;
  records_ = set_->Catalog(&list_error_);
  listed_ = true;
}

absl::StatusOr<size_t> RecordCatalog::Count() {
  List();
  return records_.size();
}

std::optional<int64_t> RecordCatalog::LastTimeNs() {
  List();
  if (records_.empty()) return std::nullopt;
  return records_.back().time_ns;
}

int64_t RecordCatalog::MarkTimeBackNs(size_t i) {
  const ArchiveSet::Record& r = records_[i];
  // A mark of the set (not one of a member's own records).
  if (!r.mark || r.pos.offset != 0) return r.time_ns;
  return set_->member(r.member).label().start.nanos() - kMarkBackGapNs;
}

absl::Status RecordCatalog::Read(size_t i, Result* out) { return set_->Read(records_[i], out); }

absl::Status RecordCatalog::ReadOnly(size_t i, std::span<const PmID> only, Result* out) {
  return set_->Read(records_[i], out, RecordFilter(only));
}

absl::Status RecordCatalog::Scan(std::span<const PmID> only,
                                 const std::function<void(size_t, const Result&)>& visit) {
  if (listed_) return RecordSource::Scan(only, visit);
  // The pass that lists the records decodes what the visitor wants.
  records_ = set_->Catalog(&list_error_, RecordFilter(only), visit);
  listed_ = true;
  return absl::OkStatus();
}

void RecordCatalog::Place(Mode mode, int64_t origin_ns) {
  backward_ = mode == Mode::kBack;
  stream_ = !backward_ && !listed_ && set_->size() == 1;
  if (stream_) {
    PlaceStream(origin_ns);
    return;
  }
  List();
  auto by_time = [](const ArchiveSet::Record& e, int64_t t) { return e.time_ns < t; };
  size_t k = std::lower_bound(records_.begin(), records_.end(), origin_ns, by_time) -
             records_.begin();
  // Reading backwards starts with the last record at or before origin.
  while (backward_ && k < records_.size() && records_[k].time_ns == origin_ns) ++k;
  cursor_ = k;
}

absl::Status RecordCatalog::Step(Result* out, const RecordFilter& filter) {
  if (stream_) return StepStream(out, filter);
  size_t i;
  if (backward_) {
    if (cursor_ == 0) return PcpError(kErrEol);
    i = --cursor_;
  } else {
    if (cursor_ >= records_.size()) return list_error_.ok() ? PcpError(kErrEol) : list_error_;
    i = cursor_++;
  }
  return set_->Read(records_[i], out, filter);
}

void RecordCatalog::PlaceStream(int64_t origin_ns) {
  Archive& a = set_->member(0);
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
    if (!a.ReadNext(&r, RecordFilter::FramingOnly()).ok() || r.timestamp_ns() >= origin_ns) break;
  }
}

absl::Status RecordCatalog::StepStream(Result* out, const RecordFilter& filter) {
  Archive& a = set_->member(0);
  a.Seek(stream_pos_);
  absl::Status s = a.ReadNext(out, filter);
  if (s.ok()) {
    stream_pos_ = a.Tell();
    return s;
  }
  if (PcpCode(s) == kErrEol) return s;
  // As a listing of the records would: a record whose framing holds is
  // passed over after reporting its error; one whose framing does not ends
  // the archive there, with that error on every read.
  a.Seek(stream_pos_);
  absl::Status framing = a.ReadNext(out, RecordFilter::FramingOnly());
  if (!framing.ok()) return framing;
  stream_pos_ = a.Tell();
  return s;
}

}  // namespace pmapi
