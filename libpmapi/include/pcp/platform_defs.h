/*
 * pcp/platform_defs.h: the portability names PCP's public headers give
 * agents and tools (the system headers they rely on, error access, printf
 * formats, HAVE_* answers, __psint_t). Included by <pcp/pmapi.h>; programs
 * need not include it themselves.
 */
#ifndef PCP_PLATFORM_DEFS_H
#define PCP_PLATFORM_DEFS_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* ---- What PCP's header brings with it (its platform_defs.h) ----
 * Programs written against PCP use these without including them: the
 * system headers, the printf formats, the version macros, the errno
 * wrappers and the HAVE_* answers about the platform they test. The values
 * are those of PCP's Linux/glibc build. */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <endian.h>
#include <libgen.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <syslog.h>

/* The PCP release whose interface this header provides, as pmGetVersion
 * reports it. */
#define PM_VERSION(a, b, c) (((a) << 16) | ((b) << 8) | (c))
#define PM_VERSION_CURRENT PM_VERSION(6, 0, 3)

#define PRINTF_P_PFX ""  /* glibc's %p already prints 0x */
#define FMT_PID "d"
#define FMT_PTHREAD "lu"
#if defined(__LP64__) || defined(_LP64)
#define FMT_INT64 "ld"
#define FMT_UINT64 "lu"
#define HAVE_64BIT_LONG 1
#define HAVE_64BIT_PTR 1
typedef long __psint_t;
#else
#define FMT_INT64 "lld"
#define FMT_UINT64 "llu"
#define HAVE_32BIT_PTR 1
typedef int __psint_t;
#endif

#define setoserror(n) (errno = (n))
#define oserror() errno
#define neterror() errno
#define hosterror() h_errno
#define osstrerror() strerror(errno)
#define osstrerror_r(buf, len) pmErrStr_r(-errno, buf, len)
#define netstrerror() strerror(errno)
#define netstrerror_r(buf, len) pmErrStr_r(-errno, buf, len)
#define hoststrerror() hstrerror(h_errno)

#define IS_LINUX 1
#define HAVE_ARPA_INET_H 1
#define HAVE_BASENAME 1
#define HAVE_BITS_WORDSIZE_H 1
#define HAVE_CONST_DIRENT 1
#define HAVE_CONST_LONGLONG 1
#define HAVE_DIRNAME 1
#define HAVE_ENDIAN_H 1
#define HAVE_FNDELAY 1
#define HAVE_GETDOMAINNAME 1
#define HAVE_GID_T 1
#define HAVE_LIBGEN_H 1
#define HAVE_LIMITS_H 1
#define HAVE_NETDB_H 1
#define HAVE_NETINET_IN_H 1
#define HAVE_NETINET_TCP_H 1
#define HAVE_PRINTF_P_PFX 1
#define HAVE_PTHREAD_BARRIER_T 1
#define HAVE_PTHREAD_H 1
#define HAVE_PTHREAD_MUTEX_T 1
#define HAVE_PTRDIFF_T 1
#define HAVE_SCANDIR 1
#define HAVE_SIGHUP 1
#define HAVE_SOCKLEN_T 1
#define HAVE_STDDEF_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRCHRNUL 1
#define HAVE_STRNDUP 1
#define HAVE_STAT_TIMESPEC 1
#define HAVE_STRUCT_TIMESPEC 1
#define HAVE_SYSINFO 1
#define HAVE_SYSLOG_H 1
#define HAVE_SYS_MOUNT_H 1
#define HAVE_SYS_SELECT_H 1
#define HAVE_SYS_SOCKET_H 1
#define HAVE_SYS_STATFS_H 1
#define HAVE_SYS_STATVFS_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIMES_H 1
#define HAVE_TCGETATTR 1
#define HAVE_TERMIOS_H 1
#define HAVE_UID_T 1
#define HAVE_VALLOC 1
#define HAVE_WAIT_INCLUDES_SIGNAL 1
#ifndef MAXHOSTNAMELEN
#define MAXHOSTNAMELEN 4096
#endif
#ifndef MAXDOMAINNAMELEN
#define MAXDOMAINNAMELEN 64
#endif
#ifndef MAXMACHINEIDLEN
#define MAXMACHINEIDLEN 256
#endif
#ifndef WORD_BIT
#define WORD_BIT 32
#endif
#ifndef RETSIGTYPE
#define RETSIGTYPE void
#endif
typedef void (*SIG_PF)(int);
#define const_dirent const struct dirent
#define mkdir2(path, mode) mkdir(path, mode)
#define rename2(path, target) rename(path, target)
#define pipe1(fds) pipe(fds)
typedef uid_t __pmUserID;
typedef gid_t __pmGroupID;
typedef socklen_t __pmSockLen;

/* An unsigned integer as wide as a pointer. */
typedef uintptr_t __psunsigned_t;

#endif /* PCP_PLATFORM_DEFS_H */
