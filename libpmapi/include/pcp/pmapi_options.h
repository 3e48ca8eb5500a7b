/*
 * <pcp/pmapi_options.h>: command-line options for tools, a part of <pcp/pmapi.h>.
 *
 * The pmOptions table and pmGetOptions(3) family that PCP tools share.
 */
#ifndef PCP_PMAPI_OPTIONS_H
#define PCP_PMAPI_OPTIONS_H

#ifndef PCP_PMAPI_H
#error "include <pcp/pmapi.h>, which includes this part where it belongs"
#endif

/* =====================================================================
 * Command-line options for tools
 * ===================================================================== */

/* The short options every PMAPI tool accepts. */
#define PMAPI_OPTIONS "A:a:D:gh:n:O:p:S:s:T:t:VZ:z?"

/* Entries of a pmLongOptions table: a section header, free text, the end. */
#define PMAPI_OPTIONS_HEADER(s) { "", 0, '-', 0, (s) }
#define PMAPI_OPTIONS_TEXT(s)   { "", 0, '|', 0, (s) }
#define PMAPI_OPTIONS_END       { NULL, 0, 0, 0, NULL }

#define PMLONGOPT_ALIGN        "align"
#define PMLONGOPT_ARCHIVE      "archive"
#define PMLONGOPT_DEBUG        "debug"
#define PMLONGOPT_GUIMODE      "guimode"
#define PMLONGOPT_HOST         "host"
#define PMLONGOPT_HOSTSFILE    "hostsfile"
#define PMLONGOPT_SPECLOCAL    "spec-local"
#define PMLONGOPT_LOCALPMDA    "local-PMDA"
#define PMLONGOPT_NAMESPACE    "namespace"
#define PMLONGOPT_UNIQNAMES    "uniqnames"
#define PMLONGOPT_ORIGIN       "origin"
#define PMLONGOPT_GUIPORT      "guiport"
#define PMLONGOPT_START        "start"
#define PMLONGOPT_SAMPLES      "samples"
#define PMLONGOPT_FINISH       "finish"
#define PMLONGOPT_INTERVAL     "interval"
#define PMLONGOPT_VERSION      "version"
#define PMLONGOPT_TIMEZONE     "timezone"
#define PMLONGOPT_HOSTZONE     "hostzone"
#define PMLONGOPT_HELP         "help"
#define PMLONGOPT_ARCHIVE_LIST "archive-list"
#define PMLONGOPT_ARCHIVE_FOLIO "archive-folio"
#define PMLONGOPT_HOST_LIST    "host-list"
#define PMLONGOPT_CONTAINER    "container"
#define PMLONGOPT_DERIVED      "derived"

/* { long name, takes an argument, short letter, argument name, help } */
#define PMOPT_ALIGN     { PMLONGOPT_ALIGN, 1, 'A', "TIME", "align sample times on natural boundaries" }
#define PMOPT_ARCHIVE   { PMLONGOPT_ARCHIVE, 1, 'a', "FILE", "metrics source is a PCP log archive" }
#define PMOPT_DEBUG     { PMLONGOPT_DEBUG, 1, 'D', "DBG", NULL }
#define PMOPT_GUIMODE   { PMLONGOPT_GUIMODE, 0, 'g', 0, "start in GUI mode with new time control" }
#define PMOPT_HOST      { PMLONGOPT_HOST, 1, 'h', "HOST", "metrics source is PMCD on host" }
#define PMOPT_HOSTSFILE { PMLONGOPT_HOSTSFILE, 1, 'H', "FILE", "read metric source hosts from a file" }
#define PMOPT_SPECLOCAL \
  { PMLONGOPT_SPECLOCAL, 1, 'K', "SPEC", "optional additional PMDA spec for local connection" }
#define PMOPT_LOCALPMDA \
  { PMLONGOPT_LOCALPMDA, 0, 'L', 0, "metrics source is local connection to a PMDA" }
#define PMOPT_NAMESPACE { PMLONGOPT_NAMESPACE, 1, 'n', "FILE", "use an alternative PMNS" }
#define PMOPT_UNIQNAMES \
  { PMLONGOPT_UNIQNAMES, 1, 'N', "FILE", "like -n but only one name allowed for each PMID" }
#define PMOPT_ORIGIN \
  { PMLONGOPT_ORIGIN, 1, 'O', "TIME", "initial sample time within the time window" }
#define PMOPT_GUIPORT \
  { PMLONGOPT_GUIPORT, 1, 'p', "N", "port for connection to existing time control" }
#define PMOPT_START    { PMLONGOPT_START, 1, 'S', "TIME", "start of the time window" }
#define PMOPT_SAMPLES  { PMLONGOPT_SAMPLES, 1, 's', "N", "terminate after this many samples" }
#define PMOPT_FINISH   { PMLONGOPT_FINISH, 1, 'T', "TIME", "end of the time window" }
#define PMOPT_INTERVAL { PMLONGOPT_INTERVAL, 1, 't', "DELTA", "sampling interval" }
#define PMOPT_VERSION  { PMLONGOPT_VERSION, 0, 'V', 0, "display version number and exit" }
#define PMOPT_TIMEZONE { PMLONGOPT_TIMEZONE, 1, 'Z', "TZ", "set reporting timezone" }
#define PMOPT_HOSTZONE \
  { PMLONGOPT_HOSTZONE, 0, 'z', 0, "set reporting timezone to local time of metrics source" }
