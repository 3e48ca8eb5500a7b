/* Fetches two metrics N times from the pmcd at HOST through PCP's libpcp
 * (the same client for either build of the agent): simple.numfetch and
 * simple.color, or the two named, the second of three instances.
 *   client HOST N [METRIC METRIC] */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>

#include "fetch_timer.h"

int main(int argc, char **argv) {
  const char *names[] = {"simple.numfetch", "simple.color"};
  pmID ids[2];
  pmResult *r;
  long i, n;
  struct fetch_timer t;
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: %s HOST N [METRIC METRIC]\n", argv[0]);
    return 1;
  }
  if (argc == 5) {
    names[0] = argv[3];
    names[1] = argv[4];
  }
  n = atol(argv[2]);
  if (pmNewContext(PM_CONTEXT_HOST, argv[1]) < 0 || pmLookupName(2, names, ids) != 2) return 1;
  fetch_timer_start(&t);
  for (i = 0; i < n; i++) {
    if (pmFetch(2, ids, &r) < 0 || r->vset[1]->numval != 3) return 1;
    pmFreeResult(r);
  }
  fetch_timer_report(&t, "client   ", "", n);
  return 0;
}
