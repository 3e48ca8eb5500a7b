/* archive_context: open an archive (PM_CONTEXT_ARCHIVE) and print where and
 * when it was recorded, then the first value recorded of every metric below
 * the names given, in the form `pminfo -a ARCHIVE -f NAME...` prints.
 *
 *   archive_context ARCHIVE [NAME...]      (no NAME: the whole name space)
 *
 * An archive context answers the same calls as a live one (names,
 * descriptors, instance names, pmFetch); it reads the archive's files
 * instead of asking a pmcd. pmFetch returns the values of the next record
 * (forward mode), so each metric is fetched on its own after going back
 * to the start: the first record holding it.
 *
 * Build: cc archive_context.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

/* The names found by pmTraversePMNS, in its order. */
static char **names;
static int nnames;

static void add_name(const char *name) {
  char **more = realloc(names, (size_t)(nnames + 1) * sizeof *names);
  if (more == NULL) return;
  names = more;
  names[nnames++] = strdup(name);
}

/* Prints one metric's first value(s), as pminfo -f does. */
static void print_first_values(const char *name, const struct timeval *start) {
  pmID pmid;
  pmDesc desc;
  pmResult *result;
  int sts;

  printf("\n%s\n", name);
  if ((sts = pmLookupName(1, &name, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0) {
    printf("Error: %s\n", pmErrStr(sts));
    return;
  }
  /* Back to the start of the archive, then the first record with pmid. */
  if ((sts = pmSetMode(PM_MODE_FORW, start, 0)) < 0 || (sts = pmFetch(1, &pmid, &result)) < 0) {
    printf("Error: %s\n", pmErrStr(sts));
    return;
  }
  const pmValueSet *vs = result->vset[0];
  if (vs->numval < 0)
    printf("Error: %s\n", pmErrStr(vs->numval));
  else if (vs->numval == 0)
    printf("No value(s) available!\n");
  for (int i = 0; i < vs->numval; i++) {
    const pmValue *v = &vs->vlist[i];
    printf("    ");
    if (desc.indom != PM_INDOM_NULL) {
      /* Instance names come from the archive's instance domain. */
      char *iname = NULL;
      if (pmNameInDom(desc.indom, v->inst, &iname) >= 0) {
        printf("inst [%d or \"%s\"] ", v->inst, iname);
        free(iname);
      } else {
        printf("inst [%d or ???] ", v->inst);
      }
    }
    printf("value ");
    pmPrintValue(stdout, vs->valfmt, desc.type, v, 1);
    printf("\n");
  }
  pmFreeResult(result);
}

int main(int argc, char **argv) {
  pmLogLabel label;
  struct timeval end;
  char when[32];
  int ctx, sts;

  if (argc < 2) {
    fprintf(stderr, "Usage: %s ARCHIVE [NAME...]\n", argv[0]);
    return 2;
  }
  if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
    fprintf(stderr, "%s: cannot open archive %s: %s\n", argv[0], argv[1], pmErrStr(ctx));
    return 1;
  }
  /* The label: the host it was recorded on, its time zone and start. */
  if ((sts = pmGetArchiveLabel(&label)) < 0 || (sts = pmGetArchiveEnd(&end)) < 0) {
    fprintf(stderr, "%s: %s\n", argv[0], pmErrStr(sts));
    return 1;
  }
  pmNewContextZone(); /* print times in the archive's zone */
  time_t t = label.ll_start.tv_sec;
  printf("host:  %s\n", label.ll_hostname);
  printf("start: %s", pmCtime(&t, when));
  t = end.tv_sec;
  printf("end:   %s", pmCtime(&t, when));

  /* Every leaf below each name ("" is the root of the name space). */
  if (argc == 2)
    sts = pmTraversePMNS("", add_name);
  for (int i = 2; i < argc; i++) {
    if ((sts = pmTraversePMNS(argv[i], add_name)) < 0)
      fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], pmErrStr(sts));
  }
  for (int i = 0; i < nnames; i++) {
    print_first_values(names[i], &label.ll_start);
    free(names[i]);
  }
  free(names);
  pmDestroyContext(ctx);
  return 0;
}
