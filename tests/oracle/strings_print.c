/* Prints what PCP's pmPrintValue writes for a systematic set of values, one
 * row per call, tab separated:
 *
 *   print <valfmt> <type> <minwidth> <lval hex> <vtype> <payload hex> <text>
 *
 * For valfmt PM_VAL_INSITU the value is <lval> (vtype and payload are "-"
 * and empty); otherwise it is a pmValueBlock of type <vtype> whose vbuf
 * holds <payload> (host byte order) and whose vlen is 4 + its length.
 * <text> is escaped: backslash, tab and newline as \\ \t \n, any other byte
 * outside 0x20..0x7e as \xHH. Run with TZ=UTC: event timestamps are
 * printed in local time. Event summaries are also printed in other zones:
 *
 *   zone <Olson name> <valfmt> <type> <minwidth> - <vtype> <payload hex> <text>
 */
#include <pcp/pmapi.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_escaped(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') fputs("\\\\", stdout);
    else if (c == '\t') fputs("\\t", stdout);
    else if (c == '\n') fputs("\\n", stdout);
    else if (c < 0x20 || c > 0x7e) printf("\\x%02x", c);
    else putchar(c);
  }
  putchar('\n');
}

static void put_hex(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

/* Runs pmPrintValue into memory and prints the row. */
static const char *zone_name;  /* when set, rows are "zone" rows */

static void row(int valfmt, int type, int minwidth, int32_t lval, int vtype, const unsigned char *p,
                size_t n) {
  pmValue v;
  pmValueBlock *vb = NULL;
  v.inst = PM_IN_NULL;
  if (valfmt == PM_VAL_INSITU) {
    v.value.lval = lval;
  } else {
    vb = malloc(PM_VAL_HDR_SIZE + n + 8);
    memset(vb, 0, PM_VAL_HDR_SIZE + n + 8);
    vb->vtype = vtype;
    vb->vlen = PM_VAL_HDR_SIZE + n;
    memcpy(vb->vbuf, p, n);
    v.value.pval = vb;
  }
  char *out = NULL;
  size_t outlen = 0;
  FILE *f = open_memstream(&out, &outlen);
  pmPrintValue(f, valfmt, type, &v, minwidth);
  fclose(f);
  if (zone_name)
    printf("zone\t%s\t%d\t%d\t%d\t", zone_name, valfmt, type, minwidth);
  else
    printf("print\t%d\t%d\t%d\t", valfmt, type, minwidth);
  if (valfmt == PM_VAL_INSITU) {
    printf("%08x\t-\t", (uint32_t)lval);
  } else {
    printf("-\t%d\t", vtype);
    put_hex(p, n);
  }
  putchar('\t');
  put_escaped(out, outlen);
  free(out);
  free(vb);
}

/* A growable byte buffer for building value payloads. */
struct buf {
  unsigned char b[512];
  size_t n;
};

static void add(struct buf *b, const void *p, size_t n) {
  memcpy(b->b + b->n, p, n);
  b->n += n;
}
static void add32(struct buf *b, uint32_t v) { add(b, &v, 4); }
static void add64(struct buf *b, uint64_t v) { add(b, &v, 8); }

static void add_param(struct buf *b, uint32_t pmid, int type, const void *val, size_t n) {
  add32(b, pmid);
  add32(b, (uint32_t)(PM_VAL_HDR_SIZE + n) | ((uint32_t)type << 24));
  add(b, val, n);
  while (b->n % 4) b->b[b->n++] = 0;
}

static void add_record(struct buf *b, int highres, int64_t sec, int64_t frac, uint32_t flags,
                       int32_t nparams) {
  if (highres) {
    add64(b, (uint64_t)sec);
    add64(b, (uint64_t)frac);
  } else {
    add32(b, (uint32_t)sec);
    add32(b, (uint32_t)frac);
  }
  add32(b, flags);
  add32(b, (uint32_t)nparams);
}

#define MAXBLOCKS 64
struct block {
  int vtype;
  struct buf data;
};
static struct block events[MAXBLOCKS];
static int nevents;

static struct buf *new_event(int vtype, int32_t nrecords) {
  struct block *e = &events[nevents++];
  e->vtype = vtype;
  e->data.n = 0;
  add32(&e->data, (uint32_t)nrecords);
  return &e->data;
}

static void make_events(void) {
  for (int hr = 0; hr <= 1; hr++) {
    int t = hr ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;
    int64_t fr = hr ? 123456789 : 123456;
    int64_t fr2 = hr ? 999999999 : 999999;
    uint32_t u = 42;
    struct buf *b;

    b = new_event(t, 0);
    b = new_event(t, 1);
    add_record(b, hr, 1000000000, fr, PM_EVENT_FLAG_POINT, 0);

    b = new_event(t, 1);
    add_record(b, hr, 1700000000, fr2, PM_EVENT_FLAG_POINT | PM_EVENT_FLAG_ID, 2);
    add_param(b, 0x0f000c0b, PM_TYPE_U32, &u, 4);
    add_param(b, 0x0f000c0c, PM_TYPE_STRING, "hi", 3);

    b = new_event(t, 2);
    add_record(b, hr, 86399, 0, PM_EVENT_FLAG_START, 1);
    add_param(b, 1, PM_TYPE_STRING, "abcde", 6);
    add_record(b, hr, 86400 + 3661, fr, PM_EVENT_FLAG_END, 0);

    b = new_event(t, 3);
    add_record(b, hr, 100, fr, PM_EVENT_FLAG_POINT, 1);
    add_param(b, 2, PM_TYPE_U32, &u, 4);
    add_record(b, hr, 200, fr, PM_EVENT_FLAG_MISSED, 5);
    add_record(b, hr, 300, fr2, PM_EVENT_FLAG_POINT, 0);

    /* a missed record first: PCP does not step over it */
    b = new_event(t, 3);
    add_record(b, hr, 400, 1000, PM_EVENT_FLAG_MISSED, 4);
    add_record(b, hr, 500, 2000, PM_EVENT_FLAG_POINT, 0);
    add_record(b, hr, 600, 3000, PM_EVENT_FLAG_POINT, 0);

    b = new_event(t, 2);
    add_record(b, hr, 700, 0, PM_EVENT_FLAG_MISSED, 0);
    add_record(b, hr, 800, 0, PM_EVENT_FLAG_POINT, 0);

    b = new_event(t, 4);
    add_record(b, hr, 1234567890, fr, PM_EVENT_FLAG_POINT, 3);
    add_param(b, 3, PM_TYPE_64, "\1\2\3\4\5\6\7\10", 8);
    add_param(b, 4, PM_TYPE_AGGREGATE, "xyz", 3);
    add_param(b, 5, PM_TYPE_AGGREGATE, "", 0);
    add_record(b, hr, 1234567891, fr, PM_EVENT_FLAG_POINT, 0);
    add_record(b, hr, 1234567892, fr, PM_EVENT_FLAG_POINT, 1);
    add_param(b, 6, PM_TYPE_STRING, "0123456789", 11);
    add_record(b, hr, 1234567893, fr2, PM_EVENT_FLAG_PARENT, 0);

    b = new_event(t, -1);
    add_record(b, hr, 5, 5, 0, 0);

    /* the vtype in the block header is not looked at */
    b = new_event(PM_TYPE_AGGREGATE, 1);
    add_record(b, hr, 43200, fr, PM_EVENT_FLAG_POINT, 0);
  }
}

static const int types[] = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100, 255};
#define NTYPES (sizeof types / sizeof *types)

