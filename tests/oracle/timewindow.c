/* Prints what PCP's __pmParseHighResTime and pmParseHighResTimeWindow make
 * of many -S/-T/-A/-O strings, in several zones (pmNewZone) and windows:
 *
 *   T<TAB>zone<TAB>start<TAB>end<TAB>spec<TAB>sts<TAB>result<TAB>errmsg
 *   W<TAB>zone<TAB>start<TAB>end<TAB>S<TAB>T<TAB>A<TAB>O<TAB>sts<TAB>start<TAB>end<TAB>origin<TAB>errmsg
 *
 * Times are "sec.nsec" (nsec printed %09ld, so 1000000000 shows as such);
 * an absent option is \N; newlines in messages are written \n. Only inputs
 * whose meaning does not depend on the current time are used. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <string.h>

extern int __pmParseHighResTime(const char *, struct timespec *, struct timespec *,
                                struct timespec *, char **);

static const char *zones[] = {"UTC", "America/New_York", "Australia/Melbourne", "Europe/Berlin",
                              "AEDT-11", "Asia/Kolkata"};

static const struct timespec bounds[][2] = {
    {{1795311800, 186708937}, {1795311828, 207743932}}, /* small-v3 */
    {{1795311772, 104650000}, {1795311800, 125159000}}, /* small-v2 */
    {{1772946000, 500000000}, {1772964000, 0}},         /* 2026-03-08, US DST starts */
    {{1775314800, 0}, {1775437200, 999999999}},         /* 2026-04-04/05, Melbourne DST ends */
    {{1709078400, 0}, {1709337600, 0}},                 /* 2024-02-28 .. 03-02 */
    {{1798757999, 999999999}, {1798772400, 0}},         /* across 2027 new year */
    {{1795311772, 500000000}, {PM_MAX_TIME_T, 0}},      /* live */
};

static const char *specs[] = {
    "+0", "+3", "+2.5", "3", "+1.123456789", "+1min", "+1 hour 30 min", "+0.5", "+0.5s", "+1.5",
    "-0", "-5", "-2.5", "-1.999999999", "-0.5", "+3 days", "+2147483648",
    "+4294967296", "++5", "+-5", "5 parsecs", "garbage", "+garbage", "-garbage", "0x10",
    "+1e2", "  +  7", "+7 msec", "+7 millisecs", "+7 hrs", "+7 mins 5 secs", "+7m5s",
    "@01:43:20", "@ 01:43:20.5", "@01:43:20.123456789", "@01:43:20.9999999999", "@01:43",
    "@1:43pm", "@12:00am", "@13pm", "@Nov 22", "@Nov 22 01:43:20 2026",
    "@Sun Nov 22 01:43:20 2026", "@22 01:43", "@Nov", "@2026",
    "@Nov 22 2026", "@Dec 31 23:59:59.999999999 2026", "@Feb 29 2024", "@Feb 30 2026",
    "@Mar 8 02:30:00 2026", "@Nov 1 01:30:00 2026", "@Apr 5 02:30 2026", "@Oct 4 02:30 2026",
    "@Jan", "@Dec", "@Mar 31", "@:30", "@::5", "@01:43:", "@01:43:20:5", "@01:43:61", "@01:60",
    "@24:00", "@ 0:0", "@",
    "@01:43:20 garbage", "@xyz", "@Nov 22 01:43:20.5 2026", "@\t01:43", "@Oct 25 02:30:00 2026",
    "@Mar 29 02:30 2026", "2026-11-22 01:43:20", "2026-11-22", "2026-11-22 01:43",
    "2026-11-22 1:43:20 pm", "2026-11-22 01:43:20 +0530", "2026-11-22 01:43:20 -05:00",
    "2026-11-22 01:43:20 Z", "2026-11-22 01:43:20Z", "2026-11-22T01:43:20", "2026-11-22 01:43:20 UTC",
    "2026-11-22 01:43:20 EST", "2026-11-22 01:43:20 CEST", "2026/11/22 01:43:20",
    "11/22/2026 01:43:20", "11/22/26", "2026-11-22 01:43:20.5", "2026-03-08 02:30:00",
    "2026-02-30", "2026-11-22 24:00", "2026-11-22 12:00 am", "@2026-11-22 01:43:20",
    "-2026-11-22", "2024-02-29 23:59:59", "1969-12-31 23:59:59",
    "22 Nov 2026", "@22 November 2026 01:43:20", "22-NOV-2026", "Nov 22, 2026", "22 nov. 2026",
    "22 sept 2026", "22 Sep 2026", "22 Juni 2026", "31 Nov 2026", "4pm 22 Nov 2026",
    "2026-11-22 4pm", "22 Nov 26", "22 Nov 2026 12 am", "@22 Nov 2026 13pm", "May 5, 2026 UTC",
};

