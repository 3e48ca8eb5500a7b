/*
 * <pcp/pmapi.h>: the classic C interface of libpmapi.
 *
 * Programs written against Performance Co-Pilot's documented C PMAPI build
 * against this header and link with -lpmapi. Every name, numeric value and
 * structure layout below is the one PCP defines, so that data exchanged with
 * such programs (and their source) needs no change. The functions are
 * implemented over the C++ core in <pmapi/...>; see libpmapi(3) and
 * docs/c-api.md for what is covered.
 *
 * The header is plain C (C99 or later) and may also be included from C++.
 * It is written in parts: <pcp/platform_defs.h> (what PCP's header brings
 * from its platform layer), <pcp/pmapi_errors.h>, <pcp/pmapi_events.h> and
 * <pcp/pmapi_options.h>, each included here where it belongs.
 */
#ifndef PCP_PMAPI_H
#define PCP_PMAPI_H

/* PCP's header makes these available to its users; programs rely on it. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <pcp/platform_defs.h>

/* Strict ISO C modes (-std=c99) hide the POSIX struct timespec that several
 * structures below embed; glibc keeps it in a header of its own. */
#if defined(__GLIBC__) && !defined(__timespec_defined)
#include <bits/types/struct_timespec.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Function and data markers, as in PCP's headers (no-ops on ELF). */
#ifndef PCP_CALL
#define PCP_CALL
#endif
#ifndef PCP_DATA
#define PCP_DATA
#endif

/*
 * Bit-field order. PCP lays its packed words out so that the same bits hold
 * the same field on every host: on big-endian hosts the first declared field
 * is the most significant one ("left to right"), on little-endian hosts the
 * declaration order is reversed.
 */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PM_BITFIELDS_LTOR 1
#endif
#endif

/* ---- API versions: 2 uses struct timeval in pmOptions, 3 timespec ---- */
#define PMAPI_VERSION_2 2
#define PMAPI_VERSION_3 3
#ifndef PMAPI_VERSION
#define PMAPI_VERSION PMAPI_VERSION_2
#endif

#ifndef LONGLONG_MAX
#define LONGLONG_MAX 9223372036854775807LL
#endif
#ifndef ULONGLONG_MAX
#define ULONGLONG_MAX 18446744073709551615ULL
#endif

/* =====================================================================
 * Identifiers
 * ===================================================================== */

typedef unsigned int pmID;    /* metric: domain(9) cluster(12) item(10) */
typedef unsigned int pmInDom; /* instance domain: domain(9) serial(22) */

#define PM_ID_NULL    0xffffffff
#define PM_INDOM_NULL 0xffffffff
#define PM_IN_NULL    0xffffffff
#define PM_NS_DEFAULT NULL

/* Dynamic name space roots and derived metrics live in domain 511. */
#define DYNAMIC_PMID 511
#define IS_DYNAMIC_ROOT(x) (pmID_domain(x) == DYNAMIC_PMID && pmID_item(x) == 0)
#define IS_DERIVED(x) \
  (pmID_domain(x) == DYNAMIC_PMID && (pmID_cluster(x) & 2048) == 0 && pmID_item(x) != 0)

PCP_CALL extern pmID pmID_build(unsigned int domain, unsigned int cluster, unsigned int item);
PCP_CALL extern unsigned int pmID_domain(pmID id);
PCP_CALL extern unsigned int pmID_cluster(pmID id);
PCP_CALL extern unsigned int pmID_item(pmID id);
PCP_CALL extern pmInDom pmInDom_build(unsigned int domain, unsigned int serial);
PCP_CALL extern unsigned int pmInDom_domain(pmInDom indom);
PCP_CALL extern unsigned int pmInDom_serial(pmInDom indom);

/* =====================================================================
 * Units, descriptors, types and semantics
 * ===================================================================== */

