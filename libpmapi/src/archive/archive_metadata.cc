#include "archive_metadata.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"

namespace pmapi {
namespace {

// The identifier the archive files a pmLookupLabels level's label record
// under.
uint32_t LabelIdent(int level, uint32_t ident) {
  const PmID pmid{ident};
  if (level == kLabelContext) return ToPcp(kPmIDNull);
  if (level == kLabelDomain) return PmIDDomain(pmid);
  if (level == kLabelCluster) return ToPcp(MakePmID(PmIDDomain(pmid), PmIDCluster(pmid), 0));
  return ident;
}

}  // namespace

absl::StatusOr<Desc> ArchiveMetadata::LookupDesc(PmID id) const {
  const MetricDesc* md = set_->FindDesc(id);
  if (md == nullptr) return PcpError(kErrPmidLog);
  return md->desc;
}

const InDomSnapshot* ArchiveMetadata::InDomAt(InDom indom, int64_t t_ns) const {
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr || h->empty()) return nullptr;
  const ArchiveTime t = ArchiveTime::FromNanos(t_ns);
  const InDomSnapshot* found = nullptr;
  for (const InDomSnapshot& s : *h) {
    if (s.stamp <= t) found = &s;
  }
  return found;
}

absl::StatusOr<std::vector<Instance>> ArchiveMetadata::GetInDom(InDom indom, int64_t t_ns) const {
  const InDomSnapshot* s = InDomAt(indom, t_ns);
  if (s == nullptr) return PcpError(kErrIndomLog);
  std::vector<Instance> out;
  out.reserve(s->size());
  for (size_t i = 0; i < s->size(); ++i) out.push_back({s->inst(i), std::string(s->name(i))});
  return out;
}

absl::StatusOr<std::pair<Inst, std::string_view>> ArchiveMetadata::FindInstance(
    InDom indom, int64_t t_ns, const std::function<bool(Inst, std::string_view)>& match) const {
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  // Before the domain's first record it is unknown, as in PCP.
  if (h == nullptr || InDomAt(indom, t_ns) == nullptr) return PcpError(kErrIndomLog);
  const ArchiveTime t = ArchiveTime::FromNanos(t_ns);
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    if (t < it->stamp) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      if (match(it->inst(i), it->name(i))) return std::make_pair(it->inst(i), it->name(i));
    }
  }
  return PcpError(kErrInstLog);
}

absl::StatusOr<std::string> ArchiveMetadata::NameInDom(InDom indom, Inst inst,
                                                       int64_t t_ns) const {
  auto found = FindInstance(indom, t_ns, [inst](Inst i, std::string_view) { return i == inst; });
  if (!found.ok()) return found.status();
  return std::string(found->second);
}

absl::StatusOr<Inst> ArchiveMetadata::LookupInDom(InDom indom, std::string_view name,
                                                     int64_t t_ns) const {
  // The full name, or its first word.
  auto found = FindInstance(indom, t_ns, [name](Inst, std::string_view full) {
    return full == name || full.substr(0, full.find(' ')) == name;
  });
  if (!found.ok()) return found.status();
  return found->first;
}

absl::StatusOr<std::string> ArchiveMetadata::LookupText(uint32_t ident, int kind) const {
  // An archive that carries no help text at all sends the question to a
  // host, as PCP does.
  if (set_->help_texts().empty()) return PcpError(kErrNothost);
  for (const HelpText* h : set_->help_texts()) {
    if (h->ident == ident && static_cast<int>(h->type) == kind) return h->text;
  }
  return PcpError(kErrText);
}

std::vector<LabelSet> ArchiveMetadata::LookupLabels(int level, uint32_t ident, int64_t t_ns) {
  // PCP 6.0.3 never finds an archive's cluster labels when it merges a
  // metric's labels (pminfo -l shows none), so neither do we.
  if (level == kLabelCluster) return {};
  const uint32_t want = LabelIdent(level, ident);
  // PCP remembers the first answer for each level and identifier for the
  // life of the context, found or not, whatever the collection time later.
  auto cached = label_cache_.find({level, want});
  if (cached != label_cache_.end()) return cached->second;
  std::vector<LabelSet> sets = LabelsAt(level, want, t_ns);
  if (sets.empty() && level == kLabelContext && !HasLabelRecords(level)) sets.push_back(HostLabel());
  label_cache_.emplace(std::make_pair(level, want), sets);
  return sets;
}

