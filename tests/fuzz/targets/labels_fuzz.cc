// Fuzz target: ParseLabelSet (a label set's JSON), then every pair's name
// and value, and a merge of the set with itself and a fixed set; and the
// C layer's pmMergeLabels of the text with a fixed one (nested maps
// flattened).
#include <pcp/pmapi.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/labels.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view json(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string text(json);
  char fixed_text[] = R"({"hostname":"fuzz","map":{"a":1}})";
  char* texts[] = {fixed_text, text.data()};
  char merged[PM_MAXLABELJSONLEN];
  fuzz::Consume(static_cast<uint64_t>(pmMergeLabels(texts, 2, merged, sizeof merged) + 1000));
  absl::StatusOr<pmapi::LabelSet> set = pmapi::ParseLabelSet(json, data[0]);
  if (!set.ok()) {
    fuzz::Consume(fuzz::Digest(set.status()));
    return 0;
  }
  uint64_t h = fuzz::Digest(set->json);
  for (const pmapi::LabelEntry& l : set->labels) {
    h += fuzz::Digest(pmapi::LabelName(*set, l)) + fuzz::Digest(pmapi::LabelValue(*set, l));
  }
  absl::StatusOr<pmapi::LabelSet> fixed = pmapi::ParseLabelSet(R"({"hostname":"fuzz","agent":"x"})");
  if (fixed.ok()) h += fuzz::Digest(pmapi::MergeLabelSets({&*fixed, &*set, nullptr, &*set}));
  fuzz::Consume(h);
  return 0;
}
