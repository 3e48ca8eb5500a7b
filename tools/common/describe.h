// tools/common/describe.h: the text PCP's tools print for a metric
// descriptor ("    Data Type: ...  InDom: ...\n    Semantics: ...  Units: ...\n").
#ifndef PMAPI_TOOLS_COMMON_DESCRIBE_H_
#define PMAPI_TOOLS_COMMON_DESCRIBE_H_

#include <string>

#include "pmapi/types.h"

namespace pmtools {

// Returns pminfo's descriptor lines: pmPrintDesc's (pmapi::DescStr), but
// both lines for a type of kTypeNoSupport too; `verbose_indom` writes the
// InDom as "29.1 = 121634817 = 0x7400001" (pminfo -I).
std::string DescText(const pmapi::Desc& desc, bool verbose_indom = false);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_DESCRIBE_H_