#define PMOPT_HELP { PMLONGOPT_HELP, 0, '?', 0, "show this usage message and exit" }
#define PMOPT_ARCHIVE_LIST \
  { PMLONGOPT_ARCHIVE_LIST, 1, 0, "FILES", "comma-separated list of metric source archives" }
#define PMOPT_ARCHIVE_FOLIO \
  { PMLONGOPT_ARCHIVE_FOLIO, 1, 0, "FILE", "read metric source archives from a folio" }
#define PMOPT_HOST_LIST \
  { PMLONGOPT_HOST_LIST, 1, 0, "HOSTS", "comma-separated list of metric source hosts" }
#define PMOPT_CONTAINER \
  { PMLONGOPT_CONTAINER, 1, 0, "NAME", "specify an individual container to be queried" }
#define PMOPT_DERIVED \
  { PMLONGOPT_DERIVED, 1, 0, "FILE", "load derived metric definitions from FILE(s)" }

#define PMAPI_GENERAL_OPTIONS                                                              \
  PMAPI_OPTIONS_HEADER("General options"), PMOPT_ALIGN, PMOPT_ARCHIVE, PMOPT_DEBUG,        \
      PMOPT_GUIMODE, PMOPT_HOST, PMOPT_NAMESPACE, PMOPT_ORIGIN, PMOPT_GUIPORT, PMOPT_START, \
      PMOPT_SAMPLES, PMOPT_FINISH, PMOPT_INTERVAL, PMOPT_TIMEZONE, PMOPT_HOSTZONE,         \
      PMOPT_VERSION, PMOPT_HELP

/* pmOptions.flags */
#define PM_OPTFLAG_INIT        (1 << 0)
#define PM_OPTFLAG_DONE        (1 << 1)
#define PM_OPTFLAG_MULTI       (1 << 2)
#define PM_OPTFLAG_USAGE_ERR   (1 << 3)
#define PM_OPTFLAG_RUNTIME_ERR (1 << 4)
#define PM_OPTFLAG_EXIT        (1 << 5)
#define PM_OPTFLAG_POSIX       (1 << 6)
#define PM_OPTFLAG_MIXED       (1 << 7)
#define PM_OPTFLAG_ENV_ONLY    (1 << 8)
#define PM_OPTFLAG_LONG_ONLY   (1 << 9)
#define PM_OPTFLAG_BOUNDARIES  (1 << 10)
#define PM_OPTFLAG_STDOUT_TZ   (1 << 11)
#define PM_OPTFLAG_NOFLUSH     (1 << 12)
#define PM_OPTFLAG_QUIET       (1 << 13)

struct pmOptions;
typedef int (*pmOptionOverride)(int opt, struct pmOptions *opts);

typedef struct pmLongOptions {
  const char *long_opt;
  int has_arg;
  int short_opt;
  const char *argname;
  const char *message;
} pmLongOptions;

typedef struct pmOptions {
  int version;
  int flags;
  /* set by the caller */
  const char *short_options;
  pmLongOptions *long_options;
  const char *short_usage;
  pmOptionOverride override;
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
  int context; /* PM_CONTEXT_HOST, _ARCHIVE or _LOCAL, 0 if none given */
  int nhosts;
  int narchives;
  char **hosts;
  char **archives;
#if PMAPI_VERSION == PMAPI_VERSION_3
  struct timeval unused[4];
#else
  struct timeval start;
  struct timeval finish;
  struct timeval origin;
  struct timeval interval;
#endif
  char *align_optarg;
  char *start_optarg;
  char *finish_optarg;
  char *origin_optarg;
  char *guiport_optarg;
  char *timezone;
  int samples;
  int guiport;
  int padding;
  unsigned int guiflag : 1;
  unsigned int tzflag : 1;
  unsigned int nsflag : 1;
  unsigned int Lflag : 1;
  unsigned int zeroes : 28;
#if PMAPI_VERSION == PMAPI_VERSION_3
  struct timespec start;
  struct timespec finish;
  struct timespec origin;
  struct timespec interval;
#endif
} pmOptions;

PCP_CALL extern int pmgetopt_r(int argc, char *const *argv, pmOptions *opts);
PCP_CALL extern int pmGetOptions(int argc, char *const *argv, pmOptions *opts);
PCP_CALL extern int pmGetContextOptions(int ctx, pmOptions *opts);
PCP_CALL extern void pmUsageMessage(pmOptions *opts);
PCP_CALL extern void pmFreeOptions(pmOptions *opts);

#endif /* PCP_PMAPI_OPTIONS_H */
