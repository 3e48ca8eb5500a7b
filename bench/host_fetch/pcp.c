/* The same loop through PCP's libpcp, for comparison.  pcp HOST N [connect]
 * With "connect", N times: a new context, a name lookup and one fetch
 * (the rate is then of whole connections). */
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
  if (argc != 3 && !(argc == 4 && argv[3][0] == 'c')) {
    fprintf(stderr, "usage: %s HOST N [connect]\n", argv[0]);
    return 1;
  }
  n = atol(argv[2]);
  if (argc == 4) {
    fetch_timer_start(&t);
    for (i = 0; i < n; i++) {
      int c = pmNewContext(PM_CONTEXT_HOST, argv[1]);
      if (c < 0 || pmLookupName(1, &name, &id) < 0 || pmFetch(1, &id, &r) < 0) return 1;
      pmFreeResult(r);
      pmDestroyContext(c);
    }
    fetch_timer_report(&t, "libpcp-c ", "", n);
    return 0;
  }
  if (pmNewContext(PM_CONTEXT_HOST, argv[1]) < 0 || pmLookupName(1, &name, &id) < 0) return 1;
  fetch_timer_start(&t);
  for (i = 0; i < n; i++) {
    if (pmFetch(1, &id, &r) < 0) return 1;
    pmFreeResult(r);
  }
  fetch_timer_report(&t, "libpcp   ", "", n);
  return 0;
}
