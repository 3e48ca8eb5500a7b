// desc_text.h: the text PCP prints for a metric descriptor (pmPrintDesc)
// and for label sets (pmPrintLabelSets).
//
// Example:
//   std::string s;
//   AppendDescText(desc, &s);
//   // "    Data Type: 32-bit int  InDom: PM_INDOM_NULL 0xffffffff\n"
//   // "    Semantics: instant  Units: none\n"
#ifndef PMAPI_TOOLS_PMDUMPLOG_DESC_TEXT_H_
#define PMAPI_TOOLS_PMDUMPLOG_DESC_TEXT_H_

#include <string>

#include "pmapi/archive.h"
#include "pmapi/types.h"

namespace pmdumplog {

// Appends pmPrintDesc's lines for `d` (pmapi::DescStr).
void AppendDescText(const pmapi::Desc& d, std::string* out);

// Appends pmPrintLabelSets's lines for every set of `r`.
void AppendLabelSets(const pmapi::LabelRecord& r, std::string* out);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_DESC_TEXT_H_
