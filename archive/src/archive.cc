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
  if (compressed && !IsCompressedName(path)) return;  // only xz is read in-process
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
  if (files.meta.empty()) return PcpError(-ENOENT);
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

// Applies a delta record to the membership before it.
InDomSnapshot ApplyDelta(const InDomSnapshot& before, const InDomRecord& delta) {
  InDomSnapshot after;
  after.stamp = delta.stamp;
  for (size_t i = 0; i < before.insts.size(); ++i) {
    bool gone = false;
    for (size_t k = 0; k < delta.insts.size(); ++k) {
      if (delta.insts[k] == before.insts[i]) gone = true;
    }
    if (gone) continue;
    after.insts.push_back(before.insts[i]);
    after.names.push_back(before.names[i]);
  }
  for (size_t k = 0; k < delta.insts.size(); ++k) {
    if (delta.deleted[k]) continue;
    after.insts.push_back(delta.insts[k]);
    after.names.push_back(delta.names[k]);
  }
  return after;
}

// Returns `snap` with its instances in ascending order (stable for equal
// numbers): libpcp keeps every membership it loads sorted so, full records
// as well as rebuilt deltas.
InDomSnapshot SortedByInstance(InDomSnapshot snap) {
  if (std::is_sorted(snap.insts.begin(), snap.insts.end())) return snap;
  std::vector<size_t> order(snap.insts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&snap](size_t a, size_t b) { return snap.insts[a] < snap.insts[b]; });
  InDomSnapshot sorted;
  sorted.stamp = snap.stamp;
  for (size_t i : order) {
    sorted.insts.push_back(snap.insts[i]);
    sorted.names.push_back(std::move(snap.names[i]));
  }
  return sorted;
}

}  // namespace

class Archive::Impl {
 public:
  absl::Status Open(std::string_view name);
  absl::Status LoadMeta();
  absl::Status AddMetaRecord(uint32_t type, std::span<const uint8_t> payload);
  void AddInDom(InDomRecord rec);
  void AddName(const std::string& name, PmID pmid);
  void OrderNames();

  // Returns the open, label-checked file of data volume `vol`.
  absl::StatusOr<ArchiveFile*> Volume(int vol);
  // Returns the volume after (or before) `vol`, or -1 if none.
  int NextVolume(int vol) const;
  int PrevVolume(int vol) const;
  // Decodes the data record of `len` bytes at `start` of volume file `f`.
  absl::Status DecodeRecord(ArchiveFile& f, uint64_t start, uint32_t len, Result* out) const;
  absl::Status ReadNext(Result* out);
  absl::Status ReadPrev(Result* out);
  absl::StatusOr<ArchiveTime> End();

  std::string base;
  ArchiveLabel label;
  ArchiveFiles files;
  ArchiveFile meta_file;
  bool has_index = false;
  std::vector<IndexEntry> index;
  std::vector<MetricDesc> descs;
  absl::flat_hash_map<PmID, size_t> desc_by_pmid;
  std::map<std::string, PmID> pmid_by_name;
  // The name space as a tree whose children keep their creation order:
  // libpcp lists a metric's names in a depth-first walk of that tree.
  struct NameNode {
    std::vector<size_t> children;
    PmID pmid = kPmIDNull;
  };
  std::vector<NameNode> name_tree{NameNode{}};
  absl::flat_hash_map<std::string, size_t> node_by_path;
  std::vector<InDomRecord> indom_records;
  std::map<InDom, std::vector<InDomSnapshot>> indom_history;
  std::vector<LabelRecord> label_records;
  std::vector<HelpText> help_texts;

  std::map<int, ArchiveFile> open_volumes;
  int vol = 0;
  size_t offset = 0;
  uint32_t record_bytes = 0;
  std::vector<PmID> decode_only;
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
    if (!SameArchive(label, *tl)) return PcpError(kErrLabel);
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
  OrderNames();
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
  if (!SameArchive(label, *l)) return PcpError(kErrLabel);
  return &open_volumes.emplace(v, std::move(*f)).first->second;
}

absl::Status Archive::Impl::LoadMeta() {
  // Metadata is held in memory anyway: read the file in one piece.
  absl::StatusOr<std::span<const uint8_t>> all = meta_file.Read(0, static_cast<size_t>(meta_file.size()));
  if (!all.ok()) return all.status();
  ByteReader r(*all);
  r.Seek(LabelRecordBytes(label.version));
  for (;;) {
    uint32_t len, type;
    // A partial header at the end of the file is where libpcp stops too.
    if (!r.U32(&len) || !r.U32(&type)) return absl::OkStatus();
    std::span<const uint8_t> payload;
    uint32_t trailer;
    if (len < 12 || !r.Bytes(len - 12, &payload) || !r.U32(&trailer) || trailer != len) {
      return PcpError(kErrLogrec);
    }
    absl::Status s = AddMetaRecord(type, payload);
    if (!s.ok()) return s;
  }
}

