/* Runs a script of event-array operations against PCP's own pmdaEvent*
 * (libpcp_pmda, opened with dlopen because regen.sh links -lpcp only) and
 * pmUnpack[HighRes]EventRecords (libpcp), printing one row per line:
 *
 *   <script line><TAB><result>
 *
 * Commands (IDX is an array index, VALUE a number, or for type 6 the rest
 * of the line with the escapes \\ \t \n \xHH, or for type 7 hex bytes):
 *   new | newhr                      pmdaEventNew[HighRes]Array
 *   reset IDX | resethr IDX          pmdaEventReset[HighRes]Array
 *   release IDX | releasehr IDX      pmdaEventRelease[HighRes]Array
 *   rec IDX SEC USEC FLAGS           pmdaEventAddRecord
 *   rechr IDX SEC NSEC FLAGS         pmdaEventAddHighResRecord
 *   missed IDX SEC USEC N            pmdaEventAddMissedRecord
 *   missedhr IDX SEC NSEC N          pmdaEventAddHighResMissedRecord
 *   param IDX PMID TYPE VALUE        pmdaEventAddParam (PMID as D.C.I)
 *   paramhr IDX PMID TYPE VALUE      pmdaEventHighResAddParam
 *   get IDX | gethr IDX              pmdaEvent[HighRes]GetAddr: the array's
 *                                    bytes in hex, then what unpacking gives
 *   unpack HEX | unpackhr HEX        unpacks a hand-made value block
 *                                    (header word included, host order)
 *
 * PCP leaves the padding after string and aggregate values as whatever
 * the buffer held; those bytes are printed as 00. Unpacked records print
 * as "ns=<sec*1e9+frac> <pmid>=<value>..." with values "i:<lval>" (in
 * situ) or "b<vtype>:<payload hex>".
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int (*new_fn)(void);
static int (*reset_fn)(int);
static int (*release_fn)(int);
static int (*rec_fn)(int, struct timeval *, int);
static int (*missed_fn)(int, struct timeval *, int);
static int (*param_fn)(int, pmID, int, pmAtomValue *);
static pmEventArray *(*get_fn)(int);
static int (*newhr_fn)(void);
static int (*resethr_fn)(int);
static int (*releasehr_fn)(int);
static int (*rechr_fn)(int, struct timespec *, int);
static int (*missedhr_fn)(int, struct timespec *, int);
static int (*paramhr_fn)(int, pmID, int, pmAtomValue *);
static pmHighResEventArray *(*gethr_fn)(int);

static void *need(void *lib, const char *name) {
  void *f = dlsym(lib, name);
  if (f == NULL) {
    fprintf(stderr, "events: no %s\n", name);
    exit(1);
  }
  return f;
}

static void load_library(void) {
  void *lib = dlopen("libpcp_pmda.so.3", RTLD_NOW | RTLD_GLOBAL);
  if (lib == NULL) {
    fprintf(stderr, "events: %s\n", dlerror());
    exit(1);
  }
  new_fn = need(lib, "pmdaEventNewArray");
  reset_fn = need(lib, "pmdaEventResetArray");
  release_fn = need(lib, "pmdaEventReleaseArray");
  rec_fn = need(lib, "pmdaEventAddRecord");
  missed_fn = need(lib, "pmdaEventAddMissedRecord");
  param_fn = need(lib, "pmdaEventAddParam");
  get_fn = need(lib, "pmdaEventGetAddr");
  newhr_fn = need(lib, "pmdaEventNewHighResArray");
  resethr_fn = need(lib, "pmdaEventResetHighResArray");
  releasehr_fn = need(lib, "pmdaEventReleaseHighResArray");
  rechr_fn = need(lib, "pmdaEventAddHighResRecord");
  missedhr_fn = need(lib, "pmdaEventAddHighResMissedRecord");
  paramhr_fn = need(lib, "pmdaEventHighResAddParam");
  gethr_fn = need(lib, "pmdaEventHighResGetAddr");
}

/* Padding ranges [from, to) of each array, to print as zeros. */
#define MAXARRAYS 64
#define MAXPADS 256
static struct {
  int n;
  int from[MAXPADS], to[MAXPADS];
} pads[MAXARRAYS];

