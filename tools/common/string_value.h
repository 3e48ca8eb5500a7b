// string_value.h: turning pmstore's command-line value into a metric value
// of the metric's type, by the rules PCP's pmstore applies to it.
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
//   absl::StatusOr<pmapi::AtomValue> a = pmstore::ParseValue("0x10", pmapi::kType32);  // a->l == 16
//   pmstore::ParseValue("abc", pmapi::kType32);   // kValueIncompatible
#ifndef PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_
#define PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmstore {

enum class ValueError { kNone, kIncompatible, kOutOfRange };

struct ParsedValue {
  ValueError error = ValueError::kNone;
  pmapi::AtomValue atom;
};

// Returns the value `text` denotes as type `type`, or why it cannot be.
// Types other than 32, U32, 64, U64, FLOAT, DOUBLE and STRING accept only
// the empty text (PCP converts nothing for them and then checks that the
// whole text was used).
ParsedValue ParseValue(const std::string& text, int type);

// Returns the value format pmStore sends a value of `type` in: kValInsitu
// for 32 and U32, kValDptr (a value block) for the others.
int StoredFormat(int type);

// Appends `atom` to `out` as one value of instance `inst`: in place, or a
// value block of the type's size (a STRING with its terminating NUL).
// REQUIRES: the value set this value belongs to was the last one added to
// `out`, with valfmt StoredFormat(type); `type` is one ParseValue converts.
void AppendValue(const pmapi::AtomValue& atom, int type, int32_t inst, pmapi::Result* out);

}  // namespace pmstore

#endif  // PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_