/* The dimension (powers of space, time, count) and scale of a value. */
typedef struct pmUnits {
#ifdef PM_BITFIELDS_LTOR
  signed int dimSpace : 4;
  signed int dimTime : 4;
  signed int dimCount : 4;
  unsigned int scaleSpace : 4; /* PM_SPACE_* */
  unsigned int scaleTime : 4;  /* PM_TIME_* */
  signed int scaleCount : 4;   /* PM_COUNT_* (power of ten) */
  unsigned int pad : 8;
#else
  unsigned int pad : 8;
  signed int scaleCount : 4;
  unsigned int scaleTime : 4;
  unsigned int scaleSpace : 4;
  signed int dimCount : 4;
  signed int dimTime : 4;
  signed int dimSpace : 4;
#endif
} pmUnits;

/* scaleSpace: powers of 1024 bytes */
#define PM_SPACE_BYTE  0
#define PM_SPACE_KBYTE 1
#define PM_SPACE_MBYTE 2
#define PM_SPACE_GBYTE 3
#define PM_SPACE_TBYTE 4
#define PM_SPACE_PBYTE 5
#define PM_SPACE_EBYTE 6
#define PM_SPACE_ZBYTE 7
#define PM_SPACE_YBYTE 8

/* scaleTime */
#define PM_TIME_NSEC 0
#define PM_TIME_USEC 1
#define PM_TIME_MSEC 2
#define PM_TIME_SEC  3
#define PM_TIME_MIN  4
#define PM_TIME_HOUR 5

/* scaleCount is a power of ten; this is 10^0 */
#define PM_COUNT_ONE 0

/* Everything known about one metric. */
typedef struct pmDesc {
  pmID pmid;
  int type;      /* PM_TYPE_* */
  pmInDom indom; /* PM_INDOM_NULL for a singular metric */
  int sem;       /* PM_SEM_* */
  pmUnits units;
} pmDesc;

#define PM_TYPE_NOSUPPORT        -1
#define PM_TYPE_32               0
#define PM_TYPE_U32              1
#define PM_TYPE_64               2
#define PM_TYPE_U64              3
#define PM_TYPE_FLOAT            4
#define PM_TYPE_DOUBLE           5
#define PM_TYPE_STRING           6
#define PM_TYPE_AGGREGATE        7
#define PM_TYPE_AGGREGATE_STATIC 8
#define PM_TYPE_EVENT            9
#define PM_TYPE_HIGHRES_EVENT    10
#define PM_TYPE_UNKNOWN          255 /* only in a pmValueBlock's vtype */

#define PM_SEM_COUNTER  1 /* (2 was a rate, retired) */
#define PM_SEM_INSTANT  3
#define PM_SEM_DISCRETE 4

#include <pcp/pmapi_errors.h>

/* =====================================================================
 * Contexts
 * ===================================================================== */

#define PM_CONTEXT_UNDEF    -1
#define PM_CONTEXT_HOST     1
#define PM_CONTEXT_ARCHIVE  2
#define PM_CONTEXT_LOCAL    3
#define PM_CONTEXT_TYPEMASK 0xff

/* Flags or'ed into the type argument of pmNewContext. */
#define PM_CTXFLAG_SHALLOW          (1U << 8)
#define PM_CTXFLAG_EXCLUSIVE        (1U << 9)
#define PM_CTXFLAG_SECURE           (1U << 10)
#define PM_CTXFLAG_COMPRESS         (1U << 11)
#define PM_CTXFLAG_RELAXED          (1U << 12)
#define PM_CTXFLAG_AUTH             (1U << 13)
#define PM_CTXFLAG_CONTAINER        (1U << 14)
#define PM_CTXFLAG_NO_FEATURE_CHECK (1U << 15)

/* Threads: the current context (pmNewContext, pmDupContext, pmUseContext,
 * pmWhichContext) is kept per thread, and a new thread has none. Handles are
 * process-wide and never handed out twice; any thread may pmUseContext a
 * handle another made, but a context must not be used by two threads at the
 * same time (PCP locks each context; this library does not). Distinct
 * contexts may be used concurrently from different threads. */
PCP_CALL extern int pmNewContext(int type, const char *name);
PCP_CALL extern int pmDupContext(void);
PCP_CALL extern int pmUseContext(int handle);
PCP_CALL extern int pmWhichContext(void);
PCP_CALL extern int pmDestroyContext(int handle);
PCP_CALL extern int pmReconnectContext(int handle);
PCP_CALL extern const char *pmGetContextHostName(int handle);
PCP_CALL extern char *pmGetContextHostName_r(int handle, char *buf, int buflen);

