/*
 * pcp/platform_defs.h: the portability names PCP's public headers give
 * agents and tools (error access, pointer-sized integers), as used by the
 * agent sources PCP ships. Included by <pcp/pmapi.h>.
 */
#ifndef PCP_PLATFORM_DEFS_H
#define PCP_PLATFORM_DEFS_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* A signed and an unsigned integer as wide as a pointer. */
typedef intptr_t __psint_t;
typedef uintptr_t __psunsigned_t;

/* The last system error, and its text. */
#define setoserror(n) (errno = (n))
#define oserror() errno
#define neterror() errno
#define osstrerror() strerror(errno)
#define osstrerror_r(buf, len) pmErrStr_r(-errno, buf, len)
#define netstrerror() strerror(errno)

#endif /* PCP_PLATFORM_DEFS_H */
