// value_format.h: pmdumplog's rendering of one metric value, as PCP's
// pmPrintValue(..., minwidth 1) renders it.
//
// This is the one place pmdumplog formats values; it is meant to be
// replaced by the library's pmapi::FormatValue once that exists.
//
// Example:
//   std::string s;
//   AppendValue(result.sets()[0].valfmt, desc.type, result.value(vs, 0), &s);
#ifndef PMAPI_TOOLS_PMDUMPLOG_VALUE_FORMAT_H_
#define PMAPI_TOOLS_PMDUMPLOG_VALUE_FORMAT_H_

#include <string>

#include "pmapi/types.h"

namespace pmdumplog {

// Appends the text for value `v` (from a set with `valfmt`) of metric type
// `type` to *out. Values that cannot be read as `type` are shown the way
// PCP shows values of unknown type (numbers and hex bytes).
void AppendValue(int valfmt, int type, const pmapi::ValueView& v, std::string* out);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_VALUE_FORMAT_H_