/* =====================================================================
 * Name space
 * ===================================================================== */

#define PMNS_LOCAL   1
#define PMNS_REMOTE  2
#define PMNS_ARCHIVE 3

#define PMNS_LEAF_STATUS    0
#define PMNS_NONLEAF_STATUS 1

PCP_CALL extern int pmGetPMNSLocation(void);
PCP_CALL extern int pmLookupName(int numpmid, const char **names, pmID *pmids);
PCP_CALL extern int pmGetChildren(const char *name, char ***offspring);
PCP_CALL extern int pmGetChildrenStatus(const char *name, char ***offspring, int **status);
PCP_CALL extern int pmNameID(pmID pmid, char **name);
PCP_CALL extern int pmNameAll(pmID pmid, char ***names);
PCP_CALL extern int pmTraversePMNS(const char *name, void (*func)(const char *));
PCP_CALL extern int pmTraversePMNS_r(const char *name, void (*func)(const char *, void *),
                                     void *closure);

/* =====================================================================
 * Descriptors and instance domains
 * ===================================================================== */

PCP_CALL extern int pmLookupDesc(pmID pmid, pmDesc *desc);
PCP_CALL extern int pmLookupDescs(int numpmid, pmID *pmids, pmDesc *descs);

PCP_CALL extern int pmLookupInDom(pmInDom indom, const char *name);
PCP_CALL extern int pmLookupInDomArchive(pmInDom indom, const char *name);
PCP_CALL extern int pmNameInDom(pmInDom indom, int inst, char **name);
PCP_CALL extern int pmNameInDomArchive(pmInDom indom, int inst, char **name);
PCP_CALL extern int pmGetInDom(pmInDom indom, int **instlist, char ***namelist);
PCP_CALL extern int pmGetInDomArchive(pmInDom indom, int **instlist, char ***namelist);

/* An instance domain as a list (the PMDA interface uses it). */
typedef struct pmInResult {
  pmInDom indom;
  int numinst;
  int *instlist;   /* may be NULL */
  char **namelist; /* may be NULL */
} pmInResult;

/* =====================================================================
 * Instance profile
 * ===================================================================== */

#define PM_PROFILE_INCLUDE 0
#define PM_PROFILE_EXCLUDE 1

typedef struct pmInDomProfile {
  pmInDom indom;
  int state; /* PM_PROFILE_* */
  int instances_len;
  int *instances;
} pmInDomProfile;

typedef struct pmProfile {
  int state;
  int profile_len;
  pmInDomProfile *profile;
} pmProfile;

PCP_CALL extern int pmAddProfile(pmInDom indom, int numinst, int *instlist);
PCP_CALL extern int pmDelProfile(pmInDom indom, int numinst, int *instlist);

/* =====================================================================
 * Values and results
 * ===================================================================== */

/* A value that does not fit in 32 bits: a 4-byte header, then the bytes. */
typedef struct pmValueBlock {
#ifdef PM_BITFIELDS_LTOR
  unsigned int vtype : 8; /* PM_TYPE_* */
  unsigned int vlen : 24; /* header plus vbuf, in bytes */
#else
  unsigned int vlen : 24;
  unsigned int vtype : 8;
#endif
  char vbuf[1];
} pmValueBlock;

#define PM_VAL_HDR_SIZE 4
#define PM_VAL_VLEN_MAX 0x00ffffff

/* One instance's value: in place (lval) or in a block (pval). */
typedef struct pmValue {
  int inst;
  union {
    pmValueBlock *pval;
    int lval;
  } value;
} pmValue;

/* valfmt: where a pmValueSet's values live */
#define PM_VAL_INSITU 0 /* value.lval */
#define PM_VAL_DPTR   1 /* value.pval, allocated with the result */
#define PM_VAL_SPTR   2 /* value.pval, owned by someone else */

