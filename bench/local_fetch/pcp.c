/* PCP's own local context (PM_CONTEXT_LOCAL), for comparison: fetches
 * one metric N times and prints fetches per second and CPU per fetch.
 *
 *   pcp PMID N        PMID as D.C.I, e.g. 30.0.10 (sampledso.long.one)
 *
 * The agents come from $PCP_PMCDCONF_PATH (dso lines), as for pminfo -L;
 * the metric is named by PMID so no name space is needed. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  unsigned d, c, i;
  pmID id;
  pmResult *r;
  long k, n;
  int sts;
  double cpu0, t0, wall, cpu;
  if (argc != 3 || sscanf(argv[1], "%u.%u.%u", &d, &c, &i) != 3) {
    fprintf(stderr, "usage: %s D.C.I N\n", argv[0]);
    return 1;
  }
  n = atol(argv[2]);
  id = pmID_build(d, c, i);
  if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
    fprintf(stderr, "pmNewContext: %s\n", pmErrStr(sts));
    return 1;
  }
  /* one fetch first: the agent must answer with a value */
  if ((sts = pmFetch(1, &id, &r)) < 0 || r->vset[0]->numval < 1) {
    fprintf(stderr, "pmFetch %s: %s\n", argv[1], pmErrStr(sts < 0 ? sts : r->vset[0]->numval));
    return 1;
  }
  pmFreeResult(r);
  cpu0 = cpu_seconds();
  t0 = wall_seconds();
  for (k = 0; k < n; k++) {
    if (pmFetch(1, &id, &r) < 0) return 1;
    pmFreeResult(r);
  }
  wall = wall_seconds() - t0;
  cpu = cpu_seconds() - cpu0;
  printf("libpcp    %-10s %10.0f fetches/s  %7.3f us CPU/fetch\n", argv[1], n / wall, cpu / n * 1e6);
  return 0;
}
