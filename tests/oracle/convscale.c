/* Prints PCP's pmConvScale over all types and many unit pairs, one row per
 * call:
 *
 *   type TAB iunits TAB ounits TAB input TAB code TAB output
 *
 * Units are "dimSpace,dimTime,dimCount,scaleSpace,scaleTime,scaleCount".
 * The input and output are printed by type: 32/U32/64/U64 in decimal, FLOAT
 * and DOUBLE as "%a" then the raw bits in hex; "-" for other types and for
 * the output of a failed call. Where PCP's integer scale arithmetic divides
 * by zero (the factors overflow 64 bits) the call traps; the code column
 * then says SIGFPE. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pcp/pmapi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf trap;

static void on_fpe(int sig) {
  (void)sig;
  siglongjmp(trap, 1);
}

static void print_atom(int type, const pmAtomValue *av) {
  uint32_t fbits;
  uint64_t dbits;
  switch (type) {
    case PM_TYPE_32: printf("%d", av->l); break;
    case PM_TYPE_U32: printf("%u", av->ul); break;
    case PM_TYPE_64: printf("%" PRId64, av->ll); break;
    case PM_TYPE_U64: printf("%" PRIu64, av->ull); break;
    case PM_TYPE_FLOAT:
      memcpy(&fbits, &av->f, sizeof fbits);
      printf("%a %08" PRIx32, (double)av->f, fbits);
      break;
    case PM_TYPE_DOUBLE:
      memcpy(&dbits, &av->d, sizeof dbits);
      printf("%a %016" PRIx64, av->d, dbits);
      break;
    default: printf("-"); break;
  }
}

static pmUnits units(int ds, int dt, int dc, int ss, int st, int sc) {
  pmUnits u;
  memset(&u, 0, sizeof u);
  u.dimSpace = ds;
  u.dimTime = dt;
  u.dimCount = dc;
  u.scaleSpace = ss;
  u.scaleTime = st;
  u.scaleCount = sc;
  return u;
}

static void print_units(const pmUnits *u) {
  printf("%d,%d,%d,%d,%d,%d", u->dimSpace, u->dimTime, u->dimCount, u->scaleSpace, u->scaleTime,
         u->scaleCount);
}

static void run(int type, const pmAtomValue *in, pmUnits iu, pmUnits ou) {
  pmAtomValue out;
  memset(&out, 0, sizeof out);
  printf("%d\t", type);
  print_units(&iu);
  printf("\t");
  print_units(&ou);
  printf("\t");
  print_atom(type, in);
  printf("\t");
  fflush(stdout);
  if (sigsetjmp(trap, 1) != 0) {
    printf("SIGFPE\t-\n");
    return;
  }
  int sts = pmConvScale(type, in, &iu, &out, &ou);
  printf("%d\t", sts);
  if (sts < 0)
    printf("-");
  else
    print_atom(type, &out);
  printf("\n");
}

/* Input values: a short list for the wide sweeps, a long one for the few
 * unit pairs where every value is tried. */
struct value {
  int type;
  pmAtomValue av;
};

static struct value vals_short[16];
static size_t n_short;
static struct value vals_long[128];
static size_t n_long;

static void add(struct value *list, size_t *n, int type, pmAtomValue av) {
  list[*n].type = type;
  list[*n].av = av;
  (*n)++;
}

static pmAtomValue l32(int32_t v) { pmAtomValue a; memset(&a, 0, sizeof a); a.l = v; return a; }
static pmAtomValue u32(uint32_t v) { pmAtomValue a; memset(&a, 0, sizeof a); a.ul = v; return a; }
static pmAtomValue l64(int64_t v) { pmAtomValue a; memset(&a, 0, sizeof a); a.ll = v; return a; }
static pmAtomValue u64(uint64_t v) { pmAtomValue a; memset(&a, 0, sizeof a); a.ull = v; return a; }
static pmAtomValue f32(float v) { pmAtomValue a; memset(&a, 0, sizeof a); a.f = v; return a; }
static pmAtomValue f64(double v) { pmAtomValue a; memset(&a, 0, sizeof a); a.d = v; return a; }

