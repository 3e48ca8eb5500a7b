// pmapi/metricspec.h: metric specifications as PCP's tools take them on the
// command line (pmParseMetricSpec(3)): a metric name, optionally preceded by
// a source ("host:", "archive/", or "@:" for a local context) and followed
// by an instance list in brackets.
//
//   [host:]metric[[inst,...]]   [archive/]metric[[inst,...]]   @:metric[[...]]
//
// Instances are separated by commas or white space; an instance holding
// either is written in double quotes, and a backslash takes the next byte
// literally anywhere in the specification.
//
// Example:
//   absl::StatusOr<pmapi::MetricSpec> m = pmapi::ParseMetricSpec(
//       "server:disk.dev.read[sda, \"my disk\"]", pmapi::kSpecHost, "local:");
//   // m->isarch == kSpecHost, m->source == "server", m->metric ==
//   // "disk.dev.read", m->instances == {"sda", "my disk"}
#ifndef PMAPI_METRICSPEC_H_
#define PMAPI_METRICSPEC_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pmapi {

// Values of MetricSpec::isarch (pmMetricSpec's isarch field).
inline constexpr int kSpecHost = 0;
inline constexpr int kSpecArchive = 1;
inline constexpr int kSpecLocal = 2;

// A parsed metric specification (PCP's pmMetricSpec).
struct MetricSpec {
  int isarch = kSpecHost;           // what `source` names: kSpecHost/Archive/Local
  std::string source;               // host name, archive name, or "@"
  std::string metric;               // metric name, backslash escapes removed
  std::vector<std::string> instances;  // instance names; empty means all

  friend bool operator==(const MetricSpec&, const MetricSpec&) = default;
};

// Returns the specification `spec` denotes. When `spec` names no source, the
// result takes `isarch` and `default_source` (PCP's caller-supplied defaults,
// passed through unchecked). On malformed input returns a status carrying
// kErrGeneric whose message is PCP's diagnostic byte for byte: the input, a
// marker line with "^" under the offending byte, " -- " and the reason.
//
// PCP reads its input as a C string; here a NUL byte is not the end of the
// text but a byte no part of the grammar accepts, so it gives an error.
// REQUIRES: nothing; any byte sequence is accepted as input.
absl::StatusOr<MetricSpec> ParseMetricSpec(std::string_view spec, int isarch,
                                           std::string_view default_source);

}  // namespace pmapi

#endif  // PMAPI_METRICSPEC_H_
