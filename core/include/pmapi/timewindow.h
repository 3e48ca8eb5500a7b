// pmapi/timewindow.h: the -S, -T, -A and -O time window options, parsed
// as PCP 6.0.3's pmParseHighResTimeWindow and __pmParseHighResTime do.
//
// A time is one of: "+interval" or "interval" (after the start), "-interval"
// (before the end, bounded windows only; "-0" is the end), "@ctime" with any
// leading part of "Www Mmm dd hh:mm:ss.frac yyyy" (partial forms move
// forward from the start to the next match, in the reporting zone), or an
// absolute date for PCP's getdate fallback ("2026-11-22 01:43:20",
// "11/22/2026 1:43 pm", "2026-11-22 01:43:20 +0530", "... EST").
//
// Given: pmapi::TimeSpec label_start, pmapi::TimeSpec log_end
// Example:
//   pmapi::TimeParser parser(*pmapi::TimeZone::ForPcpZone("UTC"));
//   pmapi::TimeWindowArgs args;
//   args.start = "+3";
//   args.end = "+6";
//   absl::StatusOr<pmapi::TimeWindow> w = parser.ParseWindow(args, label_start, log_end);
//   // w->start == label_start + 3 s, w->end == w->start + 6 s, w->origin == w->start
#ifndef PMAPI_TIMEWINDOW_H_
#define PMAPI_TIMEWINDOW_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "pmapi/timespec.h"
#include "pmapi/timezone.h"

namespace pmapi {

// The end of a live (open-ended) window: PM_MAX_TIME_T seconds.
inline constexpr int64_t kUnboundedEnd = INT64_MAX;

// The option strings; an absent option is nullopt.
struct TimeWindowArgs {
  std::optional<std::string> start;   // -S
  std::optional<std::string> end;     // -T
  std::optional<std::string> align;   // -A
  std::optional<std::string> origin;  // -O
};

struct TimeWindow {
  TimeSpec start;
  TimeSpec end;
  TimeSpec origin;
  // PCP's warning (its return value 0) when the -A alignment would move
  // the start or origin outside the window; the unaligned times are kept.
  bool alignment_failed = false;
  // Its message, "<align>\n^ -- alignment specified by -A switch could not
  // be applied\n", as PCP leaves it: a later -T or -O parse clears it, so
  // it can be empty even when alignment_failed is set.
  std::string warning;
};

// Parses times in one reporting zone. It carries what libpcp's parse
// depends on besides its arguments: the zone, and glibc's mktime memory
// (see TimeZone::Mktime), which starts fresh as in a new process.
class TimeParser {
 public:
  explicit TimeParser(TimeZone zone) : zone_(std::move(zone)) {}

  // Returns __pmParseHighResTime's result for `spec` given the window
  // bounds `start` and `end` (end.sec == kUnboundedEnd for live sources).
  // Errors carry code -1 and PCP's exact message, e.g.
  // "5 parsecs\n  ^ -- unexpected value\n". Date forms beyond the
  // supported getdate subset (relative words, month names, bare times of
  // day) are errors with PCP's message for the first failed parse.
  absl::StatusOr<TimeSpec> ParseTime(std::string_view spec, TimeSpec start, TimeSpec end);

  // Returns pmParseHighResTimeWindow's window for `args` within the log
  // bounds. Errors as ParseTime, and "<align>\n^ -- alignment specified by
  // -A switch could not be applied\n" for a zero alignment.
  absl::StatusOr<TimeWindow> ParseWindow(const TimeWindowArgs& args, TimeSpec log_start,
                                         TimeSpec log_end);

  // glibc's process-wide memory of the last mktime offset, for callers that
  // replay a process making several parses (or several parsers).
  [[nodiscard]] int64_t mktime_hint() const { return mktime_hint_; }
  void set_mktime_hint(int64_t hint) { mktime_hint_ = hint; }

 private:
  TimeZone zone_;
  int64_t mktime_hint_ = 0;
};

// The bounds pmGetContextOptions hands to the window parser: for archives,
// the earliest label start and the latest end over all of them; for a live
// source, `now` and an unbounded end. REQUIRES: for archives, `archives` is
// not empty; each pair is (label start, archive end).
struct WindowBounds {
  TimeSpec start;
  TimeSpec end;
};
[[nodiscard]] WindowBounds ArchiveWindowBounds(std::span<const WindowBounds> archives);
[[nodiscard]] WindowBounds LiveWindowBounds(TimeSpec now);

// Returns pmParseHighResInterval's value for `spec` ("1.5 min", "2h 30m",
// "0.25"): seconds summed as a double, then split with nanoseconds rounded
// half up. Errors carry code -1 and PCP's message ("Null or empty
// specification", "unexpected value"). NaN ("nan") is an error here; PCP
// returns a garbage interval for it.
absl::StatusOr<TimeSpec> ParseHighResInterval(std::string_view spec);

}  // namespace pmapi

#endif  // PMAPI_TIMEWINDOW_H_
