// pmda_builtin.h: the agents compiled into the library, found by the init
// function name a local context's configuration gives. The list itself is
// the agents' own (pmdas/builtin.cc), so the library never names them.
#ifndef PMAPI_SRC_PMDA_BUILTIN_H_
#define PMAPI_SRC_PMDA_BUILTIN_H_

#include <string_view>

#include "pmapi/pmda.h"

namespace pmapi {

using PmdaInitFunction = void (*)(Pmda&);

// Returns the built-in agent whose init function is `init`, or null.
PmdaInitFunction FindBuiltinAgent(std::string_view init);

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_BUILTIN_H_