/* The values of one metric; numval < 0 is an error code for it. */
typedef struct pmValueSet {
  pmID pmid;
  int numval;
  int valfmt;
  pmValue vlist[1]; /* numval entries */
} pmValueSet;

typedef struct pmResult {
  struct timeval timestamp;
  int numpmid;
  pmValueSet *vset[1]; /* numpmid entries */
} pmResult;

typedef struct pmHighResResult {
  struct timespec timestamp;
  int numpmid;
  pmValueSet *vset[1];
} pmHighResResult;

/* One value of any type, as pmExtractValue delivers it. */
typedef union {
  int32_t l;
  uint32_t ul;
  int64_t ll;
  uint64_t ull;
  float f;
  double d;
  char *cp;
  pmValueBlock *vbp;
} pmAtomValue;

/* pmcd state changes a live fetch may report through its return value. */
#define PMCD_NO_CHANGE     0
#define PMCD_ADD_AGENT     (1 << 0)
#define PMCD_RESTART_AGENT (1 << 1)
#define PMCD_DROP_AGENT    (1 << 2)
#define PMCD_AGENT_CHANGE  (PMCD_ADD_AGENT | PMCD_RESTART_AGENT | PMCD_DROP_AGENT)
#define PMCD_LABEL_CHANGE  (1 << 3)
#define PMCD_NAMES_CHANGE  (1 << 4)

PCP_CALL extern int pmFetch(int numpmid, pmID *pmids, pmResult **result);
PCP_CALL extern int pmFetchHighRes(int numpmid, pmID *pmids, pmHighResResult **result);
PCP_CALL extern int pmHighResFetch(int numpmid, pmID *pmids, pmHighResResult **result);
PCP_CALL extern int pmFetchArchive(pmResult **result);
PCP_CALL extern int pmFetchHighResArchive(pmHighResResult **result);
PCP_CALL extern void pmFreeResult(pmResult *result);
PCP_CALL extern void pmFreeHighResResult(pmHighResResult *result);
PCP_CALL extern void pmSortInstances(pmResult *result);
PCP_CALL extern void pmSortHighResInstances(pmHighResResult *result);
PCP_CALL extern int pmStore(const pmResult *result);
PCP_CALL extern int pmStoreHighRes(const pmHighResResult *result);

PCP_CALL extern int pmExtractValue(int valfmt, const pmValue *ival, int itype,
                                   pmAtomValue *oval, int otype);
PCP_CALL extern int pmConvScale(int type, const pmAtomValue *ival, const pmUnits *iunit,
                                pmAtomValue *oval, const pmUnits *ounit);
PCP_CALL extern void pmPrintValue(FILE *f, int valfmt, int type, const pmValue *val,
                                  int minwidth);

/* =====================================================================
 * Collection time and mode
 * ===================================================================== */

#define PM_MODE_LIVE   0
#define PM_MODE_INTERP 1
#define PM_MODE_FORW   2
#define PM_MODE_BACK   3

/* Old-style time base carried in the mode word (still decoded). */
#define PM_XTB_FLAG   0x1000000
#define PM_XTB_SET(m) (PM_XTB_FLAG | ((m) << 16))
#define PM_XTB_GET(m) (((m) & PM_XTB_FLAG) ? (((m) & 0xff0000) >> 16) : -1)

PCP_CALL extern int pmSetMode(int mode, const struct timeval *when, int delta);
PCP_CALL extern int pmSetModeHighRes(int mode, const struct timespec *when,
                                     const struct timespec *delta);

/* =====================================================================
 * Help text
 * ===================================================================== */

#define PM_TEXT_ONELINE 1
#define PM_TEXT_HELP    2
#define PM_TEXT_PMID    4
#define PM_TEXT_INDOM   8
#define PM_TEXT_DIRECT  16

PCP_CALL extern int pmLookupText(pmID pmid, int level, char **buffer);
PCP_CALL extern int pmLookupInDomText(pmInDom indom, int level, char **buffer);

/* =====================================================================
 * Labels
 * ===================================================================== */

