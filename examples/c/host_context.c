/* host_context: connect to a pmcd (PM_CONTEXT_HOST) and print, for each
 * metric named, its one-line help, its descriptor and its current values,
 * in the form `pminfo -h HOST -tdf METRIC...` prints.
 *
 *   host_context HOST METRIC...
 *
 * HOST is a pmcd: a host name ("localhost", "server:44321" for another
 * port), "unix:" for the local pmcd's unix socket ($PMCD_SOCKET names
 * another socket) or "unix:/path/to/socket". All metrics are fetched
 * together, in one round trip to pmcd.
 *
 * Build: cc host_context.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

int main(int argc, char **argv) {
  int ctx, sts, n = argc - 2;
  const char **names = (const char **)argv + 2;
  pmID *pmids;
  pmDesc *descs;
  pmResult *result;

  if (argc < 3) {
    fprintf(stderr, "Usage: %s HOST METRIC...\n", argv[0]);
    return 2;
  }
  if ((ctx = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
    fprintf(stderr, "%s: cannot connect to pmcd on host \"%s\": %s\n", argv[0], argv[1],
            pmErrStr(ctx));
    return 1;
  }
  /* The host pmcd runs on, as pmcd itself names it (pmcd.hostname). */
  printf("host: %s\n", pmGetContextHostName(ctx));

  pmids = calloc((size_t)n, sizeof *pmids);
  descs = calloc((size_t)n, sizeof *descs);
  /* One lookup for all the names; an unknown one gets PM_ID_NULL. */
  for (int i = 0; i < n; i++) pmids[i] = PM_ID_NULL;
  if ((sts = pmLookupName(n, names, pmids)) < 0 && sts != PM_ERR_NAME) {
    fprintf(stderr, "%s: %s\n", argv[0], pmErrStr(sts));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (pmids[i] == PM_ID_NULL) {
      fprintf(stderr, "%s: %s: %s\n", argv[0], names[i], pmErrStr(PM_ERR_NAME));
      return 1;
    }
    if ((sts = pmLookupDesc(pmids[i], &descs[i])) < 0) {
      fprintf(stderr, "%s: %s: %s\n", argv[0], names[i], pmErrStr(sts));
      return 1;
    }
  }
  /* One fetch for all the metrics: a value set per metric, in order. */
  if ((sts = pmFetch(n, pmids, &result)) < 0) {
    fprintf(stderr, "%s: pmFetch: %s\n", argv[0], pmErrStr(sts));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    const pmValueSet *vs = result->vset[i];
    char *help = NULL;
    /* The agent's one-line help text, when it has some. */
    if (pmLookupText(pmids[i], PM_TEXT_ONELINE, &help) >= 0) {
      printf("\n%s [%s]\n", names[i], help);
      free(help);
    } else {
      printf("\n%s\n", names[i]);
    }
    pmPrintDesc(stdout, &descs[i]);
    if (vs->numval < 0) {
      printf("Error: %s\n", pmErrStr(vs->numval));
      continue;
    }
    if (vs->numval == 0) printf("No value(s) available!\n");
    for (int j = 0; j < vs->numval; j++) {
      printf("    ");
      if (descs[i].indom != PM_INDOM_NULL) {
        char *iname = NULL;
        if (pmNameInDom(descs[i].indom, vs->vlist[j].inst, &iname) >= 0) {
          printf("inst [%d or \"%s\"] ", vs->vlist[j].inst, iname);
          free(iname);
        } else {
          printf("inst [%d or ???] ", vs->vlist[j].inst);
        }
      }
      printf("value ");
      pmPrintValue(stdout, vs->valfmt, descs[i].type, &vs->vlist[j], 1);
      printf("\n");
    }
  }
  pmFreeResult(result);
  free(pmids);
  free(descs);
  pmDestroyContext(ctx);
  return 0;
}
