/*
 * pcp/pmda.h: the C interface for writing a performance metrics domain
 * agent (PMDA) that a local context loads as a shared object.
 *
 * This is the agent side of PCP's libpcp_pmda, with PCP's names, struct
 * layouts, constants and return conventions, implemented by libpmapi. An
 * agent describes its metrics and instance domains in tables, fills the
 * dispatch table of a pmdaInterface in its init function, and is listed in
 * the local context's configuration file:
 *
 *     simple  254  dso  simple_init  /opt/agents/pmda_simple.so
 *
 * A minimal agent (one singular metric, the time of day):
 *
 *     #include <time.h>
 *     #include <pcp/pmapi.h>
 *     #include <pcp/pmda.h>
 *
 *     static pmdaMetric metrics[] = {
 *         { NULL, { PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT,
 *                   PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) } },
 *     };
 *
 *     static int clock_value(pmdaMetric *m, unsigned int inst, pmAtomValue *av)
 *     {
 *         if (pmID_cluster(m->m_desc.pmid) != 0 || pmID_item(m->m_desc.pmid) != 0)
 *             return PM_ERR_PMID;
 *         if (inst != PM_IN_NULL)
 *             return PM_ERR_INST;
 *         av->ul = (unsigned int)time(NULL);
 *         return PMDA_FETCH_STATIC;
 *     }
 *
 *     void clock_init(pmdaInterface *dp)
 *     {
 *         pmdaDSO(dp, PMDA_INTERFACE_7, "clock DSO", NULL);
 *         if (dp->status != 0)
 *             return;
 *         pmdaSetFetchCallBack(dp, clock_value);
 *         pmdaInit(dp, NULL, 0, metrics, 1);
 *     }
 *
 * Help text files are in the source form newhelp(1) reads ("@ IDENT
 * one-line" followed by the long text); see docs/c-pmda.md.
 *
 * The same agent runs as a daemon under pmcd: main() calls pmdaDaemon,
 * pmdaGetOptions, pmdaOpenLog, pmdaConnect, then the init function, then
 * pmdaMain, which answers pmcd's requests over a pipe (stdin/stdout) or a
 * socket until pmcd closes the connection:
 *
 *     int main(int argc, char **argv)
 *     {
 *         static pmdaOptions opts = { .short_options = PMDA_OPTIONS };
 *         pmdaInterface dispatch;
 *         pmSetProgname(argv[0]);
 *         pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), 250,
 *                    "clock.log", NULL);
 *         pmdaGetOptions(argc, argv, &opts, &dispatch);
 *         if (opts.errors) { pmdaUsageMessage(&opts); exit(1); }
 *         pmdaOpenLog(&dispatch);
 *         pmdaConnect(&dispatch);
 *         clock_init(&dispatch);
 *         pmdaMain(&dispatch);
 *         exit(0);
 *     }
 */
#ifndef PCP_PMDA_H
#define PCP_PMDA_H

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>
#include <sys/time.h>
#include <time.h>

#include <pcp/pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Interface versions an agent asks for in pmdaDSO. */
#define PMDA_INTERFACE_2 2 /* the argument lists used today */
#define PMDA_INTERFACE_3 3 /* fetch callback: < 0, 0 (no value) or > 0 */
#define PMDA_INTERFACE_4 4 /* dynamic names: pmid, name, children */
#define PMDA_INTERFACE_5 5 /* client context numbers, PMDA_FETCH_* */
#define PMDA_INTERFACE_6 6 /* client attributes */
#define PMDA_INTERFACE_7 7 /* labels */
#define PMDA_INTERFACE_LATEST 7

/* How an agent is connected (pmdaExt.e_io); a local context uses none. */
typedef enum { pmdaPipe, pmdaInet, pmdaUnix, pmdaUnknown, pmdaIPv6 } pmdaIoType;

/* One instance of an instance domain table. */
typedef struct pmdaInstid {
    int i_inst;    /* internal identifier */
    char *i_name;  /* external name */
} pmdaInstid;

/* An instance domain; it_indom holds the serial number until pmdaInit
 * writes the agent's domain in. */
typedef struct pmdaIndom {
    pmInDom it_indom;
    int it_numinst;
    pmdaInstid *it_set;
} pmdaIndom;

/* A metric; m_desc.indom holds an instance domain serial (or
 * PM_INDOM_NULL) until pmdaInit. m_user is the agent's own. */
