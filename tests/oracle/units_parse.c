/* Runs PCP's pmParseUnitsStr over hand-picked odd strings and over strings
 * built from every unit keyword, exponent and numeric form. One line each:
 *
 *   input<TAB>result
 *
 * The input is escaped: bytes outside 0x20..0x7e and the backslash are
 * written as \xHH (the backslash as \\). The result is
 * "ok<TAB>dimSpace dimTime dimCount scaleSpace scaleTime scaleCount<TAB>
 * multiplier as %a<TAB>its 64 bits in hex", or "err<TAB>code<TAB>errmsg", or
 * "abort" when libpcp dies on the input (it asserts on some time scales),
 * which is why each parse runs in a child process. */
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const odd[] = {
    "", " ", "   ", "\t", "\n", " \t\n\v\f\r ", "/", " / ", "//", "/ /", "///",
    "sec/", "/sec", "/ sec", "sec /", "sec//sec", "sec/sec/sec", "1/", "/1", "1/1", "2/4",
    "Kbyte/sec", "Kbyte / sec", "Kbytes/second", "kbyte/sec", "KBYTE/SEC", "MB/s", "MB/S",
    "mb/s", "GB/hour", "Gbyte / min", "Mbyte/sec^2", "Mbyte/millisec^2", "byte/byte",
    "KB/MB", "MB/KB", "bytes/Kbyte", "count x 10^6", "count x 10^6 / sec", "COUNT X 10^6",
    "count  x 10^6", "count x  10^6", "count x 10 ^6", "count x 10^+6", "count x 10^06",
    "count x 10^8", "count x 10^9", "count x 10^-9", "count x 10^1", "count x 10^0",
    "count x 10^6^2", "count x 10^-8^-8", "count x 10", "count x 10 / sec", "count x10",
    "countx 10", "count x", "count x 1", "x 10", "x 10^6", "10^6", "1/sec", "sec^-1",
    "/ sec^-1", "sec^-8", "sec^-9", "sec^16", "sec^15", "/ sec^15", "sec^7", "sec^8",
    "sec^ 2", "sec ^2", "sec^2 ", " sec^2", "sec^2^3", "sec^^2", "sec^", "sec^x", "sec^-",
    "sec^+1", "sec^1", "sec^01", "sec^1.0", "sec^0", "sec^0 sec", "sec^0 sec^0 sec^-3",
    "2 bytes", "0.5 kilobyte", "0.5 Kilobyte", "1.5 Kbyte", "2 bytes / 3 sec",
    "byte^2/ms^3", "byte^2 / ms^3", "bytes^2/milliseconds^3", "byte^-2/ms^-3",
    "Bytes", "BYTES", "bYtE", "Sec", "SECONDS", "MiLLiSeC", "NanoSeconds", "hOuR",
    "sec junk", "junk sec", "sec1", "1sec", "sec 1", "sec,", "sec;", "sec.", "sec-",
    "x 10^99", "count x 10^99", "1e99", "1e99 / 1e-99", "1e308", "1e309", "-1e309",
    "1e-307", "1e-308", "1e-309", "1e-320", "1e-330", "4.9e-324", "2.2250738585072014e-308",
    "1.7976931348623157e308", "1.7976931348623159e308", "0", "0 sec", "sec / 0",
    "0/0", "-0", "-0 / 0", "0 / -0", "-1", "-2 sec", "- 2 sec", "--2", "-.5", ".5", "5.",
    ".", "-", "-.", "..5", "5..", "1.2.3", "1-2", "1+2", "+2", "+2 sec", "2e", "2e+",
    "2e-", "2e5", "2E5", "2e+5", "2e-5", "2 e5", "0x10", "0X10", "0x", "0x1p-3", "0x1P+3",
    "0x.8", "0x1.8p1 bytes", "0xg", "0b101", "0o17", "017", "1_000", "1,000", "1'000",
    "inf", "-inf", "-INF", "-infinity", "-Infinity sec", "-infinit", "nan", "-nan",
    "-NaN", "-nan(123)", "-nan(0x1234)", "-nan(abc", "-nan()", "sec/-inf", "sec / -nan",
    "2 2", "2 3 4 sec", "1 2 3 4 5 6 7 8 9 10", "1e200 1e200", "1e-200 1e-200",
    "1e300 / 1e-300", "1e-300 / 1e300", "3/7", "7/3", "0.1 / 0.3", "10 / 3 sec",
    "sec sec", "sec millisec", "sec byte sec", "byte byte", "count count", "byte sec count",
    "count sec byte", "count^2 sec^-3 byte^4", "byte^7 sec^7 count^7 / byte^8 sec^8 count^8",
    "byte^8 / byte", "byte^-8 / byte^8", "byte^7 / byte^-8", "/ byte^8", "/ byte^9",
    "/ sec^9", "/ count^9", "byte^-8 / byte^-8", "sec^-8 / sec", "count^7 / count^-1",
    "Kbyte^2 / Mbyte", "Mbyte^2 / Kbyte^3", "Ybyte / byte", "byte / Ybyte", "Ybyte^7 / byte^-7",
    "space-15 / space-3", "space-15^2 / space-15", "space-1", "space-16", "space-0",
    "space-00", "space-01", "space--1", "space-", "space", "space-1^2", "SPACE-9",
    "time-1", "time-5", "time-6", "time-15", "time-16", "time-0^2", "TIME-3",
    "time-6 / sec", "sec / time-6", "time-6^0", "time-15^0", "time-5^0", "time-5 / time-0",
    "time-9 / time-9", "time-7 count / sec", "time-6 / byte", "byte / time-6",
    "hour / min", "min / hour", "hour^2 / ns^3", "ns^7 / hour^7", "hour^7 / ns^8",
    "us / ms", "microsec / millisec", "h/hr", "hr/h", "s/s", "ms", "us", "ns", "µs",
    "\xc2\xb5s", "\xce\xbcs", "s\xc2\xb5", "sec\xc2\xa0", "\xc2\xa0sec", "Kbyte\xe2\x81\xbb\xc2\xb9",
    "bytes\xff", "\xff", "\x80", "\x01sec", "sec\x01", "sec\x7f", "\x1b[1m sec",
    "byte\tsec", "byte\nsec", "byte\rsec", "byte\vsec", "byte\fsec", "byte\t/\tsec",
    "\tbyte\t", "sec\t^2", "count\tx 10^6", "count x\t10^6",
    "KiB", "MiB/s", "GiB / hour", "kib", "KIB", "Kibibytes", "kibibyte", "Mebibyte",
    "Gibibytes", "Tebibyte", "Pebibytes", "Exbibyte", "Zebibytes", "Yobibyte", "Zettabyte",
    "Yottabytes", "ZB", "YB", "ZiB", "YiB", "Kb", "kb", "mb", "b", "B", "kB", "KiBs",
    "kilobytes", "KILOBYTES", "megabyte", "gigabyte", "terabyte", "petabyte", "exabyte",
    "bit", "bits", "kbit/s", "Kibyte", "Kbytes^2", "Kbyte^-1", "kilo", "kilobyte s",
    "millisecond", "milliseconds", "msec", "msecs", "usec", "nsec", "secs", "sec.",
    "minutes", "minute", "mins", "m", "hours", "hrs", "day", "days", "week", "Hz", "%",
    "percent", "counts", "Counts", "COUNT", "events", "count/sec", "counts / second",
    "count x 10^3 / count x 10^-2^2", "count x 10^3 / count", "count / count x 10^3",
    "count x 10^7 / count x 10^-8", "count x 10^-8^7 / count x 10^7^-8",
    "2 count x 10^3 / 5 count", "1000 / count x 10^3",
    "millisec / sec", "sec / millisec", "nanosec^2 / hour", "2 hour / 3 min^2",
    "Kbyte sec / Mbyte ms", "Kbyte count x 10^2 sec / Mbyte count ms",
    "Kbyte^2 count x 10^2^-3 sec^4 / Mbyte^-1 count^5 ms^6",
    "byte / count x 10^6 sec", "/ count", "/ count x 10^6", "/ space-9", "/ time-9",
    "byte / sec count", "byte count / sec", "  2   Kbyte  /  4   sec  ",
    "3 / Kbyte", "Kbyte 3", "Kbyte / 3", "3 Kbyte / sec 4",
};

