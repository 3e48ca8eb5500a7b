// tools/common/origin.h: the -O (origin) option of tools that read
// archives, resolved against the archive's time window.
#ifndef PMAPI_TOOLS_COMMON_ORIGIN_H_
#define PMAPI_TOOLS_COMMON_ORIGIN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/timespec.h"
#include "pmapi/timezone.h"

namespace pmtools {

// Returns the origin `text` names for the archive of `ctx`, read in `zone`
// as PCP's pmParseHighResTimeWindow reads -O: the archive's start when
// empty, "+interval" after it, "-interval" before the end, "@ctime" or a
// date. A bad time gives PCP's message ("junk\n^ -- unexpected value\n").
// `archive` is the name it was opened by, for the warning below.
absl::StatusOr<absl::Time> ResolveOrigin(pmapi::Context& ctx, const std::string& archive,
                                         const std::string& text, const pmapi::TimeZone& zone);

// Writes PCP's warning that the end of `archive` cannot be found (stdout
// flushed first): "PROGRAM: Cannot locate end of archive NAME: REASON" and
// the note that the tool carries on.
void WarnArchiveEndUnknown(const std::string& archive, const absl::Status& why);

// Returns the end of the archive of `ctx` for a time window. When it
// cannot be found (a damaged archive), writes PCP's warning to stderr
// ("PROGRAM: Cannot locate end of archive NAME: REASON" and the note that
// the tool carries on) and returns an open end, as PCP does.
pmapi::TimeSpec ArchiveEndForWindow(pmapi::Context& ctx, const std::string& archive);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_ORIGIN_H_