static const char *starts[] = {NULL, "+3", "@01:43:25", "-10", "+100000", "@Nov 21 2026", "-0"};
static const char *ends[] = {NULL, "+6", "-0", "-3", "@01:43:40", "+1000000"};
static const char *aligns[] = {NULL, "1sec", "0.3", "10min", "7 days", "0", "garbage", "2.5"};
static const char *origins[] = {NULL, "-0", "+2.5", "+10", "@01:43:30", "-1000"};
#define N(a) (sizeof a / sizeof a[0])

static void put(const char *s) {
  if (s == NULL) {
    fputs("\\N", stdout);
    return;
  }
  for (; *s; s++) {
    if (*s == '\n')
      fputs("\\n", stdout);
    else if (*s == '\t')
      fputs("\\t", stdout);
    else
      putchar(*s);
  }
}

static void ts(const struct timespec *t) { printf("%lld.%09ld", (long long)t->tv_sec, t->tv_nsec); }

int main(void) {
  for (unsigned zi = 0; zi < N(zones); zi++) {
    pmNewZone(zones[zi]);
    for (unsigned bi = 0; bi < N(bounds); bi++) {
      struct timespec st = bounds[bi][0], en = bounds[bi][1];
      for (unsigned si = 0; si < N(specs); si++) {
        struct timespec r = {0, 0};
        char *msg = NULL;
        int sts = __pmParseHighResTime(specs[si], &st, &en, &r, &msg);
        printf("T\t%s\t", zones[zi]);
        ts(&st); putchar('\t'); ts(&en); putchar('\t');
        put(specs[si]);
        printf("\t%d\t", sts);
        if (sts < 0) fputs("-", stdout); else ts(&r);
        putchar('\t');
        put(sts < 0 ? msg : "");
        putchar('\n');
      }
      if (zi > 1) continue;
      for (unsigned a = 0; a < N(starts); a++)
        for (unsigned b = 0; b < N(ends); b++)
          for (unsigned c = 0; c < N(aligns); c++)
            for (unsigned d = 0; d < N(origins); d++) {
              struct timespec rs = {0, 0}, re = {0, 0}, ro = {0, 0};
              char *msg = NULL;
              int sts = pmParseHighResTimeWindow(starts[a], ends[b], aligns[c], origins[d], &st,
                                                 &en, &rs, &re, &ro, &msg);
              printf("W\t%s\t", zones[zi]);
              ts(&st); putchar('\t'); ts(&en); putchar('\t');
              put(starts[a]); putchar('\t'); put(ends[b]); putchar('\t');
              put(aligns[c]); putchar('\t'); put(origins[d]);
              printf("\t%d\t", sts);
              if (sts < 0) fputs("-\t-\t-", stdout);
              else { ts(&rs); putchar('\t'); ts(&re); putchar('\t'); ts(&ro); }
              putchar('\t');
              put(sts <= 0 ? msg : "");
              putchar('\n');
            }
    }
  }
  return 0;
}
