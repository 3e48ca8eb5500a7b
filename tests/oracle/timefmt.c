/* Prints PCP's time stamp texts for several zones (set with pmNewZone) and
 * instants, one per line, newlines in the text written as "\n":
 *
 *   C<TAB>zone<TAB>sec<TAB>pmCtime text
 *   P<TAB>zone<TAB>sec<TAB>usec<TAB>pmPrintStamp text
 *   H<TAB>zone<TAB>sec<TAB>nsec<TAB>pmPrintHighResStamp text
 *   V<X><TAB>zone<TAB>sec<TAB>nsec<TAB>pmval's stamp with X = -X count
 *   D<v><TAB>zone<TAB>sec<TAB>nsec<TAB>pmdumplog's label form, archive v
 *
 * The V and D lines are composed from pmLocaltime/pmCtime exactly as the
 * pmval and pmdumplog sources compose them. Instants span year 1 to 12000,
 * the epoch and DST changes; fractions include unnormalised values. */
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *zones[] = {"UTC", "Europe/Berlin", "Australia/Melbourne", "America/New_York",
                              "Asia/Kolkata", "AEDT-11", "EST5EDT,M3.2.0,M11.1.0",
                              "EST-11EST-10,87/2:00,297/2:00"};

static void put_text(const char *s) {
  for (; *s; s++) {
    if (*s == '\n')
      fputs("\\n", stdout);
    else
      putchar(*s);
  }
}

static void print_with(void (*fn)(FILE *, const void *), const void *arg) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  fn(f, arg);
  fclose(f);
  put_text(buf);
  free(buf);
}

static void pmval_stamp(FILE *out, int xflag, time_t sec, long nsec);
static void pmdumplog_date(FILE *out, int version, time_t sec, long nsec);

struct composed {
  int kind; /* -X count for pmval, archive version for pmdumplog */
  time_t sec;
  long frac;
};
static void pmval_into(FILE *f, const void *arg) {
  const struct composed *c = arg;
  pmval_stamp(f, c->kind, c->sec, c->frac);
}
static void pmdumplog_into(FILE *f, const void *arg) {
  const struct composed *c = arg;
  pmdumplog_date(f, c->kind, c->sec, c->frac);
}

static void stamp(FILE *f, const void *arg) { pmPrintStamp(f, (const struct timeval *)arg); }
static void hrstamp(FILE *f, const void *arg) { pmPrintHighResStamp(f, (const struct timespec *)arg); }

/* pmval's mytimestamp() */
static void pmval_stamp(FILE *out, int xflag, time_t sec, long nsec) {
  struct tm tmp;
  pmLocaltime(&sec, &tmp);
  if (!xflag) {
    fprintf(out, "%02d:%02d:%02d.%03d", tmp.tm_hour, tmp.tm_min, tmp.tm_sec, (int)nsec / 1000000);
  } else {
    char timebuf[32];
    char *ddmm, *yr;
    memset(timebuf, 0, sizeof timebuf);
    ddmm = pmCtime(&sec, timebuf);
    ddmm[10] = '\0';
    yr = &ddmm[20];
    if (xflag == 1)
      fprintf(out, "%s %02d:%02d:%02d.%06d %4.4s", ddmm, tmp.tm_hour, tmp.tm_min, tmp.tm_sec,
             (int)nsec / 1000, yr);
    else
      fprintf(out, "%s %02d:%02d:%02d.%09d %4.4s", ddmm, tmp.tm_hour, tmp.tm_min, tmp.tm_sec, (int)nsec,
             yr);
  }
}

/* pmdumplog's label lines ("commencing ...") */
static void pmdumplog_date(FILE *out, int version, time_t sec, long nsec) {
  char timebuf[32];
  char *ddmm, *yr;
  memset(timebuf, 0, sizeof timebuf);
  ddmm = pmCtime(&sec, timebuf);
  ddmm[19] = '\0';
  yr = &ddmm[20];
  if (version == 2)
    fprintf(out, "%s.%06d %4.4s", ddmm, (int)(nsec / 1000), yr);
  else
    fprintf(out, "%s.%09d %4.4s", ddmm, (int)nsec, yr);
}

int main(void) {
  static const time_t fixed[] = {0, -1, 1795311772, 1795311800, 951782400, 1709251199,
                                 2147483647, 2147483648LL, 253402300799LL, 253402300800LL,
                                 316592000000LL, -30610224000LL, -62135596800LL, -2208988800LL,
                                 1774746000, 1774749600, 1792890000, 1775350800, 1791043200};
  static const long fracs[] = {0, 1, 104650, 186708937, 999999, 999999999, 1000000000, 1999999999, -5};
  for (unsigned zi = 0; zi < sizeof zones / sizeof zones[0]; zi++) {
    const char *z = zones[zi];
    pmNewZone(z);
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0] + 120; i++) {
      time_t t = i < sizeof fixed / sizeof fixed[0] ? fixed[i]
                                                    : (time_t)-300000000 + (time_t)(i * 37654321L);
      char buf[32];
      memset(buf, 0, sizeof buf);
      printf("C\t%s\t%lld\t", z, (long long)t);
      put_text(pmCtime(&t, buf));
      putchar('\n');
      for (unsigned j = 0; j < sizeof fracs / sizeof fracs[0]; j++) {
        long fr = fracs[(i + j) % (sizeof fracs / sizeof fracs[0])];
        if (j > 2) break;
        struct timeval tv = {t, fr};
        struct timespec ts = {t, fr};
        printf("P\t%s\t%lld\t%ld\t", z, (long long)t, fr);
        print_with(stamp, &tv);
        printf("\nH\t%s\t%lld\t%ld\t", z, (long long)t, fr);
        print_with(hrstamp, &ts);
        putchar('\n');
        for (int x = 0; x <= 2; x++) {
          struct composed c = {x, t, fr};
          printf("V%d\t%s\t%lld\t%ld\t", x, z, (long long)t, fr);
          print_with(pmval_into, &c);
          putchar('\n');
        }
        for (int v = 2; v <= 3; v++) {
          struct composed c = {v, t, fr};
          printf("D%d\t%s\t%lld\t%ld\t", v, z, (long long)t, fr);
          print_with(pmdumplog_into, &c);
          putchar('\n');
        }
      }
    }
  }
  return 0;
}
