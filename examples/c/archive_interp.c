/* archive_interp: replay an archive at a fixed step. In PM_MODE_INTERP
 * each pmFetch returns the values at the next multiple of STEP from the
 * start, interpolated from the records around that time, whatever times
 * the archive was actually recorded at. A counter is reported as a rate,
 * computed here from two consecutive samples, as pmval does.
 *
 *   archive_interp ARCHIVE STEP METRIC [INSTANCE]
 *
 * STEP is an interval in pmParseInterval's form ("2", "1.5sec", "1min").
 * With INSTANCE (a name of the metric's instance domain) only that
 * instance is fetched (the context's instance profile); without it the
 * metric's first value is shown. Prints "TIME VALUE" per step until the
 * end of the archive, with VALUE "?" when there is none at that time.
 *
 * Build: cc archive_interp.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

int main(int argc, char **argv) {
  const char *name;
  struct timeval step, prev_time = {0, 0};
  double prev = 0;
  int have_prev = 0, ctx, sts;
  char *err;
  pmLogLabel label;
  pmID pmid;
  pmDesc desc;

  if (argc < 4 || argc > 5) {
    fprintf(stderr, "Usage: %s ARCHIVE STEP METRIC [INSTANCE]\n", argv[0]);
    return 2;
  }
  name = argv[3];
  if (pmParseInterval(argv[2], &step, &err) < 0) {
    fprintf(stderr, "%s: bad step:\n%s", argv[0], err);
    free(err);
    return 2;
  }
  if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
    fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], pmErrStr(ctx));
    return 1;
  }
  if ((sts = pmLookupName(1, &name, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0) {
    fprintf(stderr, "%s: %s: %s\n", argv[0], name, pmErrStr(sts));
    return 1;
  }
  if (argc == 5) {
    /* The instance by name, over the whole archive (pmLookupInDom would
     * look at the current time only: the start, before any record). */
    int inst = desc.indom == PM_INDOM_NULL ? PM_ERR_INDOM : pmLookupInDomArchive(desc.indom, argv[4]);
    /* The profile: no instance of the domain but that one. */
    if (inst < 0) {
      fprintf(stderr, "%s: %s: %s\n", argv[0], argv[4], pmErrStr(inst));
      return 1;
    }
    pmDelProfile(desc.indom, 0, NULL);
    pmAddProfile(desc.indom, 1, &inst);
  }

  /* Replay from the start of the archive, one STEP per fetch. */
  pmGetArchiveLabel(&label);
  int delta = (int)(step.tv_sec * 1000 + step.tv_usec / 1000);
  if ((sts = pmSetMode(PM_MODE_INTERP, &label.ll_start, delta)) < 0) {
    fprintf(stderr, "%s: pmSetMode: %s\n", argv[0], pmErrStr(sts));
    return 1;
  }
  pmNewContextZone(); /* times in the archive's time zone */

  for (;;) {
    pmResult *result;
    pmAtomValue atom;
    if ((sts = pmFetch(1, &pmid, &result)) < 0) {
      if (sts != PM_ERR_EOL) fprintf(stderr, "%s: pmFetch: %s\n", argv[0], pmErrStr(sts));
      break; /* PM_ERR_EOL: past the end of the archive */
    }
    const pmValueSet *vs = result->vset[0];
    pmPrintStamp(stdout, &result->timestamp);
    if (vs->numval <= 0 ||
        pmExtractValue(vs->valfmt, &vs->vlist[0], desc.type, &atom, PM_TYPE_DOUBLE) < 0) {
      printf(" ?\n");
      have_prev = 0;
    } else if (desc.sem == PM_SEM_COUNTER) {
      /* A counter: the change per second since the previous sample. */
      if (have_prev)
        printf(" %.3f\n", (atom.d - prev) / pmtimevalSub(&result->timestamp, &prev_time));
      else
        printf(" ?\n");
      prev = atom.d;
      prev_time = result->timestamp;
      have_prev = 1;
    } else {
      printf(" %.3f\n", atom.d);
    }
    pmFreeResult(result);
  }
  pmDestroyContext(ctx);
  return sts == PM_ERR_EOL ? 0 : 1;
}
