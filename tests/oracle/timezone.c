/* Prints what PCP's pmLocaltime and __pmMktime give in many zones installed
 * with pmNewZone, one line per call:
 *
 *   L<TAB>zone<TAB>t<TAB>sec min hour mday mon year wday yday isdst gmtoff<TAB>abbr
 *   M<TAB>zone<TAB>sec min hour mday mon year isdst<TAB>result<TAB>fields<TAB>abbr
 *
 * For L, t is seconds since the epoch; for M the first fields are the
 * struct tm handed to __pmMktime and "fields" what it was rewritten to
 * (result -1 and "-" when mktime failed).
 *
 * Instants: the epoch, a grid every 61 days and 3h17m from 1965 to 2041,
 * every UTC offset change in 1965..2040 (found by a daily scan, then
 * bisected) at -1, 0 and +1 s, far past and future points, and a
 * pseudo-random sample. Mktime requests: wall times around each offset
 * change in 2010..2030 (inside gaps and overlaps) with each DST hint, and a
 * set of out-of-range fields to normalise. */
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

extern time_t __pmMktime(struct tm *);

static const char *zones[] = {
    "UTC", "GMT", "EST", "CET", "", ":", "Europe/Berlin", "Australia/Melbourne",
    ":Australia/Melbourne", "America/New_York", "Asia/Kolkata", "Europe/London",
    "America/Sao_Paulo", "Pacific/Chatham", "Australia/Lord_Howe", "Africa/Casablanca",
    "Antarctica/Troll", "Etc/GMT+5", "EST5EDT", "/usr/share/zoneinfo/Asia/Tokyo", "America",
    "AEDT-11", "AEST-10", "IST-5:30", "EDT+4", "EST+5", "UTC+0", "UTC0",
    "EST5EDT,M3.2.0,M11.1.0", "EST-11EST-10,87/2:00,297/2:00", "EST-11EST-10,89/2:00,299/2:00",
    "CET-1CEST,M3.5.0,M10.5.0/3", "NZST-12NZDT,M9.5.0,M4.1.0/3", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
    "<+0530>-5:30", "EST5EDT,J60,J300", "EST5EDT,J60/1:30:15,J300/25", "EST5EDT4,M3.2.0/26,M11.1.0/-1",
    "AAA+25", "AAA-24:59:59", "EST5EDT,M3.2.0", "EST5EDT,M13.1.0,M11.1.0", "EST5,M3.2.0,M11.1.0",
    "EST5EDT,0,365", "EST5EDT,J0,J365", "garbage", "X1", "ABCD", "AB", "EST 5", "EST+-5", "EST5EDT-,M4.1.0,M10.5.6",
    "EST5EDT+99:99:99,M2.5.6/1:2:3,M12.5.6/-4", "<AB>5", "<ABC", "EST5EDT,M3.2.0/,M11.1.0",
};
#define NZONES (sizeof zones / sizeof zones[0])

static void print_tm(const struct tm *tm) {
  printf("%d %d %d %d %d %d %d %d %d %ld\t%s", tm->tm_sec, tm->tm_min, tm->tm_hour, tm->tm_mday,
         tm->tm_mon, tm->tm_year, tm->tm_wday, tm->tm_yday, tm->tm_isdst, (long)tm->tm_gmtoff,
         tm->tm_zone ? tm->tm_zone : "");
}

static void local(const char *z, time_t t) {
  struct tm tm;
  printf("L\t%s\t%lld\t", z, (long long)t);
  if (pmLocaltime(&t, &tm) == NULL) {
    printf("-\t-\n");
    return;
  }
  print_tm(&tm);
  putchar('\n');
}

static void make(const char *z, const struct tm *in) {
  struct tm tm = *in;
  time_t r;
  printf("M\t%s\t%d %d %d %d %d %d %d\t", z, tm.tm_sec, tm.tm_min, tm.tm_hour, tm.tm_mday, tm.tm_mon,
         tm.tm_year, tm.tm_isdst);
  r = __pmMktime(&tm);
  if (r == (time_t)-1) {
    printf("-1\t-\t-\n");
    return;
  }
  printf("%lld\t", (long long)r);
  print_tm(&tm);
  putchar('\n');
}

static long offset_at(time_t t, int *isdst) {
  struct tm tm;
  pmLocaltime(&t, &tm);
  *isdst = tm.tm_isdst;
  return (long)tm.tm_gmtoff;
}

