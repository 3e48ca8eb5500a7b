/* Prints PCP's pmIDStr, pmInDomStr, pmTypeStr, pmSemStr, pmEventFlagsStr,
 * pmNumberStr and pmAtomStr over a systematic set of inputs, one row per
 * call, tab separated:
 *
 *   id      <pmid hex>                         <text>
 *   indom   <indom hex>                        <text>
 *   type    <int>                              <text>
 *   sem     <int>                              <text>
 *   flags   <int>                              <text>
 *   number  <double as %a>                     <text>
 *   atom    <type> num <-> <64-bit union hex>  <text>
 *   atom    <type> str <-> <string bytes hex>  <text>
 *   atom    <type> blk <vtype> <payload hex>   <text>
 *
 * <text> is escaped: backslash, tab and newline as \\ \t \n, any other byte
 * outside 0x20..0x7e as \xHH. */
#include <pcp/pmapi.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_escaped(const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
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

static void ids(void) {
  static const unsigned domains[] = {0, 1, 2, 3, 29, 60, 70, 254, 255, 256, 257, 500, 510, 511};
  static const unsigned clusters[] = {0, 1, 2, 10, 1023, 1024, 2047, 2048, 2049, 4094, 4095};
  static const unsigned items[] = {0, 1, 2, 11, 511, 512, 1022, 1023};
  static const unsigned serials[] = {0, 1, 2, 3, 1000, 65535, 65536, 0x1fffff, 0x200000, 0x3ffffe, 0x3fffff};
  for (unsigned flag = 0; flag < 2; flag++)
    for (size_t d = 0; d < sizeof domains / sizeof *domains; d++) {
      for (size_t c = 0; c < sizeof clusters / sizeof *clusters; c++)
        for (size_t i = 0; i < sizeof items / sizeof *items; i++) {
          pmID id = (flag << 31) | (domains[d] << 22) | (clusters[c] << 10) | items[i];
          printf("id\t%08x\t", id);
          put_escaped(pmIDStr(id));
        }
      for (size_t s = 0; s < sizeof serials / sizeof *serials; s++) {
        pmInDom in = (flag << 31) | (domains[d] << 22) | serials[s];
        printf("indom\t%08x\t", in);
        put_escaped(pmInDomStr(in));
      }
    }
  static const unsigned extra[] = {0xffffffffu, 0x7fffffffu, 0xfffffffeu, 0xffbfffffu, 0x7fc00000u, 0xffc00000u};
  for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
    printf("id\t%08x\t", extra[i]);
    put_escaped(pmIDStr(extra[i]));
    printf("indom\t%08x\t", extra[i]);
    put_escaped(pmInDomStr(extra[i]));
  }
}

static void types_and_sems(void) {
  static const int far[] = {INT_MIN, INT_MIN + 1, -65536, -1000, 1000, 65535, 65536, INT_MAX};
  for (int t = -300; t <= 300; t++) {
    printf("type\t%d\t", t);
    put_escaped(pmTypeStr(t));
    printf("sem\t%d\t", t);
    put_escaped(pmSemStr(t));
  }
  for (size_t i = 0; i < sizeof far / sizeof *far; i++) {
    printf("type\t%d\t", far[i]);
    put_escaped(pmTypeStr(far[i]));
    printf("sem\t%d\t", far[i]);
    put_escaped(pmSemStr(far[i]));
  }
}

static void flags(void) {
  /* the six defined bits are 0..4 and 31 */
  static const unsigned defined[] = {1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 31};
  for (unsigned combo = 0; combo < 64; combo++) {
    unsigned f = 0;
    for (int b = 0; b < 6; b++)
      if (combo & (1u << b)) f |= defined[b];
    for (int extra = -1; extra <= 30; extra++) {
      unsigned g = f;
      if (extra >= 5) g |= 1u << extra;
      else if (extra >= 0) continue;
      printf("flags\t%d\t", (int)g);
      put_escaped(pmEventFlagsStr((int)g));
    }
    unsigned all_unknown = f | 0x7fffffe0u;
    printf("flags\t%d\t", (int)all_unknown);
    put_escaped(pmEventFlagsStr((int)all_unknown));
  }
}

static void number_row(double v) {
  printf("number\t%a\t", v);
  put_escaped(pmNumberStr(v));
}

static void numbers(void) {
  static const double mantissas[] = {1.0, 1.5, 2.5, 3.14159, 4.999, 5.0, 5.005, 9.9, 9.99,
                                     9.994, 9.99499, 9.995, 9.99501, 9.999, 9.9999, 1.23456789,
                                     1.005, 1.004999, 1.0049999999, 1.00500001, 7.77777};
  for (int e = -20; e <= 20; e++)
    for (size_t m = 0; m < sizeof mantissas / sizeof *mantissas; m++) {
      double v = mantissas[m] * pow(10.0, e);
      number_row(v);
      number_row(-v);
    }
  static const double thresholds[] = {999995000000000.0, 999995000000.0, 999995000.0, 999995.0,
                                      999.995, 0.005, 99995000000000.0, 99995000000.0,
                                      99995000.0, 99995.0, 99.995};
  for (size_t i = 0; i < sizeof thresholds / sizeof *thresholds; i++) {
    double t = thresholds[i];
    double around[] = {t, nextafter(t, 0.0), nextafter(t, INFINITY), nextafter(nextafter(t, 0.0), 0.0),
                       t * (1 + 1e-9), t * (1 - 1e-9)};
    for (size_t k = 0; k < sizeof around / sizeof *around; k++) {
      number_row(around[k]);
      number_row(-around[k]);
    }
  }
  static const double odd[] = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, DBL_MAX, -DBL_MAX,
                               DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324, 1e300, -1e300,
                               123.456, -123.456, 42.0, -42.0, 1000.0, -100.0, 0.004, -0.004,
                               0.0049999, -0.0049999, 0.00500001, -0.00500001};
  for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) number_row(odd[i]);
  for (int i = -2000; i <= 2000; i += 7) number_row(i * 0.123);
}

