// pmapi/strings.h: the text forms PCP gives identifiers, types, semantics,
// event flags, numbers and metric values.
//
// Each function returns exactly what the PCP 6.0.3 function named beside it
// prints, so tools built on this library print what PCP's tools print:
// pmIDStr, pmInDomStr, pmTypeStr, pmSemStr, pmAtomStr, pmNumberStr,
// pmEventFlagsStr and pmPrintValue (FormatValue returns what pmPrintValue
// writes). All of them are pure and thread-safe.
//
// Example:
//   std::string id = pmapi::IDStr(pmapi::MakePmID(60, 0, 4));   // "60.0.4"
//   std::string type = pmapi::TypeStr(pmapi::kTypeU64);        // "U64"
//   std::string n = pmapi::NumberStr(1234567.0);               // "  1.23M"
//   pmapi::ValueView v;
//   v.lval = 42;
//   std::string text = pmapi::FormatValue(pmapi::kValInsitu, pmapi::kType32, v, 6);
//       // "    42"
#ifndef PMAPI_STRINGS_H_
#define PMAPI_STRINGS_H_

#include <cstdint>
#include <string>

#include "pmapi/timezone.h"
#include "pmapi/types.h"

namespace pmapi {

// Event record flag bits (pmEventRecord.er_flags), PCP's values.
inline constexpr uint32_t kEventFlagPoint = 1u << 0;
inline constexpr uint32_t kEventFlagStart = 1u << 1;
inline constexpr uint32_t kEventFlagEnd = 1u << 2;
inline constexpr uint32_t kEventFlagId = 1u << 3;
inline constexpr uint32_t kEventFlagParent = 1u << 4;
inline constexpr uint32_t kEventFlagMissed = 1u << 31;

// Returns "domain.cluster.item" for `id`, "PM_ID_NULL" for kPmIDNull, and
// "cluster.*.*" for the root of a dynamic subtree (domain 511, item 0).
[[nodiscard]] std::string IDStr(PmID id);

// Returns "domain.serial" for `indom`, or "PM_INDOM_NULL" for kInDomNull.
[[nodiscard]] std::string InDomStr(InDom indom);

// Returns the short name of a metric type ("32", "U32", ..., "HIGHRES_EVENT"),
// "NO_SUPPORT" for kTypeNoSupport, "UNKNOWN" for kTypeUnknown, and "???" for
// any other number.
[[nodiscard]] std::string TypeStr(int type);

// Returns "counter", "instant" or "discrete", or "???" for any other value.
[[nodiscard]] std::string SemStr(int sem);

// Returns the long name pmPrintDesc gives a metric type ("32-bit unsigned
// int", "highres event record array", "Not Supported"), or "" for a number
// that is no type.
[[nodiscard]] std::string TypeLongStr(int type);

// Returns the text pmPrintDesc writes for `desc`: the type and instance
// domain line, then the semantics and units line; a single line when the
// type is kTypeNoSupport. Unknown types and semantics read "??? (N)".
//   "    Data Type: 32-bit int  InDom: PM_INDOM_NULL 0xffffffff\n"
//   "    Semantics: instant  Units: none\n"
[[nodiscard]] std::string DescStr(const Desc& desc);

// Returns pmAtomStr's text for a value of `type` held in `a`:
//  - numbers in C printf style (floats and doubles as "%e");
//  - a STRING (its characters up to the first NUL) quoted, shortened to its
//    first 34 characters and "..." when it has 38 or more;
//  - an AGGREGATE or AGGREGATE_STATIC (bytes = the value block's payload) as
//    "[type=T len=N]" and up to 12 bytes in hex, with " ..." when longer;
//    T is TypeStr(block_vtype);
//  - an EVENT or HIGHRES_EVENT array (bytes = the array after its header
//    word) as "[N event records]", or "[bad event record array]" when bytes
//    is too short to hold the record count;
//  - for any other type, "Error: unexpected type: " and PCP's older type
//    wording ("Not Supported", "Unknown", "Illegal type=N").
[[nodiscard]] std::string AtomStr(const AtomValue& a, int type, int block_vtype);
// As above, taking the block's vtype to be `type` (what pmExtractValue makes).
[[nodiscard]] std::string AtomStr(const AtomValue& a, int type);

// Returns pmNumberStr's 7-character form of `v`: "%6.2f" of v scaled by
// powers of 1000 with a suffix (' ', K, M, G, T), " inf?  " / "-inf?  " past
// the largest scale, and "  0.00 " for tiny values and NaN.
[[nodiscard]] std::string NumberStr(double v);

// Returns the names of the set PM_EVENT_FLAG_* bits, comma separated, in the
// order point,start,end,id,parent; just "missed" when the missed bit is set;
// "" when none is set. Unknown bits are ignored.
[[nodiscard]] std::string EventFlagsStr(int flags);

// Returns what pmPrintValue(f, valfmt, type, value, minwidth) writes for the
// value `v`. The value is first taken as `type` (as pmExtractValue would);
// when that fails, or type is kTypeUnknown, the raw value is dumped the way
// PCP dumps it (as integer, floating point, string and hex, as they fit).
// Numbers and strings are right aligned in `minwidth` columns. Event arrays
// are summarised with their record count, missed events and first...last
// timestamps, shown in `tz`; an in-situ event value is shown as a pmlogger
// control word. An event array too short for the records it claims gives
// "[bad event record array]". `minwidth` is limited to +-1048576.
[[nodiscard]] std::string FormatValue(int valfmt, int type, const ValueView& v, int minwidth,
                        const TimeZone& tz);
// As above, with event timestamps in the local time zone (as PCP does when no
// other zone was chosen).
[[nodiscard]] std::string FormatValue(int valfmt, int type, const ValueView& v, int minwidth);

// Appends FormatValue's text to *out. Numbers and strings with no padding
// are written straight into *out, which makes this the way to format many
// values (pmdumplog formats tens of millions).
void AppendValue(std::string* out, int valfmt, int type, const ValueView& v, int minwidth,
                 const TimeZone& tz);
void AppendValue(std::string* out, int valfmt, int type, const ValueView& v, int minwidth);

}  // namespace pmapi

#endif  // PMAPI_STRINGS_H_