/* One name:value pair, as offsets into its set's JSON string. */
typedef struct pmLabel {
  unsigned int name : 16;
  unsigned int namelen : 8;
  unsigned int flags : 8; /* PM_LABEL_* level, COMPOUND, OPTIONAL */
  unsigned int value : 16;
  unsigned int valuelen : 16;
} pmLabel;

typedef struct pmLabelSet {
  unsigned int inst; /* PM_IN_NULL except for instance labels */
  int nlabels;       /* label count, or an error code */
  char *json;
  unsigned int jsonlen : 16;
  unsigned int padding : 15;
  unsigned int compound : 1;
  pmLabel *labels;
  void *hash;
} pmLabelSet;

#define PM_MAXLABELS       ((1 << 8) - 1)
#define PM_MAXLABELJSONLEN ((1 << 16) - 1)

/* Label levels, also the low bits of pmLabel.flags */
#define PM_LABEL_CONTEXT   (1 << 0)
#define PM_LABEL_DOMAIN    (1 << 1)
#define PM_LABEL_INDOM     (1 << 2)
#define PM_LABEL_CLUSTER   (1 << 3)
#define PM_LABEL_ITEM      (1 << 4)
#define PM_LABEL_INSTANCES (1 << 5)
#define PM_LABEL_COMPOUND  (1 << 6)
#define PM_LABEL_OPTIONAL  (1 << 7)

PCP_CALL extern int pmGetContextLabels(pmLabelSet **sets);
PCP_CALL extern int pmGetDomainLabels(int domain, pmLabelSet **sets);
PCP_CALL extern int pmGetInDomLabels(pmInDom indom, pmLabelSet **sets);
PCP_CALL extern int pmGetClusterLabels(pmID pmid, pmLabelSet **sets);
PCP_CALL extern int pmGetItemLabels(pmID pmid, pmLabelSet **sets);
PCP_CALL extern int pmGetInstancesLabels(pmInDom indom, pmLabelSet **sets);
PCP_CALL extern int pmLookupLabels(pmID pmid, pmLabelSet **sets);
PCP_CALL extern int pmMergeLabels(char **labels, int nlabels, char *buf, int buflen);
PCP_CALL extern int pmMergeLabelSets(pmLabelSet **sets, int nsets, char *buf, int buflen,
                                     int (*filter)(const pmLabel *, const char *, void *),
                                     void *arg);
PCP_CALL extern void pmFreeLabelSets(pmLabelSet *sets, int nsets);

/* =====================================================================
 * Times and archive labels
 * ===================================================================== */

/* The 32-bit wire form of a timeval (events, v2 archives). */
typedef struct pmTimeval {
  int32_t tv_sec;
  int32_t tv_usec;
} pmTimeval;

/* The 64-bit wire form of a timespec (HIGHRES events, v3 archives). */
typedef struct pmTimespec {
  int64_t tv_sec;
  int64_t tv_nsec;
} pmTimespec;

#define PM_LOG_MAGIC        0x50052600
#define PM_LOG_VERS02       0x2
#define PM_LOG_VERS03       0x3
#define PM_LOG_VOL_TI       -2
#define PM_LOG_VOL_META     -1
#define PM_LOG_MAXHOSTLEN   64
#define PM_TZ_MAXLEN        40
#define PM_MAX_HOSTNAMELEN  256
#define PM_MAX_TIMEZONELEN  256
#define PM_MAX_ZONEINFOLEN  256
#define PM_LOG_FEATURE_NONE 0
#define PM_LOG_FEATURE_QA   (1U << 31)
#define PM_LOG_FEATURES     (PM_LOG_FEATURE_NONE | PM_LOG_FEATURE_QA)

typedef struct pmLogLabel {
  int ll_magic; /* PM_LOG_MAGIC | version */
  pid_t ll_pid;
  struct timeval ll_start;
  char ll_hostname[PM_LOG_MAXHOSTLEN];
  char ll_tz[PM_TZ_MAXLEN];
} pmLogLabel;

typedef struct pmHighResLogLabel {
  int magic;
  pid_t pid;
  struct timespec start;
  char hostname[PM_MAX_HOSTNAMELEN];
  char timezone[PM_MAX_TIMEZONELEN];
  char zoneinfo[PM_MAX_ZONEINFOLEN];
} pmHighResLogLabel;

