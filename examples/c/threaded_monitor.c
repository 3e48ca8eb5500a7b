/* threaded_monitor: a monitor on several threads, one metric per thread,
 * each thread with a context of its own on the same source. A context
 * belongs to the thread that uses it (pmNewContext makes it the calling
 * thread's current context, and the current context is per thread), so
 * the threads fetch independently: from a pmcd they wait for their
 * answers side by side, and over an archive each replays at its own
 * position.
 *
 *   threaded_monitor (-a ARCHIVE | -h HOST) [-s SAMPLES] [-t INTERVAL] METRIC...
 *
 * Each thread takes SAMPLES samples INTERVAL apart (an archive: replayed
 * from its start, interpolated at INTERVAL steps) and writes its lines to
 * a buffer of its own; once all threads are done their lines are printed
 * in the order of the metrics: "METRIC TIME VALUE[,VALUE...]", raw values
 * (counters not turned into rates), "?" when there is no value.
 *
 * Build: cc threaded_monitor.c $(pkg-config --cflags --libs pmapi) -lpthread
 */
#include <pcp/pmapi.h>
#include <pthread.h>

struct watcher {
  const char *metric;
  pthread_t thread;
  char *out;      /* this thread's lines (open_memstream) */
  size_t outlen;
};

static int type = PM_CONTEXT_HOST, samples = 5;
static const char *source;
static struct timeval interval = {1, 0};

static void *watch(void *arg) {
  struct watcher *w = arg;
  FILE *f = open_memstream(&w->out, &w->outlen);
  pmID pmid;
  pmDesc desc;
  int ctx, sts;

  /* This thread's own context, current in this thread only. */
  if ((ctx = pmNewContext(type, source)) < 0) {
    fprintf(f, "%s %s\n", w->metric, pmErrStr(ctx));
    fclose(f);
    return NULL;
  }
  if ((sts = pmLookupName(1, &w->metric, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0) {
    fprintf(f, "%s %s\n", w->metric, pmErrStr(sts));
  } else if (type == PM_CONTEXT_ARCHIVE) {
    pmLogLabel label;
    pmGetArchiveLabel(&label);
    sts = pmSetMode(PM_MODE_INTERP, &label.ll_start,
                    (int)(interval.tv_sec * 1000 + interval.tv_usec / 1000));
  }
  for (int s = 0; sts >= 0 && s < samples; s++) {
    pmResult *r;
    if (s > 0 && type != PM_CONTEXT_ARCHIVE) {
      struct timespec pause = {interval.tv_sec, interval.tv_usec * 1000};
      nanosleep(&pause, NULL);
    }
    if ((sts = pmFetch(1, &pmid, &r)) < 0) {
      if (sts != PM_ERR_EOL) fprintf(f, "%s %s\n", w->metric, pmErrStr(sts));
      break;
    }
    fprintf(f, "%s ", w->metric);
    pmPrintStamp(f, &r->timestamp);
    fputc(' ', f);
    if (r->vset[0]->numval <= 0) fputc('?', f);
    for (int j = 0; j < r->vset[0]->numval; j++) {
      pmAtomValue a;
      const pmValueSet *vs = r->vset[0];
      if (j > 0) fputc(',', f);
      if (pmExtractValue(vs->valfmt, &vs->vlist[j], desc.type, &a, PM_TYPE_DOUBLE) >= 0)
        fprintf(f, "%.3f", a.d);
      else
        pmPrintValue(f, vs->valfmt, desc.type, &vs->vlist[j], 1); /* a string */
    }
    fputc('\n', f);
    pmFreeResult(r);
  }
  pmDestroyContext(ctx);
  fclose(f);
  return NULL;
}

int main(int argc, char **argv) {
  int c, n;
  char *err;

  while ((c = getopt(argc, argv, "a:h:s:t:")) != -1) {
    switch (c) {
    case 'a': type = PM_CONTEXT_ARCHIVE; source = optarg; break;
    case 'h': type = PM_CONTEXT_HOST; source = optarg; break;
    case 's': samples = atoi(optarg); break;
    case 't':
      if (pmParseInterval(optarg, &interval, &err) < 0) {
        fprintf(stderr, "%s", err);
        free(err);
        return 2;
      }
      break;
    default: source = NULL; optind = argc; break;
    }
  }
  if (source == NULL || optind >= argc) {
    fprintf(stderr, "Usage: %s (-a ARCHIVE | -h HOST) [-s SAMPLES] [-t INTERVAL] METRIC...\n", argv[0]);
    return 2;
  }
  n = argc - optind;
  struct watcher *w = calloc((size_t)n, sizeof *w);
  for (int i = 0; i < n; i++) {
    w[i].metric = argv[optind + i];
    pthread_create(&w[i].thread, NULL, watch, &w[i]);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(w[i].thread, NULL);
    fputs(w[i].out, stdout);
    free(w[i].out);
  }
  free(w);
  return 0;
}
