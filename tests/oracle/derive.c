/* Replays derived-metric cases (tests/oracle/derive_cases.txt) through the
 * PMAPI and prints one tab-separated row per answer:
 *   N global STS MSG          pmRegisterDerivedMetric("oracle.gN", EXPR)
 *   N add STS MSG             pmAddDerivedMetric("oracle.dN", EXPR) in a
 *                             new context on the current archive
 *   N desc STS PMID TYPE INDOM SEM UNITS
 *   N fetch K STS SEC.NSEC NUMVAL
 *   N val K INST VALUE
 * MSG is the error message with \n, \t, \\ and other bytes escaped; "-"
 * when there is none. Lines of the cases file:
 *   # comment
 *   @ ARCHIVE MODE     archive and mode for the cases that follow; MODE is
 *                      forw:N, back:N or interp:SECONDS:N (N fetches)
 *   EXPR               one case
 * Built with PCP's libpcp it makes tests/data/oracle/derive.tsv; built with
 * this library (tests/unit/derive_oracle_test.sh) it must print the same. */
#include <math.h>
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char archive[1024];
static char mode[64] = "forw:3";

static void escaped(const char *s) {
  if (s == NULL) {
    printf("-");
    return;
  }
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\n') printf("\\n");
    else if (c == '\t') printf("\\t");
    else if (c == '\\') printf("\\\\");
    else if (c < 0x20 || c >= 0x7f) printf("\\x%02x", c);
    else putchar(c);
  }
}

static void print_value(const pmValueSet *vs, int j, int type) {
  pmAtomValue a;
  int sts = pmExtractValue(vs->valfmt, &vs->vlist[j], type, &a, type);
  if (sts < 0) {
    printf("err %d", sts);
    return;
  }
  switch (type) {
    case PM_TYPE_32: printf("%d", a.l); break;
    case PM_TYPE_U32: printf("%u", a.ul); break;
    case PM_TYPE_64: printf("%lld", (long long)a.ll); break;
    case PM_TYPE_U64: printf("%llu", (unsigned long long)a.ull); break;
    case PM_TYPE_FLOAT: if (isnan(a.f)) printf("nan"); else printf("%.9g", a.f); break;
    case PM_TYPE_DOUBLE: if (isnan(a.d)) printf("nan"); else printf("%.17g", a.d); break;
    case PM_TYPE_STRING: printf("\""); escaped(a.cp); printf("\""); free(a.cp); break;
    default: printf("type %d", type); break;
  }
}

static int set_mode(void) {
  pmLogLabel label;
  struct timeval when;
  int sts = pmGetArchiveLabel(&label);
  if (sts < 0) return sts;
  if (strncmp(mode, "forw:", 5) == 0) {
    when = label.ll_start;
    return pmSetMode(PM_MODE_FORW, &when, 0);
  }
  if (strncmp(mode, "back:", 5) == 0) {
    sts = pmGetArchiveEnd(&when);
    if (sts < 0) return sts;
    return pmSetMode(PM_MODE_BACK, &when, 0);
  }
  when = label.ll_start;
  return pmSetMode(PM_MODE_INTERP, &when, (int)(atof(mode + 7) * 1000));
}

static int fetch_count(void) {
  const char *n = strrchr(mode, ':');
  return n ? atoi(n + 1) : 1;
}

static void fetch_all(int n, pmID pmid, int type) {
  int count = fetch_count();
  for (int k = 0; k < count; k++) {
    pmResult *r = NULL;
    int sts = pmFetch(1, &pmid, &r);
    if (sts < 0) {
      printf("%d\tfetch\t%d\t%d\t-\t-\n", n, k, sts);
      continue;
    }
    const pmValueSet *vs = r->vset[0];
    /* pmFetch's non-negative status is not part of the comparison */
    printf("%d\tfetch\t%d\t0\t%ld.%06ld\t%d\n", n, k, (long)r->timestamp.tv_sec,
           (long)r->timestamp.tv_usec, vs->numval);
    for (int j = 0; j < vs->numval; j++) {
      printf("%d\tval\t%d\t%d\t", n, k, vs->vlist[j].inst);
      print_value(vs, j, type);
      printf("\n");
    }
    pmFreeResult(r);
  }
}

static void describe(int n, const char *name) {
  pmID pmid;
  pmDesc desc;
  char units[64];
  int sts = pmLookupName(1, &name, &pmid);
  if (sts < 0) {
    printf("%d\tdesc\t%d\tname\n", n, sts);
    return;
  }
  sts = pmLookupDesc(pmid, &desc);
  if (sts < 0) {
    printf("%d\tdesc\t%d\t%s\n", n, sts, pmIDStr(pmid));
    return;
  }
  pmUnitsStr_r(&desc.units, units, sizeof(units));
  printf("%d\tdesc\t0\t%s\t%d\t%s\t%d\t%s\n", n, pmIDStr(pmid), desc.type, pmInDomStr(desc.indom),
         desc.sem, units);
  if (set_mode() < 0) return;
  fetch_all(n, pmid, desc.type);
}

static void run(int n, const char *expr) {
  char name[64];
  char *msg = NULL;
  snprintf(name, sizeof(name), "oracle.g%d", n);
  int sts = pmRegisterDerivedMetric(name, expr, &msg);
  printf("%d\tglobal\t%d\t", n, sts);
  escaped(msg);
  printf("\n");
  free(msg);

  int ctx = pmNewContext(PM_CONTEXT_ARCHIVE, archive);
  if (ctx < 0) {
    printf("%d\tcontext\t%d\n", n, ctx);
    return;
  }
  snprintf(name, sizeof(name), "oracle.d%d", n);
  msg = NULL;
  sts = pmAddDerivedMetric(name, expr, &msg);
  printf("%d\tadd\t%d\t", n, sts);
  escaped(msg);
  printf("\n");
  free(msg);
  if (sts == 0) describe(n, name);
  pmDestroyContext(ctx);
}

int main(void) {
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof(line), stdin) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0') continue;
    if (line[0] == '@') {
      if (sscanf(line, "@ %1023s %63s", archive, mode) != 2) return 1;
      continue;
    }
    /* each case in its own process: registrations do not accumulate and
     * a library that fails on one case cannot take the others with it */
    fflush(stdout);
    ++n;
    pid_t pid = fork();
    if (pid == 0) {
      run(n, line);
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) printf("%d\tcrash\n", n);
  }
  return 0;
}