PCP_CALL extern int pmGetArchiveLabel(pmLogLabel *label);
PCP_CALL extern int pmGetHighResArchiveLabel(pmHighResLogLabel *label);
PCP_CALL extern int pmGetArchiveEnd(struct timeval *end);
PCP_CALL extern int pmGetHighResArchiveEnd(struct timespec *end);

/* =====================================================================
 * Formatting and parsing
 * ===================================================================== */

/* The plain forms share one buffer per function and thread. */
/* The two descriptor lines pminfo -d prints. */
PCP_CALL extern void pmPrintDesc(FILE *f, const pmDesc *desc);
PCP_CALL extern const char *pmIDStr(pmID pmid);
PCP_CALL extern char *pmIDStr_r(pmID pmid, char *buf, int buflen);
PCP_CALL extern const char *pmInDomStr(pmInDom indom);
PCP_CALL extern char *pmInDomStr_r(pmInDom indom, char *buf, int buflen);
PCP_CALL extern const char *pmTypeStr(int type);
PCP_CALL extern char *pmTypeStr_r(int type, char *buf, int buflen);
PCP_CALL extern const char *pmSemStr(int sem);
PCP_CALL extern char *pmSemStr_r(int sem, char *buf, int buflen);
PCP_CALL extern const char *pmUnitsStr(const pmUnits *units);
PCP_CALL extern char *pmUnitsStr_r(const pmUnits *units, char *buf, int buflen);
PCP_CALL extern const char *pmAtomStr(const pmAtomValue *atom, int type);
PCP_CALL extern char *pmAtomStr_r(const pmAtomValue *atom, int type, char *buf, int buflen);
PCP_CALL extern const char *pmNumberStr(double value);
PCP_CALL extern char *pmNumberStr_r(double value, char *buf, int buflen);
PCP_CALL extern const char *pmEventFlagsStr(int flags);
PCP_CALL extern char *pmEventFlagsStr_r(int flags, char *buf, int buflen);

PCP_CALL extern int pmParseInterval(const char *spec, struct timeval *result, char **errmsg);
PCP_CALL extern int pmParseHighResInterval(const char *spec, struct timespec *result,
                                           char **errmsg);
PCP_CALL extern int pmParseTimeWindow(const char *start, const char *finish, const char *align,
                                      const char *origin, const struct timeval *log_start,
                                      const struct timeval *log_end, struct timeval *rs_start,
                                      struct timeval *rs_end, struct timeval *rs_origin,
                                      char **errmsg);
PCP_CALL extern int pmParseHighResTimeWindow(
    const char *start, const char *finish, const char *align, const char *origin,
    const struct timespec *log_start, const struct timespec *log_end,
    struct timespec *rs_start, struct timespec *rs_end, struct timespec *rs_origin,
    char **errmsg);
PCP_CALL extern int pmParseUnitsStr(const char *spec, pmUnits *units, double *multiplier,
                                    char **errmsg);

/* A metric specification: [source:|@:|/]metric[[instance,...]] */
typedef struct pmMetricSpec {
  int isarch;   /* 0 host, 1 archive, 2 local context */
  char *source;
  char *metric;
  int ninst;    /* 0: all instances */
  char *inst[1];
} pmMetricSpec;

PCP_CALL extern int pmParseMetricSpec(const char *spec, int isarch, char *source,
                                      pmMetricSpec **result, char **errmsg);
PCP_CALL extern void pmFreeMetricSpec(pmMetricSpec *spec);

/* =====================================================================
 * Time zones
 * ===================================================================== */

#define PM_MAX_TIME_T LONGLONG_MAX

PCP_CALL extern int pmNewZone(const char *tz);
PCP_CALL extern int pmNewContextZone(void);
PCP_CALL extern int pmUseZone(const int handle);
PCP_CALL extern int pmWhichZone(char **tz);
PCP_CALL extern char *pmCtime(const time_t *clock, char *buf);
PCP_CALL extern struct tm *pmLocaltime(const time_t *clock, struct tm *result);