static size_t unescape(char *s) {
  char *w = s;
  for (char *r = s; *r; r++) {
    if (*r != '\\' || r[1] == '\0') {
      *w++ = *r;
      continue;
    }
    r++;
    if (*r == 'n') *w++ = '\n';
    else if (*r == 't') *w++ = '\t';
    else if (*r == 'x' && r[1] && r[2]) {
      char hex[3] = {r[1], r[2], 0};
      *w++ = (char)strtol(hex, NULL, 16);
      r += 2;
    } else *w++ = *r;
  }
  *w = '\0';
  return (size_t)(w - s);
}

static size_t unhex(const char *s, unsigned char *out, size_t max) {
  size_t n = 0;
  for (; s[0] && s[1] && n < max; s += 2) {
    char hex[3] = {s[0], s[1], 0};
    out[n++] = (unsigned char)strtol(hex, NULL, 16);
  }
  return n;
}

static void hex(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static char *word(char **rest) {
  char *w = *rest;
  char *sp = strchr(w, ' ');
  if (sp) {
    *sp = '\0';
    *rest = sp + 1;
  } else {
    *rest = w + strlen(w);
  }
  return w;
}

static void print_results(int n, pmResult **res, pmHighResResult **hres) {
  printf("n=%d", n);
  for (int r = 0; r < n; r++) {
    long long ns;
    int numpmid;
    pmValueSet **vset;
    if (hres) {
      ns = (long long)hres[r]->timestamp.tv_sec * 1000000000LL + hres[r]->timestamp.tv_nsec;
      numpmid = hres[r]->numpmid;
      vset = hres[r]->vset;
    } else {
      ns = (long long)res[r]->timestamp.tv_sec * 1000000000LL + res[r]->timestamp.tv_usec * 1000LL;
      numpmid = res[r]->numpmid;
      vset = res[r]->vset;
    }
    printf(" | ns=%lld", ns);
    for (int j = 0; j < numpmid; j++) {
      pmValueSet *vs = vset[j];
      printf(" %s=", pmIDStr(vs->pmid));
      if (vs->valfmt == PM_VAL_INSITU) {
        printf("i:%d", vs->vlist[0].value.lval);
      } else {
        pmValueBlock *vb = vs->vlist[0].value.pval;
        printf("b%d:", vb->vtype);
        hex((unsigned char *)vb->vbuf, vb->vlen - PM_VAL_HDR_SIZE);
      }
    }
  }
  if (res) pmFreeEventResult(res);
  if (hres) pmFreeHighResEventResult(hres);
}

static void unpack_block(void *block, int highres) {
  pmValueSet vs;
  vs.pmid = pmID_build(1, 2, 3);
  vs.numval = 1;
  vs.valfmt = PM_VAL_DPTR;
  vs.vlist[0].inst = PM_IN_NULL;
  vs.vlist[0].value.pval = (pmValueBlock *)block;
  pmResult **res = NULL;
  pmHighResResult **hres = NULL;
  int n = highres ? pmUnpackHighResEventRecords(&vs, 0, &hres) : pmUnpackEventRecords(&vs, 0, &res);
  if (n < 0) {
    printf("%d", n);
    return;
  }
  print_results(n, res, hres);
}

static int current_len(int idx, int highres) {
  if (highres) {
    pmHighResEventArray *a = gethr_fn(idx);
    return a ? a->ea_len : -1;
  }
  pmEventArray *a = get_fn(idx);
  return a ? a->ea_len : -1;
}

static int add_param(int idx, char *rest, int highres) {
  unsigned d, c, i;
  char *id = word(&rest);
  sscanf(id, "%u.%u.%u", &d, &c, &i);
  int type = atoi(word(&rest));
  pmAtomValue av;
  static unsigned char agg[1 << 16];
  memset(&av, 0, sizeof av);
  switch (type) {
    case PM_TYPE_32: av.l = (int32_t)strtol(rest, NULL, 0); break;
    case PM_TYPE_U32: av.ul = (uint32_t)strtoul(rest, NULL, 0); break;
    case PM_TYPE_64: av.ll = strtoll(rest, NULL, 0); break;
    case PM_TYPE_U64: av.ull = strtoull(rest, NULL, 0); break;
    case PM_TYPE_FLOAT: av.f = strtof(rest, NULL); break;
    case PM_TYPE_DOUBLE: av.d = strtod(rest, NULL); break;
    case PM_TYPE_STRING: unescape(rest); av.cp = rest; break;
    default: {
      pmValueBlock *vb = (pmValueBlock *)agg;
      size_t n = unhex(rest, (unsigned char *)vb->vbuf, sizeof agg - 8);
      vb->vtype = PM_TYPE_AGGREGATE;
      vb->vlen = PM_VAL_HDR_SIZE + n;
      av.vbp = vb;
    }
  }
  int before = current_len(idx, highres);
  int sts = highres ? paramhr_fn(idx, pmID_build(d, c, i), type, &av) : param_fn(idx, pmID_build(d, c, i), type, &av);
  if (sts == 0 && before >= 0 && idx < MAXARRAYS && pads[idx].n < MAXPADS) {
    /* the value's padding: after the header words and vlen-4 value bytes */
    unsigned char *base = highres ? (unsigned char *)gethr_fn(idx) : (unsigned char *)get_fn(idx);
    uint32_t word;
    memcpy(&word, base + before + 4, 4);
    int vlen = (int)(word & 0xffffff);
    int after = current_len(idx, highres);
    pads[idx].from[pads[idx].n] = before + 4 + vlen;
    pads[idx].to[pads[idx].n++] = after;
  }
  return sts;
}

static void get(int idx, int highres) {
  unsigned char *base = highres ? (unsigned char *)gethr_fn(idx) : (unsigned char *)get_fn(idx);
  if (base == NULL) {
    printf("NULL");
    return;
  }
  uint32_t word;
  memcpy(&word, base, 4);
  size_t len = word & 0xffffff;
  unsigned char *copy = malloc(len);
  memcpy(copy, base, len);
  for (int p = 0; idx < MAXARRAYS && p < pads[idx].n; p++) {
    for (int b = pads[idx].from[p]; b < pads[idx].to[p] && b < (int)len; b++) copy[b] = 0;
  }
  hex(copy, len);
  printf(" ");
  unpack_block(copy, highres);
  free(copy);
}

static void run(char *line) {
  char *rest = line;
  char *cmd = word(&rest);
  int highres = strlen(cmd) > 2 && strcmp(cmd + strlen(cmd) - 2, "hr") == 0;
  if (strcmp(cmd, "new") == 0 || strcmp(cmd, "newhr") == 0) {
    int idx = highres ? newhr_fn() : new_fn();
    if (idx >= 0 && idx < MAXARRAYS) pads[idx].n = 0;
    printf("%d", idx);
    return;
  }
  if (strcmp(cmd, "unpack") == 0 || strcmp(cmd, "unpackhr") == 0) {
    unsigned char raw[4096];
    size_t n = unhex(rest, raw, sizeof raw);
    uint32_t word = 0;
    memcpy(&word, raw, n < 4 ? n : 4);
    size_t len = word & 0xffffff;
    /* the block as a pmValueBlock: at least its declared length, zero filled */
    size_t size = (len > n ? len : n) + 64;
    unsigned char *block = calloc(1, size);
    memcpy(block, raw, n);
    unpack_block(block, highres);
    free(block);
    return;
  }
  int idx = atoi(word(&rest));
  if (strncmp(cmd, "reset", 5) == 0) {
    if (idx >= 0 && idx < MAXARRAYS) pads[idx].n = 0;
    printf("%d", highres ? resethr_fn(idx) : reset_fn(idx));
  } else if (strncmp(cmd, "release", 7) == 0) {
    printf("%d", highres ? releasehr_fn(idx) : release_fn(idx));
  } else if (strncmp(cmd, "rec", 3) == 0 || strncmp(cmd, "missed", 6) == 0) {
    long long sec = strtoll(word(&rest), NULL, 0);
    long long frac = strtoll(word(&rest), NULL, 0);
    int n = (int)strtol(word(&rest), NULL, 0);
    int missed = cmd[0] == 'm';
    int sts;
    if (highres) {
      struct timespec ts = {(time_t)sec, (long)frac};
      sts = missed ? missedhr_fn(idx, &ts, n) : rechr_fn(idx, &ts, n);
    } else {
      struct timeval tv = {(time_t)sec, (suseconds_t)frac};
      sts = missed ? missed_fn(idx, &tv, n) : rec_fn(idx, &tv, n);
    }
    printf("%d", sts);
  } else if (strncmp(cmd, "param", 5) == 0) {
    printf("%d", add_param(idx, rest, highres));
  } else if (strncmp(cmd, "get", 3) == 0) {
    get(idx, highres);
  } else {
    printf("unknown command");
  }
}

int main(void) {
  char line[8192];
  load_library();
  while (fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '\0' || line[0] == '#') continue;
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", line);
    printf("%s\t", line);
    run(copy);
    putchar('\n');
    fflush(stdout);
  }
  return 0;
}
