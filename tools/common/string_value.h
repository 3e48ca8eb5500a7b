// string_value.h: the value pmstore sends: its format and its bytes, for a
// value read from the command line with pmapi::ParseValueText.
#ifndef PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_
#define PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_

#include <cstdint>

#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmstore {

// Returns the value format pmStore sends a value of `type` in: kValInsitu
// for 32 and U32, kValDptr (a value block) for the others.
int StoredFormat(int type);

// Appends `atom` to `out` as one value of instance `inst`: in place, or a
// value block of the type's size (a STRING with its terminating NUL).
// REQUIRES: the value set this value belongs to was the last one added to
// `out`, with valfmt StoredFormat(type); `type` is one ParseValue converts.
void AppendValue(const pmapi::AtomValue& atom, int type, pmapi::Inst inst, pmapi::Result* out);

}  // namespace pmstore

#endif  // PMAPI_TOOLS_PMSTORE_STRING_VALUE_H_