typedef struct pmdaMetric {
    void *m_user;
    pmDesc m_desc;
} pmdaMetric;

/* Fetch callback: the value of one instance of one metric.
 * < 0: error (PM_ERR_PMID, PM_ERR_INST, PM_ERR_AGAIN, ...);
 * PMDA_FETCH_NOVALUES: no value now;
 * PMDA_FETCH_STATIC: a value, any pointer in *av stays the agent's;
 * PMDA_FETCH_DYNAMIC: a value whose av->cp or av->vbp the library frees.
 * Before PMDA_INTERFACE_3 any value >= 0 is a value. */
typedef int (*pmdaFetchCallBack)(pmdaMetric *, unsigned int, pmAtomValue *);
#define PMDA_FETCH_NOVALUES 0
#define PMDA_FETCH_STATIC 1
#define PMDA_FETCH_DYNAMIC 2

typedef void (*pmdaResultCallBack)(pmResult *);
typedef int (*pmdaCheckCallBack)(void);
typedef void (*pmdaDoneCallBack)(void);
typedef void (*pmdaEndContextCallBack)(int);
/* Label callback: the labels of one instance; returns their number. */
typedef int (*pmdaLabelCallBack)(pmInDom, unsigned int, pmLabelSet **);

/* What the library keeps for an agent, passed to every handler. */
typedef struct pmdaExt {
    unsigned int e_flags;   /* PMDA_EXT_* */
    void *e_ext;            /* the library's own state */
    char *e_sockname;
    const char *e_name;     /* the agent's name */
    const char *e_logfile;
    const char *e_helptext; /* help text path */
    int e_status;
    int e_infd;
    int e_outfd;
    int e_port;
    int e_singular;
    int e_ordinal;
    int e_direct;           /* 1: PMIDs map directly onto e_metrics */
    int e_domain;
    int e_nmetrics;
    int e_nindoms;
    int e_help;             /* help text handle, < 0 for none */
    pmProfile *e_prof;      /* the last profile received */
    pmdaIoType e_io;
    pmdaIndom *e_indoms;
    pmdaIndom *e_idp;       /* the indom of the metric being fetched */
    pmdaMetric *e_metrics;
    pmdaResultCallBack e_resultCallBack;
    pmdaFetchCallBack e_fetchCallBack;
    pmdaCheckCallBack e_checkCallBack;
    pmdaDoneCallBack e_doneCallBack;
    /* PMDA_INTERFACE_5 */
    int e_context;
    pmdaEndContextCallBack e_endCallBack;
    /* PMDA_INTERFACE_7 */
    pmdaLabelCallBack e_labelCallBack;
} pmdaExt;

/* pmdaExt.e_flags bits. */
#define PMDA_EXT_FLAG_DIRECT (1 << 0)  /* ask for direct PMID mapping */
#define PMDA_EXT_FLAG_HASHED (1 << 1)  /* ask for hashed PMID lookup */
#define PMDA_EXT_SETUPDONE (1 << 2)    /* pmdaDSO has run */
#define PMDA_EXT_CONNECTED (1 << 3)
#define PMDA_EXT_NOTREADY (1 << 4)
#define PMDA_EXT_LABEL_CHANGE (1 << 5) /* labels changed: tell clients */
#define PMDA_EXT_NAMES_CHANGE (1 << 6) /* names changed: tell clients */

#if defined(__GNUC__)
#define __PMDA_INIT_CALL __attribute__((visibility("default")))
#else
#define __PMDA_INIT_CALL
#endif
#define PMDA_CALL

/* The request handlers common to every interface version. */
#define __PMDA_HANDLERS_2                                        \
    pmdaExt *ext;                                                \
    int (*profile)(pmProfile *, pmdaExt *);                      \
    int (*fetch)(int, pmID *, pmResult **, pmdaExt *);           \
    int (*desc)(pmID, pmDesc *, pmdaExt *);                      \
    int (*instance)(pmInDom, int, char *, pmInResult **, pmdaExt *); \
    int (*text)(int, int, char **, pmdaExt *);                   \
    int (*store)(pmResult *, pmdaExt *);
#define __PMDA_HANDLERS_4                                        \
    __PMDA_HANDLERS_2                                            \
    int (*pmid)(const char *, pmID *, pmdaExt *);                \
    int (*name)(pmID, char ***, pmdaExt *);                      \
    int (*children)(const char *, int, char ***, int **, pmdaExt *);