static void make_values(void) {
  add(vals_short, &n_short, PM_TYPE_32, l32(1));
  add(vals_short, &n_short, PM_TYPE_32, l32(-1537));
  add(vals_short, &n_short, PM_TYPE_U32, u32(3000000001u));
  add(vals_short, &n_short, PM_TYPE_64, l64(-1537));
  add(vals_short, &n_short, PM_TYPE_64, l64(9007199254740993LL));
  add(vals_short, &n_short, PM_TYPE_U64, u64(18446744073709551557ull));
  add(vals_short, &n_short, PM_TYPE_FLOAT, f32(1.5f));
  add(vals_short, &n_short, PM_TYPE_DOUBLE, f64(0.1));

  static const int32_t i32s[] = {0, 1, -1, 7, -7, 499, 500, -500, -501, 1499, 1500, -1500,
                                 2047, 123456789, INT32_MAX, INT32_MIN};
  static const uint32_t u32s[] = {0, 1, 7, 500, 1500, 3000000000u, UINT32_MAX};
  static const int64_t i64s[] = {0, 1, -1, -7, 1500, -1500, 1000000000000000LL,
                                 9007199254740993LL, INT64_MAX, INT64_MIN};
  static const uint64_t u64s[] = {0, 1, 1500, 9223372036854775808ull, UINT64_MAX,
                                  9007199254740993ull};
  static const float fs[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.5f, 0.1f, 1e30f, FLT_MAX, 1e-40f,
                             INFINITY, -INFINITY, NAN};
  static const double ds[] = {0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 1e300, DBL_MAX, 5e-324,
                              INFINITY, -INFINITY, NAN, 9007199254740993.0};
  for (size_t i = 0; i < sizeof i32s / sizeof i32s[0]; i++) add(vals_long, &n_long, PM_TYPE_32, l32(i32s[i]));
  for (size_t i = 0; i < sizeof u32s / sizeof u32s[0]; i++) add(vals_long, &n_long, PM_TYPE_U32, u32(u32s[i]));
  for (size_t i = 0; i < sizeof i64s / sizeof i64s[0]; i++) add(vals_long, &n_long, PM_TYPE_64, l64(i64s[i]));
  for (size_t i = 0; i < sizeof u64s / sizeof u64s[0]; i++) add(vals_long, &n_long, PM_TYPE_U64, u64(u64s[i]));
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) add(vals_long, &n_long, PM_TYPE_FLOAT, f32(fs[i]));
  for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) add(vals_long, &n_long, PM_TYPE_DOUBLE, f64(ds[i]));
}

static void run_short(pmUnits iu, pmUnits ou) {
  for (size_t i = 0; i < n_short; i++) run(vals_short[i].type, &vals_short[i].av, iu, ou);
}

static void run_long(pmUnits iu, pmUnits ou) {
  for (size_t i = 0; i < n_long; i++) run(vals_long[i].type, &vals_long[i].av, iu, ou);
}

static void space_sweep(void) {
  static const int dims[] = {-1, 2, 3, 4, -4, 7, -8};
  for (int a = 0; a < 16; a++)
    for (int b = 0; b < 16; b++) run_short(units(1, 0, 0, a, 0, 0), units(1, 0, 0, b, 0, 0));
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
    for (int a = 0; a <= 8; a++)
      for (int b = 0; b <= 8; b++) run_short(units(dims[d], 0, 0, a, 0, 0), units(dims[d], 0, 0, b, 0, 0));
}

static void time_sweep(void) {
  static const int dims[] = {-1, 2, 3, -3, 7, -8};
  for (int a = 0; a < 16; a++)
    for (int b = 0; b < 16; b++) run_short(units(0, 1, 0, 0, a, 0), units(0, 1, 0, 0, b, 0));
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
    for (int a = 0; a <= 7; a++)
      for (int b = 0; b <= 7; b++) run_short(units(0, dims[d], 0, 0, a, 0), units(0, dims[d], 0, 0, b, 0));
}

static void count_sweep(void) {
  static const int dims[] = {-1, 2, -2, 7, -8};
  static const int scales[] = {-8, -3, -1, 0, 1, 3, 7};
  for (int a = -8; a < 8; a++)
    for (int b = -8; b < 8; b++) {
      run_short(units(0, 0, 1, 0, 0, a), units(0, 0, 1, 0, 0, b));
      /* dimensionless: only the count scale applies */
      run_short(units(0, 0, 0, 0, 0, a), units(0, 0, 0, 0, 0, b));
    }
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
    for (size_t a = 0; a < sizeof scales / sizeof scales[0]; a++)
      for (size_t b = 0; b < sizeof scales / sizeof scales[0]; b++)
        run_short(units(0, 0, dims[d], 0, 0, scales[a]), units(0, 0, dims[d], 0, 0, scales[b]));
}

