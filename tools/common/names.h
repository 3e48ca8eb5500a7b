// names.h: the tools' -n FILE / -N FILE (an alternative name space), read
// through the library's LoadNameSpace as pmLoadASCIINameSpace reads it.
#ifndef PMAPI_TOOLS_COMMON_NAMES_H_
#define PMAPI_TOOLS_COMMON_NAMES_H_

#include <memory>
#include <string>

#include "pmapi/pmns.h"

namespace pmtools {

// Loads `path` (-n: duplicate PMIDs allowed; -N: not). On failure prints
// what PCP's tools print (the library's diagnostic, then "TOOL: Cannot load
// namespace from "PATH": REASON") and returns null.
std::shared_ptr<const pmapi::Pmns> LoadNameSpaceOption(const char* tool, const std::string& path,
                                                      bool dupok);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_NAMES_H_
