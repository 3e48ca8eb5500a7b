// archive_metadata.h: the metadata of an archive set as an archive context
// answers it at a collection time: descriptors, instance domains (the
// membership in force then, and every instance ever recorded), help text
// and label sets; and, as InterpMetadata, what the interpolation engine
// needs to know of them.
//
// Example:
//   pmapi::ArchiveMetadata meta(set.get());
//   absl::StatusOr<std::vector<pmapi::Instance>> now = meta.GetInDom(indom, t_ns);
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_METADATA_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_METADATA_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "archive_set.h"
#include "interp.h"
#include "pmapi/context.h"

namespace pmapi {

class ArchiveMetadata : public InterpMetadata {
 public:
  explicit ArchiveMetadata(const ArchiveSet* set) : set_(set) {}

  absl::StatusOr<Desc> LookupDesc(PmID id) const;
  // The instance domain's membership at t_ns.
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom, int64_t t_ns) const;
  // An instance's name, or the instance of a name (its full name or the
  // name's first word), in the memberships up to t_ns, newest first.
  absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst, int64_t t_ns) const;
  absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name, int64_t t_ns) const;
  // The label sets of the earliest record of `level` for `ident` (as the
  // archive files it), or none.
  std::vector<LabelSet> EarliestLabels(int level, uint32_t ident) const;
  // Every instance the archive records for indom (pmGetInDomArchive).
  absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom);
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) const;
  // The label sets of a pmLookupLabels level and identifier, as in force
  // at t_ns the first time they are asked for.
  std::vector<LabelSet> LookupLabels(int level, uint32_t ident, int64_t t_ns);

  // InterpMetadata.
  const Desc* FindDesc(PmID pmid) override;
  const std::vector<Inst>& AllInstances(InDom indom) override;
  const Lifetimes* InstanceLifetimes(InDom indom) override;

 private:
  // The instance domain as at t_ns (the latest membership at or before
  // it), or nullptr.
  const InDomSnapshot* InDomAt(InDom indom, int64_t t_ns) const;
  // The first instance `match` accepts (by number and name) in the
  // memberships up to t_ns, newest first: PM_ERR_INDOM_LOG before the
  // domain's first record, PM_ERR_INST_LOG when none matches.
  absl::StatusOr<std::pair<Inst, std::string_view>> FindInstance(
      InDom indom, int64_t t_ns, const std::function<bool(Inst, std::string_view)>& match) const;
  // The label sets of (level, label identifier) in force at t_ns.
  std::vector<LabelSet> LabelsAt(int level, uint32_t want, int64_t t_ns) const;
  bool HasLabelRecords(int level) const;
  LabelSet HostLabel() const;

  // Every instance the archive records for an indom, newest first, each
  // with its latest name; built once per indom. nullptr if none.
  struct EverySeen {
    std::vector<Inst> ids;
    std::vector<std::string> names;
  };
  const EverySeen* EveryInstance(InDom indom);

  const ArchiveSet* set_;
  absl::flat_hash_map<std::pair<int, uint32_t>, std::vector<LabelSet>> label_cache_;
  absl::flat_hash_map<InDom, EverySeen> every_instance_;
  // InstanceLifetimes, per indom (nullptr below the size PCP needs).
  absl::flat_hash_map<InDom, std::unique_ptr<Lifetimes>> lifetimes_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_METADATA_H_
