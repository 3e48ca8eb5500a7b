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

#include <cstdint>
#include <span>
#include <string>

#include "pmapi/archive.h"
#include "pmapi/types.h"

namespace pmdumplog {

// One bit of a flags word and the name pmdumplog prints for it.
struct FlagName {
  uint32_t bit;
  const char* name;
};

// The names of the bits of `flags` that `names` lists, in its order, comma
// separated ("" when none is set).
std::string FlagNames(uint32_t flags, std::span<const FlagName> names);

// Appends pmPrintDesc's lines for `d` (pmapi::DescStr).
void AppendDescText(const pmapi::Desc& d, std::string* out);

// Appends pmPrintLabelSets's lines for every set of `r`.
void AppendLabelSets(const pmapi::LabelRecord& r, std::string* out);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_DESC_TEXT_H_
