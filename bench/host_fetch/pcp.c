/* The same loop through PCP's libpcp, for comparison.  pcp HOST N */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>

#include "fetch_timer.h"

int main(int argc, char **argv) {
  const char *name = "sample.long.one";
  pmID id;
  pmResult *r;
  long i, n;
  struct fetch_timer t;
  if (argc != 3) {
    fprintf(stderr, "usage: %s HOST N\n", argv[0]);
    return 1;
  }
  n = atol(argv[2]);
  if (pmNewContext(PM_CONTEXT_HOST, argv[1]) < 0 || pmLookupName(1, &name, &id) < 0) return 1;
  fetch_timer_start(&t);
  for (i = 0; i < n; i++) {
    if (pmFetch(1, &id, &r) < 0) return 1;
    pmFreeResult(r);
  }
  fetch_timer_report(&t, "libpcp   ", "", n);
  return 0;
}
