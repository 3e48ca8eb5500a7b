/* local_context: fetch metrics from a local context (PM_CONTEXT_LOCAL): the
 * agents run inside this process, loaded from the local configuration (a
 * file in the form of pmcd.conf; the library's built-in Linux and proc
 * agents by default, $PCP_PMCDCONF_PATH names another). No pmcd is needed.
 *
 *   local_context [-K SPEC]... METRIC...
 *
 * Each -K changes the agents before the context opens, as pminfo -K does
 * (pmSpecLocalPMDA): "add,DOMAIN,PATH,INIT" loads a shared-object agent,
 * "del,DOMAIN" drops one, "clear" drops them all.
 *
 * Prints one line per value: "NAME VALUE", or "NAME[INSTANCE] VALUE" for
 * a metric with an instance domain; each value is extracted into a C type
 * (pmExtractValue) and printed by type.
 *
 * Build: cc local_context.c $(pkg-config --cflags --libs pmapi)
 */
#include <pcp/pmapi.h>

/* Prints value v of a metric of type `type`. */
static void print_value(const pmValueSet *vs, const pmValue *v, int type) {
  pmAtomValue atom;
  int sts;
  switch (type) {
  case PM_TYPE_32: case PM_TYPE_64:      /* signed integers, as 64 bits */
    if ((sts = pmExtractValue(vs->valfmt, v, type, &atom, PM_TYPE_64)) >= 0)
      printf("%" PRId64 "\n", atom.ll);
    break;
  case PM_TYPE_U32: case PM_TYPE_U64:    /* unsigned integers, as 64 bits */
    if ((sts = pmExtractValue(vs->valfmt, v, type, &atom, PM_TYPE_U64)) >= 0)
      printf("%" PRIu64 "\n", atom.ull);
    break;
  case PM_TYPE_FLOAT: case PM_TYPE_DOUBLE:
    if ((sts = pmExtractValue(vs->valfmt, v, type, &atom, PM_TYPE_DOUBLE)) >= 0)
      printf("%.3f\n", atom.d);
    break;
  case PM_TYPE_STRING:                   /* a copy, ours to free */
    if ((sts = pmExtractValue(vs->valfmt, v, type, &atom, PM_TYPE_STRING)) >= 0) {
      printf("\"%s\"\n", atom.cp);
      free(atom.cp);
    }
    break;
  default:
    sts = PM_ERR_TYPE;
  }
  if (sts < 0) printf("(%s)\n", pmErrStr(sts));
}

int main(int argc, char **argv) {
  int ctx, sts, i;
  char *msg;

  /* -K must come before the context opens: it sets the agents' table. */
  for (i = 1; i + 1 < argc && strcmp(argv[i], "-K") == 0; i += 2) {
    if ((msg = pmSpecLocalPMDA(argv[i + 1])) != NULL) {
      fprintf(stderr, "%s: -K %s: %s\n", argv[0], argv[i + 1], msg);
      return 2;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "Usage: %s [-K SPEC]... METRIC...\n", argv[0]);
    return 2;
  }
  if ((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
    fprintf(stderr, "%s: cannot open a local context: %s\n", argv[0], pmErrStr(ctx));
    return 1;
  }
  for (; i < argc; i++) {
    const char *name = argv[i];
    pmID pmid;
    pmDesc desc;
    pmResult *result;
    if ((sts = pmLookupName(1, &name, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0 ||
        (sts = pmFetch(1, &pmid, &result)) < 0) {
      printf("%s (%s)\n", name, pmErrStr(sts));
      continue;
    }
    const pmValueSet *vs = result->vset[0];
    if (vs->numval <= 0)
      printf("%s (%s)\n", name, vs->numval < 0 ? pmErrStr(vs->numval) : "no values");
    for (int j = 0; j < vs->numval; j++) {
      char *iname = NULL;
      if (desc.indom == PM_INDOM_NULL) {
        printf("%s ", name);
      } else if (pmNameInDom(desc.indom, vs->vlist[j].inst, &iname) >= 0) {
        printf("%s[%s] ", name, iname);
        free(iname);
      } else {
        printf("%s[%d] ", name, vs->vlist[j].inst);
      }
      print_value(vs, &vs->vlist[j], desc.type);
    }
    pmFreeResult(result);
  }
  pmDestroyContext(ctx);
  return 0;
}
