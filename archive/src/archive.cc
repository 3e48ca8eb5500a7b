// The archive reader: finding an archive's files, loading label, metadata
// and index, and reading data records across volumes.
#include "pmapi/archive.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "archive_file.h"
#include "byte_reader.h"
#include "log_format.h"
#include "meta_decoder.h"
#include "pmapi/errors.h"
#include "result_codec.h"

namespace pmapi {
namespace {

namespace lf = log_format;

// Compression suffixes PCP recognises after a file name.
constexpr const char* kCompressionSuffixes[] = {".xz", ".lzma", ".bz2", ".bz",
                                                ".gz", ".Z",    ".z",   ".zst"};

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Returns `s` without a trailing compression suffix.
std::string_view StripCompression(std::string_view s) {
  for (const char* suffix : kCompressionSuffixes) {
    if (absl::EndsWith(absl::string_view(s.data(), s.size()), suffix)) {
      return s.substr(0, s.size() - std::char_traits<char>::length(suffix));
    }
  }
  return s;
}

// Returns the archive base name for `name`: a file of the archive loses its
// ".meta", ".index" or ".N" (and compression) suffix; anything else is
// taken to be the base name already.
std::string BaseName(std::string_view name) {
  if (!IsRegularFile(std::string(name))) return std::string(name);
  std::string_view s = StripCompression(name);
  size_t dot = s.rfind('.');
  size_t slash = s.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return std::string(name);
  }
  std::string_view suffix = s.substr(dot + 1);
  if (suffix == "meta" || suffix == "index" || AllDigits(suffix)) {
    return std::string(s.substr(0, dot));
  }
  return std::string(name);
}

// Seconds from b to a, as libpcp subtracts two timestamps.
double SecondsBetween(ArchiveTime a, ArchiveTime b) {
  return static_cast<double>(a.sec - b.sec) + static_cast<double>(a.nsec - b.nsec) / 1e9;
}

// The files that make up one archive.
struct ArchiveFiles {
  std::string meta;
  std::string index;
  std::map<int, std::string> volumes;
};

// Classifies one directory entry `rest` (the part after "base.").
void Classify(const std::string& path, std::string_view rest, ArchiveFiles* files) {
  std::string_view plain = StripCompression(rest);
  const bool compressed = plain.size() != rest.size();
  if (plain == "meta") {
    if (files->meta.empty() || !compressed) files->meta = path;
  } else if (plain == "index") {
    if (files->index.empty() || !compressed) files->index = path;
  } else if (AllDigits(plain) && plain.size() < 10) {
    int vol = std::stoi(std::string(plain));
    auto it = files->volumes.find(vol);
    if (it == files->volumes.end() || !compressed) files->volumes[vol] = path;
  }
}

absl::StatusOr<ArchiveFiles> FindFiles(const std::string& base) {
  const size_t slash = base.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : base.substr(0, slash + 1);
  const std::string prefix = (slash == std::string::npos ? base : base.substr(slash + 1)) + ".";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return PcpError(-errno);
  ArchiveFiles files;
  while (struct dirent* e = readdir(d)) {
    std::string_view entry(e->d_name);
    if (entry.size() <= prefix.size() || entry.substr(0, prefix.size()) != prefix) continue;
    std::string path = slash == std::string::npos ? std::string(entry) : dir + std::string(entry);
    Classify(path, entry.substr(prefix.size()), &files);
  }
  closedir(d);
  // As PCP: with some of the archive's files there but its metadata or
  // every data volume missing, PM_ERR_LOGFILE; with none, ENOENT.
  if (files.meta.empty() || files.volumes.empty()) {
    const bool some = !files.meta.empty() || !files.index.empty() || !files.volumes.empty();
    return PcpError(some ? kErrLogfile : -ENOENT);
  }
  return files;
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

// Orders a membership's entries by instance number, stably (equal numbers
// keep their order): libpcp keeps every membership it loads sorted so, full
// records as well as rebuilt deltas.
void SortByInstance(const InstanceTable& table, std::vector<uint32_t>* entries) {
  auto by_inst = [&table](uint32_t a, uint32_t b) { return table.inst(a) < table.inst(b); };
  if (!std::is_sorted(entries->begin(), entries->end(), by_inst)) {
    std::stable_sort(entries->begin(), entries->end(), by_inst);
  }
}

}  // namespace

class Archive::Impl {
 public:
  absl::Status Open(std::string_view name);
  absl::Status LoadMeta();
  absl::Status AddMetaRecord(uint32_t type, std::span<const uint8_t> payload);
  void AddInDom(const InDomRecordView& rec);
  // The membership a record leaves: a full record's instances, or a delta
  // applied to the membership before it.
  std::vector<uint32_t> Membership(const StoredInDomRecord& rec,
                                   const std::vector<InDomSnapshot>& history) const;
  // Gives each descriptor its names, in PCP's order (pmNameAll).
  void NameDescs();