#define __PMDA_HANDLERS_6                                        \
    __PMDA_HANDLERS_4                                            \
    int (*attribute)(int, int, const char *, int, pmdaExt *);

/* The agent's side of the host's calls: its domain, versions and status,
 * and the handler table of its interface version. */
typedef struct pmdaInterface {
    int domain;
    struct {
        unsigned int pmda_interface : 8; /* PMDA_INTERFACE_* */
        unsigned int pmapi_version : 8;  /* PMAPI_VERSION_* */
        unsigned int flags : 16;         /* PMDA_FLAG_* */
    } comm;
    int status; /* set by the agent's init: 0, or why it failed */
    union {
        struct { __PMDA_HANDLERS_2 } any, two, three;
        struct { __PMDA_HANDLERS_4 } four, five;
        struct { __PMDA_HANDLERS_6 } six;
        struct {
            __PMDA_HANDLERS_6
            int (*label)(int, int, pmLabelSet **, pmdaExt *);
        } seven;
    } version;
} pmdaInterface;
#undef __PMDA_HANDLERS_2
#undef __PMDA_HANDLERS_4
#undef __PMDA_HANDLERS_6

/* pmdaInterface.comm.flags bits. */
#define PMDA_FLAG_AUTHORIZE (1 << 2)
#define PMDA_FLAG_CONTAINER (1 << 6)

/* Client attributes (the attribute handler's second argument). */
#define PMDA_ATTR_USERNAME 5
#define PMDA_ATTR_USERID 11
#define PMDA_ATTR_GROUPID 12
#define PMDA_ATTR_PROCESSID 14
#define PMDA_ATTR_CONTAINER 15

/* A PMID without its domain (pmdaInit adds the domain). */
#define PMDA_PMID(cluster, item) ((((cluster) & 0xfff) << 10) | ((item) & 0x3ff))

/* pmUnits initialiser in field order: dimension of space, time, count,
 * then the scales of space, time, count. */
#if defined(HAVE_BITFIELDS_LTOR) || defined(PM_BITFIELDS_LTOR)
#define PMDA_PMUNITS(a, b, c, d, e, f) {a, b, c, d, e, f, 0}
#else
#define PMDA_PMUNITS(a, b, c, d, e, f) {0, f, e, d, c, b, a}
#endif

/* ---- setting up ---- */

/* Fills the interface for a shared-object agent: the interface version,
 * the agent's name, the help text path (NULL: none) and the library's
 * default handlers. dp->status is PM_ERR_GENERIC for an unsupported
 * version. */
PMDA_CALL extern void pmdaDSO(pmdaInterface *, int, char *, char *);
/* Finishes set-up: writes the domain into the tables, opens the help
 * text, chooses the PMID lookup (direct, linear or hashed). */
PMDA_CALL extern void pmdaInit(pmdaInterface *, pmdaIndom *, int, pmdaMetric *, int);
/* Replaces the metric table (taken as it is: the PMIDs must carry the
 * domain) and rebuilds the lookup. */
PMDA_CALL extern void pmdaRehash(pmdaExt *, pmdaMetric *, int);

PMDA_CALL extern void *pmdaExtGetData(pmdaExt *);
PMDA_CALL extern void pmdaExtSetData(pmdaExt *, void *);
PMDA_CALL extern void pmdaSetData(pmdaInterface *, void *);
PMDA_CALL extern void pmdaExtSetFlags(pmdaExt *, int);
PMDA_CALL extern void pmdaSetFlags(pmdaInterface *, int);
PMDA_CALL extern void pmdaSetCommFlags(pmdaInterface *, int);

PMDA_CALL extern void pmdaSetResultCallBack(pmdaInterface *, pmdaResultCallBack);
PMDA_CALL extern void pmdaSetFetchCallBack(pmdaInterface *, pmdaFetchCallBack);
PMDA_CALL extern void pmdaSetCheckCallBack(pmdaInterface *, pmdaCheckCallBack);
PMDA_CALL extern void pmdaSetDoneCallBack(pmdaInterface *, pmdaDoneCallBack);
PMDA_CALL extern void pmdaSetEndContextCallBack(pmdaInterface *, pmdaEndContextCallBack);
PMDA_CALL extern void pmdaSetLabelCallBack(pmdaInterface *, pmdaLabelCallBack);