absl::Status Archive::Impl::AddMetaRecord(uint32_t type, std::span<const uint8_t> payload) {
  switch (type) {
    case lf::kTypeDesc: {
      absl::StatusOr<MetricDesc> d = DecodeDesc(payload);
      if (!d.ok()) return d.status();
      for (const std::string& n : d->names) AddName(n, d->desc.pmid);
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
      absl::StatusOr<InDomRecord> rec = DecodeInDom(payload, kind);
      if (!rec.ok()) return rec.status();
      AddInDom(std::move(*rec));
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

void Archive::Impl::AddName(const std::string& name, PmID pmid) {
  if (!pmid_by_name.emplace(name, pmid).second) return;
  size_t node = 0;
  size_t start = 0;
  for (;;) {
    const size_t dot = name.find('.', start);
    const std::string path = name.substr(0, dot);
    auto [it, fresh] = node_by_path.emplace(path, name_tree.size());
    if (fresh) {
      name_tree.push_back(NameNode{});
      name_tree[node].children.push_back(it->second);
    }
    node = it->second;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  name_tree[node].pmid = pmid;
}

void Archive::Impl::OrderNames() {
  // Walk the tree depth first; each leaf adds its full name to its metric.
  std::vector<std::string> paths(name_tree.size());
  for (const auto& [path, index] : node_by_path) paths[index] = path;
  std::vector<size_t> todo = {0};
  while (!todo.empty()) {
    const size_t n = todo.back();
    todo.pop_back();
    const NameNode& node = name_tree[n];
    if (node.pmid != kPmIDNull && node.children.empty()) {
      auto d = desc_by_pmid.find(node.pmid);
      if (d != desc_by_pmid.end()) descs[d->second].names.push_back(paths[n]);
    }
    for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) todo.push_back(*c);
  }
}

void Archive::Impl::AddInDom(InDomRecord rec) {
  std::vector<InDomSnapshot>& history = indom_history[rec.indom];
  InDomSnapshot snap;
  if (rec.kind == InDomRecord::Kind::kDelta && !history.empty()) {
    snap = ApplyDelta(history.back(), rec);
  } else {
    snap.stamp = rec.stamp;
    for (size_t i = 0; i < rec.insts.size(); ++i) {
      if (rec.deleted[i]) continue;
      snap.insts.push_back(rec.insts[i]);
      snap.names.push_back(rec.names[i]);
    }
  }
  snap = SortedByInstance(std::move(snap));
  // Keep the history in time order even if records arrive out of order.
  auto at = std::upper_bound(history.begin(), history.end(), snap.stamp,
                             [](const ArchiveTime& t, const InDomSnapshot& s) { return t < s.stamp; });
  history.insert(at, std::move(snap));
  indom_records.push_back(std::move(rec));
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
                                         Result* out) const {
  if (len < 12 || start + len > f.size()) return PcpError(kErrLogrec);
  absl::StatusOr<std::span<const uint8_t>> rec = f.Read(start, len);
  if (!rec.ok()) return rec.status();
  if (rec->size() != len) return PcpError(kErrLogrec);
  if (LoadBigEndian32(rec->data()) != len || LoadBigEndian32(rec->data() + len - 4) != len) {
    return PcpError(kErrLogrec);
  }
  const ResultLayout layout =
      label.version == lf::kVersion3 ? ResultLayout::kTimestamp : ResultLayout::kTimeval;
  return DecodeResultOnly(rec->subspan(4, len - 8), layout, kErrLogrec, decode_only, out);
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

absl::Status Archive::Impl::ReadNext(Result* out) {
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
    absl::Status s = DecodeRecord(**f, offset, len, out);
    if (!s.ok()) return s;
    offset += len;
    record_bytes = len;
    return absl::OkStatus();
  }
}

absl::Status Archive::Impl::ReadPrev(Result* out) {
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
    absl::Status s = DecodeRecord(**f, start, len, out);
    if (!s.ok()) return s;
    offset = start;
    record_bytes = len;
    return absl::OkStatus();
  }
}

absl::StatusOr<ArchiveTime> Archive::Impl::End() {
  // The end is the last record of the last volume holding any, read
  // backwards from the physical end of the file, as libpcp finds it: a
  // volume that does not end on a whole record makes the end unknown.
  const size_t label_bytes = LabelRecordBytes(label.version);
  Result last;
  for (auto it = files.volumes.rbegin(); it != files.volumes.rend(); ++it) {
    absl::StatusOr<ArchiveFile*> f = Volume(it->first);
    if (!f.ok()) continue;
    const uint64_t size = (*f)->size();
    if (size <= label_bytes) continue;
    if (size < label_bytes + 4) return PcpError(kErrLogrec);
    absl::StatusOr<std::optional<uint32_t>> len_word = WordAt(**f, size - 4);
    if (!len_word.ok()) return len_word.status();
    const uint32_t len = len_word->value_or(0);
    if (len < 12 || len > size - label_bytes) return PcpError(kErrLogrec);
    const uint64_t start = size - len;
    absl::Status s = DecodeRecord(**f, start, len, &last);
    if (!s.ok()) return s;
    return ArchiveTime::FromNanos(last.timestamp_ns());
  }
  return PcpError(kErrLogrec);
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
const std::vector<InDomRecord>& Archive::indom_records() const { return impl_->indom_records; }
const std::vector<LabelRecord>& Archive::label_records() const { return impl_->label_records; }
const std::vector<HelpText>& Archive::help_texts() const { return impl_->help_texts; }
const std::vector<IndexEntry>& Archive::index() const { return impl_->index; }
bool Archive::has_index() const { return impl_->has_index; }

const MetricDesc* Archive::FindDesc(PmID pmid) const {
  auto it = impl_->desc_by_pmid.find(pmid);
  return it == impl_->desc_by_pmid.end() ? nullptr : &impl_->descs[it->second];
}

absl::StatusOr<PmID> Archive::LookupName(std::string_view name) const {
  const std::string key(name);
  auto it = impl_->pmid_by_name.find(key);
  if (it != impl_->pmid_by_name.end()) return it->second;
  auto below = impl_->pmid_by_name.lower_bound(key + ".");
  if (below != impl_->pmid_by_name.end() && absl::StartsWith(below->first, key + ".")) {
    return PcpError(kErrNonleaf);
  }
  return PcpError(kErrName);
}

std::vector<std::string> Archive::NamesUnder(std::string_view prefix) const {
  std::vector<std::string> out;
  const std::string key(prefix);
  for (auto it = impl_->pmid_by_name.lower_bound(key); it != impl_->pmid_by_name.end(); ++it) {
    if (!key.empty() && !absl::StartsWith(it->first, key)) break;
    if (key.empty() || it->first.size() == key.size() || it->first[key.size()] == '.') {
      out.push_back(it->first);
    }
  }
  return out;
}

std::vector<InDom> Archive::indoms() const {
  std::vector<InDom> out;
  for (const auto& [indom, history] : impl_->indom_history) out.push_back(indom);
  return out;
}

const std::vector<InDomSnapshot>* Archive::InDomHistory(InDom indom) const {
  auto it = impl_->indom_history.find(indom);
  return it == impl_->indom_history.end() ? nullptr : &it->second;
}

const std::string* Archive::InstanceName(InDom indom, int32_t inst, ArchiveTime t) const {
  const std::vector<InDomSnapshot>* history = InDomHistory(indom);
  if (history == nullptr) return nullptr;
  auto at = std::upper_bound(history->begin(), history->end(), t,
                             [](const ArchiveTime& x, const InDomSnapshot& s) { return x < s.stamp; });
  if (at == history->begin()) return nullptr;
  // Every snapshot is sorted by instance (SortedByInstance).
  const InDomSnapshot& snap = *std::prev(at);
  auto hit = std::lower_bound(snap.insts.begin(), snap.insts.end(), inst);
  if (hit == snap.insts.end() || *hit != inst) return nullptr;
  return &snap.names[static_cast<size_t>(hit - snap.insts.begin())];
}

void Archive::SeekStart() {
  impl_->vol = impl_->files.volumes.empty() ? 0 : impl_->files.volumes.begin()->first;
  impl_->offset = LabelRecordBytes(impl_->label.version);
}

void Archive::SeekEnd() {
  impl_->vol = impl_->files.volumes.empty() ? 0 : impl_->files.volumes.rbegin()->first;
  impl_->offset = SIZE_MAX;
}

absl::Status Archive::ReadNext(Result* out) { return impl_->ReadNext(out); }

Archive::Position Archive::Tell() const { return Position{impl_->vol, impl_->offset}; }

void Archive::DropVolumePages(int vol) {
  auto open = impl_->open_volumes.find(vol);
  if (open != impl_->open_volumes.end()) open->second.Drop();
}

void Archive::Seek(Position p) {
  impl_->vol = p.vol;
  impl_->offset = static_cast<size_t>(p.offset);
}
absl::Status Archive::ReadPrev(Result* out) { return impl_->ReadPrev(out); }
uint32_t Archive::record_bytes() const { return impl_->record_bytes; }
void Archive::DecodeOnly(std::vector<PmID> pmids) { impl_->decode_only = std::move(pmids); }
absl::StatusOr<ArchiveTime> Archive::End() const { return impl_->End(); }

}  // namespace pmapi
