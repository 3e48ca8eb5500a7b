// labels.cc: libpcp's internal label-set calls, which libpcp_import,
// libpcp_mmv and PCP's Python agent module use: adding JSON labels to a
// set, copying sets, and parsing a set from JSON.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "c_pmda_internal.h"
#include "pcp_internal.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"

extern "C" {

// Merges the labels of the JSON object `extras` into *lsp (made when
// null); returns how many labels the set holds, or an error.
int __pmAddLabels(pmLabelSet** lsp, const char* extras, int flags) {
  if (std::strlen(extras) + 1 >= PM_MAXLABELJSONLEN) return -E2BIG;
  return pmapi::AddCLabels(lsp, extras, flags);
}

// A malloc'd copy of `nsets` sets, each with its own JSON and labels (a set
// with no labels gets none); null when there is nothing to copy or no
// memory. pmFreeLabelSets frees it.
pmLabelSet* __pmDupLabelSets(pmLabelSet* sets, int nsets) {
  if (nsets <= 0 || sets == nullptr) return nullptr;
  auto* copy = static_cast<pmLabelSet*>(std::calloc(static_cast<size_t>(nsets), sizeof(pmLabelSet)));
  if (copy == nullptr) return nullptr;
  for (int i = 0; i < nsets; i++) {
    copy[i] = sets[i];
    copy[i].hash = nullptr;
    copy[i].json = nullptr;
    copy[i].labels = nullptr;
    if (sets[i].nlabels <= 0 || sets[i].json == nullptr) {
      copy[i].jsonlen = 0;
      continue;
    }
    size_t size = static_cast<size_t>(sets[i].nlabels) * sizeof(pmLabel);
    copy[i].json = strdup(sets[i].json);
    copy[i].labels = static_cast<pmLabel*>(std::malloc(size));
    if (copy[i].json == nullptr || copy[i].labels == nullptr) {
      pmFreeLabelSets(copy, i + 1);
      return nullptr;
    }
    std::memcpy(copy[i].labels, sets[i].labels, size);
  }
  return copy;
}

// A new set parsed from json[0..jlen), each label marked `flags`; returns
// the number of labels, or an error (PM_ERR_TYPE for JSON that is not a
// label set).
int __pmParseLabelSet(const char* json, int jlen, int flags, pmLabelSet** set) {
  std::string text = json == nullptr || jlen <= 0 ? "" : std::string(json, static_cast<size_t>(jlen));
  pmapi::LabelSet parsed;
  if (!text.empty()) {
    absl::StatusOr<pmapi::LabelSet> s = pmapi::ParseLabelSet(text, flags);
    if (!s.ok()) return pmapi::PcpCode(s.status());
    parsed = *std::move(s);
  }
  parsed.inst = pmapi::kInNull;
  *set = pmapi::NewCLabelSet(parsed);
  if (*set == nullptr) return -ENOMEM;
  return (*set)->nlabels;
}

}  // extern "C"
