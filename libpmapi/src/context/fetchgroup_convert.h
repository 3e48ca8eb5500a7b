// fetchgroup_convert.h: the value rules of fetchgroups: what a scale string
// asks for, casts between every numeric type and strings, and the
// sentinels an output holds when it has no value.
//
// Example:
//   absl::StatusOr<pmapi::ScaleRequest> s = pmapi::ParseScale(desc, "KB/s");
//   pmapi::FetchGroupValue v;
//   int sts = pmapi::StoreDouble(1536.0, pmapi::kTypeString, &v);  // "1.53600000000000000e+03"
#ifndef PMAPI_SRC_FETCHGROUP_CONVERT_H_
#define PMAPI_SRC_FETCHGROUP_CONVERT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/fetchgroup.h"
#include "pmapi/types.h"

namespace pmapi {

// What a registration's scale asks for.
struct ScaleRequest {
  bool rate = false;
  bool units = false;       // rescale to `output` and multiply
  Units output;             // same dimensions as the metric's
  double multiplier = 1.0;  // includes the per-second to per-unit factor of a rate
};

// Returns the request `scale` makes for a metric described by `desc`:
// absent: a rate for counters; "rate"; "instant"; or a units expression
// whose dimensions are the metric's (no rate) or have one time dimension
// less (a rate). Errors: PM_ERR_TYPE when the metric's type or out_type is
// not a number or a string, pmParseUnitsStr's error, PM_ERR_CONV for other
// dimensions or a rate in an unnamed time scale.
absl::StatusOr<ScaleRequest> ParseScale(const Desc& desc, std::optional<std::string_view> scale,
                                        int out_type);

// Puts the sentinel of `type` into `v`.
void SetSentinel(int type, FetchGroupValue* v);

// Returns 0 after storing `value` of `itype` (the metric's type) as
// `otype`, or a PCP error code: numbers go through ExtractValue, numbers
// to strings are formatted, strings to numbers parsed (ParseStringAs).
int CastValue(int valfmt, const ValueView& value, int itype, int otype, FetchGroupValue* out);

// Returns 0 after storing the text `text` read as `type`, or PM_ERR_TYPE
// for trailing junk, -ERANGE for a value out of range.
int ParseStringAs(const std::string& text, int type, FetchGroupValue* out);

// Returns 0 after storing a converted double as `type`, or PM_ERR_TRUNC /
// PM_ERR_SIGN when it does not fit. Strings are "%.17e".
int StoreDouble(double value, int type, FetchGroupValue* out);


}  // namespace pmapi

#endif  // PMAPI_SRC_FETCHGROUP_CONVERT_H_