/* =====================================================================
 * Time arithmetic and printing
 * ===================================================================== */

PCP_CALL extern void pmtimevalNow(struct timeval *tv);
PCP_CALL extern void pmtimevalInc(struct timeval *tv, const struct timeval *delta);
PCP_CALL extern void pmtimevalDec(struct timeval *tv, const struct timeval *delta);
PCP_CALL extern double pmtimevalAdd(const struct timeval *a, const struct timeval *b);
PCP_CALL extern double pmtimevalSub(const struct timeval *a, const struct timeval *b);
PCP_CALL extern double pmtimevalToReal(const struct timeval *tv);
PCP_CALL extern void pmtimevalFromReal(double secs, struct timeval *tv);
PCP_CALL extern void pmPrintStamp(FILE *f, const struct timeval *tv);
PCP_CALL extern int pmtimespecNow(struct timespec *ts);
PCP_CALL extern void pmtimespecInc(struct timespec *ts, const struct timespec *delta);
PCP_CALL extern void pmtimespecDec(struct timespec *ts, const struct timespec *delta);
PCP_CALL extern double pmtimespecAdd(const struct timespec *a, const struct timespec *b);
PCP_CALL extern double pmtimespecSub(const struct timespec *a, const struct timespec *b);
PCP_CALL extern double pmtimespecToReal(const struct timespec *ts);
PCP_CALL extern void pmtimespecFromReal(double secs, struct timespec *ts);
PCP_CALL extern void pmPrintHighResStamp(FILE *f, const struct timespec *ts);

#include <pcp/pmapi_events.h>
#include <pcp/pmapi_options.h>

/* =====================================================================
 * Miscellany
 * ===================================================================== */

/* Formatted output collected and written by pmflush (to stderr). */
#ifdef __GNUC__
#define __PM_PRINTFLIKE(idx, cnt) __attribute__((format(printf, idx, cnt)))
#else
#define __PM_PRINTFLIKE(idx, cnt)
#endif
PCP_CALL extern int pmprintf(const char *fmt, ...) __PM_PRINTFLIKE(1, 2);
PCP_CALL extern int pmflush(void);
PCP_CALL extern int pmsprintf(char *buf, size_t size, const char *fmt, ...)
    __PM_PRINTFLIKE(3, 4);

#include <pcp/pmapi_debug.h>

/* Derived metrics (pmRegisterDerived(3)): global ones, registered for the
 * process, and per-context ones (pmAddDerived*), over the current context.
 * The *Metric forms return 0, or an error with PCP's message in *errmsg
 * (malloc'd); the others return NULL or where in expr the error is. */
PCP_CALL extern char *pmRegisterDerived(const char *name, const char *expr);
PCP_CALL extern int pmRegisterDerivedMetric(const char *name, const char *expr, char **errmsg);
PCP_CALL extern char *pmAddDerived(const char *name, const char *expr);
PCP_CALL extern int pmAddDerivedMetric(const char *name, const char *expr, char **errmsg);
PCP_CALL extern int pmLoadDerivedConfig(const char *path);
PCP_CALL extern char *pmDerivedErrStr(void);
PCP_CALL extern int pmGetDerivedControl(int what, int *valuep);
PCP_CALL extern int pmSetDerivedControl(int what, int value);
#define PCP_DERIVED_GLOBAL_LIMIT 1
#define PCP_DERIVED_CONTEXT_LIMIT 2
#define PCP_DERIVED_DEBUG_SYNTAX 3
#define PCP_DERIVED_DEBUG_SEMANTICS 4
#define PCP_DERIVED_DEBUG_EVAL 5

PCP_CALL extern void pmSetProgname(const char *name);
PCP_CALL extern char *pmGetProgname(void);
PCP_CALL extern int pmGetVersion(void);
/* Configuration values: the environment, else what this installation
 * knows (PCP_PMDAS_DIR, PCP_PMCDCONF_PATH); "" (pmGetConfig) or NULL
 * (pmGetOptionalConfig) otherwise. */
