// pmapi/interval.h: time intervals written the way PCP's tools accept them
// (the -t option, pmParseInterval(3) / pmParseHighResInterval(3)).
//
// An interval is one or more terms, each a non-negative number of at most
// 2^63 optionally followed by a unit word ("10", "2.5 sec", "1h 30min",
// "250msec"). Terms add up; a term without a unit is in seconds. Results have
// nanosecond precision and are rounded exactly as PCP 6.0.3 rounds them.
//
// Example:
//   absl::StatusOr<absl::Duration> d = pmapi::ParseInterval("4minutes 30sec");
//   // *d == absl::Seconds(270)
//   absl::StatusOr<absl::Duration> bad = pmapi::ParseInterval("4minutes 30mumble");
//   // pmapi::PcpCode(bad.status()) == -1, and bad.status().message() is
//   // "4minutes 30mumble\n           ^ -- unexpected value\n"
#ifndef PMAPI_INTERVAL_H_
#define PMAPI_INTERVAL_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace pmapi {

// The code PCP's pmParseInterval returns for every malformed interval.
inline constexpr int kIntervalSyntaxError = -1;

// Returns the interval `text` denotes. On malformed input returns a status
// carrying kIntervalSyntaxError (see PcpCode) whose message is PCP's
// diagnostic byte for byte: the input, a newline, a marker line with "^" under
// the offending byte, " -- " and the reason, and a final newline.
//
// Differences from PCP, where PCP's own result is undefined: a text that is
// otherwise valid but has a "nan" term or adds up to 2^63 seconds or more is
// refused with "unexpected value" marked at its end (PCP accepts it and
// returns garbage from an overflowing conversion). A NUL byte is an ordinary unexpected
// byte, not the end of the text.
// REQUIRES: nothing; any byte sequence is accepted as input.
absl::StatusOr<absl::Duration> ParseInterval(std::string_view text);

}  // namespace pmapi

#endif  // PMAPI_INTERVAL_H_