static void minwidths(int valfmt, int type, int32_t lval, int vtype, const unsigned char *p, size_t n,
                      int all) {
  static const int some[] = {-4, 0, 1, 5, 12};
  if (all) {
    row(valfmt, type, -4, lval, vtype, p, n);
    for (int w = 0; w <= 12; w++) row(valfmt, type, w, lval, vtype, p, n);
  } else {
    for (size_t i = 0; i < sizeof some / sizeof *some; i++) row(valfmt, type, some[i], lval, vtype, p, n);
  }
}

static void insitu(void) {
  float f15 = 1.5f, fneg = -1234.5678f, fnan = NAN, finf = INFINITY;
  int32_t fbits[4];
  memcpy(&fbits[0], &f15, 4);
  memcpy(&fbits[1], &fneg, 4);
  memcpy(&fbits[2], &fnan, 4);
  memcpy(&fbits[3], &finf, 4);
  const int32_t lvals[] = {0, 1, -1, 42, 123456789, -123456789, INT32_MAX, INT32_MIN, 0x41424344,
                           0x20202020, fbits[0], fbits[1], fbits[2], fbits[3],
                           /* logging control words: state bits and deltas */
                           2 | (5000 << 4), 15 | (60000 << 4), 8 | (1 << 4), 0x0ffffff0 | 9};
  for (size_t t = 0; t < NTYPES; t++)
    for (size_t i = 0; i < sizeof lvals / sizeof *lvals; i++)
      minwidths(PM_VAL_INSITU, types[t], lvals[i], 0, NULL, 0, 1);
}

