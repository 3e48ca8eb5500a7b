#include "origin.h"

#include "pmapi/timewindow.h"

namespace pmtools {

absl::StatusOr<absl::Time> ResolveOrigin(pmapi::Context& ctx, const std::string& text,
                                         const pmapi::TimeZone& zone) {
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx.GetArchiveLabel();
  if (!label.ok()) return label.status();
  // PCP's option layer reads the label through the microsecond interface.
  const pmapi::TimeSpec start{label->start.sec, label->start.nsec / 1000 * 1000};
  if (text.empty()) return absl::FromUnixSeconds(start.sec) + absl::Nanoseconds(start.nsec);
  pmapi::TimeSpec end{pmapi::kUnboundedEnd, 0};
  absl::StatusOr<absl::Time> last = ctx.GetArchiveEnd();
  if (last.ok()) {
    const int64_t ns = absl::ToUnixNanos(*last);
    end = {ns / 1000000000, ns % 1000000000};
  }
  pmapi::TimeWindowArgs args;
  args.origin = text;
  pmapi::TimeParser parser(zone);
  absl::StatusOr<pmapi::TimeWindow> w = parser.ParseWindow(args, start, end);
  if (!w.ok()) return w.status();
  return absl::FromUnixSeconds(w->origin.sec) + absl::Nanoseconds(w->origin.nsec);
}

}  // namespace pmtools