/* Writes `s` escaped so the line stays one TSV field. */
static void print_escaped(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\\') printf("\\\\");
    else if (*p >= 0x20 && *p <= 0x7e) putchar(*p);
    else printf("\\x%02x", *p);
  }
}

/* Parses in a child process so an assertion in libpcp does not end the run;
 * the child writes the result through a pipe. */
static void run(const char *input) {
  int fd[2];
  char buf[512];
  ssize_t n, got = 0;
  int status;
  pid_t pid;

  fflush(stdout);
  if (pipe(fd) < 0) exit(1);
  pid = fork();
  if (pid < 0) exit(1);
  if (pid == 0) {
    pmUnits u;
    double mult;
    char *errmsg = NULL;
    uint64_t bits;
    int sts;
    close(fd[0]);
    /* the assertion text is not part of the table */
    if (freopen("/dev/null", "w", stderr) == NULL) _exit(3);
    sts = pmParseUnitsStr(input, &u, &mult, &errmsg);
    if (sts < 0) {
      n = snprintf(buf, sizeof(buf), "err\t%d\t%s", sts, errmsg ? errmsg : "");
    } else {
      memcpy(&bits, &mult, sizeof(bits));
      n = snprintf(buf, sizeof(buf), "ok\t%d %d %d %d %d %d\t%a\t%016llx", u.dimSpace,
                   u.dimTime, u.dimCount, u.scaleSpace, u.scaleTime, u.scaleCount, mult,
                   (unsigned long long)bits);
    }
    if (write(fd[1], buf, n) != n) _exit(2);
    _exit(0);
  }
  close(fd[1]);
  while ((n = read(fd[0], buf + got, sizeof(buf) - 1 - got)) > 0) got += n;
  close(fd[0]);
  buf[got] = '\0';
  waitpid(pid, &status, 0);
  print_escaped(input);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    printf("\t%s\n", buf);
  else
    printf("\tabort\n");
}

