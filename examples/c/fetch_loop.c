/* fetch_loop: the heart of every live monitor: look the metrics up once,
 * then fetch them all together every INTERVAL, SAMPLES times, printing one
 * line per sample. The command line is parsed by pmGetOptions, the parser
 * PCP's own tools use, so -h, -L, -K, -s and -t mean what they mean there.
 *
 *   fetch_loop [-h HOST | -L [-K SPEC]] [-s SAMPLES] [-t INTERVAL] METRIC...
 *
 * With neither -h nor -L it asks the local pmcd ("local:"). Each line is
 * the sample's time (the source's clock, pmPrintStamp) followed by
 * "NAME=VALUE" per metric, its instances' values joined by commas, in
 * their order in the result. Counters are printed as fetched (cumulative);
 * see fetchgroup_rates.c for rates.
 *
 * Build: cc fetch_loop.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

static pmLongOptions longopts[] = {
  PMAPI_OPTIONS_HEADER("Options"),
  PMOPT_HOST, PMOPT_LOCALPMDA, PMOPT_SPECLOCAL, PMOPT_SAMPLES, PMOPT_INTERVAL, PMOPT_HELP,
  PMAPI_OPTIONS_END
};

static pmOptions opts = {
  .short_options = "h:LK:s:t:?",
  .long_options = longopts,
  .short_usage = "[options] metric...",
};

int main(int argc, char **argv) {
  int ctx, sts, n, samples = 5;
  struct timespec pause = {1, 0};

  /* The standard options are handled by pmGetOptions itself; any other
   * letter would come back here. */
  while (pmGetOptions(argc, argv, &opts) != EOF)
    opts.errors++;
  if (opts.errors || opts.optind >= argc) {
    pmUsageMessage(&opts);
    return 1;
  }
  if (opts.samples > 0) samples = opts.samples;
  if (opts.interval.tv_sec || opts.interval.tv_usec) {
    pause.tv_sec = opts.interval.tv_sec;
    pause.tv_nsec = opts.interval.tv_usec * 1000;
  }

  /* The source: -h HOST, -L (agents in this process), else the local pmcd. */
  if (opts.context == PM_CONTEXT_LOCAL)
    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
  else
    ctx = pmNewContext(PM_CONTEXT_HOST, opts.nhosts > 0 ? opts.hosts[0] : "local:");
  if (ctx < 0) {
    fprintf(stderr, "%s: cannot open the metrics source: %s\n", pmGetProgname(), pmErrStr(ctx));
    return 1;
  }

  /* Names to identifiers and descriptors, once, before the loop. */
  n = argc - opts.optind;
  const char **names = (const char **)argv + opts.optind;
  pmID *pmids = calloc((size_t)n, sizeof *pmids);
  pmDesc *descs = calloc((size_t)n, sizeof *descs);
  if ((sts = pmLookupName(n, names, pmids)) != n) {
    for (int i = 0; i < n; i++)
      if (sts < 0 || pmids[i] == PM_ID_NULL) fprintf(stderr, "%s: %s: unknown metric\n", pmGetProgname(), names[i]);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if ((sts = pmLookupDesc(pmids[i], &descs[i])) < 0) {
      fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), names[i], pmErrStr(sts));
      return 1;
    }
  }

  for (int s = 0; s < samples; s++) {
    pmResult *result;
    if (s > 0) nanosleep(&pause, NULL);
    if ((sts = pmFetch(n, pmids, &result)) < 0) {
      fprintf(stderr, "%s: pmFetch: %s\n", pmGetProgname(), pmErrStr(sts));
      return 1;
    }
    pmPrintStamp(stdout, &result->timestamp); /* HH:MM:SS.mmm */
    for (int i = 0; i < n; i++) {
      const pmValueSet *vs = result->vset[i];
      printf(" %s=", names[i]);
      if (vs->numval < 0) printf("[%s]", pmErrStr(vs->numval));
      for (int j = 0; j < vs->numval; j++) {
        if (j > 0) putchar(',');
        pmPrintValue(stdout, vs->valfmt, descs[i].type, &vs->vlist[j], 1);
      }
    }
    putchar('\n');
    pmFreeResult(result);
  }
  free(pmids);
  free(descs);
  pmDestroyContext(ctx);
  return 0;
}
