// pmapi/vocabulary.h: the words every layer shares: context kinds,
// collection modes, help-text kinds and label levels as typed enums, the
// state-change bits of a fetch, PCP's wire codes for help-text and label
// requests as agents receive them, and an instance of an instance domain.
// Each enumerator has PCP's number (PM_CONTEXT_*, PM_MODE_*, PM_TEXT_*,
// PM_LABEL_*), so ToPcp() gives the value the C interface and the wire
// use, and nothing else converts silently.
//
// Given: pmapi::Context& ctx, pmapi::PmID id
// Example:
//   #include "pmapi/context.h"
//   absl::StatusOr<pmapi::ArchiveLabel> label = ctx.GetArchiveLabel();
//   if (!label.ok()) return label.status();
//   absl::Status s = ctx.SetMode(pmapi::Mode::kInterp, label->start, absl::Seconds(10));
//   absl::StatusOr<std::string> text = ctx.LookupText(id, pmapi::TextKind::kOneline);
//   absl::StatusOr<std::vector<pmapi::LabelSet>> labels =
//       ctx.LookupLabels(pmapi::LabelLevel::kItem, id);
//   int mode = pmapi::ToPcp(pmapi::Mode::kInterp);   // PM_MODE_INTERP, 1
//   pmapi::Instance cpu0{pmapi::Inst{0}, "cpu0"};
#ifndef PMAPI_VOCABULARY_H_
#define PMAPI_VOCABULARY_H_

#include <cstdint>
#include <string>

#include "pmapi/types.h"

namespace pmapi {

// Context kinds (pmNewContext's type argument).
enum class ContextKind : int { kHost = 1, kArchive = 2, kLocal = 3 };

// Collection modes (pmSetMode).
enum class Mode : int { kLive = 0, kInterp = 1, kForw = 2, kBack = 3 };

// Help text kinds (pmLookupText's PM_TEXT_ONELINE, PM_TEXT_HELP).
enum class TextKind : int { kOneline = 1, kHelp = 2 };

// Label set levels (pmLookupLabels' PM_LABEL_CONTEXT ... PM_LABEL_INSTANCES).
enum class LabelLevel : int {
  kContext = 1 << 0,
  kDomain = 1 << 1,
  kInDom = 1 << 2,
  kCluster = 1 << 3,
  kItem = 1 << 4,
  kInstances = 1 << 5,
};

// PCP's number for an enumerator above, as the C interface and the wire
// carry it.
[[nodiscard]] constexpr int ToPcp(ContextKind k) { return static_cast<int>(k); }
[[nodiscard]] constexpr int ToPcp(Mode m) { return static_cast<int>(m); }
[[nodiscard]] constexpr int ToPcp(TextKind k) { return static_cast<int>(k); }
[[nodiscard]] constexpr int ToPcp(LabelLevel l) { return static_cast<int>(l); }

// State-change bits pmFetch reports through Fetch's *state_change
// (PMCD_ADD_AGENT ... PMCD_HOSTNAME_CHANGE).
inline constexpr int kPmcdAddAgent = 1 << 0;
inline constexpr int kPmcdRestartAgent = 1 << 1;
inline constexpr int kPmcdDropAgent = 1 << 2;
inline constexpr int kPmcdLabelChange = 1 << 3;
inline constexpr int kPmcdNamesChange = 1 << 4;
inline constexpr int kPmcdHostnameChange = 1 << 5;

// The wire forms of a help-text request (PM_TEXT_*) and of a label level
// (PM_LABEL_*) with the label flags, as an agent's text and label
// handlers receive them: a text kind combined with its target bit, a label
// level or flag bits. A client names them by TextKind and LabelLevel.
inline constexpr int kTextOneline = 1;
inline constexpr int kTextHelp = 2;
inline constexpr int kTextPmid = 4;
inline constexpr int kTextInDom = 8;
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
  Inst id = kInNull;
  std::string name;
  friend bool operator==(const Instance&, const Instance&) = default;
};

}  // namespace pmapi

#endif  // PMAPI_VOCABULARY_H_
