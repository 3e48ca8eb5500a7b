// The archive reader: opening an archive (its files found by
// archive_discovery, its labels checked, its index and metadata loaded; the
// metadata store is archive_meta_store.cc), and reading data records
// across volumes, forward and backward, to the archive's end.
#include "pmapi/archive.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <utility>

#include "archive_file.h"
#include "archive_impl.h"
#include "byte_reader.h"
#include "log_format.h"
#include "meta_decoder.h"
#include "pmapi/errors.h"
#include "result_codec.h"

namespace pmapi {
namespace {

namespace lf = log_format;

// Seconds from b to a, as libpcp subtracts two timestamps.
double SecondsBetween(ArchiveTime a, ArchiveTime b) {
  return static_cast<double>(a.sec - b.sec) + static_cast<double>(a.nsec - b.nsec) / 1e9;
}

// Checks a file's label: decodes it and compares its volume number.
// Returns the label, PM_ERR_LABEL, or PM_ERR_NODATA for an empty file or
// one holding only its label.
absl::StatusOr<ArchiveLabel> CheckLabel(ArchiveFile& f, int32_t vol, bool empty_is_error) {
  // Enough for the longest label (version 3).
  absl::StatusOr<std::span<const uint8_t>> head = f.Read(0, LabelRecordBytes(lf::kVersion3));
  if (!head.ok()) return head.status();
  absl::StatusOr<ArchiveLabel> l = DecodeLabel(*head);
  if (!l.ok()) return l.status();
  if (l->vol != vol) return PcpError(kErrLabel);
  if (empty_is_error && f.size() == LabelRecordBytes(l->version)) {
    return PcpError(kErrNodata);
  }
  return l;
}

// Returns true if two files' labels belong to the same archive.
bool SameArchive(const ArchiveLabel& a, const ArchiveLabel& b) {
  return a.magic == b.magic && a.hostname == b.hostname && a.start == b.start;
}

// The metadata, the temporal index and the first data volume must name
// the same logger process too, as PCP checks when it opens an archive
// (later volumes are not held to it).
bool SameLogger(const ArchiveLabel& a, const ArchiveLabel& b) {
  return SameArchive(a, b) && a.pid == b.pid;
}

}  // namespace

absl::Status Archive::Impl::Open(std::string_view name) {
  base = ArchiveBaseName(name);
  absl::StatusOr<ArchiveFiles> found = FindArchiveFiles(base);
  if (!found.ok()) return found.status();
  files = std::move(*found);
  absl::StatusOr<ArchiveFile> meta = ArchiveFile::Open(files.meta);
  if (!meta.ok()) return meta.status();
  meta_file = std::move(*meta);
  absl::StatusOr<ArchiveLabel> l = CheckLabel(meta_file, lf::kVolMeta, false);
  if (!l.ok()) return l.status();
  label = std::move(*l);
  if (!files.index.empty()) {
    absl::StatusOr<ArchiveFile> ti = ArchiveFile::Open(files.index);
    if (!ti.ok()) return ti.status();
    absl::StatusOr<ArchiveLabel> tl = CheckLabel(*ti, lf::kVolIndex, false);
    if (!tl.ok()) return tl.status();
    if (!SameLogger(label, *tl)) return PcpError(kErrLabel);
    has_index = true;
    const size_t label_bytes = LabelRecordBytes(label.version);
    absl::StatusOr<std::span<const uint8_t>> body =
        ti->Read(label_bytes, static_cast<size_t>(ti->size() - std::min<uint64_t>(ti->size(), label_bytes)));
    if (!body.ok()) return body.status();
    index = DecodeIndex(*body, label.version);
  }
  if (files.volumes.empty()) return PcpError(-ENOENT);
  absl::StatusOr<ArchiveFile*> first = Volume(files.volumes.begin()->first);
  if (!first.ok()) return first.status();
  absl::Status s = LoadMeta();
  if (!s.ok()) return s;
  meta_file.Drop();  // everything in it is decoded now
  for (auto& [indom, table] : instance_tables) table.Freeze();
  indom_scratch = InDomRecordView();
  NameDescs();
  return absl::OkStatus();
}

absl::StatusOr<ArchiveFile*> Archive::Impl::Volume(int v) {
  auto open = open_volumes.find(v);
  if (open != open_volumes.end()) return &open->second;
  auto path = files.volumes.find(v);
  if (path == files.volumes.end()) return PcpError(-ENOENT);
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(path->second);
  if (!f.ok()) return f.status();
  // Only the last volume may hold nothing but its label (a logger that is
  // still writing); any other label-only volume is an empty archive.
  const bool last = v == files.volumes.rbegin()->first;
  absl::StatusOr<ArchiveLabel> l = CheckLabel(*f, v, !last || files.volumes.size() == 1);
  if (!l.ok()) return l.status();
  // As in PCP, only the first volume's label is held to the metadata's;
  // its time zone is the one the archive reports.
  if (v == files.volumes.begin()->first) {
    if (!SameLogger(label, *l)) return PcpError(kErrLabel);
    label.timezone = l->timezone;
    label.zoneinfo = l->zoneinfo;
  }
  return &open_volumes.emplace(v, std::move(*f)).first->second;
}

int Archive::Impl::NextVolume(int v) const {
  auto it = files.volumes.upper_bound(v);
  return it == files.volumes.end() ? -1 : it->first;
}

int Archive::Impl::PrevVolume(int v) const {
  auto it = files.volumes.lower_bound(v);
  if (it == files.volumes.begin()) return -1;
  return std::prev(it)->first;
}

absl::Status Archive::Impl::DecodeRecord(ArchiveFile& f, uint64_t start, uint32_t len,
                                         const RecordFilter& filter, Result* out) const {
  if (len < 12 || start + len > f.size()) return PcpError(kErrLogrec);
  absl::StatusOr<std::span<const uint8_t>> rec = f.Read(start, len);
  if (!rec.ok()) return rec.status();
  if (rec->size() != len) return PcpError(kErrLogrec);
  if (LoadBigEndian32(rec->data()) != len || LoadBigEndian32(rec->data() + len - 4) != len) {
    return PcpError(kErrLogrec);
  }
  const ResultLayout layout =
      label.version == lf::kVersion3 ? ResultLayout::kTimestamp : ResultLayout::kTimeval;
  return DecodeResultOnly(rec->subspan(4, len - 8), layout, kErrLogrec, filter.pmids(), out);
}

namespace {

// Returns the big-endian word at `at` of `f`, or nullopt if the file holds
// fewer than 4 bytes there.
absl::StatusOr<std::optional<uint32_t>> WordAt(ArchiveFile& f, uint64_t at) {
  absl::StatusOr<std::span<const uint8_t>> w = f.Read(at, 4);
  if (!w.ok()) return w.status();
  if (w->size() < 4) return std::optional<uint32_t>();
  return std::optional<uint32_t>(LoadBigEndian32(w->data()));
}

}  // namespace

absl::Status Archive::Impl::ReadNext(Result* out, const RecordFilter& filter) {
  for (;;) {
    absl::StatusOr<ArchiveFile*> f = Volume(vol);
    if (!f.ok()) return f.status();
    if (offset + 4 > (*f)->size()) {
      // End of this volume (a partial length word counts as its end).
      int next = NextVolume(vol);
      if (next < 0) return PcpError(kErrEol);
      (*f)->Drop();  // a scan does not come back soon
      vol = next;
      offset = LabelRecordBytes(label.version);
      continue;
    }
    absl::StatusOr<std::optional<uint32_t>> len_word = WordAt(**f, offset);
    if (!len_word.ok()) return len_word.status();
    const uint32_t len = len_word->value_or(0);
    absl::Status s = DecodeRecord(**f, offset, len, filter, out);
    if (!s.ok()) return s;
    offset += len;
    record_bytes = len;
    return absl::OkStatus();
  }
}

absl::Status Archive::Impl::ReadPrev(Result* out, const RecordFilter& filter) {
  const size_t label_bytes = LabelRecordBytes(label.version);
  for (;;) {
    absl::StatusOr<ArchiveFile*> f = Volume(vol);
    if (!f.ok()) return f.status();
    if (offset > (*f)->size()) offset = static_cast<size_t>((*f)->size());
    if (offset <= label_bytes) {
      int prev = PrevVolume(vol);
      if (prev < 0) return PcpError(kErrEol);
      absl::StatusOr<ArchiveFile*> p = Volume(prev);
      if (!p.ok()) return p.status();
      (*f)->Drop();
      vol = prev;
      offset = static_cast<size_t>((*p)->size());
      continue;
    }
    if (offset < label_bytes + 4) return PcpError(kErrLogrec);
    absl::StatusOr<std::optional<uint32_t>> len_word = WordAt(**f, offset - 4);
    if (!len_word.ok()) return len_word.status();
    const uint32_t len = len_word->value_or(0);
    if (len < 12 || len > offset - label_bytes) return PcpError(kErrLogrec);
    const size_t start = offset - len;
    absl::Status s = DecodeRecord(**f, start, len, filter, out);
    if (!s.ok()) return s;
    offset = start;
    record_bytes = len;
    return absl::OkStatus();
  }
}

absl::StatusOr<ArchiveTime> Archive::Impl::End() {
  // The end is the last record of the last volume holding any, read
  // backwards from the physical end of the file, as libpcp finds it. When
  // that record is damaged, libpcp reads forward from the last temporal
  // index entry inside the file and takes the last record it can read.
  const size_t label_bytes = LabelRecordBytes(label.version);
  Result last;
  for (auto it = files.volumes.rbegin(); it != files.volumes.rend(); ++it) {
    absl::StatusOr<ArchiveFile*> f = Volume(it->first);
    if (!f.ok()) continue;
    const uint64_t size = (*f)->size();
    if (size <= label_bytes) continue;
    absl::Status s = LastRecord(**f, label_bytes, &last);
    if (s.ok()) return ArchiveTime::FromNanos(last.timestamp_ns());
    absl::StatusOr<ArchiveTime> from_index = EndFromIndex(it->first, size);
    return from_index.ok() ? from_index : s;
  }
  return PcpError(kErrLogrec);
}

absl::Status Archive::Impl::LastRecord(ArchiveFile& f, size_t label_bytes, Result* out) {
  const uint64_t size = f.size();
  if (size < label_bytes + 4) return PcpError(kErrLogrec);
  absl::StatusOr<std::optional<uint32_t>> len_word = WordAt(f, size - 4);
  if (!len_word.ok()) return len_word.status();
  const uint32_t len = len_word->value_or(0);
  if (len < 12 || len > size - label_bytes) return PcpError(kErrLogrec);
  return DecodeRecord(f, size - len, len, RecordFilter(), out);
}

absl::StatusOr<ArchiveTime> Archive::Impl::EndFromIndex(int volume, uint64_t size) {
  const size_t label_bytes = LabelRecordBytes(label.version);
  const IndexEntry* start = nullptr;
  for (const IndexEntry& e : index) {
    if (e.vol == volume && e.data_offset >= static_cast<int64_t>(label_bytes) &&
        static_cast<uint64_t>(e.data_offset) < size) {
      start = &e;
    }
  }
  if (start == nullptr) return PcpError(kErrLogrec);
  // Read from there on the reader's own position, put back afterwards.
  const int saved_vol = vol;
  const size_t saved_offset = offset;
  const uint32_t saved_bytes = record_bytes;
  vol = volume;
  offset = static_cast<size_t>(start->data_offset);
  Result r;
  std::optional<int64_t> last_ns;
  while (vol == volume && ReadNext(&r).ok()) last_ns = r.timestamp_ns();
  vol = saved_vol;
  offset = saved_offset;
  record_bytes = saved_bytes;
  if (!last_ns) return PcpError(kErrLogrec);
  return ArchiveTime::FromNanos(*last_ns);
}

// Archive: the public face.

Archive::Archive(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Archive::~Archive() = default;

absl::StatusOr<std::unique_ptr<Archive>> Archive::Open(std::string_view name) {
  auto impl = std::make_unique<Impl>();
  absl::Status s = impl->Open(name);
  if (!s.ok()) return s;
  std::unique_ptr<Archive> a(new Archive(std::move(impl)));
  a->SeekStart();
  return a;
}

const std::string& Archive::base_name() const { return impl_->base; }
const ArchiveLabel& Archive::label() const { return impl_->label; }
const std::vector<MetricDesc>& Archive::descs() const { return impl_->descs; }
const std::vector<StoredInDomRecord>& Archive::indom_records() const { return impl_->indom_records; }
const std::vector<LabelRecord>& Archive::label_records() const { return impl_->label_records; }
const std::vector<HelpText>& Archive::help_texts() const { return impl_->help_texts; }
const std::vector<IndexEntry>& Archive::index() const { return impl_->index; }
bool Archive::has_index() const { return impl_->has_index; }

void Archive::SeekStart() {
  impl_->vol = impl_->files.volumes.empty() ? 0 : impl_->files.volumes.begin()->first;
  impl_->offset = LabelRecordBytes(impl_->label.version);
}

void Archive::SeekEnd() {
  impl_->vol = impl_->files.volumes.empty() ? 0 : impl_->files.volumes.rbegin()->first;
  impl_->offset = SIZE_MAX;
}

absl::Status Archive::ReadNext(Result* out, const RecordFilter& filter) {
  return impl_->ReadNext(out, filter);
}

Archive::Position Archive::Tell() const { return Position{impl_->vol, impl_->offset}; }

void Archive::DropVolumePages(int vol) {
  auto open = impl_->open_volumes.find(vol);
  if (open != impl_->open_volumes.end()) open->second.Drop();
}

void Archive::Seek(Position p) {
  impl_->vol = p.vol;
  impl_->offset = static_cast<size_t>(p.offset);
}
absl::Status Archive::ReadPrev(Result* out, const RecordFilter& filter) {
  return impl_->ReadPrev(out, filter);
}
uint32_t Archive::record_bytes() const { return impl_->record_bytes; }

RecordFilter::RecordFilter(std::span<const PmID> pmids) : pmids_(pmids.begin(), pmids.end()) {
  // Sorted, for the decoder's binary search.
  std::sort(pmids_.begin(), pmids_.end());
}

const RecordFilter& RecordFilter::FramingOnly() {
  // No record holds a value set of PM_ID_NULL.
  static const PmID kNone[] = {kPmIDNull};
  static const RecordFilter* const framing = new RecordFilter(kNone);
  return *framing;
}
absl::StatusOr<ArchiveTime> Archive::End() const { return impl_->End(); }

// The index entries libpcp keeps: those whose times and data offsets do
// not go backwards.
std::vector<const IndexEntry*> Archive::Impl::UsableIndex() const {
  std::vector<const IndexEntry*> out;
  for (const IndexEntry& e : index) {
    const IndexEntry* previous = out.empty() ? nullptr : out.back();
    if (previous != nullptr && (e.stamp < previous->stamp ||
                                (e.vol == previous->vol && e.data_offset < previous->data_offset))) {
      continue;
    }
    out.push_back(&e);
  }
  return out;
}

// The entry libpcp's positioning seeks to for time t: an entry at t; else
// the nearer of those either side (the earlier when the later points past
// the end of the last volume); the first when none is earlier, the last
// when none is later.
// `*after` tells whether it is the later of the two, which libpcp reads
// forward from; from any other it first steps back over a record.
const IndexEntry* Archive::Impl::IndexedEntry(ArchiveTime t, bool* after) {
  *after = false;
  std::vector<const IndexEntry*> ti = UsableIndex();
  if (ti.empty()) return nullptr;
  const int last_vol = files.volumes.empty() ? 0 : files.volumes.rbegin()->first;
  size_t j = ti.size();
  bool toobig = false;
  for (size_t i = 0; i < ti.size(); ++i) {
    if (ti[i]->vol == last_vol) {
      absl::StatusOr<ArchiveFile*> f = Volume(last_vol);
      if (f.ok() && ti[i]->data_offset > static_cast<int64_t>((*f)->size())) {
        j = i;
        toobig = true;
        break;
      }
    }
    if (!(ti[i]->stamp < t)) {
      if (!(t < ti[i]->stamp)) return ti[i];  // at t
      j = i;
      break;
    }
  }
  if (j == 0) return ti.front();
  if (j == ti.size()) return ti.back();
  const double to_next = SecondsBetween(ti[j]->stamp, t);
  const double from_prior = SecondsBetween(t, ti[j - 1]->stamp);
  *after = to_next <= from_prior && !toobig;
  return *after ? ti[j] : ti[j - 1];
}

// Whether a record ends at `offset` of volume `vol` (backward) or starts
// there (forward), as libpcp's read from there checks: the length at the
// head and at the tail agree. The end of the volume is a boundary.
bool Archive::Impl::RecordBoundary(int vol, int64_t offset, bool backward) {
  absl::StatusOr<ArchiveFile*> f = Volume(vol);
  if (!f.ok()) return true;
  const int64_t size = static_cast<int64_t>((*f)->size());
  if (offset >= size) return true;  // reads go on in the next volume
  auto word = [&](int64_t at) -> std::optional<uint32_t> {
    if (at < 0 || at + 4 > size) return std::nullopt;
    absl::StatusOr<std::span<const uint8_t>> b = (*f)->Read(static_cast<uint64_t>(at), 4);
    if (!b.ok() || b->size() != 4) return std::nullopt;
    return LoadBigEndian32(b->data());
  };
  std::optional<uint32_t> len = backward ? word(offset - 4) : word(offset);
  if (!len.has_value() || *len < 8) return false;
  const int64_t head = backward ? offset - *len : offset;
  std::optional<uint32_t> other = backward ? word(head) : word(head + *len - 4);
  return other.has_value() && *other == *len;
}

absl::Status Archive::CheckIndexedPosition(ArchiveTime t, bool backward) const {
  bool after = false;
  const IndexEntry* picked = impl_->IndexedEntry(t, &after);
  if (picked == nullptr) return absl::OkStatus();
  const int64_t label_bytes = static_cast<int64_t>(LabelRecordBytes(impl_->label.version));
  if (picked->data_offset < label_bytes) return PcpError(kErrLogrec);
  // An entry marks the end of a record: going forward libpcp first steps
  // back over the record before it, unless it chose the entry after t.
  if (!impl_->RecordBoundary(picked->vol, picked->data_offset, backward || !after)) {
    return PcpError(kErrLogrec);
  }
  return absl::OkStatus();
}

}  // namespace pmapi