std::vector<LabelSet> ArchiveMetadata::LabelsAt(int level, uint32_t want, int64_t t_ns) const {
  const ArchiveTime t = ArchiveTime::FromNanos(t_ns);
  // The labels in force: the latest record at or before the collection time.
  const LabelRecord* found = nullptr;
  for (const LabelRecord* r : set_->label_records()) {
    if (static_cast<int>(r->type) != level || (level != kLabelContext && r->ident != want)) continue;
    if (t < r->stamp) continue;
    if (found == nullptr || !(r->stamp < found->stamp)) found = r;
  }
  if (found == nullptr) return {};
  return found->sets;
}

std::vector<LabelSet> ArchiveMetadata::EarliestLabels(int level, uint32_t ident) const {
  const LabelRecord* found = nullptr;
  for (const LabelRecord* r : set_->label_records()) {
    if (static_cast<int>(r->type) != level || r->ident != ident) continue;
    if (found == nullptr || r->stamp < found->stamp) found = r;
  }
  return found == nullptr ? std::vector<LabelSet>{} : found->sets;
}

bool ArchiveMetadata::HasLabelRecords(int level) const {
  for (const LabelRecord* r : set_->label_records()) {
    if (static_cast<int>(r->type) == level) return true;
  }
  return false;
}

// An archive without context label records (one written before pmlogger
// logged labels) has its host name as its context label, as in libpcp.
LabelSet ArchiveMetadata::HostLabel() const {
  absl::StatusOr<LabelSet> host =
      ParseLabelSet(absl::StrCat("{\"hostname\":\"", set_->label().hostname, "\"}"), kLabelContext);
  return host.ok() ? *std::move(host) : LabelSet{};
}

const Desc* ArchiveMetadata::FindDesc(PmID pmid) {
  const MetricDesc* md = set_->FindDesc(pmid);
  return md == nullptr ? nullptr : &md->desc;
}

const ArchiveMetadata::EverySeen* ArchiveMetadata::EveryInstance(InDom indom) {
  auto cached = every_instance_.find(indom);
  if (cached != every_instance_.end()) return &cached->second;
  const std::vector<InDomSnapshot>* h = set_->InDomHistory(indom);
  if (h == nullptr) return nullptr;
  // Newest first: an instance keeps the name of its latest appearance.
  EverySeen& all = every_instance_[indom];
  absl::flat_hash_set<Inst> seen;
  for (auto it = h->rbegin(); it != h->rend(); ++it) {
    for (size_t i = 0; i < it->size(); ++i) {
      if (!seen.insert(it->inst(i)).second) continue;
      all.ids.push_back(it->inst(i));
      all.names.emplace_back(it->name(i));
    }
  }
  return &all;
}

const std::vector<Inst>& ArchiveMetadata::AllInstances(InDom indom) {
  static const std::vector<Inst> kNone;
  const EverySeen* all = EveryInstance(indom);
  return all == nullptr ? kNone : all->ids;
}

absl::StatusOr<std::vector<Instance>> ArchiveMetadata::GetInDomArchive(InDom indom) {
  const EverySeen* all = EveryInstance(indom);
  if (all == nullptr) return PcpError(kErrIndomLog);
  std::vector<Instance> out;
  out.reserve(all->ids.size());
  for (size_t i = 0; i < all->ids.size(); ++i) out.push_back({all->ids[i], all->names[i]});
  return out;
}

const InterpMetadata::Lifetimes* ArchiveMetadata::InstanceLifetimes(InDom indom) {
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
    const int64_t t = it->stamp.nanos();
    for (size_t i = 0; i < it->size(); ++i) {
      auto [life, added] = lives->try_emplace(it->inst(i));
      if (added) life->second.death_ns = newer;
      life->second.birth_ns = t;
    }
    newer = t;
  }
  return lives.get();
}

}  // namespace pmapi