/* Finds the first second in (lo, hi] whose offset or DST flag differs from lo's. */
static time_t bisect(time_t lo, time_t hi) {
  int d0, d;
  long o0 = offset_at(lo, &d0);
  while (hi - lo > 1) {
    time_t mid = lo + (hi - lo) / 2;
    long o = offset_at(mid, &d);
    if (o == o0 && d == d0)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

static void around_change(const char *z, time_t tr) {
  static const int minutes[] = {-61, -1, 0, 1, 30, 59, 60, 61, 90, 121};
  struct tm before;
  time_t b = tr - 1;
  pmLocaltime(&b, &before);
  for (unsigned i = 0; i < sizeof minutes / sizeof minutes[0]; i++) {
    for (int hint = -1; hint <= 1; hint++) {
      struct tm tm;
      memset(&tm, 0, sizeof tm);
      tm.tm_sec = before.tm_sec + 1;
      tm.tm_min = before.tm_min + minutes[i];
      tm.tm_hour = before.tm_hour;
      tm.tm_mday = before.tm_mday;
      tm.tm_mon = before.tm_mon;
      tm.tm_year = before.tm_year;
      tm.tm_isdst = hint;
      make(z, &tm);
    }
  }
}

static void normalisations(const char *z) {
  static const int cases[][7] = {
      {0, 0, 0, 1, 0, 126, -1},     {61, 59, 23, 31, 11, 126, -1}, {-1, 0, 0, 1, 0, 126, -1},
      {0, -1, 0, 1, 0, 126, -1},    {0, 0, -1, 1, 0, 126, 0},      {0, 0, 0, 0, 0, 126, 1},
      {0, 0, 0, 1, -1, 126, -1},    {0, 0, 0, 1, 12, 126, -1},     {0, 0, 0, 1, 25, 126, -1},
      {0, 0, 0, 1, -13, 126, -1},   {0, 0, 48, 29, 1, 124, -1},    {0, 0, 0, 366, 0, 100, -1},
      {0, 0, 0, 1, 0, 70, -1},      {59, 59, 23, 31, 11, 69, -1},  {0, 0, 0, 1, 0, 0, -1},
      {0, 0, 0, 1, 0, 200, -1},     {0, 0, 0, 1, 0, 1100, -1},     {0, 0, 0, 1, 0, -100, -1},
      {100000, 0, 0, 1, 0, 126, -1}, {0, 100000, 0, 1, 0, 126, 0}, {0, 0, 0, -1000, 0, 126, 1},
      {60, 59, 23, 31, 11, 126, -1}, {0, 30, 2, 8, 2, 126, -1},     {0, 30, 1, 1, 10, 126, -1},
      {0, 30, 2, 29, 2, 126, -1},   {0, 30, 2, 25, 9, 126, -1},    {0, 30, 2, 5, 3, 126, -1},
      {0, 30, 2, 4, 9, 126, -1},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_sec = cases[i][0];
    tm.tm_min = cases[i][1];
    tm.tm_hour = cases[i][2];
    tm.tm_mday = cases[i][3];
    tm.tm_mon = cases[i][4];
    tm.tm_year = cases[i][5];
    tm.tm_isdst = cases[i][6];
    make(z, &tm);
  }
}

static uint64_t lcg = 0x2545F4914F6CDD1DULL;
static int64_t next_random(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int64_t)(lcg >> 11) % 200000000000LL - 100000000000LL;
}

int main(void) {
  static const time_t fixed[] = {0, -1, 1, 86399, 86400, 951782400, 951868799, 1709164800,
                                 1709251199, 2147483647, 2147483648LL, 4102444800LL, 13569465600LL,
                                 32503680000LL, 253402300799LL, -2208988800LL, -2208988801LL,
                                 -5364662400LL, -2147483648LL, -2147483649LL, 1795311772};
  for (unsigned zi = 0; zi < NZONES; zi++) {
    const char *z = zones[zi];
    time_t t, day = 86400;
    time_t start = -157766400; /* 1965-01-01 */
    time_t stop = 2240611200;  /* 2041-01-01 */
    if (pmNewZone(z) < 0) {
      printf("E\t%s\n", z);
      continue;
    }
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) local(z, fixed[i]);
    for (t = start; t < stop; t += 61 * 86400 + 3 * 3600 + 17 * 60) local(z, t);
    for (int i = 0; i < 60; i++) local(z, (time_t)next_random());
    for (t = start; t < stop; t += day) {
      int d0, d1;
      long o0 = offset_at(t, &d0), o1 = offset_at(t + day, &d1);
      if (o0 != o1 || d0 != d1) {
        time_t tr = bisect(t, t + day);
        local(z, tr - 1);
        local(z, tr);
        local(z, tr + 1);
        if (tr >= 1262304000 && tr < 1893456000) around_change(z, tr);
      }
    }
    normalisations(z);
  }
  return 0;
}
