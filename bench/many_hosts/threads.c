/* threads: one client fetching from many pmcds, written against PCP's C
 * API alone, so that the same binary runs over PCP's libpcp and over this
 * project's drop-in libpcp.so.3 (LD_LIBRARY_PATH=build/dropin/lib).
 *
 *   threads MODE ROUNDS HOSTFILE METRIC...
 *
 * HOSTFILE holds one host spec a line (scripts/pmcd-fleet.sh hosts DIR).
 * MODE "single": one thread opens a context per host (pmNewContext with
 * PM_CONTEXT_HOST) and looks the names up in each; a round is pmUseContext
 * and pmFetch over every host in turn. MODE "threads": one thread per host,
 * each with its own context; a round is one pmFetch in every thread, the
 * rounds kept in step by a barrier, so a round lasts from its start until
 * the last host answered. Prints one line of "key value" pairs:
 *
 *   hosts N rounds R errors E round_median_us X round_p90_us Y
 *   cpu_us_per_host_fetch Z maxrss_kb M setup_ms S
 *
 * errors counts fetches that failed and metrics whose value set reported
 * an error; the CPU time (user and system, the whole process) covers the
 * fetch rounds alone; setup is the time to open every context and look up
 * the names. Built with
 *   cc -O2 -Wall -Wextra -Werror bench/many_hosts/threads.c -o threads -lpcp -lpthread
 */
#include <pcp/pmapi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct host {
  const char *spec;
  int ctx;
  pmID *pmids;
  long errors;
  pthread_t thread;
};

struct run {
  int rounds;
  int nmetrics;
  char **metrics;
  int nhosts;
  struct host *hosts;
  pthread_barrier_t barrier;
  double *round_us;
};

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double cpu_us(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

static long maxrss_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

static void die(const char *what, const char *who, int sts) {
  fprintf(stderr, "threads: %s %s: %s\n", what, who, pmErrStr(sts));
  exit(1);
}

/* Reads HOSTFILE's non-empty lines into *hosts; returns how many. */
static int read_hosts(const char *path, struct host **hosts) {
  FILE *f = fopen(path, "r");
  char line[1024];
  int n = 0, cap = 0;
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  *hosts = NULL;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, " \t\r\n")] = '\0';
    if (line[0] == '\0') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      *hosts = realloc(*hosts, cap * sizeof **hosts);
      if (*hosts == NULL) exit(1);
    }
    memset(&(*hosts)[n], 0, sizeof **hosts);
    (*hosts)[n].spec = strdup(line);
    n++;
  }
  fclose(f);
  return n;
}

/* Opens h's context (it becomes this thread's current one) and looks the
 * metrics up in it. */
static void open_host(struct run *r, struct host *h) {
  int sts = pmNewContext(PM_CONTEXT_HOST, h->spec);
  if (sts < 0) die("cannot connect to", h->spec, sts);
  h->ctx = sts;
  h->pmids = calloc(r->nmetrics, sizeof *h->pmids);
  if (h->pmids == NULL) exit(1);
  sts = pmLookupName(r->nmetrics, (const char **)r->metrics, h->pmids);
  if (sts < 0) die("cannot look up the metrics on", h->spec, sts);
  if (sts < r->nmetrics) die("some metric is unknown on", h->spec, PM_ERR_NAME);
}

/* One fetch from h's context, which must be current. */
static void fetch_host(struct run *r, struct host *h) {
  pmResult *res;
  int i, sts = pmFetch(r->nmetrics, h->pmids, &res);
  if (sts < 0) {
    h->errors++;
    return;
  }
  for (i = 0; i < res->numpmid; i++) {
    if (res->vset[i]->numval < 0) h->errors++;
  }
  pmFreeResult(res);
}