/* The client context of the request being answered (interface 5 on). */
PMDA_CALL extern int pmdaGetContext(void);

/* ---- daemon agents ---- */

/* Command line options every daemon agent takes (getopt form), and the
 * pmLongOptions entries describing them. */
#define PMDA_OPTIONS "D:d:h:i:l:pu:U:"
#define PMDA_OPTIONS_HEADER(s) { "", 0, '-', 0, (s) }
#define PMDA_OPTIONS_TEXT(s) { "", 0, '|', 0, (s) }
#define PMDA_OPTIONS_END { NULL, 0, 0, 0, NULL }
#define PMDAOPT_DEBUG { "debug", 1, 'D', "DBG", NULL }
#define PMDAOPT_DOMAIN { "domain", 1, 'd', "NUM", "use domain (numeric) for metrics domain of PMDA" }
#define PMDAOPT_HELPTEXT { "helpfile", 1, 'h', "FILE", "path to PMDA metrics help text file" }
#define PMDAOPT_INET { "inet", 1, 'i', "PORT", "pmcd IPv4 connection service name or numeric port" }
#define PMDAOPT_IPV6 { "ipv6", 1, '6', "PORT", "pmcd IPv6 connection service name or numeric port" }
#define PMDAOPT_LOGFILE { "log", 1, 'l', "FILE", "write log to FILE rather than using default log name" }
#define PMDAOPT_PIPE { "pipe", 0, 'p', 0, "use a pipe for communication with pmcd" }
#define PMDAOPT_UNIX { "unix", 1, 'u', "FILE", "use a unix domain socket for communication with pmcd" }
#define PMDAOPT_USERNAME { "username", 1, 'U', "USER", "run the PMDA using the named user account" }

struct pmdaOptions;
#define __pmdaOptions pmdaOptions
typedef int (*pmdaOptionOverride)(int, struct pmdaOptions *);

/* The parser state and results of pmdaGetOptions. Its first members are
 * those of pmOptions, so pmgetopt_r's state carries over. */
typedef struct pmdaOptions {
    int version;
    int flags;                  /* PM_OPTFLAG_* */
    const char *short_options;
    pmLongOptions *long_options;
    const char *short_usage;
    pmdaOptionOverride override; /* non-zero: hand this option back */
    /* getopt state, read by the caller */
    int index;
    int optind;
    int opterr;
    int optopt;
    char *optarg;
    /* private to the parser */
    int __initialized;
    char *__nextchar;
    int __ordering;
    int __posixly_correct;
    int __first_nonopt;
    int __last_nonopt;
    /* results */
    int errors;
    char *username;             /* -U */
} pmdaOptions;

/* Returns the next option that is not one of the standard agent options
 * (those set the interface: -d domain, -D debug, -h help file, -l log,
 * -p/-i/-6/-u the connection, -U user), or EOF. Errors are counted in
 * opts->errors and described through pmprintf. */
PMDA_CALL extern int pmdaGetOptions(int, char *const *, pmdaOptions *, pmdaInterface *);
/* The older form: short options only, POSIX order, -U handed back; adds
 * its errors to *err. */
PMDA_CALL extern int pmdaGetOpt(int, char *const *, const char *, pmdaInterface *, int *);
PMDA_CALL extern void pmdaUsageMessage(pmdaOptions *);

/* Fills the interface for a daemon agent, as pmdaDSO does, with its
 * domain and the default log file name. */
PMDA_CALL extern void pmdaDaemon(pmdaInterface *, int, const char *, int, const char *, const char *);
/* Sends the agent's diagnostics (stderr) to its log file. */
PMDA_CALL extern void pmdaOpenLog(pmdaInterface *);
/* Connects to pmcd by the chosen means (pipe by default; socket agents
 * listen and accept pmcd's connection) and exchanges versions with it. */
PMDA_CALL extern void pmdaConnect(pmdaInterface *);
/* Answers pmcd's requests until the connection closes. */
PMDA_CALL extern void pmdaMain(pmdaInterface *);
/* Answers one request; < 0 when the loop should end. */
PMDA_CALL extern int __pmdaMainPDU(pmdaInterface *);
/* The descriptor requests arrive on (for an agent's own select loop). */
PMDA_CALL extern int __pmdaInFd(pmdaInterface *);
/* Sends pmcd an ERROR PDU, such as PM_ERR_PMDAREADY or
 * PM_ERR_PMDANOTREADY. */
