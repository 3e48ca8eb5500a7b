// PCP's debug switches (<pcp/pmapi_debug.h>): the one pmDebugOptions of the
// process. pmSetDebug and -D set it through the C layer; every part of the
// library reads it.
#include "pcp/pmapi_debug.h"

extern "C" {
pmdebugoptions_t pmDebugOptions;
}
