/*
 * pcp/platform_defs.h: portability names PCP's public headers give agents
 * and tools beyond those <pcp/pmapi.h> defines with its platform block
 * (error access, printf formats, HAVE_* answers, __psint_t). Included by
 * <pcp/pmapi.h>; programs need not include it themselves.
 */
#ifndef PCP_PLATFORM_DEFS_H
#define PCP_PLATFORM_DEFS_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* An unsigned integer as wide as a pointer. */
typedef uintptr_t __psunsigned_t;

#endif /* PCP_PLATFORM_DEFS_H */