PMDA_CALL extern void pmdaSendError(pmdaInterface *, int);
/* Tells the library the pmdaInterface was copied to a new address. */
PMDA_CALL extern void pmdaInterfaceMoved(pmdaInterface *);

/* ---- the library's default handlers ---- */

PMDA_CALL extern int pmdaProfile(pmProfile *, pmdaExt *);
PMDA_CALL extern int pmdaFetch(int, pmID *, pmResult **, pmdaExt *);
PMDA_CALL extern int pmdaInstance(pmInDom, int, char *, pmInResult **, pmdaExt *);
PMDA_CALL extern int pmdaDesc(pmID, pmDesc *, pmdaExt *);
PMDA_CALL extern int pmdaText(int, int, char **, pmdaExt *);
PMDA_CALL extern int pmdaStore(pmResult *, pmdaExt *);
PMDA_CALL extern int pmdaPMID(const char *, pmID *, pmdaExt *);
PMDA_CALL extern int pmdaName(pmID, char ***, pmdaExt *);
PMDA_CALL extern int pmdaChildren(const char *, int, char ***, int **, pmdaExt *);
PMDA_CALL extern int pmdaAttribute(int, int, const char *, int, pmdaExt *);
PMDA_CALL extern int pmdaLabel(int, int, pmLabelSet **, pmdaExt *);

/* Help text by handle: open a help source file, look text up by PMID or
 * indom and PM_TEXT_ONELINE/PM_TEXT_HELP, close. */
PMDA_CALL extern int pmdaOpenHelp(const char *);
PMDA_CALL extern void pmdaCloseHelp(int);
PMDA_CALL extern char *pmdaGetHelp(int, pmID, int);
PMDA_CALL extern char *pmdaGetInDomHelp(int, pmInDom, int);

/* Label sets: add the pairs of a printf-formatted JSON object to *sets
 * (creating the set); pmdaAddNotes adds them as optional labels. Both
 * return the number of labels in the set, or < 0. */
PMDA_CALL extern int pmdaAddLabels(pmLabelSet **, const char *, ...) __PM_PRINTFLIKE(2, 3);
PMDA_CALL extern int pmdaAddNotes(pmLabelSet **, const char *, ...) __PM_PRINTFLIKE(2, 3);
PMDA_CALL extern int pmdaAddLabelFlags(pmLabelSet *, int);

/* ---- instance domain caches (pmdaCache) ---- */

PMDA_CALL extern int pmdaCacheStore(pmInDom, int, const char *, void *);
PMDA_CALL extern int pmdaCacheStoreKey(pmInDom, int, const char *, int, const void *, void *);
PMDA_CALL extern int pmdaCacheLookup(pmInDom, int, char **, void **);
PMDA_CALL extern int pmdaCacheLookupName(pmInDom, const char *, int *, void **);
PMDA_CALL extern int pmdaCacheLookupKey(pmInDom, const char *, int, const void *, char **, int *, void **);
PMDA_CALL extern int pmdaCacheOp(pmInDom, int);
PMDA_CALL extern int pmdaCachePurge(pmInDom, time_t);
PMDA_CALL extern int pmdaCachePurgeCallback(pmInDom, time_t, void (*)(void *));
PMDA_CALL extern int pmdaCacheResize(pmInDom, int);

#define PMDA_CACHE_LOAD 1
#define PMDA_CACHE_ADD 2
#define PMDA_CACHE_HIDE 3
#define PMDA_CACHE_CULL 4
#define PMDA_CACHE_EMPTY 5
#define PMDA_CACHE_SAVE 6
#define PMDA_CACHE_STRINGS 7
#define PMDA_CACHE_ACTIVE 8
#define PMDA_CACHE_INACTIVE 9
#define PMDA_CACHE_SIZE 10
#define PMDA_CACHE_SIZE_ACTIVE 11
#define PMDA_CACHE_SIZE_INACTIVE 12
#define PMDA_CACHE_REUSE 13
#define PMDA_CACHE_WALK_REWIND 14
#define PMDA_CACHE_WALK_NEXT 15
#define PMDA_CACHE_CHECK 16
#define PMDA_CACHE_REORG 17
#define PMDA_CACHE_SYNC 18
#define PMDA_CACHE_DUMP 19
#define PMDA_CACHE_DUMP_ALL 20

