// pmapi/vocabulary.h: the words every layer shares: context kinds,
// collection modes, the state-change bits of a fetch, help-text kinds,
// label levels, and an instance of an instance domain. They are PCP's
// numbers (PM_CONTEXT_*, PM_MODE_*, PMCD_*, PM_TEXT_*, PM_LABEL_*), so a
// value passes unchanged between the C++ and the C interfaces.
//
// Example:
//   ctx->SetMode(pmapi::kModeInterp, label->start, absl::Seconds(10));
//   pmapi::Instance cpu0{0, "cpu0"};
#ifndef PMAPI_VOCABULARY_H_
#define PMAPI_VOCABULARY_H_

#include <cstdint>
#include <string>

#include "pmapi/types.h"

namespace pmapi {

// Context kinds (pmNewContext's type argument).
inline constexpr int kContextHost = 1;
inline constexpr int kContextArchive = 2;
inline constexpr int kContextLocal = 3;

// Collection modes (pmSetMode).
inline constexpr int kModeLive = 0;
inline constexpr int kModeInterp = 1;
inline constexpr int kModeForw = 2;
inline constexpr int kModeBack = 3;

// State-change bits pmFetch reports through Fetch's *state_change
// (PMCD_ADD_AGENT ... PMCD_HOSTNAME_CHANGE).
inline constexpr int kPmcdAddAgent = 1 << 0;
inline constexpr int kPmcdRestartAgent = 1 << 1;
inline constexpr int kPmcdDropAgent = 1 << 2;
inline constexpr int kPmcdLabelChange = 1 << 3;
inline constexpr int kPmcdNamesChange = 1 << 4;
inline constexpr int kPmcdHostnameChange = 1 << 5;

// Help text kinds (pmLookupText), combinable with the target bits.
inline constexpr int kTextOneline = 1;
inline constexpr int kTextHelp = 2;
inline constexpr int kTextPmid = 4;
inline constexpr int kTextInDom = 8;

// Label set kinds (pmLookupLabels).
inline constexpr int kLabelContext = 1 << 0;
inline constexpr int kLabelDomain = 1 << 1;
inline constexpr int kLabelInDom = 1 << 2;
inline constexpr int kLabelCluster = 1 << 3;
inline constexpr int kLabelItem = 1 << 4;
inline constexpr int kLabelInstances = 1 << 5;
inline constexpr int kLabelCompound = 1 << 6;
inline constexpr int kLabelOptional = 1 << 7;

// One instance of an instance domain.
struct Instance {
  int32_t id = kInNull;
  std::string name;
  friend bool operator==(const Instance&, const Instance&) = default;
};

}  // namespace pmapi

#endif  // PMAPI_VOCABULARY_H_
