/* Replays fetchgroup cases (see fetchgroup_cases.txt) through PCP's
 * pmCreateFetchGroup/pmExtendFetchGroup_xxx and pmFetchGroup and prints every
 * output after every fetch, one tab-separated row each:
 *   N reg STS                       the extend call's status
 *   N K fetch STS TIME              fetch K's status and timestamp (sec.usec)
 *   N K item STS VALUE
 *   N K indom STS NUM    then  N K inst CODE NAME STS VALUE   per instance
 *   N K event STS NUM    then  N K field SEC.NSEC STS VALUE   per field */
#include <math.h>
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64

static int type_of(const char *s) {
  static const char *names[] = {"32", "U32", "64", "U64", "FLOAT", "DOUBLE", "STRING", "AGGREGATE"};
  for (int i = 0; i < 8; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

static void value(const pmAtomValue *v, int type) {
  switch (type) {
    case PM_TYPE_32: printf("%d", v->l); break;
    case PM_TYPE_U32: printf("%u", v->ul); break;
    case PM_TYPE_64: printf("%lld", (long long)v->ll); break;
    case PM_TYPE_U64: printf("%llu", (unsigned long long)v->ull); break;
    case PM_TYPE_FLOAT: if (isnan(v->f)) printf("nan"); else printf("%.9g", v->f); break;
    case PM_TYPE_DOUBLE: if (isnan(v->d)) printf("nan"); else printf("%.17g", v->d); break;
    case PM_TYPE_STRING: if (v->cp) printf("\"%s\"", v->cp); else printf("(null)"); break;
    default: printf("?"); break;
  }
}

static const char *opt(const char *s) { return strcmp(s, "-") == 0 ? NULL : s; }

static void run(int n, char **f) {
  const char *archive = f[0], *kind = f[1], *metric = f[2], *inst = opt(f[3]), *scale = opt(f[4]);
  int type = type_of(f[5]);
  const char *mode = f[6];
  int fetches = atoi(f[7]);
  unsigned maxnum = (unsigned)atoi(f[8]);
  const char *field = opt(f[9]);
  pmFG fg;
  pmAtomValue one, vals[MAXN];
  int sts_one = 0, stss[MAXN], codes[MAXN], sts_all = 0;
  char *names[MAXN];
  struct timespec times[MAXN];
  unsigned num = 0;
  struct timeval tv;
  int sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, archive);
  if (sts < 0) { printf("%d\treg\t%d\n", n, sts); return; }
  if (strncmp(mode, "interp:", 7) == 0) {
    pmLogLabel label;
    struct timeval delta;
    double d = atof(mode + 7);
    pmUseContext(pmGetFetchGroupContext(fg));
    pmGetArchiveLabel(&label);
    delta.tv_sec = (time_t)d;
    delta.tv_usec = (suseconds_t)((d - (double)delta.tv_sec) * 1e6 + 0.5);
    pmSetMode(PM_MODE_INTERP, &label.ll_start, pmtimevalToReal(&delta) * 1000);
  }
  pmExtendFetchGroup_timestamp(fg, &tv);
  if (strcmp(kind, "item") == 0)
    sts = pmExtendFetchGroup_item(fg, metric, inst, scale, &one, type, &sts_one);
  else if (strcmp(kind, "indom") == 0)
    sts = pmExtendFetchGroup_indom(fg, metric, scale, codes, names, vals, type, stss, maxnum, &num, &sts_all);
  else
    sts = pmExtendFetchGroup_event(fg, metric, inst, field, scale, times, vals, type, stss, maxnum, &num, &sts_all);
  printf("%d\treg\t%d\n", n, sts);
  if (sts < 0) { pmDestroyFetchGroup(fg); return; }
  for (int k = 1; k <= fetches; k++) {
    sts = pmFetchGroup(fg);
    printf("%d\t%d\tfetch\t%d\t", n, k, sts);
    if (sts < 0) printf("-\n"); else printf("%ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
    if (strcmp(kind, "item") == 0) {
      printf("%d\t%d\titem\t%d\t", n, k, sts_one);
      value(&one, type);
      printf("\n");
      continue;
    }
    printf("%d\t%d\t%s\t%d\t%u\n", n, k, kind, sts_all, num);
    for (unsigned i = 0; i < num; i++) {
      if (strcmp(kind, "indom") == 0)
        printf("%d\t%d\tinst\t%d\t%s\t%d\t", n, k, codes[i], names[i] ? names[i] : "(null)", stss[i]);
      else
        printf("%d\t%d\tfield\t%ld.%09ld\t%d\t", n, k, (long)times[i].tv_sec, (long)times[i].tv_nsec, stss[i]);
      value(&vals[i], type);
      printf("\n");
    }
  }
  pmDestroyFetchGroup(fg);
}

int main(void) {
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, stdin)) {
    char *f[10];
    int nf = 0;
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\n")] = '\0';
    for (char *p = strtok(line, "\t"); p && nf < 10; p = strtok(NULL, "\t")) f[nf++] = p;
    n++;
    if (nf == 10) run(n, f);
    fflush(stdout);
  }
  return 0;
}