/* Writes the PMDA_CACHE_DUMP text of one cache to a stream (with the
 * hash chains, as PMDA_CACHE_DUMP_ALL, when the last argument is not 0). */
PMDA_CALL extern void __pmdaCacheDump(FILE *, pmInDom, int);

/* ---- event record arrays (pmdaEvent) ---- */

PMDA_CALL extern int pmdaEventNewArray(void);
PMDA_CALL extern int pmdaEventResetArray(int);
PMDA_CALL extern int pmdaEventReleaseArray(int);
PMDA_CALL extern int pmdaEventAddRecord(int, struct timeval *, int);
PMDA_CALL extern int pmdaEventAddMissedRecord(int, struct timeval *, int);
PMDA_CALL extern int pmdaEventAddParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmEventArray *pmdaEventGetAddr(int);

PMDA_CALL extern int pmdaEventNewHighResArray(void);
PMDA_CALL extern int pmdaEventResetHighResArray(int);
PMDA_CALL extern int pmdaEventReleaseHighResArray(int);
PMDA_CALL extern int pmdaEventAddHighResRecord(int, struct timespec *, int);
PMDA_CALL extern int pmdaEventAddHighResMissedRecord(int, struct timespec *, int);
PMDA_CALL extern int pmdaEventAddHighResParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmHighResEventArray *pmdaEventGetHighResAddr(int);
PMDA_CALL extern int pmdaEventHighResAddParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmHighResEventArray *pmdaEventHighResGetAddr(int);

/* ---- event queues and their clients ---- */

/* A named queue of opaque events holding at most the given bytes (the
 * oldest are dropped for new ones); returns its handle, -EEXIST for a name
 * in use, -EINVAL. The active form starts with a number of clients. */
PMDA_CALL extern int pmdaEventNewQueue(const char *, size_t);
PMDA_CALL extern int pmdaEventNewActiveQueue(const char *, size_t, unsigned int);
/* Releases a queue now, or when its last client goes. */
PMDA_CALL extern int pmdaEventQueueShutdown(int);
/* Returns the handle of a queue by name, or -ESRCH. */
PMDA_CALL extern int pmdaEventQueueHandle(const char *);
/* Appends a copy of an event with its time. */
PMDA_CALL extern int pmdaEventQueueAppend(int, void *, size_t, struct timeval *);
/* A queue's statistics as fetch callback values: its clients (ul),
 * events appended (ul), bytes appended (ull), bytes queued (ull). */