static const char *const time_words[] = {
    "nanoseconds", "nanosecond", "nanosec", "ns", "microseconds", "microsecond", "microsec",
    "us", "milliseconds", "millisecond", "millisec", "ms", "seconds", "second", "sec", "s",
    "minutes", "minute", "min", "hours", "hour", "hr", "h", "time-0", "time-1", "time-2",
    "time-3", "time-4", "time-5", "time-6", "time-7", "time-8", "time-9", "time-10",
    "time-11", "time-12", "time-13", "time-14", "time-15",
};
static const char *const space_words[] = {
    "bytes", "byte", "KB", "KiB", "Kbytes", "Kbyte", "Kibibytes", "Kibibyte", "Kilobytes",
    "Kilobyte", "MB", "MiB", "Mbytes", "Mbyte", "Mebibytes", "Mebibyte", "Megabytes",
    "Megabyte", "GB", "GiB", "Gbytes", "Gbyte", "Gibibytes", "Gibibyte", "Gigabytes",
    "Gigabyte", "TB", "TiB", "Tbytes", "Tbyte", "Tebibytes", "Tebibyte", "Terabytes",
    "Terabyte", "PB", "PiB", "Pbytes", "Pbyte", "Pebibytes", "Pebibyte", "Petabytes",
    "Petabyte", "EB", "EiB", "Ebytes", "Ebyte", "Exbibytes", "Exbibyte", "Exabytes",
    "Exabyte", "ZB", "ZiB", "Zbytes", "Zbyte", "Zebibytes", "Zebibyte", "Zettabytes",
    "Zettabyte", "YB", "YiB", "Ybytes", "Ybyte", "Yobibytes", "Yobibyte", "Yottabytes",
    "Yottabyte", "space-0", "space-1", "space-2", "space-3", "space-4", "space-5",
    "space-6", "space-7", "space-8", "space-9", "space-10", "space-11", "space-12",
    "space-13", "space-14", "space-15",
};
static const char *const count_words[] = {
    "count x 10^-8", "count x 10^-7", "count x 10^-6", "count x 10^-5", "count x 10^-4",
    "count x 10^-3", "count x 10^-2", "count x 10^-1", "count x 10^2", "count x 10^3",
    "count x 10^4", "count x 10^5", "count x 10^6", "count x 10^7", "count x 10", "counts",
    "count",
};
/* Near misses of the keywords. */
static const char *const other_words[] = {
    "byt", "bytess", "Kbyt", "Kilo", "KBs", "Ki", "time-", "time-16", "time-01", "space-16",
    "space-01", "nano", "nanos", "mili", "millis", "sek", "se", "hou", "hourss", "minu",
    "coun", "countss", "count x 10^8", "count x 10^-9", "count x 10^0", "count x 10^1",
    "counts x 10", "count X 10", "Count x 10^3", "x", "^2", "10",
};
/* One keyword per scale, for the dividend/divisor products. */
static const char *const time_scales[] = {
    "nanosec", "microsec", "millisec", "sec", "min", "hour", "time-6", "time-7",
    "time-8", "time-9", "time-10", "time-11", "time-12", "time-13", "time-14", "time-15",
};
static const char *const space_scales[] = {
    "byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte",
    "space-9", "space-10", "space-11", "space-12", "space-13", "space-14", "space-15",
};
static const char *const count_scales[] = {
    "count x 10^-8", "count x 10^-7", "count x 10^-6", "count x 10^-5", "count x 10^-4",
    "count x 10^-3", "count x 10^-2", "count x 10^-1", "count", "count x 10",
    "count x 10^2", "count x 10^3", "count x 10^4", "count x 10^5", "count x 10^6",
    "count x 10^7",
};
static const char *const powers[] = {
    "", "^-8", "^-7", "^-6", "^-5", "^-4", "^-3", "^-2", "^-1", "^0", "^1", "^2", "^3",
    "^4", "^5", "^6", "^7", "^8", "^9", "^10", "^11", "^12", "^13", "^14", "^15", "^16",
    "^-9", "^+1", "^01", "^", "^^1", "^1^1",
};
static const char *const numbers[] = {
    "0", "-0", "1", "2", "-3", "0.1", ".25", "5.", "-.5", "1e3", "1E-3", "1e+2", "2.5e-1",
    "0x10", "0x1p-4", "0x1.8p+1", "-0x8", "1e308", "1e309", "1e-308", "1e-320", "1e-400",
    "-inf", "-infinity", "-nan", "-nan(7)", "007", "1.", "-", ".", "1e", "0x", "1.2.3",
    "3-4", "12345678901234567890", "0.000000000000000000001",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every keyword alone, upper-cased, with every power, with a number, in a
 * divisor and twice over. */
static void keyword_forms(const char *const *words, size_t n) {
  char buf[256];
  for (size_t i = 0; i < n; i++) {
    const char *w = words[i];
    for (size_t p = 0; p < COUNT(powers); p++) {
      snprintf(buf, sizeof(buf), "%s%s", w, powers[p]);
      run(buf);
      snprintf(buf, sizeof(buf), "/ %s%s", w, powers[p]);
      run(buf);
    }
    size_t k = 0;
    for (; w[k] && k + 1 < sizeof(buf); k++)
      buf[k] = (w[k] >= 'a' && w[k] <= 'z') ? w[k] - 'a' + 'A' : w[k];
    buf[k] = '\0';
    run(buf);
    snprintf(buf, sizeof(buf), "3 %s", w);
    run(buf);
    snprintf(buf, sizeof(buf), "%s/%s", w, w);
    run(buf);
    snprintf(buf, sizeof(buf), "%s %s", w, w);
    run(buf);
    snprintf(buf, sizeof(buf), "%ss", w);
    run(buf);
    snprintf(buf, sizeof(buf), "%s^0 %s^2", w, w);
    run(buf);
  }
}

/* a^p / b^q for every pair of scales of one dimension, with exponents
 * chosen to sweep -8..8 on both sides. */
static void scale_pairs(const char *const *words) {
  static const char *const ex[] = {"", "^2", "^-1", "^3", "^-2", "^7", "^-8", "^8", "^0"};
  char buf[256];
  int k = 0;
  for (int a = 0; a < 16; a++)
    for (int b = 0; b < 16; b++, k++) {
      snprintf(buf, sizeof(buf), "%s%s / %s%s", words[a], ex[k % 9], words[b],
               ex[(k / 9 + a) % 9]);
      run(buf);
    }
}

/* All three dimensions on both sides, with numbers, so that the order in
 * which the scale factors are folded into the multiplier shows in the
 * rounding of the result. */
static void mixed_forms(void) {
  static const char *const nums[] = {"3", "0.7", "11", "1e-3"};
  static const char *const ex[] = {"", "^2", "^-1", "^3", "^-3"};
  char buf[256];
  for (int i = 0; i < 400; i++) {
    snprintf(buf, sizeof(buf), "%s %s%s %s%s %s%s / %s %s%s %s%s %s%s", nums[i % 4],
             space_scales[i % 9], ex[i % 5], count_scales[(i * 3) % 16], ex[(i / 5) % 5],
             time_scales[i % 6], ex[(i / 25) % 5], nums[(i / 4) % 4], space_scales[(i * 7) % 9],
             ex[(i / 2) % 5], count_scales[(i * 5 + 1) % 16], ex[(i / 3) % 5],
             time_scales[(i * 5) % 6], ex[(i / 7) % 5]);
    run(buf);
  }
}

static void number_forms(void) {
  char buf[256];
  for (size_t i = 0; i < COUNT(numbers); i++) {
    run(numbers[i]);
    snprintf(buf, sizeof(buf), "%s Kbyte", numbers[i]);
    run(buf);
    snprintf(buf, sizeof(buf), "sec %s", numbers[i]);
    run(buf);
    snprintf(buf, sizeof(buf), "/ %s", numbers[i]);
    run(buf);
    for (size_t j = 0; j < COUNT(numbers); j += 5) {
      snprintf(buf, sizeof(buf), "%s byte / %s sec", numbers[i], numbers[j]);
      run(buf);
    }
  }
}

/* Long inputs: padding, many numbers, long words and overflowing products. */
static void long_forms(void) {
  static char buf[20000];
  static const struct { const char *piece; int times; const char *tail; } longs[] = {
      {" ", 5000, "sec"}, {"1 ", 3000, "sec"}, {"2 ", 1100, "byte"}, {"0.5 ", 1100, "byte"},
      {"9", 400, ""}, {"0", 400, "1"}, {"x", 5000, ""}, {"sec ", 2, ""}, {"/", 300, ""},
      {"a", 10000, " sec"}, {"10 ", 330, "/ 10"}, {"Kbyte ", 1, "/ sec / sec"},
      {"\t", 4000, "count x 10^6 / \t hour^2"},
  };
  for (size_t i = 0; i < COUNT(longs); i++) {
    size_t len = strlen(longs[i].piece), pos = 0;
    for (int t = 0; t < longs[i].times && pos + len < sizeof(buf) - 64; t++) {
      memcpy(buf + pos, longs[i].piece, len);
      pos += len;
    }
    snprintf(buf + pos, sizeof(buf) - pos, "%s", longs[i].tail);
    run(buf);
  }
  /* "0." followed by 330 zeros then 1: an underflowing literal. */
  strcpy(buf, "0.");
  memset(buf + 2, '0', 330);
  strcpy(buf + 332, "1 sec");
  run(buf);
}

int main(void) {
  for (size_t i = 0; i < COUNT(odd); i++) run(odd[i]);
  keyword_forms(time_words, COUNT(time_words));
  keyword_forms(space_words, COUNT(space_words));
  keyword_forms(count_words, COUNT(count_words));
  keyword_forms(other_words, COUNT(other_words));
  scale_pairs(time_scales);
  scale_pairs(space_scales);
  scale_pairs(count_scales);
  mixed_forms();
  number_forms();
  long_forms();
  return 0;
}
