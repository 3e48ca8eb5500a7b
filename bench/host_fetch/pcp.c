/* The same loop through PCP's libpcp, for comparison.  pcp HOST N */
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
  const char *name = "sample.long.one";
  pmID id;
  pmResult *r;
  long i, n;
  double cpu0, t0, wall, cpu;
  if (argc != 3) {
    fprintf(stderr, "usage: %s HOST N\n", argv[0]);
    return 1;
  }
  n = atol(argv[2]);
  if (pmNewContext(PM_CONTEXT_HOST, argv[1]) < 0 || pmLookupName(1, &name, &id) < 0) return 1;
  cpu0 = cpu_seconds();
  t0 = wall_seconds();
  for (i = 0; i < n; i++) {
    if (pmFetch(1, &id, &r) < 0) return 1;
    pmFreeResult(r);
  }
  wall = wall_seconds() - t0;
  cpu = cpu_seconds() - cpu0;
  printf("libpcp    %10.0f fetches/s  %7.2f us CPU/fetch\n", n / wall, cpu / n * 1e6);
  return 0;
}
