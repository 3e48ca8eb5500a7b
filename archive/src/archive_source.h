// archive_source.h: the Source behind an archive context: names, metadata
// and values answered from one PCP archive, at the context's collection
// time, in PM_MODE_FORW, PM_MODE_BACK or PM_MODE_INTERP.
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "archive_set.h"
#include "interp.h"
#include "pmapi/archive.h"
#include "pmapi/pmns.h"
#include "source.h"

namespace pmapi {

class ArchiveSource : public Source, private RecordSource, private InterpMetadata {
 public:
  // Opens the archive, list or directory `spec` and builds its name space.
  static absl::StatusOr<std::unique_ptr<ArchiveSource>> Open(std::string_view spec);

  int kind() const override { return kContextArchive; }
  std::string HostName() override { return set_->label().hostname; }

  absl::StatusOr<PmID> LookupName(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) override;
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) override;
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) override;

  absl::StatusOr<Desc> LookupDesc(PmID id) override;
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) override;
  absl::StatusOr<std::string> NameInDom(InDom indom, int32_t inst) override;
  absl::StatusOr<int32_t> LookupInDom(InDom indom, std::string_view name) override;
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) override;
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) override;

  absl::Status SetMode(int mode, absl::Time when, absl::Duration delta) override;
  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                               int* state_change) override;
  absl::StatusOr<Result> FetchArchive() override;
  void Recycle(Result&& spent) override;
  absl::StatusOr<ArchiveLabel> GetArchiveLabel() override { return set_->label(); }
  absl::StatusOr<absl::Time> GetArchiveEnd() override;
  absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom) override;

 private:
  explicit ArchiveSource(std::unique_ptr<ArchiveSet> set);

  // The instance domain as at the collection time (the latest membership
  // at or before it, else the earliest), or nullptr.
  const InDomSnapshot* InDomAt(InDom indom) const;
  // The label sets of (level, identifier) in force at the collection time.
  std::vector<LabelSet> LabelsAt(int level, uint32_t ident) const;
  // Positions the reader for a FORW/BACK read from the collection time.
  absl::Status Position();
  absl::StatusOr<Result> FetchRecordwise(std::span<const PmID> ids, const Profile& profile);
  // Sets selected_: for each of `ids`, the index of its set in `rec`, or
  // -1 when rec has none.
  void SelectFrom(const Result& rec, std::span<const PmID> ids);
  // The sets of `ids` from record `rec` (selected_ locates them; `values`
  // counts theirs), in order, with the instances `profile` admits. When it
  // admits all, the result takes rec's values (rec is left without them).
  Result SelectSets(Result& rec, std::span<const PmID> ids, size_t values,
                    const Profile& profile);
  absl::Status ReadInDirection(Result* out);
  // PM_MODE_FORW over a single archive reads records as they come, without
  // listing the archive first, so the first fetch reads only the records
  // up to the origin whatever the archive's size. These place the stream
  // and read its next record.
  void PositionStream();
  absl::Status ReadStream(Result* out);
  absl::StatusOr<int64_t> EndNs();

  // RecordSource, for the interpolation engine.
  absl::StatusOr<size_t> Count() override;
  int64_t TimeNs(size_t i) override { return catalog_[i].time_ns; }
  bool IsMark(size_t i) override { return catalog_[i].mark; }
  int64_t MarkTimeBackNs(size_t i) override;
  absl::Status ListError() override { return catalog_error_; }
  absl::Status Read(size_t i, Result* out) override;
  absl::Status ReadOnly(size_t i, std::span<const PmID> only, Result* out) override;
  absl::Status Scan(std::span<const PmID> only,
                    const std::function<void(size_t, const Result&)>& visit) override;
  // InterpMetadata.
  const Desc* FindDesc(PmID pmid) override;
  const std::vector<int32_t>& AllInstances(InDom indom) override;
  const Lifetimes* InstanceLifetimes(InDom indom) override;

  // Every instance the archive records for an indom, newest first, each
  // with its latest name; built once per indom. nullptr if none.
  struct EverySeen {
    std::vector<int32_t> ids;
    std::vector<std::string> names;
  };
  const EverySeen* EveryInstance(InDom indom);
  // PM_ERR_LOGREC when PCP, positioning at the origin through the temporal
  // index, would seek into the label (Archive::CheckIndexedPosition).
  absl::Status CheckIndexedPosition() const;

  std::unique_ptr<ArchiveSet> set_;
  // The archive's own name space (ArchiveSet::pmns).
  std::shared_ptr<const Pmns> pmns_;
  InterpEngine interp_;
  int mode_ = kModeInterp;
  int64_t origin_ns_ = 0;
  int64_t delta_ns_ = 0;
  bool positioned_ = false;
  bool have_end_ = false;
  int64_t end_ns_ = 0;
  bool have_catalog_ = false;
  size_t cursor_ = 0;
  bool stream_ = false;
  Archive::Position stream_pos_;
  std::vector<ArchiveSet::Record> catalog_;
  absl::Status catalog_error_;
  absl::flat_hash_map<std::pair<int, uint32_t>, std::vector<LabelSet>> label_cache_;
  absl::flat_hash_map<InDom, EverySeen> every_instance_;
  // FetchRecordwise's selection (SelectFrom), and the record layout and
  // request it was made for. request_index_ maps a requested PMID to its
  // first place in the request, next_same_ each place to the next place
  // of the same PMID (or -1).
  absl::flat_hash_map<PmID, int> request_index_;
  std::vector<int> next_same_;
  std::vector<int> selected_;
  std::vector<PmID> selected_ids_;
  std::vector<PmID> selected_layout_;
  // The record FetchRecordwise decodes into, kept so that its buffers are
  // reused from record to record, and a fetched result handed back by
  // the caller (Recycle), whose buffers the next record takes.
  Result record_;
  Result spare_;
  // InstanceLifetimes, per indom (nullptr below the size PCP needs).
  absl::flat_hash_map<InDom, std::unique_ptr<Lifetimes>> lifetimes_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_