static void atom_num(int type, uint64_t bits) {
  pmAtomValue a;
  memset(&a, 0, sizeof a);
  memcpy(&a, &bits, sizeof bits);
  printf("atom\t%d\tnum\t-\t%016llx\t", type, (unsigned long long)bits);
  put_escaped(pmAtomStr(&a, type));
}

static void atom_str(int type, const char *s, size_t n) {
  pmAtomValue a;
  char *copy = malloc(n + 1);
  memcpy(copy, s, n);
  copy[n] = '\0';
  a.cp = copy;
  printf("atom\t%d\tstr\t-\t", type);
  put_hex((const unsigned char *)s, n);
  putchar('\t');
  put_escaped(pmAtomStr(&a, type));
  free(copy);
}

static void atom_blk(int type, int vtype, const unsigned char *p, size_t n) {
  pmValueBlock *vb = malloc(PM_VAL_HDR_SIZE + n + 8);
  memset(vb, 0, PM_VAL_HDR_SIZE + n + 8);
  vb->vtype = vtype;
  vb->vlen = PM_VAL_HDR_SIZE + n;
  memcpy(vb->vbuf, p, n);
  pmAtomValue a;
  a.vbp = vb;
  printf("atom\t%d\tblk\t%d\t", type, vtype);
  put_hex(p, n);
  putchar('\t');
  put_escaped(pmAtomStr(&a, type));
  free(vb);
}

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static uint64_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void atoms(void) {
  const uint64_t nums[] = {0, 1, 2, 42, 0xffffffffffffffffull, 0x7fffffffull, 0x80000000ull,
                           0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                           123456789012345ull, 0xdeadbeefcafef00dull, 0xffffffff00000000ull,
                           dbits(1.0), dbits(-2.5), dbits(1e300), dbits(-1e-300), dbits(NAN),
                           dbits(-NAN), dbits(INFINITY), dbits(-INFINITY), dbits(4.9e-324),
                           dbits(3.141592653589793), dbits(123456.789), fbits(1.5f), fbits(-0.1f),
                           fbits(NAN), fbits(-INFINITY), fbits(INFINITY), fbits(3.4e38f), fbits(1e-45f),
                           fbits(65536.5f)};
  for (int t = -2; t <= 12; t++) {
    if (t >= PM_TYPE_STRING && t <= PM_TYPE_HIGHRES_EVENT) continue;
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) atom_num(t, nums[i]);
  }
  static const int far_types[] = {255, 100, 256, -100, INT_MIN, INT_MAX};
  for (size_t i = 0; i < sizeof far_types / sizeof *far_types; i++) atom_num(far_types[i], 7);

  char longs[120];
  for (int i = 0; i < 120; i++) longs[i] = (char)('a' + i % 26);
  static const char tricky[] = "tab\there\nnew\\line \"quoted\" \x01\x7f\x80\xff end";
  for (size_t n = 0; n <= 120; n += (n < 45 ? 1 : 15)) atom_str(PM_TYPE_STRING, longs, n);
  atom_str(PM_TYPE_STRING, tricky, sizeof tricky - 1);
  atom_str(PM_TYPE_STRING, "with\0nul", 8);

  unsigned char bytes[64];
  for (int i = 0; i < 64; i++) bytes[i] = (unsigned char)(i * 37 + 5);
  static const int vtypes[] = {PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC, PM_TYPE_32, PM_TYPE_STRING,
                               PM_TYPE_EVENT, PM_TYPE_HIGHRES_EVENT, 11, 12, 100, PM_TYPE_UNKNOWN};
  for (int t = PM_TYPE_AGGREGATE; t <= PM_TYPE_AGGREGATE_STATIC; t++)
    for (size_t v = 0; v < sizeof vtypes / sizeof *vtypes; v++)
      for (size_t n = 0; n <= 64; n += (n < 17 ? 1 : 16)) atom_blk(t, vtypes[v], bytes, n);

  /* event arrays: only the record count is read */
  static const int32_t counts[] = {0, 1, 2, 3, 17, -1, -5, INT32_MAX, INT32_MIN};
  for (int t = PM_TYPE_EVENT; t <= PM_TYPE_HIGHRES_EVENT; t++)
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
      unsigned char ea[8] = {0};
      memcpy(ea, &counts[i], 4);
      atom_blk(t, t, ea, sizeof ea);
      atom_blk(t, PM_TYPE_AGGREGATE, ea, 4);
    }
}

int main(void) {
  ids();
  types_and_sems();
  flags();
  numbers();
  atoms();
  return 0;
}
