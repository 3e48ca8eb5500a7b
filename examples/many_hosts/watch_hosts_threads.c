/* watch_hosts_threads: the C way to fetch from many hosts at once: one
 * thread per host, each with its own host context. Contexts are
 * independent, so the threads' fetches run together and a slow host holds
 * up only its own thread. (C++ programs have pmapi::HostGroup, which does
 * the same in one thread: examples/many_hosts/watch_hosts.cc.)
 *
 *   watch_hosts_threads SAMPLES HOST... -- METRIC...
 *
 * Prints, after every host has answered a round, one line per host in the
 * order given: the host, then each metric's first value, or the error.
 * Builds with  cc watch_hosts_threads.c -lpcp -lpthread  over PCP's
 * libpcp or this library (pkg-config --cflags --libs pmapi).
 */
#include <pcp/pmapi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_METRICS 16

struct host {
  const char *spec;
  int ctx;                    /* its own context, used by its thread only */
  pmID ids[MAX_METRICS];
  pmDesc descs[MAX_METRICS];
  char line[1024];            /* this round's line */
  pthread_t thread;
};

static int nmetrics;
static const char *metrics[MAX_METRICS];
static int samples;
static pthread_barrier_t round_start, round_end;

/* Appends " name=value" (or the error) for metric k of result r. */
static void append_value(struct host *h, const pmResult *r, int k) {
  char text[256];
  const pmValueSet *vs = r->vset[k];
  if (vs->numval < 0) {
    snprintf(text, sizeof text, "%s", pmErrStr(vs->numval));
  } else if (vs->numval == 0) {
    snprintf(text, sizeof text, "(no values)");
  } else {
    pmAtomValue a;
    int sts = pmExtractValue(vs->valfmt, &vs->vlist[0], h->descs[k].type, &a, h->descs[k].type);
    if (sts < 0)
      snprintf(text, sizeof text, "%s", pmErrStr(sts));
    else
      pmAtomStr_r(&a, h->descs[k].type, text, sizeof text);
    if (sts >= 0 && h->descs[k].type == PM_TYPE_STRING) free(a.cp);
  }
  size_t used = strlen(h->line);
  snprintf(h->line + used, sizeof h->line - used, " %s=%s", metrics[k], text);
}

/* One host's round: a fetch in this thread's own context. */
static void fetch_once(struct host *h) {
  pmResult *r;
  int sts;
  snprintf(h->line, sizeof h->line, "%s", h->spec);
  if (h->ctx < 0) {
    size_t used = strlen(h->line);
    snprintf(h->line + used, sizeof h->line - used, " %s", pmErrStr(h->ctx));
    return;
  }
  pmUseContext(h->ctx);
  if ((sts = pmFetch(nmetrics, h->ids, &r)) < 0) {
    size_t used = strlen(h->line);
    snprintf(h->line + used, sizeof h->line - used, " %s", pmErrStr(sts));
    return;
  }
  for (int k = 0; k < nmetrics; k++) append_value(h, r, k);
  pmFreeResult(r);
}

static void *host_thread(void *arg) {
  struct host *h = arg;
  h->ctx = pmNewContext(PM_CONTEXT_HOST, h->spec);
  if (h->ctx >= 0 && pmLookupName(nmetrics, metrics, h->ids) < 0) {
    pmDestroyContext(h->ctx);
    h->ctx = PM_ERR_NAME;
  }
  for (int k = 0; h->ctx >= 0 && k < nmetrics; k++) {
    if (h->ids[k] == PM_ID_NULL || pmLookupDesc(h->ids[k], &h->descs[k]) < 0)
      h->descs[k].type = PM_TYPE_NOSUPPORT;
  }
  for (int s = 0; s < samples; s++) {
    pthread_barrier_wait(&round_start);
    fetch_once(h);
    pthread_barrier_wait(&round_end);
  }
  if (h->ctx >= 0) pmDestroyContext(h->ctx);
  return NULL;
}

int main(int argc, char **argv) {
  int nhosts = 0, i;
  struct host *hosts;
  if (argc < 5) {
    fprintf(stderr, "Usage: %s SAMPLES HOST... -- METRIC...\n", argv[0]);
    return 2;
  }
  samples = atoi(argv[1]);
  hosts = calloc((size_t)argc, sizeof *hosts);
  for (i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) hosts[nhosts++].spec = argv[i];
  for (i++; i < argc && nmetrics < MAX_METRICS; i++) metrics[nmetrics++] = argv[i];
  if (nhosts == 0 || nmetrics == 0) {
    fprintf(stderr, "%s: need hosts and metrics\n", argv[0]);
    return 2;
  }
  pthread_barrier_init(&round_start, NULL, (unsigned)nhosts + 1);
  pthread_barrier_init(&round_end, NULL, (unsigned)nhosts + 1);
  for (i = 0; i < nhosts; i++) pthread_create(&hosts[i].thread, NULL, host_thread, &hosts[i]);
  for (int s = 0; s < samples; s++) {
    pthread_barrier_wait(&round_start);
    pthread_barrier_wait(&round_end);
    for (i = 0; i < nhosts; i++) printf("%s\n", hosts[i].line);
    printf("\n");
  }
  for (i = 0; i < nhosts; i++) pthread_join(hosts[i].thread, NULL);
  free(hosts);
  return 0;
}
