/* fetchgroup_rates: rates of counters the easy way. A fetchgroup
 * (pmCreateFetchGroup) owns its context; each metric registered with
 * pmExtendFetchGroup_indom gets arrays the group fills at every
 * pmFetchGroup: instance numbers, names, values and statuses. A counter
 * registered without a scale comes back as a rate per second, computed by
 * the group from this fetch and the one before (the first fetch has no
 * rate yet: PM_ERR_AGAIN).
 *
 *   fetchgroup_rates [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] [-t INTERVAL] METRIC...
 *
 * Live sources are sampled every INTERVAL; an archive is replayed from its
 * start with values interpolated every INTERVAL (PM_MODE_INTERP), as pmval
 * does. Prints one line per instance per sample:
 *   TIME METRIC[INSTANCE] RATE      (METRIC alone when it has no instances)
 * with "?" for a rate not available at that time, and a single line
 * "TIME METRIC ?" when no instance has one (the first sample).
 *
 * Build: cc fetchgroup_rates.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

#define MAXINST 64

struct counter {                    /* what the group fills for a metric */
  const char *name;
  int inst[MAXINST];
  char *iname[MAXINST];
  pmAtomValue value[MAXINST];
  int status[MAXINST];
  unsigned int n;
  int sts;
};

static pmLongOptions longopts[] = {
  PMAPI_OPTIONS_HEADER("Options"),
  PMOPT_ARCHIVE, PMOPT_HOST, PMOPT_LOCALPMDA, PMOPT_SAMPLES, PMOPT_INTERVAL, PMOPT_HELP,
  PMAPI_OPTIONS_END
};
static pmOptions opts = {
  .flags = PM_OPTFLAG_BOUNDARIES, /* pmGetContextOptions: an archive's time window */
  .short_options = "a:h:Ls:t:?",
  .long_options = longopts,
  .short_usage = "[options] metric...",
};

int main(int argc, char **argv) {
  pmFG fg;
  struct timeval stamp;
  int sts, n, samples;

  while (pmGetOptions(argc, argv, &opts) != EOF)
    opts.errors++;
  if (opts.errors || opts.optind >= argc) {
    pmUsageMessage(&opts);
    return 1;
  }
  samples = opts.samples > 0 ? opts.samples : 5;
  if (opts.interval.tv_sec == 0 && opts.interval.tv_usec == 0) opts.interval.tv_sec = 1;

  /* The group opens its own context of the kind asked for. */
  if (opts.context == PM_CONTEXT_ARCHIVE)
    sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, opts.archives[0]);
  else if (opts.context == PM_CONTEXT_LOCAL)
    sts = pmCreateFetchGroup(&fg, PM_CONTEXT_LOCAL, NULL);
  else
    sts = pmCreateFetchGroup(&fg, PM_CONTEXT_HOST, opts.nhosts ? opts.hosts[0] : "local:");
  if (sts < 0) {
    fprintf(stderr, "%s: pmCreateFetchGroup: %s\n", pmGetProgname(), pmErrStr(sts));
    return 1;
  }

  /* An archive: replay from its start (pmGetContextOptions finds the
   * window), interpolating every INTERVAL. The mode is set on the group's
   * own context. */
  if (opts.context == PM_CONTEXT_ARCHIVE) {
    pmUseContext(pmGetFetchGroupContext(fg));
    int delta = (int)(opts.interval.tv_sec * 1000 + opts.interval.tv_usec / 1000);
    if ((sts = pmGetContextOptions(pmGetFetchGroupContext(fg), &opts)) < 0 ||
        (sts = pmSetMode(PM_MODE_INTERP, &opts.origin, delta)) < 0) {
      fprintf(stderr, "%s: %s\n", pmGetProgname(), pmErrStr(sts));
      return 1;
    }
  }

  /* Every metric with all its instances; NULL scale: counters as rates. */
  n = argc - opts.optind;
  struct counter *c = calloc((size_t)n, sizeof *c);
  for (int i = 0; i < n; i++) {
    c[i].name = argv[opts.optind + i];
    sts = pmExtendFetchGroup_indom(fg, c[i].name, NULL, c[i].inst, c[i].iname, c[i].value,
                                   PM_TYPE_DOUBLE, c[i].status, MAXINST, &c[i].n, &c[i].sts);
    if (sts < 0) {
      fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), c[i].name, pmErrStr(sts));
      return 1;
    }
  }
  pmExtendFetchGroup_timestamp(fg, &stamp);

  struct timespec pause = {opts.interval.tv_sec, opts.interval.tv_usec * 1000};
  for (int s = 0; s < samples; s++) {
    if (s > 0 && opts.context != PM_CONTEXT_ARCHIVE) nanosleep(&pause, NULL);
    if ((sts = pmFetchGroup(fg)) < 0) {
      if (sts == PM_ERR_EOL) break;           /* past the archive's end */
      fprintf(stderr, "%s: pmFetchGroup: %s\n", pmGetProgname(), pmErrStr(sts));
      return 1;
    }
    for (int i = 0; i < n; i++) {
      unsigned int j, rates = 0;
      for (j = 0; c[i].sts >= 0 && j < c[i].n; j++)
        if (c[i].status[j] >= 0) rates++;
      if (rates == 0) {  /* no instance has a rate (yet): one line */
        pmPrintStamp(stdout, &stamp);
        printf(" %s ?\n", c[i].name);
        continue;
      }
      for (j = 0; j < c[i].n; j++) {
        pmPrintStamp(stdout, &stamp);
        if (c[i].iname[j] != NULL)
          printf(" %s[%s]", c[i].name, c[i].iname[j]);
        else
          printf(" %s", c[i].name);
        if (c[i].status[j] < 0)
          printf(" ?\n");
        else
          printf(" %.3f\n", c[i].value[j].d);
      }
    }
  }
  pmDestroyFetchGroup(fg);
  free(c);
  return 0;
}