static void mixed_sweep(void) {
  static const int dims[][3] = {{1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {1, -1, -1}, {2, -2, 1},
                                {-1, 1, 0}, {7, 0, 0}, {-8, 0, 0}, {0, 7, 0}, {0, -8, 0},
                                {0, 0, 7}, {0, 0, -8}, {0, 0, 0}, {1, 1, 1}, {-1, -1, -1}};
  static const int scales[][3] = {{0, 0, 0}, {1, 3, 0}, {2, 2, 3}, {6, 5, -8}, {8, 0, 7}, {3, 1, -3}};
  const size_t ns = sizeof scales / sizeof scales[0];
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
    for (size_t a = 0; a < ns; a++)
      for (size_t b = 0; b < ns; b++)
        run_short(units(dims[d][0], dims[d][1], dims[d][2], scales[a][0], scales[a][1], scales[a][2]),
                  units(dims[d][0], dims[d][1], dims[d][2], scales[b][0], scales[b][1], scales[b][2]));
}

/* Common conversions, each with every value. */
static void rich_pairs(void) {
  static const int pairs[][12] = {
      {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0},      /* byte -> Kbyte */
      {1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0},      /* Kbyte -> byte */
      {1, 0, 0, 2, 0, 0, 1, 0, 0, 2, 0, 0},      /* Mbyte -> Mbyte */
      {1, 0, 0, 6, 0, 0, 1, 0, 0, 0, 0, 0},      /* Ebyte -> byte */
      {0, 1, 0, 3, 3, 0, 0, 1, 0, 3, 2, 0},      /* sec -> msec */
      {0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 3, 0},      /* msec -> sec */
      {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 3, 0},      /* usec -> sec */
      {0, 1, 0, 0, 5, 0, 0, 1, 0, 0, 0, 0},      /* hour -> nsec */
      {0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0},      /* nsec -> min */
      {0, 0, 1, 0, 0, -3, 0, 0, 1, 0, 0, 3},     /* count x 10^-3 -> count x 10^3 */
      {0, 0, 1, 0, 0, 6, 0, 0, 1, 0, 0, 0},      /* count x 10^6 -> count */
      {1, -1, 0, 2, 3, 0, 1, -1, 0, 1, 2, 0},    /* Mbyte/sec -> Kbyte/msec */
      {1, -1, 0, 0, 3, 0, 1, -1, 0, 2, 4, 0},    /* byte/sec -> Mbyte/min */
      {0, 1, -1, 0, 2, 0, 0, 1, -1, 0, 1, 0},    /* msec/count -> usec/count */
      {0, -1, 0, 0, 3, 0, 0, -1, 0, 0, 2, 0},    /* /sec -> /msec */
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},      /* none */
      {0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, -1},     /* x 10^2 -> x 10^-1 */
      {1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},      /* byte -> byte */
  };
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    const int *q = pairs[p];
    run_long(units(q[0], q[1], q[2], q[3], q[4], q[5]), units(q[6], q[7], q[8], q[9], q[10], q[11]));
  }
}

/* Every type number, on valid, invalid and mismatched unit pairs: which
 * check comes first. */
static void every_type(void) {
  static const int types[] = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 254, 255, 1000};
  static const int pairs[][12] = {
      {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0},      /* valid */
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},      /* identity, no dimension */
      {1, 0, 0, 9, 0, 0, 1, 0, 0, 1, 0, 0},      /* bad input space scale */
      {0, 1, 0, 0, 7, 0, 0, 1, 0, 0, 1, 0},      /* bad input time scale */
      {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 6, 0},      /* bad output time scale */
      {1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0},      /* space vs time */
      {1, -1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0},     /* time dimension differs */
      {0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0},      /* count dimension differs */
      {1, 0, 0, 15, 0, 0, 2, 0, 0, 0, 0, 0},     /* differs and bad scale */
      {0, 0, 0, 9, 15, 0, 0, 0, 0, 12, 13, 0},   /* bad scales, no dimension */
  };
  pmAtomValue one;
  memset(&one, 0, sizeof one);
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    int type = types[t];
    if (type == PM_TYPE_32) one = l32(3);
    else if (type == PM_TYPE_U32) one = u32(3);
    else if (type == PM_TYPE_64) one = l64(3);
    else if (type == PM_TYPE_U64) one = u64(3);
    else if (type == PM_TYPE_FLOAT) one = f32(3.0f);
    else if (type == PM_TYPE_DOUBLE) one = f64(3.0);
    else memset(&one, 0, sizeof one);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
      const int *q = pairs[p];
      run(type, &one, units(q[0], q[1], q[2], q[3], q[4], q[5]), units(q[6], q[7], q[8], q[9], q[10], q[11]));
    }
  }
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fpe;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGFPE, &sa, NULL);
  make_values();
  every_type();
  rich_pairs();
  space_sweep();
  time_sweep();
  count_sweep();
  mixed_sweep();
  return 0;
}