  // Returns the open, label-checked file of data volume `vol`.
  absl::StatusOr<ArchiveFile*> Volume(int vol);
  // Returns the volume after (or before) `vol`, or -1 if none.
  int NextVolume(int vol) const;
  std::vector<const IndexEntry*> UsableIndex() const;
  const IndexEntry* IndexedEntry(ArchiveTime t, bool* after);
  bool RecordBoundary(int vol, int64_t offset, bool backward);
  int PrevVolume(int vol) const;
  // Decodes the data record of `len` bytes at `start` of volume file `f`.
  absl::Status DecodeRecord(ArchiveFile& f, uint64_t start, uint32_t len,
                            const RecordFilter& filter, Result* out) const;
  absl::Status ReadNext(Result* out, const RecordFilter& filter = RecordFilter());
  absl::Status ReadPrev(Result* out, const RecordFilter& filter = RecordFilter());
  absl::StatusOr<ArchiveTime> End();
  // Decodes the record that ends file f (its trailing length word).
  absl::Status LastRecord(ArchiveFile& f, size_t label_bytes, Result* out);
  // The last record readable forward from the last index entry inside
  // `volume` (of `size` bytes), or PM_ERR_LOGREC when there is none.
  absl::StatusOr<ArchiveTime> EndFromIndex(int volume, uint64_t size);

  std::string base;
  ArchiveLabel label;
  ArchiveFiles files;
  ArchiveFile meta_file;
  bool has_index = false;
  std::vector<IndexEntry> index;
  std::vector<MetricDesc> descs;
  absl::flat_hash_map<PmID, size_t> desc_by_pmid;
  // The name space, built name by name from the descriptors in .meta
  // order as PCP builds it.
  std::shared_ptr<Pmns> pmns = std::make_shared<Pmns>();
  std::vector<StoredInDomRecord> indom_records;
  // One instance table per indom (map nodes stay put, so the records and
  // snapshots can point at them).
  std::map<InDom, InstanceTable> instance_tables;
  std::map<InDom, std::vector<InDomSnapshot>> indom_history;
  InDomRecordView indom_scratch;
  std::vector<LabelRecord> label_records;
  std::vector<HelpText> help_texts;