static void blocks(void) {
  struct buf plain[64];
  int nplain = 0;
  const int64_t i64[] = {0, 1, -1, INT64_MAX, INT64_MIN, 1234567890123LL};
  const double dbl[] = {1.5, -1e300, NAN, INFINITY, 0.1, 1e-5, 3.141592653589793};
  const float flt[] = {1.5f, -0.1f, NAN, -INFINITY, 3.4e38f, 16777217.0f};
  for (size_t i = 0; i < sizeof i64 / sizeof *i64; i++) {
    plain[nplain].n = 0;
    add(&plain[nplain++], &i64[i], 8);
  }
  for (size_t i = 0; i < sizeof dbl / sizeof *dbl; i++) {
    plain[nplain].n = 0;
    add(&plain[nplain++], &dbl[i], 8);
  }
  for (size_t i = 0; i < sizeof flt / sizeof *flt; i++) {
    plain[nplain].n = 0;
    add(&plain[nplain++], &flt[i], 4);
  }
  static const char *strs[] = {"", "hello", "tab\tin", "with\0nul", "ab", "abcdefg",
                               "0123456789012345678901234567890123456789", "\x80\xff high"};
  static const size_t strlens[] = {1, 6, 7, 9, 3, 8, 41, 12};
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
    plain[nplain].n = 0;
    add(&plain[nplain++], strs[i], strlens[i]);
  }
  /* printable aggregates (no NUL), binary ones, and odd sizes */
  static const char *aggs[] = {"", "x", "abc", "abcd", "abcdefgh", "a b c d e f g h i j", "\x01\x02\x03",
                               "\xde\xad\xbe\xef\x00\x01\x02"};
  static const size_t agglens[] = {0, 1, 3, 4, 8, 19, 3, 7};
  for (size_t i = 0; i < sizeof aggs / sizeof *aggs; i++) {
    plain[nplain].n = 0;
    add(&plain[nplain++], aggs[i], agglens[i]);
  }
  plain[nplain].n = 0;
  for (int i = 0; i < 100; i++) plain[nplain].b[plain[nplain].n++] = (unsigned char)(i * 7);
  nplain++;

  /* each payload with the vtype its size suggests, and as AGGREGATE */
  for (int k = 0; k < nplain; k++) {
    const struct buf *b = &plain[k];
    int natural;
    if (k < 6) natural = PM_TYPE_64;
    else if (k < 13) natural = PM_TYPE_DOUBLE;
    else if (k < 19) natural = PM_TYPE_FLOAT;
    else if (k < 27) natural = PM_TYPE_STRING;
    else natural = PM_TYPE_AGGREGATE;
    int vts[] = {natural, PM_TYPE_AGGREGATE, 0, PM_TYPE_U64, PM_TYPE_UNKNOWN};
    int nvts = (k < 6) ? 5 : 3;
    for (int v = 0; v < nvts; v++) {
      if (v > 0 && vts[v] == natural) continue;
      for (size_t t = 0; t < NTYPES; t++) {
        if (types[t] == PM_TYPE_EVENT || types[t] == PM_TYPE_HIGHRES_EVENT) continue;
        int all = (v == 0);
        minwidths(PM_VAL_DPTR, types[t], 0, vts[v], b->b, b->n, all);
        if (all) minwidths(PM_VAL_SPTR, types[t], 0, vts[v], b->b, b->n, 0);
      }
    }
    row(3, PM_TYPE_AGGREGATE, 0, 0, natural, b->b, b->n);
    row(3, PM_TYPE_DOUBLE, 3, 0, natural, b->b, b->n);
    row(7, PM_TYPE_UNKNOWN, 0, 0, natural, b->b, b->n);
  }

  static const int event_view_types[] = {PM_TYPE_EVENT, PM_TYPE_HIGHRES_EVENT, PM_TYPE_AGGREGATE,
                                         PM_TYPE_UNKNOWN, PM_TYPE_32, PM_TYPE_STRING};
  for (int e = 0; e < nevents; e++)
    for (size_t t = 0; t < sizeof event_view_types / sizeof *event_view_types; t++) {
      int type = event_view_types[t];
      /* PCP walks an event array as the type says, so give each walker its own layout */
      int highres_block = e >= nevents / 2;
      if (type == PM_TYPE_EVENT && highres_block) continue;
      if (type == PM_TYPE_HIGHRES_EVENT && !highres_block) continue;
      minwidths(PM_VAL_DPTR, type, 0, events[e].vtype, events[e].data.b, events[e].data.n,
                type == PM_TYPE_EVENT || type == PM_TYPE_HIGHRES_EVENT);
    }
}

/* Event timestamps follow $TZ; show them in zones with odd offsets and DST. */
static void zones(void) {
  static const char *names[] = {"Asia/Kolkata", "America/New_York", "Australia/Lord_Howe",
                                "Pacific/Chatham"};
  for (size_t z = 0; z < sizeof names / sizeof *names; z++) {
    setenv("TZ", names[z], 1);
    tzset();
    zone_name = names[z];
    for (int e = 0; e < nevents; e++) {
      int type = e >= nevents / 2 ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;
      row(PM_VAL_DPTR, type, 0, 0, events[e].vtype, events[e].data.b, events[e].data.n);
    }
  }
  zone_name = NULL;
  setenv("TZ", "UTC", 1);
  tzset();
}

int main(void) {
  make_events();
  insitu();
  blocks();
  zones();
  return 0;
}
