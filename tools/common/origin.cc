#include "origin.h"

#include <cstdio>

#include "options.h"
#include "pmapi/errors.h"
#include "pmapi/timewindow.h"

namespace pmtools {

pmapi::TimeSpec ArchiveEndForWindow(pmapi::Context& ctx, const std::string& archive) {
  absl::StatusOr<absl::Time> last = ctx.GetArchiveEnd();
  if (last.ok()) return pmapi::TimeSpec::FromNanos(absl::ToUnixNanos(*last));
  WarnArchiveEndUnknown(archive, last.status());
  return {pmapi::kUnboundedEnd, 0};
}

void WarnArchiveEndUnknown(const std::string& archive, const absl::Status& why) {
  std::fflush(stdout);
  Complain(" Cannot locate end of archive %s: %s\n\n"
           "WARNING: This archive is sufficiently damaged that it may not be possible to\n"
           "         produce complete information.  Continuing and hoping for the best.\n\n",
           archive.c_str(), pmapi::ErrStr(pmapi::PcpCode(why)).c_str());
  std::fflush(stderr);
}

absl::StatusOr<absl::Time> ResolveOrigin(pmapi::Context& ctx, const std::string& archive,
                                         const std::string& text, const pmapi::TimeZone& zone) {
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx.GetArchiveLabel();
  if (!label.ok()) return label.status();
  // PCP's option layer reads the label through the microsecond interface.
  const pmapi::TimeSpec start{label->start.sec, label->start.nsec / 1000 * 1000};
  if (text.empty()) return absl::FromUnixSeconds(start.sec) + absl::Nanoseconds(start.nsec);
  const pmapi::TimeSpec end = ArchiveEndForWindow(ctx, archive);
  pmapi::TimeWindowArgs args;
  args.origin = text;
  pmapi::TimeParser parser(zone);
  absl::StatusOr<pmapi::TimeWindow> w = parser.ParseWindow(args, start, end);
  if (!w.ok()) return w.status();
  return absl::FromUnixSeconds(w->origin.sec) + absl::Nanoseconds(w->origin.nsec);
}

}  // namespace pmtools
