/* Prints PCP's pmParseHighResInterval result for a fixed list of interval
 * strings, one row each:
 *   input<TAB>code<TAB>tv_sec<TAB>tv_nsec<TAB>errmsg
 * input and errmsg are escaped: \\ \t \n and \xHH for other bytes outside
 * 0x20..0x7e. tv_sec/tv_nsec are 0 and errmsg empty unless meaningful.
 * It also checks that the timeval flavour, pmParseInterval, accepts and
 * rejects the same strings with the same message, and exits 1 if not. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_escaped(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\\') fputs("\\\\", stdout);
    else if (*p == '\t') fputs("\\t", stdout);
    else if (*p == '\n') fputs("\\n", stdout);
    else if (*p < 0x20 || *p > 0x7e) printf("\\x%02x", *p);
    else putchar(*p);
  }
}

static int one(const char *input) {
  struct timespec ts = {0, 0};
  struct timeval tv;
  char *err = NULL, *err2 = NULL;
  int sts = pmParseHighResInterval(input, &ts, &err);
  int sts2 = pmParseInterval(input, &tv, &err2);
  put_escaped(input);
  printf("\t%d\t%lld\t%ld\t", sts, sts < 0 ? 0LL : (long long)ts.tv_sec, sts < 0 ? 0L : ts.tv_nsec);
  if (sts < 0) put_escaped(err);
  putchar('\n');
  int same = (sts == sts2) && (sts >= 0 || strcmp(err, err2) == 0);
  if (!same) fprintf(stderr, "pmParseInterval disagrees on \"%s\"\n", input);
  free(err);
  free(err2);
  return same;
}

static const char *const fixed[] = {
  /* plain numbers and white space */
  "0", "", " ", "  ", "\t", "\n", " \t\n\v\f\r", "1", "10", "01", "007", "1.5", ".5", "5.",
  "0.0", "00.000", ".", "..", "1..2", "1.2.3", " 1", "1 ", " 1 ", "\t1\t", "\n2\n", "1e3",
  "1E3", "1e-3", "1e+2", "1e", "1e+", "1.5e1", "1e3sec", "2e0min", "1 2", "1 2 3", "1\t2",
  "1,2", "1;2", "1+2", "+1", "+", "-", "-1", "-0", "-0.0", "- 1", "+ 1", "-0sec", "1 -1",
  /* unit words */
  "1 sec", "1sec", "1 secs", "1 second", "1 seconds", "1 s", "1s", "1ss", "1 S", "1 SEC",
  "1 Second", "1 sEcOnDs", "1 msec", "10msec", "1 msecs", "1 millisecond", "1 milliseconds",
  "1 MSEC", "1ms", "1 usec", "1usec", "1 usecs", "1 microsecond", "1 microseconds",
  "1 nsec", "1nsec", "1 nsecs", "1 nanosecond", "1 nanoseconds", "1 min", "1 mins",
  "1 minute", "1 minutes", "1 m", "1M", "1 hour", "1 hours", "1 hr", "1 hrs", "1 h", "1H",
  "1 hs", "1 day", "1 days", "1 d", "1 ds", "1D",
  /* words that are not units */
  "1 us", "1us", "1 ns", "1ns", "1 microsec", "1 nanosec", "1 millis", "1 week", "1 weeks",
  "1 w", "1 y", "1 year", "1 month", "1 mon", "1 hour2", "1 x", "1 sec_", "1 dayss",
  "1 secss", "1 nanosecondss", "1 ssec", "1 mi", "1 mil", "1 mse", "1 seco",
  /* terms */
  "1sec 2sec", "2 hours 3 min", "1.5h", "4minutes 30sec", "4minutes 30mumble",
  "1h30m", "1h 30m 15s", "1d1h1m1s", "1 day 2 hours 3 minutes 4 seconds 5 msec",
  "1s2", "1 s 2", "2 1s", "1 s s", "1 sec sec", "1sec,2sec", "1sec  2sec", "1sec\t2sec",
  "1min 1msec 1usec 1nsec", "0.5 h 0.5 m", "3 2 1 0", "1.5 1.5 1.5",
  /* words without a number */
  "sec", "s", "msec", "min", "x", "abc", " sec", "sec 1",
  /* junk after a good prefix */
  "1sec!", "1 sec !", "1!", "10 minutes later", "5 sec)", "1/2", "1:30", "1.5.5",
  "1e3e3", "2mumble", "1 sec 2 mumble", "1h30", "1h 30 x",
  /* strtod forms */
  "0x10", "0X1A", "0x", "0x.8", "0x1p3", "0x1P-2", "0x1p", "0xg", "0x1.8p1 sec", "0x10min",
  "inf", "INF", "infinity", "Infinity", "-inf", "infsec", "1e20", "1e400", "1e-400",
  "1e-320", "2147483647", "2147483648", "2147483647.5", "2147483646.9", "2147483647 sec",
  "2147483647 d", "2147483648 msec", "2147483647 2147483647", "2147483647d 2147483647d",
  "99999999999", "1e9", "1e9 1e9 1e9", "4294967296", "1e15", "1e18", "9.2e18", "9.3e18",
  "1e19", "1e300", "9223372036854774784", "9223372036854775295", "9223372036854775296 msec",
  "1e17 msec", "100000000000000 d",
  /* and an undefined one when the total reaches 2^63 seconds */
  "9223372036854775807", "9223372036854775808", "9e18 9e18", "9e18s 1e18ms", "2e18 min",
  "1e17 days",
  /* PCP lets NaN through and returns an undefined timespec */
  "nan", "NaN", "-nan", "nan(123)", "nan(", "nansec", "1 nan",
  /* precision and rounding */
  "1e-10", "0.000000001", "0.0000000005", "0.0000000004", "0.0000000015", "1.0000000015",
  "0.9999999999", "0.99999999949", "1.001", "0.3", "1.3", "2.3msec", "1.7usec", "2.5nsec",
  "0.5nsec", "0.4nsec", "0.6nsec", "1.9nsec", "100.001", "123456.789012345", "0.1 0.2",
  "0.1 0.2 0.3 0.4", "1.23456789 min", "3.333333333333 hours", "1e-9 1e-9", "0.1msec",
  "1000000 usec", "1000000000 nsec", "1999999999 nsec", "86399.999999999",
  "0.000001 sec 0.000001 sec", "12.345678912345 msec", "7.77777777 usec",
  /* non-ASCII and control bytes */
  "1 \xc2\xb5s", "\xc3\xa9", "1\xc3\xa9", "1 sec \xe2\x82\xac", "\x01", "1\x7f", "1 \x80",
  "\xef\xbb\xbf" "1", "1\xc2\xa0sec", "1\x1b[0m", "\t\tx", "1\t\tbad",
};

/* Deterministic extra cases: random numbers of seconds with up to 12
 * decimals, each with a randomly chosen unit, to pin down the rounding. */
static unsigned next_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (*state >> 8) & 0xffffff;
}

int main(void) {
  static const char *const units[] = {"", " sec", "msec", " usec", " nsec", "min", " h", "d", " millisecond"};
  int ok = 1;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) ok &= one(fixed[i]);
  unsigned state = 20231121u;
  for (int i = 0; i < 120; i++) {
    char buf[64];
    unsigned whole = next_random(&state) % (i < 60 ? 100 : 100000);
    unsigned frac_hi = next_random(&state) % 1000000, frac_lo = next_random(&state) % 1000000;
    const char *unit = units[next_random(&state) % (sizeof units / sizeof units[0])];
    snprintf(buf, sizeof buf, "%u.%06u%06u%s", whole, frac_hi, frac_lo, unit);
    ok &= one(buf);
  }
  return ok ? 0 : 1;
}
