// pmapi/labels.h: metric labels, the JSON name:value sets PCP attaches to
// contexts, domains, instance domains, clusters, items and instances.
//
// A label set's JSON is kept as PCP keeps it: a compact object whose names
// are sorted, with each pair indexed by offsets (pmapi::Label). Sets from
// the levels of the hierarchy merge with the higher level winning a name
// they share, as pmMergeLabelSets(3) does.
//
// Example:
//   absl::StatusOr<pmapi::LabelSet> ctx = pmapi::ParseLabelSet(R"({"hostname":"vm"})");
//   absl::StatusOr<pmapi::LabelSet> dom = pmapi::ParseLabelSet(R"({"agent":"sample"})");
//   std::string merged = pmapi::MergeLabelSets({&*ctx, &*dom});
//   // {"agent":"sample","hostname":"vm"}
#ifndef PMAPI_LABELS_H_
#define PMAPI_LABELS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/label_set.h"

namespace pmapi {

// Parses a JSON object into a label set: whitespace outside strings is
// dropped, names are sorted, and each pair is indexed. Every pair gets
// `flags` (a kLabel* level, possibly with kLabelOptional). With
// kLabelCompound in `flags` names may hold dots ("map.priority"), as in
// text that PCP's label merging has already flattened. Returns
// PM_ERR_GENERIC for malformed JSON, a duplicate name, or a name that is
// not an identifier, and PM_ERR_TOOBIG past PCP's 64 KiB limit.
absl::StatusOr<LabelSet> ParseLabelSet(std::string_view json, int flags = 0);

// Returns the compact JSON object holding every pair of `sets`, a later set
// replacing an earlier set's value for the same name; names are sorted.
// Null entries are skipped.
[[nodiscard]] std::string MergeLabelSets(const std::vector<const LabelSet*>& sets);

// Returns the name or value text of pair `l` of `set`.
[[nodiscard]] std::string_view LabelName(const LabelSet& set, const LabelEntry& l);
[[nodiscard]] std::string_view LabelValue(const LabelSet& set, const LabelEntry& l);

}  // namespace pmapi

#endif  // PMAPI_LABELS_H_
