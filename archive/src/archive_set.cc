#include "archive_set.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_split.h"
#include "external_decompress.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr int64_t kMarkGapNs = 1000000;  // a switch mark comes 1 ms after the last record

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Returns the archive base names in a directory: every "X.meta" (possibly
// compressed) names archive "dir/X".
std::vector<std::string> ArchivesIn(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (struct dirent* e = readdir(d)) {
    std::string name = e->d_name;
    size_t at = name.rfind(".meta");
    if (at == std::string::npos || at == 0) continue;
    std::string rest = name.substr(at + 5);
    if (!rest.empty() && rest != ".xz" && rest != ".lzma" &&
        ExternalDecompressor(name) == nullptr) {
      continue;
    }
    out.push_back(dir + "/" + name.substr(0, at));
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> MemberNames(std::string_view spec) {
  std::vector<std::string> names;
  for (absl::string_view part : absl::StrSplit(absl::string_view(spec.data(), spec.size()), ',')) {
    std::string p(part);
    if (p.empty()) continue;
    if (IsDirectory(p)) {
      std::vector<std::string> in = ArchivesIn(p);
      names.insert(names.end(), in.begin(), in.end());
    } else {
      names.push_back(p);
    }
  }
  return names;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ArchiveSet>> ArchiveSet::Open(std::string_view spec) {
  std::vector<std::string> names = MemberNames(spec);
  // An empty spec, or folders holding no archive, name no log file at all.
  if (names.empty()) return PcpError(kErrLogfile);
  std::unique_ptr<ArchiveSet> set(new ArchiveSet());
  for (const std::string& n : names) {
    absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(n);
    if (!a.ok()) return a.status();
    set->archives_.push_back(std::move(*a));
  }
  std::stable_sort(set->archives_.begin(), set->archives_.end(),
                   [](const std::unique_ptr<Archive>& a, const std::unique_ptr<Archive>& b) {
                     return a->label().start < b->label().start;
                   });
  if (absl::Status s = set->Merge(); !s.ok()) return s;
  return set;
}

absl::Status ArchiveSet::Merge() {
  const std::string& host = archives_.front()->label().hostname;
  for (size_t i = 0; i < archives_.size(); ++i) {
    Archive& a = *archives_[i];
    if (a.label().hostname != host) return PcpError(kErrLoghost);
    if (i > 0) {
      absl::StatusOr<ArchiveTime> prev_end = archives_[i - 1]->End();
      if (prev_end.ok() && a.label().start < *prev_end) return PcpError(kErrLogoverlap);
    }
    for (const MetricDesc& md : a.descs()) {
      if (desc_by_pmid_.emplace(md.desc.pmid, &md).second) descs_.push_back(&md);
    }
    // One archive's histories are its own (InDomHistory asks it); only a
    // list of archives needs combined copies.
    for (InDom indom : archives_.size() == 1 ? std::vector<InDom>() : a.indoms()) {
      const std::vector<InDomSnapshot>* h = a.InDomHistory(indom);
      if (h != nullptr) indoms_[indom].insert(indoms_[indom].end(), h->begin(), h->end());
    }
    for (const LabelRecord& r : a.label_records()) labels_.push_back(&r);
    for (const HelpText& h : a.help_texts()) help_.push_back(&h);
  }
  pmns_ = archives_.size() == 1 ? archives_.front()->shared_pmns() : MergedPmns();
  for (auto& [indom, history] : indoms_) {
    std::stable_sort(history.begin(), history.end(),
                     [](const InDomSnapshot& a, const InDomSnapshot& b) { return a.stamp < b.stamp; });
  }
  return absl::OkStatus();
}

std::shared_ptr<const Pmns> ArchiveSet::MergedPmns() const {
  auto ns = std::make_shared<Pmns>();
  for (const MetricDesc* md : descs_) {
    // A name that clashes with one already added is dropped, as PCP drops
    // it when it builds an archive's name space.
    for (const std::string& n : md->names) ns->AddName(n, md->desc.pmid).IgnoreError();
  }
  return ns;
}

const MetricDesc* ArchiveSet::FindDesc(PmID pmid) const {
  auto it = desc_by_pmid_.find(pmid);
  return it == desc_by_pmid_.end() ? nullptr : it->second;
}

const std::vector<InDomSnapshot>* ArchiveSet::InDomHistory(InDom indom) const {
  if (archives_.size() == 1) return archives_.front()->InDomHistory(indom);
  auto it = indoms_.find(indom);
  return it == indoms_.end() ? nullptr : &it->second;
}

absl::StatusOr<ArchiveTime> ArchiveSet::End() const { return archives_.back()->End(); }

std::vector<ArchiveSet::Record> ArchiveSet::Catalog(
    absl::Status* error, const RecordFilter& filter,
    const std::function<void(size_t, const Result&)>& visit) {
  std::vector<Record> out;
  Result r;
  // Only times and framing are needed, and the value sets a visitor wants.
  const RecordFilter& decoded = visit ? filter : RecordFilter::FramingOnly();
  for (size_t m = 0; m < archives_.size(); ++m) {
    Archive& a = *archives_[m];
    if (m > 0 && !out.empty()) {
      Record mark;
      mark.time_ns = out.back().time_ns + kMarkGapNs;
      mark.mark = true;
      mark.member = m;
      out.push_back(mark);
    }
    a.SeekStart();
    while (true) {
      Archive::Position pos = a.Tell();
      absl::Status s = a.ReadNext(&r, decoded);
      if (PcpCode(s) == kErrEol) {
        a.DropVolumePages(pos.vol);
        break;
      }
      if (!s.ok()) {
        *error = s;
        return out;
      }
      // A volume read through is let go, so the pass holds one at a time.
      if (pos.vol != a.Tell().vol) a.DropVolumePages(pos.vol);
      out.push_back(Record{r.timestamp_ns(), r.is_mark(), m, pos});
      if (visit && !r.is_mark()) visit(out.size() - 1, r);
    }
  }
  return out;
}

absl::Status ArchiveSet::Read(const Record& r, Result* out, const RecordFilter& filter) {
  if (r.mark && r.pos.offset == 0) {
    out->Clear();
    out->set_timestamp_ns(r.time_ns);
    return absl::OkStatus();
  }
  Archive& a = *archives_[r.member];
  a.Seek(r.pos);
  return a.ReadNext(out, filter);
}

}  // namespace pmapi
