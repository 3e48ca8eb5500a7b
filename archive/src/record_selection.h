// record_selection.h: the answer to a record-by-record fetch
// (PM_MODE_FORW, PM_MODE_BACK) taken from one archive record: for each
// PMID asked for, in order, the first value set of that PMID in the record
// (an empty set when it has none), with the instances the profile admits.
//
// Records of one archive mostly hold the same metrics in the same order,
// so the places found are kept and looked for again only when the layout
// of the record or the request changes.
//
// Example:
//   pmapi::RecordSelection selection;
//   size_t values = 0;
//   if (selection.Select(record, ids, &values) > 0)
//     result = selection.Take(record, ids, values, profile, &metadata);
#ifndef PMAPI_ARCHIVE_SRC_RECORD_SELECTION_H_
#define PMAPI_ARCHIVE_SRC_RECORD_SELECTION_H_

#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "interp.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"

namespace pmapi {

class RecordSelection {
 public:
  // Locates each of `ids` in `rec`; returns how many of them it holds, and
  // sets *values to the number of values in their sets.
  int Select(const Result& rec, std::span<const PmID> ids, size_t* values);
  // The result of the last Select. When the profile admits every
  // instance, it takes rec's values and payloads as they are (rec is left
  // without them); `metadata` gives the instance domains otherwise.
  Result Take(Result& rec, std::span<const PmID> ids, size_t values, const Profile& profile,
              InterpMetadata* metadata) const;

 private:
  void Relocate(const Result& rec, std::span<const PmID> ids);

  // The request the places were found for: request_index_ maps a
  // requested PMID to its first place in the request, next_same_ each
  // place to the next place of the same PMID (or -1).
  std::vector<PmID> ids_;
  absl::flat_hash_map<PmID, int> request_index_;
  std::vector<int> next_same_;
  // The PMIDs of the record's sets, in order, when the places were found.
  std::vector<PmID> layout_;
  // For each requested PMID, the index of its set in the record, or -1.
  std::vector<int> selected_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_RECORD_SELECTION_H_