  std::map<int, ArchiveFile> open_volumes;
  int vol = 0;
  size_t offset = 0;
  uint32_t record_bytes = 0;
};

absl::Status Archive::Impl::Open(std::string_view name) {
  base = BaseName(name);
  absl::StatusOr<ArchiveFiles> found = FindFiles(base);
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

absl::Status Archive::Impl::LoadMeta() {
  // Record by record, so only a small window of the file is held at a time.
  uint64_t at = LabelRecordBytes(label.version);
  for (;;) {
    absl::StatusOr<std::span<const uint8_t>> head = meta_file.Read(at, 8);
    if (!head.ok()) return head.status();
    // A partial header at the end of the file is where libpcp stops too.
    if (head->size() < 8) return absl::OkStatus();
    const uint32_t len = LoadBigEndian32(head->data());
    const uint32_t type = LoadBigEndian32(head->data() + 4);
    if (len < 12) return PcpError(kErrLogrec);
    absl::StatusOr<std::span<const uint8_t>> rec = meta_file.Read(at, len);
    if (!rec.ok()) return rec.status();
    if (rec->size() < len || LoadBigEndian32(rec->data() + len - 4) != len) {
      return PcpError(kErrLogrec);
    }
    absl::Status s = AddMetaRecord(type, rec->subspan(8, len - 12));
    if (!s.ok()) return s;
    at += len;
  }
}

absl::Status Archive::Impl::AddMetaRecord(uint32_t type, std::span<const uint8_t> payload) {
  switch (type) {
    case lf::kTypeDesc: {
      absl::StatusOr<MetricDesc> d = DecodeDesc(payload);
      if (!d.ok()) return d.status();
      // A name that clashes with one already added is dropped, as PCP
      // drops it.
      for (const std::string& n : d->names) pmns->AddName(n, d->desc.pmid).IgnoreError();
      d->names.clear();
      if (desc_by_pmid.emplace(d->desc.pmid, descs.size()).second) descs.push_back(std::move(*d));
      return absl::OkStatus();
    }
    case lf::kTypeInDomV2:
    case lf::kTypeInDom:
    case lf::kTypeInDomDelta: {
      InDomRecord::Kind kind = type == lf::kTypeInDomV2 ? InDomRecord::Kind::kV2
                               : type == lf::kTypeInDom ? InDomRecord::Kind::kFull
                                                        : InDomRecord::Kind::kDelta;
      absl::Status s = DecodeInDomView(payload, kind, &indom_scratch);
      if (!s.ok()) return s;
      AddInDom(indom_scratch);
      return absl::OkStatus();
    }
    case lf::kTypeLabelV2:
    case lf::kTypeLabel: {
      absl::StatusOr<LabelRecord> rec = DecodeLabelRecord(payload, type == lf::kTypeLabel);
      if (!rec.ok()) return rec.status();
      label_records.push_back(std::move(*rec));
      return absl::OkStatus();
    }
    case lf::kTypeText: {
      absl::StatusOr<HelpText> t = DecodeText(payload);
      if (!t.ok()) return t.status();
      help_texts.push_back(std::move(*t));
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();  // unknown record types are skipped
  }
}

void Archive::Impl::NameDescs() {
  for (MetricDesc& d : descs) {
    absl::StatusOr<std::vector<std::string>> names = pmns->NameAll(d.desc.pmid);
    if (names.ok()) d.names = std::move(*names);
  }
}

void Archive::Impl::AddInDom(const InDomRecordView& rec) {
  InstanceTable& table = instance_tables[rec.indom];
  StoredInDomRecord stored;
  stored.kind = rec.kind;
  stored.stamp = rec.stamp;
  stored.indom = rec.indom;
  stored.table = &table;
  stored.refs.reserve(rec.insts.size());
  for (size_t i = 0; i < rec.insts.size(); ++i) {
    // Instance numbers are never negative (the decoder checks).
    stored.refs.push_back(rec.deleted[i] ? StoredInDomRecord::kDeleted | static_cast<uint32_t>(rec.insts[i])
                                         : table.Intern(rec.insts[i], rec.names[i]));
  }
  std::vector<InDomSnapshot>& history = indom_history[rec.indom];
  InDomSnapshot snap;
  snap.stamp = rec.stamp;
  snap.table = &table;
  snap.entries = Membership(stored, history);
  SortByInstance(table, &snap.entries);
  // Keep the history in time order even if records arrive out of order.
  auto at = std::upper_bound(history.begin(), history.end(), snap.stamp,
                             [](const ArchiveTime& t, const InDomSnapshot& s) { return t < s.stamp; });
  // A record repeating one of the same time adds nothing, but as PCP does,
  // the one it repeats becomes the latest of its time.
  for (auto it = at; it != history.begin() && std::prev(it)->stamp == snap.stamp; --it) {
    if (std::prev(it)->entries == snap.entries) {
      std::rotate(std::prev(it), it, at);
      indom_records.push_back(std::move(stored));
      return;
    }
  }
  history.insert(at, std::move(snap));
  indom_records.push_back(std::move(stored));
}

std::vector<uint32_t> Archive::Impl::Membership(const StoredInDomRecord& rec,
                                                const std::vector<InDomSnapshot>& history) const {
  std::vector<uint32_t> out;
  const bool delta = rec.kind == InDomRecord::Kind::kDelta && !history.empty();
  if (delta) {
    // Every instance the delta names leaves the membership before it; the
    // ones it adds come back after.
    std::vector<int32_t> named(rec.size());
    for (size_t i = 0; i < rec.size(); ++i) named[i] = rec.inst(i);
    std::sort(named.begin(), named.end());
    const InDomSnapshot& before = history.back();
    out.reserve(before.size() + rec.size());
    for (size_t i = 0; i < before.size(); ++i) {
      if (!std::binary_search(named.begin(), named.end(), before.inst(i))) {
        out.push_back(before.entries[i]);
      }
    }
  } else {
    out.reserve(rec.size());
  }
  for (size_t i = 0; i < rec.size(); ++i) {
    if (!rec.deleted(i)) out.push_back(rec.refs[i]);
  }
  return out;
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

const MetricDesc* Archive::FindDesc(PmID pmid) const {
  auto it = impl_->desc_by_pmid.find(pmid);
  return it == impl_->desc_by_pmid.end() ? nullptr : &impl_->descs[it->second];
}

const Pmns& Archive::pmns() const { return *impl_->pmns; }

std::shared_ptr<const Pmns> Archive::shared_pmns() const { return impl_->pmns; }

std::vector<InDom> Archive::indoms() const {
  std::vector<InDom> out;
  for (const auto& [indom, history] : impl_->indom_history) out.push_back(indom);
  return out;
}

const std::vector<InDomSnapshot>* Archive::InDomHistory(InDom indom) const {
  auto it = impl_->indom_history.find(indom);
  return it == impl_->indom_history.end() ? nullptr : &it->second;
}

std::optional<std::string_view> Archive::InstanceName(InDom indom, int32_t inst,
                                                     ArchiveTime t) const {
  const std::vector<InDomSnapshot>* history = InDomHistory(indom);
  if (history == nullptr) return std::nullopt;
  auto at = std::upper_bound(history->begin(), history->end(), t,
                             [](const ArchiveTime& x, const InDomSnapshot& s) { return x < s.stamp; });
  if (at == history->begin()) return std::nullopt;
  const InDomSnapshot& snap = *std::prev(at);
  const size_t i = snap.Find(inst);
  if (i == snap.size()) return std::nullopt;
  return snap.name(i);
}

// The instance tables and memberships.

uint32_t InstanceTable::Intern(int32_t inst, std::string_view name) {
  auto latest = latest_.try_emplace(inst, kNoEntry).first;
  for (uint32_t e = latest->second; e != kNoEntry; e = earlier_[e]) {
    if (this->name(e) == name) return e;
  }
  const uint32_t entry = static_cast<uint32_t>(insts_.size());
  insts_.push_back(inst);
  chars_.append(name);
  ends_.push_back(chars_.size());
  earlier_.push_back(latest->second);
  latest->second = entry;
  return entry;
}

void InstanceTable::Freeze() {
  std::unordered_map<int32_t, uint32_t>().swap(latest_);
  std::vector<uint32_t>().swap(earlier_);
  insts_.shrink_to_fit();
  ends_.shrink_to_fit();
  chars_.shrink_to_fit();
}

size_t InDomSnapshot::Find(int32_t want) const {
  size_t lo = 0, hi = entries.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (inst(mid) < want) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < entries.size() && inst(lo) == want ? lo : entries.size();
}

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
