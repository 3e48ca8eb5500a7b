/* demo: a small performance metrics domain agent (PMDA), written against
 * <pcp/pmda.h>. One source builds both forms an agent takes:
 *
 *   - a shared object, pmda_demo.so, whose init function demo_init a
 *     local context (PM_CONTEXT_LOCAL, pminfo -L) calls when it loads the
 *     agent in-process; the local configuration names it, in pmcd.conf's
 *     form:
 *         demo  252  dso  demo_init  /path/to/pmda_demo.so  pmns=/path/to/root_demo
 *     (or on the command line: pminfo -L -K add,252,/path/to/pmda_demo.so,demo_init)
 *   - a program, pmdademo, that pmcd starts and talks to over a pipe
 *     (main below); in pmcd.conf:
 *         demo  252  pipe  binary  /path/to/pmdademo -d 252
 *
 * Its metrics (names in root_demo, help text in help):
 *   demo.greeting       string   "Hello, world!"
 *   demo.fetches        counter  fetch requests this agent has answered
 *   demo.fruit.stock    instant  one value per fruit: apple 12, banana 7, cherry 30
 *
 * The help text is read from $PCP_PMDAS_DIR/demo/help (the daemon's -h
 * names another file).
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define DEMO_DOMAIN 252 /* the daemon's default; a free slot in PCP's list */
#define FRUIT_INDOM 0   /* instance domain serial numbers */

static int isDSO = 1;
static unsigned long long nfetches;
static char greeting[] = "Hello, world!";
static char helppath[MAXPATHLEN];

/* The fruit instance domain, and one value per instance. */
static pmdaInstid fruits[] = {{0, "apple"}, {1, "banana"}, {2, "cherry"}};
static unsigned int stock[] = {12, 7, 30};
static pmdaIndom indoms[] = {{FRUIT_INDOM, 3, fruits}};

/* The metrics: cluster 0 for the agent itself, 1 for the fruit. pmdaInit
 * adds the domain to every PMID and instance domain. */
static pmdaMetric metrics[] = {
  {NULL, {PMDA_PMID(0, 0), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE,
          PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},                             /* demo.greeting */
  {NULL, {PMDA_PMID(0, 1), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER,
          PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},                  /* demo.fetches */
  {NULL, {PMDA_PMID(1, 0), PM_TYPE_U32, FRUIT_INDOM, PM_SEM_INSTANT,
          PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},                  /* demo.fruit.stock */
};

/* A fetch request: counted, then answered by pmdaFetch, which calls
 * demo_value for each metric and instance asked for. */
static int demo_fetch(int numpmid, pmID *pmids, pmResult **resp, pmdaExt *pmda) {
  nfetches++;
  return pmdaFetch(numpmid, pmids, resp, pmda);
}

/* One value: metric m, instance inst (PM_IN_NULL for a singular metric).
 * Returns > 0 for a value, 0 for none, or a PM_ERR_* code. */
static int demo_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom) {
  unsigned int cluster = pmID_cluster(m->m_desc.pmid), item = pmID_item(m->m_desc.pmid);
  if (cluster == 0) {
    if (inst != PM_IN_NULL) return PM_ERR_INST;
    if (item == 0)
      atom->cp = greeting; /* static: the library does not free it */
    else if (item == 1)
      atom->ull = nfetches;
    else
      return PM_ERR_PMID;
  } else if (cluster == 1 && item == 0) {
    if (inst >= sizeof stock / sizeof stock[0]) return PM_ERR_INST;
    atom->ul = stock[inst];
  } else {
    return PM_ERR_PMID;
  }
  return PMDA_FETCH_STATIC;
}

/* The init function: the local context calls it with the domain set; the
 * daemon calls it after pmdaDaemon. */
void demo_init(pmdaInterface *dp) {
  if (isDSO) {
    snprintf(helppath, sizeof helppath, "%s/demo/help", pmGetConfig("PCP_PMDAS_DIR"));
    pmdaDSO(dp, PMDA_INTERFACE_7, "demo DSO", helppath);
  }
  if (dp->status != 0) return;
  dp->version.seven.fetch = demo_fetch;
  pmdaSetFetchCallBack(dp, demo_value);
  pmdaInit(dp, indoms, sizeof indoms / sizeof indoms[0], metrics,
           sizeof metrics / sizeof metrics[0]);
}

static pmLongOptions longopts[] = {
  PMDA_OPTIONS_HEADER("Options"), PMDAOPT_DEBUG, PMDAOPT_DOMAIN, PMDAOPT_HELPTEXT,
  PMDAOPT_LOGFILE, PMOPT_HELP, PMDA_OPTIONS_END
};
static pmdaOptions opts = {.short_options = "D:d:h:l:?", .long_options = longopts};

/* The daemon: pmcd starts it with its pmcd.conf line's arguments and
 * talks to it over stdin and stdout. */
int main(int argc, char **argv) {
  pmdaInterface dispatch;

  isDSO = 0;
  pmSetProgname(argv[0]);
  snprintf(helppath, sizeof helppath, "%s/demo/help", pmGetConfig("PCP_PMDAS_DIR"));
  pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), DEMO_DOMAIN, "demo.log", helppath);
  /* The standard options (-d, -h, -l, -D) change the interface set up
   * above; this agent has no options of its own, so any other is an error. */
  while (pmdaGetOptions(argc, argv, &opts, &dispatch) != EOF)
    opts.errors++;
  if (opts.errors) {
    pmdaUsageMessage(&opts);
    exit(1);
  }
  pmdaOpenLog(&dispatch); /* stderr goes to the log file from here on */
  demo_init(&dispatch);
  pmdaConnect(&dispatch);
  pmdaMain(&dispatch);    /* until pmcd closes the pipe */
  exit(0);
}
