/* PCP's own local context (PM_CONTEXT_LOCAL), for comparison: fetches
 * one metric, or several PMIDs given with commas, N times and prints
 * fetches per second and CPU per fetch.
 *
 *   pcp PMID[,PMID...] N    PMID as D.C.I, e.g. 30.0.10 (sampledso.long.one)
 *
 * The agents come from $PCP_PMCDCONF_PATH (dso lines), as for pminfo -L;
 * the metric is named by PMID so no name space is needed. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch_timer.h"

int main(int argc, char **argv) {
  unsigned d, c, i;
  pmID ids[64];
  int nids = 0;
  const char *p;
  pmResult *r;
  long k, n;
  int sts;
  struct fetch_timer t;
  if (argc != 3) {
    fprintf(stderr, "usage: %s D.C.I[,D.C.I...] N\n", argv[0]);
    return 1;
  }
  for (p = argv[1]; p != NULL && nids < 64; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    if (sscanf(p, "%u.%u.%u", &d, &c, &i) != 3) {
      fprintf(stderr, "usage: %s D.C.I[,D.C.I...] N\n", argv[0]);
      return 1;
    }
    ids[nids++] = pmID_build(d, c, i);
  }
  n = atol(argv[2]);
  if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
    fprintf(stderr, "pmNewContext: %s\n", pmErrStr(sts));
    return 1;
  }
  /* one fetch first: the agent must answer with a value */
  if ((sts = pmFetch(nids, ids, &r)) < 0 || r->vset[0]->numval < 1) {
    fprintf(stderr, "pmFetch %s: %s\n", argv[1], pmErrStr(sts < 0 ? sts : r->vset[0]->numval));
    return 1;
  }
  pmFreeResult(r);
  fetch_timer_start(&t);
  for (k = 0; k < n; k++) {
    if (pmFetch(nids, ids, &r) < 0) return 1;
    pmFreeResult(r);
  }
  fetch_timer_report(&t, "libpcp   ", argv[1], n);
  return 0;
}
