// record_catalog.h: the data records of an archive set as an archive
// context reads them. It lists every record once, when first needed, by
// one pass over the set (the interpolation engine's RecordSource), and it
// keeps the reading position of record-by-record fetches (PM_MODE_FORW
// and PM_MODE_BACK).
//
// PM_MODE_FORW over a single archive that nothing has listed yet reads the
// records as they come instead, from a stream position: the first fetch
// then reads only the records up to the origin, whatever the archive's
// size.
//
// Example:
//   pmapi::RecordCatalog records(set.get());
//   records.Place(pmapi::Mode::kBack, origin_ns);
//   pmapi::Result r;
//   while (records.Step(&r).ok()) { /* newest first */ }
#ifndef PMAPI_ARCHIVE_SRC_RECORD_CATALOG_H_
#define PMAPI_ARCHIVE_SRC_RECORD_CATALOG_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "archive_set.h"
#include "interp.h"
#include "pmapi/vocabulary.h"

namespace pmapi {

class RecordCatalog : public RecordSource {
 public:
  explicit RecordCatalog(ArchiveSet* set) : set_(set) {}

  // Places the reading position for reads in `mode` (PM_MODE_FORW or
  // PM_MODE_BACK) from `origin_ns`: forwards at the first record at or
  // after it, backwards at the last record at or before it.
  void Place(Mode mode, int64_t origin_ns);
  // Reads the next record in the direction of the last Place, decoding
  // the value sets `filter` keeps; PM_ERR_EOL past the end, or the
  // corruption that ended the listing.
  absl::Status Step(Result* out, const RecordFilter& filter = RecordFilter());
  // The time of the last record listed (listing them), or nullopt when
  // the set has none.
  std::optional<int64_t> LastTimeNs();

  // RecordSource.
  absl::StatusOr<size_t> Count() override;
  int64_t TimeNs(size_t i) override { return records_[i].time_ns; }
  bool IsMark(size_t i) override { return records_[i].mark; }
  int64_t MarkTimeBackNs(size_t i) override;
  absl::Status ListError() override { return list_error_; }
  absl::Status Read(size_t i, Result* out) override;
  absl::Status ReadOnly(size_t i, std::span<const PmID> only, Result* out) override;
  absl::Status Scan(std::span<const PmID> only,
                    const std::function<void(size_t, const Result&)>& visit) override;

 private:
  void List();
  // The stream: placed at the first record (in file order) at or after
  // the origin, and read from there.
  void PlaceStream(int64_t origin_ns);
  absl::Status StepStream(Result* out, const RecordFilter& filter);

  ArchiveSet* set_;
  bool listed_ = false;
  std::vector<ArchiveSet::Record> records_;
  // Records before a corrupt one stay readable; reading past them reports
  // the corruption, as PCP's sequential reads do.
  absl::Status list_error_;
  bool backward_ = false;
  size_t cursor_ = 0;
  bool stream_ = false;
  Archive::Position stream_pos_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_RECORD_CATALOG_H_
