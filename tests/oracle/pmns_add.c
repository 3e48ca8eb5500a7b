/* Builds a PMNS name by name the way PCP builds an archive's name space
 * (__pmNewPMNS, __pmAddPMNSNode for each name, then __pmFixPMNSHashTab with
 * duplicates allowed) and prints the status of each addition followed by
 * every PMNS answer listed in pmns_dump.h.
 *
 *   pmns_add FILE      FILE holds "domain.cluster.item name" lines
 * Rows: add NAME PMID RC */
#include "pmns_dump.h"

/* libpcp internals, exported by libpcp.so but not declared in pmapi.h */
typedef struct __pmnsTree __pmnsTree;
extern int __pmNewPMNS(__pmnsTree **);
extern int __pmAddPMNSNode(__pmnsTree *, int, const char *);
extern int __pmFixPMNSHashTab(__pmnsTree *, int, int);
extern void __pmUsePMNS(__pmnsTree *);

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pmns_add FILE\n");
    return 1;
  }
  FILE *in = fopen(argv[1], "r");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  __pmnsTree *tree;
  if (__pmNewPMNS(&tree) < 0) return 1;
  char line[1024], name[1024];
  unsigned d, c, i;
  int count = 0;
  while (fgets(line, sizeof line, in) != NULL) {
    if (sscanf(line, "%u.%u.%u %1023s", &d, &c, &i, name) != 4) continue;
    pmID id = pmID_build(d, c, i);
    int rc = __pmAddPMNSNode(tree, (int)id, name);
    printf("add\t%s\t%s\t%d\n", name, pmIDStr(id), rc);
    count++;
  }
  fclose(in);
  printf("fix\t%d\n", __pmFixPMNSHashTab(tree, count, 1));
  __pmUsePMNS(tree);
  dump_pmns();
  return 0;
}