PMDA_CALL extern int pmdaEventQueueClients(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueCounter(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueBytes(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueMemory(int, pmAtomValue *);

/* Turns one queued event into records of the event array (the first
 * argument); returns the number of records added, or < 0. */
typedef int (*pmdaEventDecodeCallBack)(int, void *, size_t, struct timeval *, void *);
/* The events a client context has not yet seen, as the event array value
 * in atom->vbp: PMDA_FETCH_STATIC, PMDA_FETCH_NOVALUES or < 0. */
PMDA_CALL extern int pmdaEventQueueRecords(int, pmAtomValue *, int, pmdaEventDecodeCallBack, void *);

/* Client contexts: begin (returns its slot), end (drops its filters and
 * its hold on queued events), count (ul). */
PMDA_CALL extern int pmdaEventNewClient(int);
PMDA_CALL extern int pmdaEventEndClient(int);
PMDA_CALL extern int pmdaEventClients(pmAtomValue *);

/* A client's filter for a queue: non-zero from apply hides an event;
 * release frees the filter data. Setting a filter grants access. */
typedef int (*pmdaEventApplyFilterCallBack)(void *, void *, size_t);
typedef void (*pmdaEventReleaseFilterCallBack)(void *);
PMDA_CALL extern int pmdaEventSetFilter(int, int, void *, pmdaEventApplyFilterCallBack,
                                        pmdaEventReleaseFilterCallBack);
/* Grants (non-zero) or denies a client context the events of a queue. */
PMDA_CALL extern int pmdaEventSetAccess(int, int, int);
/* An event's first bytes as printable text, for a log line. */
PMDA_CALL extern char *__pmdaEventPrint(const char *, int, char *, int);

/* ---- name trees for dynamic metrics ---- */

typedef struct __pmnsTree pmdaNameSpace;

/* Makes an empty tree, adds a name, releases the tree. */
PMDA_CALL extern int pmdaTreeCreate(pmdaNameSpace **);
PMDA_CALL extern int pmdaTreeInsert(pmdaNameSpace *, pmID, const char *);
PMDA_CALL extern void pmdaTreeRelease(pmdaNameSpace *);
/* Indexes the tree by PMID (needed before pmdaTreeName); the number is a
 * size hint. */
PMDA_CALL extern void pmdaTreeRebuildHash(pmdaNameSpace *, int);
/* The number of metric names in the tree. */
PMDA_CALL extern int pmdaTreeSize(pmdaNameSpace *);
/* The name handlers' work over a tree: a name's PMID, a PMID's names, a
 * node's children (with status) or, traversing, every metric below it. */
PMDA_CALL extern int pmdaTreePMID(pmdaNameSpace *, const char *, pmID *);
PMDA_CALL extern int pmdaTreeName(pmdaNameSpace *, pmID, char ***);
PMDA_CALL extern int pmdaTreeChildren(pmdaNameSpace *, const char *, int, char ***, int **);

/* ---- metrics that come and go (dynamic name space parts) ---- */

/* The callbacks of one dynamic part: refresh its name tree (returns
 * non-zero when it changed), its help text, copy a template metric into a
 * new table slot for tree N (from 1), count the templates and trees. */
typedef int (*pmdaUpdatePMNS)(pmdaExt *, pmdaNameSpace **);
typedef int (*pmdaUpdateText)(pmdaExt *, pmID, int, char **);
typedef void (*pmdaUpdateMetric)(pmdaMetric *, pmdaMetric *, int);
typedef void (*pmdaCountMetrics)(int *, int *);
/* Registers a part below a name prefix, with the fixed metric table the
 * templates come from: for one agent, or for the whole process. */
PMDA_CALL extern void pmdaExtDynamicPMNS(const char *, int *, int, pmdaUpdatePMNS, pmdaUpdateText,
                                         pmdaUpdateMetric, pmdaCountMetrics, pmdaMetric *, int,
                                         pmdaExt *);
PMDA_CALL extern void pmdaDynamicPMNS(const char *, int *, int, pmdaUpdatePMNS, pmdaUpdateText,
                                      pmdaUpdateMetric, pmdaCountMetrics, pmdaMetric *, int);
PMDA_CALL extern int pmdaDynamicSetClusterMask(const char *, unsigned int);
/* The tree holding a name or a PMID (after refreshing every part), or
 * NULL; the help text of a dynamic metric (-ENOENT when none has it). */
PMDA_CALL extern pmdaNameSpace *pmdaDynamicLookupName(pmdaExt *, const char *);
PMDA_CALL extern pmdaNameSpace *pmdaDynamicLookupPMID(pmdaExt *, pmID);
PMDA_CALL extern int pmdaDynamicLookupText(pmID, int, char **, pmdaExt *);
/* Rebuilds the agent's metric table: the fixed metrics, then for each
 * part every template metric present in its tree, once per tree. */
PMDA_CALL extern void pmdaDynamicMetricTable(pmdaExt *);

/*
 * The client of PCP's pmdaroot (privileged services for agents): a
 * connection to its unix socket (the path given, or
 * $PCP_VAR_DIR/pmcd/root.socket), container lookups by name (or, with a
 * null name, by the process ID given as the length), and agent processes
 * started, waited for and terminated on the caller's behalf.
 */
PMDA_CALL extern int pmdaRootConnect(const char *);
PMDA_CALL extern void pmdaRootShutdown(int);
PMDA_CALL extern int pmdaRootContainerHostName(int, const char *, int, char *, int);
PMDA_CALL extern int pmdaRootContainerProcessID(int, const char *, int);
PMDA_CALL extern int pmdaRootContainerCGroupName(int, const char *, int, char *, int);
PMDA_CALL extern int pmdaRootProcessStart(int, int, const char *, int labellen,
                                          const char *, int, int *, int *, int *);
PMDA_CALL extern int pmdaRootProcessWait(int, int, int *);
PMDA_CALL extern int pmdaRootProcessTerminate(int, int);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMDA_H */
