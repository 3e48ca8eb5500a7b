/*
 * Prints, for each metric name on the command line, PCP's descriptor as a
 * local context (pminfo -L) sees it:
 *   name TAB domain.cluster.item TAB type TAB indom TAB sem TAB
 *   dimSpace dimTime dimCount scaleSpace scaleTime scaleCount
 * with the indom as "domain.serial" or "null". Run by linux_desc.sh.
 */
#include <stdio.h>
#include <pcp/pmapi.h>

int main(int argc, char **argv) {
  int i, sts;
  if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
    fprintf(stderr, "pmNewContext: %s\n", pmErrStr(sts));
    return 1;
  }
  for (i = 1; i < argc; i++) {
    pmID id;
    pmDesc d;
    char *name = argv[i];
    if ((sts = pmLookupName(1, (const char **)&name, &id)) < 0 || (sts = pmLookupDesc(id, &d)) < 0) {
      fprintf(stderr, "%s: %s\n", name, pmErrStr(sts));
      return 1;
    }
    printf("%s\t%u.%u.%u\t%d\t", name, pmID_domain(id), pmID_cluster(id), pmID_item(id), d.type);
    if (d.indom == PM_INDOM_NULL)
      printf("null");
    else
      printf("%u.%u", pmInDom_domain(d.indom), pmInDom_serial(d.indom));
    printf("\t%d\t%d %d %d %d %d %d\n", d.sem, d.units.dimSpace, d.units.dimTime, d.units.dimCount,
           d.units.scaleSpace, d.units.scaleTime, d.units.scaleCount);
  }
  return 0;
}
