// archive_set.h: one or more archives of one host read as a single
// archive, as pmNewContext(PM_CONTEXT_ARCHIVE) reads a comma-separated list
// or a directory of archives.
//
// The archives are ordered by start time and must not overlap; their
// metadata is merged (the first descriptor of a metric wins, instance
// domain and label histories are combined in time order), and their
// records follow one another with a <mark> between consecutive archives,
// stamped a millisecond after the last record of the earlier one, as PCP
// marks the switch.
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::ArchiveSet>> set =
//       pmapi::ArchiveSet::Open("archives/seg1,archives/seg2");
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_SET_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_SET_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "pmapi/archive.h"

namespace pmapi {

class ArchiveSet {
 public:
  // Opens `spec`: an archive name, a comma-separated list of them, or a
  // directory whose archives are all taken. PM_ERR_LOGHOST if they come
  // from different hosts, PM_ERR_LOGOVERLAP if their times overlap.
  static absl::StatusOr<std::unique_ptr<ArchiveSet>> Open(std::string_view spec);

  // The first archive's label (PCP reports the set by its first member).
  const ArchiveLabel& label() const { return archives_.front()->label(); }
  size_t size() const { return archives_.size(); }
  Archive& member(size_t i) { return *archives_[i]; }

  // Metric descriptors with their names, in the members' .meta order.
  const std::vector<const MetricDesc*>& descs() const { return descs_; }
  const MetricDesc* FindDesc(PmID pmid) const;
  // The name space: one archive's own, or for a list, one holding the names
  // of the descriptors above.
  const std::shared_ptr<const Pmns>& pmns() const { return pmns_; }
  // The combined membership history of an indom, oldest first, or nullptr.
  const std::vector<InDomSnapshot>* InDomHistory(InDom indom) const;
  const std::vector<const LabelRecord*>& label_records() const { return labels_; }
  const std::vector<const HelpText*>& help_texts() const { return help_; }
  // The time of the last record of the last member.
  absl::StatusOr<ArchiveTime> End() const;

  // One data record of the set: a member's record, or a virtual <mark>.
  struct Record {
    int64_t time_ns = 0;
    bool mark = false;
    size_t member = 0;
    Archive::Position pos;
  };
  // Lists every record of every member (reading each member once); stops
  // at a member's first corrupt record and returns what came before,
  // setting *error to the corruption. `visit`, if given, sees each record
  // (not the virtual marks) with its index in the list and the value sets
  // `filter` keeps decoded; without it only times and framing are decoded.
  std::vector<Record> Catalog(absl::Status* error, const RecordFilter& filter = RecordFilter(),
                              const std::function<void(size_t, const Result&)>& visit = nullptr);
  // Decodes record `r` with the value sets `filter` keeps (a virtual mark
  // becomes an empty Result).
  absl::Status Read(const Record& r, Result* out, const RecordFilter& filter = RecordFilter());

 private:
  ArchiveSet() = default;
  absl::Status Merge();
  // Builds the name space of a list of archives.
  std::shared_ptr<const Pmns> MergedPmns() const;

  std::vector<std::unique_ptr<Archive>> archives_;
  std::vector<const MetricDesc*> descs_;
  absl::flat_hash_map<PmID, const MetricDesc*> desc_by_pmid_;
  std::shared_ptr<const Pmns> pmns_;
  std::map<InDom, std::vector<InDomSnapshot>> indoms_;
  std::vector<const LabelRecord*> labels_;
  std::vector<const HelpText*> help_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_SET_H_
