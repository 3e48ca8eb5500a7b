/* secure_flag HOST: opens a host context with PM_CTXFLAG_SECURE, as a
 * program asking the PMAPI for TLS itself does, and fetches
 * sample.long.one through it. Built against <pcp/pmapi.h> and run over
 * PCP's libpcp and over ours (tests/hostside/hostside_test.sh). */
#include <pcp/pmapi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const char *name = "sample.long.one";
  pmID id;
  pmResult *r;
  int sts;
  if (argc != 2) {
    fprintf(stderr, "usage: %s HOST\n", argv[0]);
    return 2;
  }
  if ((sts = pmNewContext(PM_CONTEXT_HOST | PM_CTXFLAG_SECURE, argv[1])) < 0) {
    printf("pmNewContext: %s\n", pmErrStr(sts));
    return 1;
  }
  if ((sts = pmLookupName(1, &name, &id)) < 0 || (sts = pmFetch(1, &id, &r)) < 0) {
    printf("fetch: %s\n", pmErrStr(sts));
    return 1;
  }
  printf("%s %d\n", name, r->vset[0]->numval > 0 ? r->vset[0]->vlist[0].value.lval : -1);
  pmFreeResult(r);
  return 0;
}