PCP_CALL extern char *pmGetConfig(const char *name);
PCP_CALL extern char *pmGetOptionalConfig(const char *name);
PCP_CALL extern int pmPathSeparator(void);
PCP_CALL extern int pmSetDebug(const char *flags);
PCP_CALL extern int pmClearDebug(const char *flags);

#define PM_FATAL_ERR 1
#define PM_RECOV_ERR 0
PCP_CALL extern void pmNoMem(const char *where, size_t size, int fatal);
PCP_CALL extern void pmNotifyErr(int priority, const char *fmt, ...) __PM_PRINTFLIKE(2, 3);

/* ---- Name spaces, logs, identities, strings, services ---- */

/* An alternative name space for every context of the process (and for a
 * program with no context): pmLoadNameSpace(PM_NS_DEFAULT) loads
 * $PMNS_DEFAULT or $PCP_VAR_DIR/pmns/root. A second load without
 * pmUnloadNameSpace is PM_ERR_DUPPMNS. pmTrimNameSpace hides, on an archive
 * context, the loaded names whose metrics the archive does not hold. */
#define PM_NS_DEFAULT NULL
PCP_CALL extern int pmLoadNameSpace(const char *filename);
PCP_CALL extern int pmLoadASCIINameSpace(const char *filename, int dupok);
PCP_CALL extern void pmUnloadNameSpace(void);
PCP_CALL extern int pmTrimNameSpace(void);

/* A diagnostic log (not an archive): reopens `oldstream` on `logname`
 * ("-": keep it), keeping the previous file as logname.prev, and writes the
 * "Log for ..." header; *status is 1 on success. */
PCP_CALL extern FILE *pmOpenLog(const char *progname, const char *logname, FILE *oldstream,
                                int *status);
/* Makes pmNotifyErr also write to syslog (onoff 1) or stop (0). */
PCP_CALL extern void pmSyslog(int onoff);

/* Switches the process to `username`'s uid and gid (exits on failure, as
 * PCP does); pmGetUsername gives $PCP_USER (returns 1) or "pcp" (0). */
PCP_CALL extern int pmSetProcessIdentity(const char *username);
PCP_CALL extern int pmGetUsername(char **username);

/* Bounded string helpers: destlen is the size of dest; 0, or -1 if src
 * was truncated. pmstrlen(NULL) is 0. pmfstring reads the next white-space
 * delimited word of `f` into a malloc'd string: its length, 0 at a newline
 * before any word, -1 at end of file, -2 out of memory. */
PCP_CALL extern int pmstrncpy(char *dest, size_t destlen, const char *src);
PCP_CALL extern int pmstrncat(char *dest, size_t destlen, const char *src);
PCP_CALL extern size_t pmstrlen(const char *s);
PCP_CALL extern ssize_t pmfstring(FILE *f, char **str);

/* The host of context `handle` into buf (pmGetContextHostName_r's answer). */
PCP_CALL extern int pmGetHostName(int handle, char *buf, int buflen);
/* The library's features by name ("pcp_version", "multi_threaded", ...,
 * case ignored); NULL for an unknown name. */
PCP_CALL extern const char *pmGetAPIConfig(const char *name);
/* Prints label sets in PCP's layout (one line per set, one per label). */
PCP_CALL extern void pmPrintLabelSets(FILE *fp, int ident, int type, pmLabelSet *sets, int nsets);
/* Applies a -K spec (add,DOMAIN,PATH,INIT | del,DOMAIN[,PATH] | clear) to the
 * agents of local contexts opened afterwards: NULL, or why the spec is bad. */
PCP_CALL extern char *pmSpecLocalPMDA(const char *spec);

#define PM_SERVER_SERVICE_SPEC "pmcd"
#define PM_SERVER_PROXY_SPEC "pmproxy"
#define PM_SERVER_WEBAPI_SPEC "pmwebapi"
/* Service discovery: no mechanism is built in (as in Debian's libpcp), so
 * "probe", "shell", "avahi" and NULL find nothing (0); any other mechanism
 * is -EOPNOTSUPP. */
PCP_CALL extern int pmDiscoverServices(const char *service, const char *mechanism, char ***urls);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMAPI_H */
