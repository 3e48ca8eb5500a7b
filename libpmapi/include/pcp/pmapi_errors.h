/*
 * <pcp/pmapi_errors.h>: the error codes and their texts, a part of <pcp/pmapi.h>.
 *
 * The codes are PCP's: negative numbers, PM_ERR_BASE below zero; others
 * are negated errno values.
 */
#ifndef PCP_PMAPI_ERRORS_H
#define PCP_PMAPI_ERRORS_H

#ifndef PCP_PMAPI_H
#error "include <pcp/pmapi.h>, which includes this part where it belongs"
#endif

/* =====================================================================
 * Error codes: negative, PM_ERR_BASE below zero; others are -errno.
 * ===================================================================== */

#define PM_ERR_BASE2 12345
#define PM_ERR_BASE  PM_ERR_BASE2

#define PM_ERR_GENERIC        (-PM_ERR_BASE - 0)
#define PM_ERR_PMNS           (-PM_ERR_BASE - 1)
#define PM_ERR_NOPMNS         (-PM_ERR_BASE - 2)
#define PM_ERR_DUPPMNS        (-PM_ERR_BASE - 3)
#define PM_ERR_TEXT           (-PM_ERR_BASE - 4)
#define PM_ERR_APPVERSION     (-PM_ERR_BASE - 5)
#define PM_ERR_VALUE          (-PM_ERR_BASE - 6)
#define PM_ERR_TIMEOUT        (-PM_ERR_BASE - 8)
#define PM_ERR_NODATA         (-PM_ERR_BASE - 9)
#define PM_ERR_RESET          (-PM_ERR_BASE - 10)
#define PM_ERR_NAME           (-PM_ERR_BASE - 12)
#define PM_ERR_PMID           (-PM_ERR_BASE - 13)
#define PM_ERR_INDOM          (-PM_ERR_BASE - 14)
#define PM_ERR_INST           (-PM_ERR_BASE - 15)
#define PM_ERR_UNIT           (-PM_ERR_BASE - 16)
#define PM_ERR_CONV           (-PM_ERR_BASE - 17)
#define PM_ERR_TRUNC          (-PM_ERR_BASE - 18)
#define PM_ERR_SIGN           (-PM_ERR_BASE - 19)
#define PM_ERR_PROFILE        (-PM_ERR_BASE - 20)
#define PM_ERR_IPC            (-PM_ERR_BASE - 21)
#define PM_ERR_EOF            (-PM_ERR_BASE - 23)
#define PM_ERR_NOTHOST        (-PM_ERR_BASE - 24)
#define PM_ERR_EOL            (-PM_ERR_BASE - 25)
#define PM_ERR_MODE           (-PM_ERR_BASE - 26)
#define PM_ERR_LABEL          (-PM_ERR_BASE - 27)
#define PM_ERR_LOGREC         (-PM_ERR_BASE - 28)
#define PM_ERR_NOTARCHIVE     (-PM_ERR_BASE - 29)
#define PM_ERR_LOGFILE        (-PM_ERR_BASE - 30)
#define PM_ERR_NOCONTEXT      (-PM_ERR_BASE - 31)
#define PM_ERR_PROFILESPEC    (-PM_ERR_BASE - 32)
#define PM_ERR_PMID_LOG       (-PM_ERR_BASE - 33)
#define PM_ERR_INDOM_LOG      (-PM_ERR_BASE - 34)
#define PM_ERR_INST_LOG       (-PM_ERR_BASE - 35)
#define PM_ERR_NOPROFILE      (-PM_ERR_BASE - 36)
#define PM_ERR_NOAGENT        (-PM_ERR_BASE - 41)
#define PM_ERR_PERMISSION     (-PM_ERR_BASE - 42)
#define PM_ERR_CONNLIMIT      (-PM_ERR_BASE - 43)
#define PM_ERR_AGAIN          (-PM_ERR_BASE - 44)
#define PM_ERR_ISCONN         (-PM_ERR_BASE - 45)
#define PM_ERR_NOTCONN        (-PM_ERR_BASE - 46)
#define PM_ERR_NEEDPORT       (-PM_ERR_BASE - 47)
#define PM_ERR_NONLEAF        (-PM_ERR_BASE - 49)
#define PM_ERR_TYPE           (-PM_ERR_BASE - 52)
#define PM_ERR_THREAD         (-PM_ERR_BASE - 53)
#define PM_ERR_NOCONTAINER    (-PM_ERR_BASE - 54)
#define PM_ERR_BADSTORE       (-PM_ERR_BASE - 55)
#define PM_ERR_LOGOVERLAP     (-PM_ERR_BASE - 56)
#define PM_ERR_LOGHOST        (-PM_ERR_BASE - 57)
#define PM_ERR_LOGCHANGETYPE  (-PM_ERR_BASE - 59)
#define PM_ERR_LOGCHANGESEM   (-PM_ERR_BASE - 60)
#define PM_ERR_LOGCHANGEINDOM (-PM_ERR_BASE - 61)
#define PM_ERR_LOGCHANGEUNITS (-PM_ERR_BASE - 62)
#define PM_ERR_NEEDCLIENTCERT (-PM_ERR_BASE - 63)
#define PM_ERR_BADDERIVE      (-PM_ERR_BASE - 64)
#define PM_ERR_NOLABELS       (-PM_ERR_BASE - 65)
#define PM_ERR_PMDAFENCED     (-PM_ERR_BASE - 66)
#define PM_ERR_RECTYPE        (-PM_ERR_BASE - 67)
#define PM_ERR_FEATURE        (-PM_ERR_BASE - 68)
#define PM_ERR_TLS            (-PM_ERR_BASE - 69)
#define PM_ERR_BOTCH          (-PM_ERR_BASE - 97)
#define PM_ERR_TOOSMALL       (-PM_ERR_BASE - 98)
#define PM_ERR_TOOBIG         (-PM_ERR_BASE - 99)
#define PM_ERR_FAULT          (-PM_ERR_BASE - 100)
#define PM_ERR_PMDAREADY      (-PM_ERR_BASE - 1048)
#define PM_ERR_PMDANOTREADY   (-PM_ERR_BASE - 1049)
#define PM_ERR_NYI            (-PM_ERR_BASE - 8999)

/* Longest message pmErrStr_r writes, including the terminating NUL. */
#define PM_MAXERRMSGLEN 128

/* pmErrStr returns a buffer shared by the calling thread's later calls. */
PCP_CALL extern char *pmErrStr(int code);
PCP_CALL extern char *pmErrStr_r(int code, char *buf, int buflen);

#endif /* PCP_PMAPI_ERRORS_H */
