// pmapi/value_text.h: reading a metric value of a given type from text, by
// the rules libpcp's __pmStringValue applies (pmstore's value, pmval's
// filter value, the C layer's __pmStringValue).
//
// The text is read with the C library's strtol/strtoul/strtoll/strtoull
// (base 16 when, after optional spaces and a minus sign, it starts with
// "0x" and has only hex digits after that, else base 10) or strtod, and must
// be used up entirely. FLOAT values must have a magnitude within FLT_MIN ..
// FLT_MAX (so 0 is out of range, as in PCP) and DOUBLE values must not
// overflow; hex text is never a FLOAT or DOUBLE. A STRING takes the text as
// it is.
//
// Example:
//   pmapi::ValueText v = pmapi::ParseValueText("0x10", pmapi::kType32);  // v.atom.l == 16
//   pmapi::ValueTextError e = pmapi::ParseValueText("abc", pmapi::kType32).error;
//       // ValueTextError::kIncompatible
#ifndef PMAPI_VALUE_TEXT_H_
#define PMAPI_VALUE_TEXT_H_

#include <string>

#include "pmapi/result.h"

namespace pmapi {

enum class ValueTextError { kNone, kIncompatible, kOutOfRange };

struct ValueText {
  ValueTextError error = ValueTextError::kNone;
  AtomValue atom;
};

// Returns the value `text` denotes as type `type`, or why it cannot be.
// Text left over outranks a range error. Types other than 32, U32, 64, U64,
// FLOAT, DOUBLE and STRING accept only the empty text (PCP converts nothing
// for them and then checks that the whole text was used).
[[nodiscard]] ValueText ParseValueText(const std::string& text, int type);

}  // namespace pmapi

#endif  // PMAPI_VALUE_TEXT_H_
