/* derived_metric: define new metrics as expressions over existing ones and
 * fetch them like any other. pmRegisterDerivedMetric defines a metric for
 * every context opened afterwards; pmAddDerivedMetric defines one in the
 * current context only. The library evaluates the expression at each
 * fetch (rate() from this fetch and the previous one).
 *
 *   derived_metric [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] [-t INTERVAL]
 *
 * Prints each definition ("NAME = EXPR"), then, per sample, one line per
 * metric: "TIME NAME VALUE", VALUE "?" when the metric has no value then
 * (the first sample of a rate). An archive is replayed from its start at
 * INTERVAL steps (PM_MODE_INTERP).
 *
 * Build: cc derived_metric.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

static const char *defs[][2] = {
  /* registered globally, before any context exists */
  {"example.mem.used_pct", "100 * mem.util.used / mem.physmem"},
  {"example.cpu.busy", "rate(kernel.all.cpu.user) + rate(kernel.all.cpu.sys)"},
  /* added to the one context, once it is open */
  {"example.pswitch_per_cpu", "rate(kernel.all.pswitch) / hinv.ncpu"},
};
#define NDEFS 3
#define NGLOBAL 2

static pmLongOptions longopts[] = {
  PMAPI_OPTIONS_HEADER("Options"),
  PMOPT_ARCHIVE, PMOPT_HOST, PMOPT_LOCALPMDA, PMOPT_SAMPLES, PMOPT_INTERVAL, PMOPT_HELP,
  PMAPI_OPTIONS_END
};
static pmOptions opts = {
  .flags = PM_OPTFLAG_BOUNDARIES, /* pmGetContextOptions: an archive's time window */
  .short_options = "a:h:Ls:t:?",
  .long_options = longopts,
  .short_usage = "[options]",
};

int main(int argc, char **argv) {
  const char *names[NDEFS];
  pmID pmids[NDEFS];
  pmDesc descs[NDEFS];
  char *err;
  int ctx, sts, i;

  while (pmGetOptions(argc, argv, &opts) != EOF)
    opts.errors++;
  if (opts.errors || opts.optind != argc) {
    pmUsageMessage(&opts);
    return 1;
  }
  for (i = 0; i < NGLOBAL; i++) {
    if (pmRegisterDerivedMetric(defs[i][0], defs[i][1], &err) < 0) {
      fprintf(stderr, "%s: %s:\n%s", pmGetProgname(), defs[i][0], err);
      free(err);
      return 1;
    }
  }
  if (opts.context == PM_CONTEXT_ARCHIVE)
    ctx = pmNewContext(PM_CONTEXT_ARCHIVE, opts.archives[0]);
  else if (opts.context == PM_CONTEXT_LOCAL)
    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
  else
    ctx = pmNewContext(PM_CONTEXT_HOST, opts.nhosts ? opts.hosts[0] : "local:");
  if (ctx < 0) {
    fprintf(stderr, "%s: cannot open the metrics source: %s\n", pmGetProgname(), pmErrStr(ctx));
    return 1;
  }
  for (; i < NDEFS; i++) {
    if (pmAddDerivedMetric(defs[i][0], defs[i][1], &err) < 0) {
      fprintf(stderr, "%s: %s:\n%s", pmGetProgname(), defs[i][0], err);
      free(err);
      return 1;
    }
  }
  for (i = 0; i < NDEFS; i++) {
    printf("%s = %s\n", defs[i][0], defs[i][1]);
    names[i] = defs[i][0];
  }
  /* Derived names are looked up, described and fetched as any other. */
  if ((sts = pmLookupName(NDEFS, names, pmids)) != NDEFS) {
    fprintf(stderr, "%s: pmLookupName: %s\n", pmGetProgname(), sts < 0 ? pmErrStr(sts) : "not all found");
    return 1;
  }
  for (i = 0; i < NDEFS; i++) {
    if ((sts = pmLookupDesc(pmids[i], &descs[i])) < 0) {
      fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), names[i], pmErrStr(sts));
      return 1;
    }
  }

  int samples = opts.samples > 0 ? opts.samples : 5;
  if (opts.interval.tv_sec == 0 && opts.interval.tv_usec == 0) opts.interval.tv_sec = 1;
  if (opts.context == PM_CONTEXT_ARCHIVE) {
    int delta = (int)(opts.interval.tv_sec * 1000 + opts.interval.tv_usec / 1000);
    if ((sts = pmGetContextOptions(ctx, &opts)) < 0 ||
        (sts = pmSetMode(PM_MODE_INTERP, &opts.origin, delta)) < 0) {
      fprintf(stderr, "%s: %s\n", pmGetProgname(), pmErrStr(sts));
      return 1;
    }
  }
  struct timespec pause = {opts.interval.tv_sec, opts.interval.tv_usec * 1000};
  for (int s = 0; s < samples; s++) {
    pmResult *result;
    if (s > 0 && opts.context != PM_CONTEXT_ARCHIVE) nanosleep(&pause, NULL);
    if ((sts = pmFetch(NDEFS, pmids, &result)) < 0) {
      if (sts == PM_ERR_EOL) break;
      fprintf(stderr, "%s: pmFetch: %s\n", pmGetProgname(), pmErrStr(sts));
      return 1;
    }
    for (i = 0; i < NDEFS; i++) {
      const pmValueSet *vs = result->vset[i];
      pmAtomValue atom;
      pmPrintStamp(stdout, &result->timestamp);
      if (vs->numval > 0 &&
          pmExtractValue(vs->valfmt, &vs->vlist[0], descs[i].type, &atom, PM_TYPE_DOUBLE) >= 0)
        printf(" %s %.3f\n", names[i], atom.d);
      else
        printf(" %s ?\n", names[i]);
    }
    pmFreeResult(result);
  }
  pmDestroyContext(ctx);
  return 0;
}
