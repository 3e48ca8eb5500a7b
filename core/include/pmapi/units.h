// pmapi/units.h: units as text, both ways (PCP's pmUnitsStr and
// pmParseUnitsStr).
//
// UnitsStr renders the dimensions and scales of a metric the way PCP's tools
// label values ("Kbyte / sec", "count x 10^6"). ParseUnitsStr reads such text,
// and looser forms ("2 MB/s", "kilobytes / hour^2"), into units plus the
// multiplier a value must be scaled by to be in those units.
//
// Example:
//   std::string text =
//       pmapi::UnitsStr(pmapi::Units{1, -1, 0, pmapi::kSpaceKByte, pmapi::kTimeSec, 0});
//       // "Kbyte / sec"
//   absl::StatusOr<pmapi::ParsedUnits> p = pmapi::ParseUnitsStr("2 bytes");
//       // p->units == {1, 0, 0, 0, 0, 0}, p->multiplier == 0.5
#ifndef PMAPI_UNITS_H_
#define PMAPI_UNITS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

// Returns the text PCP 6.0.3's pmUnitsStr gives for `u`: "" for no
// dimension and no count scale, "x 10^N" for a bare count scale, otherwise
// the positive powers, then "/ " and the negative ones. Scales with no name
// print as "space-N" / "time-N". Each field is read as PCP's 4-bit field:
// only its low 4 bits count (dimensions and scale_count signed).
[[nodiscard]] std::string UnitsStr(const Units& u);

// What ParseUnitsStr found: the units, and the factor that converts a value
// in those units into a value in the unit the text describes (so a number in
// the text divides it: "2 bytes" gives 0.5, "KB/MB" gives 1024).
struct ParsedUnits {
  Units units;
  double multiplier = 1.0;
};

// Returns the units and multiplier PCP 6.0.3's pmParseUnitsStr computes for
// `text`, bit for bit. The text is "dividend [/ divisor]"; each side is a
// run of numbers (C strtod syntax, multiplied together) and unit words
// (case-insensitive, each dimension at most once) with an optional ^power.
// As with a C string, the text ends at its first NUL byte.
//
// Errors carry PM_ERR_CONV with pmParseUnitsStr's own message
// ("unrecognized or duplicate base unit", "invalid floating point literal",
// "space dimension out of bounds", ...). One difference from PCP: when both
// sides have the time dimension, or neither has it, the two time scales are
// converted to seconds, and libpcp aborts on an assertion if either scale is
// above hour ("time-9 / sec", "time-7^0"). Here that is PM_ERR_CONV with the
// message "time scale out of bounds".
absl::StatusOr<ParsedUnits> ParseUnitsStr(std::string_view text);

}  // namespace pmapi

#endif  // PMAPI_UNITS_H_
