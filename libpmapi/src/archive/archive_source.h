// archive_source.h: the Source behind an archive context: names, metadata
// and values answered from one PCP archive (or a set of them), at the
// context's collection time, in PM_MODE_FORW, PM_MODE_BACK or
// PM_MODE_INTERP. It holds three parts: the metadata (ArchiveMetadata), the
// data records with the reading position (RecordCatalog), and the
// interpolation engine over both.
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "archive_metadata.h"
#include "archive_set.h"
#include "interp.h"
#include "record_catalog.h"
#include "record_selection.h"
#include "pmapi/archive.h"
#include "pmapi/pmns.h"
#include "source.h"

namespace pmapi {

class ArchiveSource : public Source {
 public:
  // Opens the archive, list or directory `spec`.
  static absl::StatusOr<std::unique_ptr<ArchiveSource>> Open(std::string_view spec);

  ContextKind kind() const override { return ContextKind::kArchive; }
  std::string HostName() override { return set_->label().hostname; }

  absl::StatusOr<PmID> LookupName(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) override;
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) override;
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) override;

  absl::StatusOr<Desc> LookupDesc(PmID id) override { return metadata_.LookupDesc(id); }
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) override;
  absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst) override;
  absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name) override;
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) override {
    return metadata_.LookupText(ident, kind);
  }
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) override;

  absl::Status SetMode(Mode mode, absl::Time when, absl::Duration delta) override;
  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                               int* state_change) override;
  absl::StatusOr<Result> FetchArchive() override;
  void Recycle(Result&& spent) override;
  absl::StatusOr<ArchiveLabel> GetArchiveLabel() override { return set_->label(); }
  absl::StatusOr<absl::Time> GetArchiveEnd() override;
  absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom) override {
    return metadata_.GetInDomArchive(indom);
  }
  absl::StatusOr<std::vector<LabelSet>> ArchiveClusterLabels(PmID cluster) override {
    return metadata_.EarliestLabels(kLabelCluster, ToPcp(cluster));
  }

 private:
  explicit ArchiveSource(std::unique_ptr<ArchiveSet> set);

  // Places the record catalogue for a FORW/BACK read from the collection
  // time, the first time after SetMode.
  absl::Status Position();
  absl::Status ReadInDirection(Result* out, const RecordFilter& filter = RecordFilter());
  absl::StatusOr<Result> FetchRecordwise(std::span<const PmID> ids, const Profile& profile);
  absl::StatusOr<Result> FetchInterpolated(std::span<const PmID> ids, const Profile& profile);
  absl::StatusOr<int64_t> EndNs();
  // PM_ERR_LOGREC when PCP, positioning at the origin through the temporal
  // index, would seek into the label (Archive::CheckIndexedPosition).
  absl::Status CheckIndexedPosition(bool backward) const;

  std::unique_ptr<ArchiveSet> set_;
  // The archive's own name space (ArchiveSet::pmns).
  std::shared_ptr<const Pmns> pmns_;
  ArchiveMetadata metadata_;
  RecordCatalog records_;
  InterpEngine interp_;
  Mode mode_ = Mode::kInterp;
  int64_t origin_ns_ = 0;
  int64_t delta_ns_ = 0;
  bool positioned_ = false;
  bool have_end_ = false;
  int64_t end_ns_ = 0;
  // Which sets of the records FetchRecordwise reads it returns.
  RecordSelection selection_;
  // The record FetchRecordwise decodes into, kept so that its buffers are
  // reused from record to record, and a fetched result handed back by
  // the caller (Recycle), whose buffers the next record takes.
  Result record_;
  Result spare_;
  // The value sets a record-by-record fetch decodes: those of the last
  // fetch's PMIDs (fetch_ids_).
  std::vector<PmID> fetch_ids_;
  RecordFilter fetch_filter_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_SOURCE_H_
