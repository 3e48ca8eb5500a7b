/* fetch_timer.h: the clock readings and the report line of the fetch-rate
 * benchmarks (bench/host_fetch, bench/local_fetch), shared by their C and
 * C++ programs so every client is timed the same way.
 *
 *   struct fetch_timer t;
 *   fetch_timer_start(&t);
 *   for (i = 0; i < n; i++) fetch();
 *   fetch_timer_report(&t, "libpcp   ", "", n);
 *   // "libpcp       31441 fetches/s     8.91 us CPU/fetch"
 */
#ifndef PMAPI_BENCH_FETCH_TIMER_H_
#define PMAPI_BENCH_FETCH_TIMER_H_

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* User plus system CPU time of this process, in seconds. */
static inline double fetch_timer_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* Monotonic wall-clock time, in seconds. */
static inline double fetch_timer_wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

struct fetch_timer {
  double cpu0;
  double wall0;
};

static inline void fetch_timer_start(struct fetch_timer *t) {
  t->cpu0 = fetch_timer_cpu();
  t->wall0 = fetch_timer_wall();
}

/* Prints "WHO [WHAT ]RATE fetches/s  CPU us CPU/fetch" for n fetches since
 * the start; WHAT (the metric) is printed in 10 columns when not empty. */
static inline void fetch_timer_report(const struct fetch_timer *t, const char *who,
                                      const char *what, long n) {
  double wall = fetch_timer_wall() - t->wall0;
  double cpu = fetch_timer_cpu() - t->cpu0;
  if (what[0] != '\0') {
    printf("%s %-10s %10.0f fetches/s  %7.3f us CPU/fetch\n", who, what, n / wall, cpu / n * 1e6);
  } else {
    printf("%s %10.0f fetches/s  %7.2f us CPU/fetch\n", who, n / wall, cpu / n * 1e6);
  }
}

#endif /* PMAPI_BENCH_FETCH_TIMER_H_ */
