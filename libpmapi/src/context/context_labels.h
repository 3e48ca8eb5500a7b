// context_labels.h: context labels as PCP composes them. An agent's
// default answer is the label files an administrator keeps in
// $PCP_SYSCONF_DIR/labels (then labels/optional, whose labels are
// optional); a local context adds the host's own names (hostname,
// domainname, machineid), then the user's ids (optional).
#ifndef PMAPI_CORE_CONTEXT_LABELS_H_
#define PMAPI_CORE_CONTEXT_LABELS_H_

#include <string>

#include "absl/status/statusor.h"
#include "pmapi/label_set.h"

namespace pmapi {

// The labels of the files below `sysconf_dir`/labels, merged (a later file
// wins a name it shares with an earlier one); no labels if there are none.
// A file that is not a JSON label object is left out, as PCP leaves it out.
absl::StatusOr<LabelSet> ConfiguredContextLabels(const std::string& sysconf_dir);

// A local context's label set: the files' labels, then the host's, then
// the user's.
absl::StatusOr<LabelSet> LocalContextLabels(const std::string& sysconf_dir);

// $PCP_SYSCONF_DIR, or PCP's default.
std::string SysconfDir();

}  // namespace pmapi

#endif  // PMAPI_CORE_CONTEXT_LABELS_H_