static void run_single(struct run *r, double *setup_ms, double *cpu) {
  int i, k;
  double t0 = now_us(), c0;
  for (i = 0; i < r->nhosts; i++) open_host(r, &r->hosts[i]);
  *setup_ms = (now_us() - t0) / 1e3;
  c0 = cpu_us();
  for (k = 0; k < r->rounds; k++) {
    double start = now_us();
    for (i = 0; i < r->nhosts; i++) {
      int sts = pmUseContext(r->hosts[i].ctx);
      if (sts < 0) die("cannot use the context of", r->hosts[i].spec, sts);
      fetch_host(r, &r->hosts[i]);
    }
    r->round_us[k] = now_us() - start;
  }
  *cpu = cpu_us() - c0;
}

struct worker {
  struct run *run;
  struct host *host;
};

/* A host's thread: setup, then each round between two barrier waits. */
static void *work(void *arg) {
  struct worker *w = arg;
  int k;
  open_host(w->run, w->host);
  pthread_barrier_wait(&w->run->barrier);
  for (k = 0; k < w->run->rounds; k++) {
    pthread_barrier_wait(&w->run->barrier);
    fetch_host(w->run, w->host);
    pthread_barrier_wait(&w->run->barrier);
  }
  return NULL;
}

static void run_threads(struct run *r, double *setup_ms, double *cpu) {
  struct worker *w = calloc(r->nhosts, sizeof *w);
  int i, k;
  double t0 = now_us(), c0;
  if (w == NULL) exit(1);
  pthread_barrier_init(&r->barrier, NULL, r->nhosts + 1);
  for (i = 0; i < r->nhosts; i++) {
    w[i].run = r;
    w[i].host = &r->hosts[i];
    if (pthread_create(&r->hosts[i].thread, NULL, work, &w[i]) != 0) {
      fprintf(stderr, "threads: cannot create thread %d\n", i);
      exit(1);
    }
  }
  pthread_barrier_wait(&r->barrier);
  *setup_ms = (now_us() - t0) / 1e3;
  c0 = cpu_us();
  for (k = 0; k < r->rounds; k++) {
    double start = now_us();
    pthread_barrier_wait(&r->barrier);
    pthread_barrier_wait(&r->barrier);
    r->round_us[k] = now_us() - start;
  }
  *cpu = cpu_us() - c0;
  for (i = 0; i < r->nhosts; i++) pthread_join(r->hosts[i].thread, NULL);
  pthread_barrier_destroy(&r->barrier);
  free(w);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The nearest-rank quantile q of the sorted v[0..n-1]. */
static double quantile(const double *v, int n, double q) {
  int i = (int)(q * n + 0.999999) - 1;
  if (i < 0) i = 0;
  if (i >= n) i = n - 1;
  return v[i];
}

int main(int argc, char **argv) {
  struct run r;
  double setup_ms, cpu;
  long errors = 0;
  int i, single;
  if (argc < 5 || (strcmp(argv[1], "single") != 0 && strcmp(argv[1], "threads") != 0) ||
      atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: %s single|threads ROUNDS HOSTFILE METRIC...\n", argv[0]);
    return 1;
  }
  single = strcmp(argv[1], "single") == 0;
  memset(&r, 0, sizeof r);
  r.rounds = atoi(argv[2]);
  r.nhosts = read_hosts(argv[3], &r.hosts);
  r.nmetrics = argc - 4;
  r.metrics = argv + 4;
  r.round_us = calloc(r.rounds, sizeof *r.round_us);
  if (r.nhosts == 0 || r.round_us == NULL) {
    fprintf(stderr, "threads: no hosts in %s\n", argv[3]);
    return 1;
  }
  if (single) {
    run_single(&r, &setup_ms, &cpu);
  } else {
    run_threads(&r, &setup_ms, &cpu);
  }
  for (i = 0; i < r.nhosts; i++) errors += r.hosts[i].errors;
  qsort(r.round_us, r.rounds, sizeof *r.round_us, by_value);
  printf("hosts %d rounds %d errors %ld round_median_us %.0f round_p90_us %.0f "
         "cpu_us_per_host_fetch %.2f maxrss_kb %ld setup_ms %.1f\n",
         r.nhosts, r.rounds, errors, quantile(r.round_us, r.rounds, 0.5),
         quantile(r.round_us, r.rounds, 0.9), cpu / ((double)r.rounds * r.nhosts), maxrss_kb(),
         setup_ms);
  return 0;
}
