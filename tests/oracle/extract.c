/* Prints PCP's pmExtractValue over every (itype, otype) pair of a wide type
 * list and a set of edge inputs for each itype, one row per call:
 *
 *   valfmt TAB itype TAB otype TAB vtype TAB input TAB code TAB output
 *
 * For PM_VAL_INSITU the vtype column is "-" and the input is lval in
 * decimal; otherwise the input is the value block's payload (vbuf, vlen-4
 * bytes) in hex, "-" when empty, and vtype is the block's vtype. The output
 * is "-" on error, else by otype: 32/U32/64/U64 in decimal, FLOAT and DOUBLE
 * as "%a" followed by the raw bits in hex, STRING as "s:" and the bytes
 * before the first NUL in hex, AGGREGATE as "vtype=V vlen=L hex" of the
 * copied block. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int types[] = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 254, 255, 1000};
#define NTYPES (sizeof types / sizeof types[0])

/* An input: how the pmValue is built. */
struct input {
  int valfmt;
  int vtype; /* only for value blocks */
  int32_t lval; /* only for PM_VAL_INSITU */
  size_t len;
  unsigned char bytes[256];
};

static void print_hex(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static void print_output(int otype, const pmAtomValue *av) {
  uint32_t fbits;
  uint64_t dbits;
  switch (otype) {
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
    case PM_TYPE_STRING:
      printf("s:");
      print_hex((const unsigned char *)av->cp, strlen(av->cp));
      free(av->cp);
      break;
    case PM_TYPE_AGGREGATE:
      printf("vtype=%u vlen=%u ", av->vbp->vtype, av->vbp->vlen);
      print_hex((const unsigned char *)av->vbp->vbuf, av->vbp->vlen - PM_VAL_HDR_SIZE);
      free(av->vbp);
      break;
    default: printf("unexpected-success"); break;
  }
}

static void run(const struct input *in, int itype, int otype) {
  pmValue v;
  pmValueBlock *vb = NULL;
  pmAtomValue av;
  memset(&v, 0, sizeof v);
  if (in->valfmt == PM_VAL_INSITU) {
    v.value.lval = in->lval;
  } else {
    /* never smaller than the struct, so PCP's reads stay inside it */
    vb = calloc(1, sizeof(pmValueBlock) + in->len + 8);
    vb->vlen = PM_VAL_HDR_SIZE + in->len;
    vb->vtype = in->vtype;
    memcpy(vb->vbuf, in->bytes, in->len);
    v.value.pval = vb;
  }
  memset(&av, 0x5a, sizeof av);
  int sts = pmExtractValue(in->valfmt, &v, itype, &av, otype);
  printf("%d\t%d\t%d\t", in->valfmt, itype, otype);
  if (in->valfmt == PM_VAL_INSITU) {
    printf("-\t%d\t", in->lval);
  } else {
    printf("%d\t", in->vtype);
    if (in->len == 0) printf("-");
    print_hex(in->bytes, in->len);
    printf("\t");
  }
  printf("%d\t", sts);
  if (sts < 0)
    printf("-");
  else
    print_output(otype, &av);
  printf("\n");
  free(vb);
}

static void run_all_otypes(const struct input *in, int itype) {
  for (size_t o = 0; o < NTYPES; o++) run(in, itype, types[o]);
}

static struct input block(int valfmt, int vtype, const void *p, size_t n) {
  struct input in;
  memset(&in, 0, sizeof in);
  in.valfmt = valfmt;
  in.vtype = vtype & 0xff;
  in.len = n;
  memcpy(in.bytes, p, n);
  return in;
}

static struct input insitu(uint32_t bits) {
  struct input in;
  memset(&in, 0, sizeof in);
  in.valfmt = PM_VAL_INSITU;
  memcpy(&in.lval, &bits, sizeof bits);
  return in;
}

/* 32-bit patterns: integers and float bit patterns of interest. */
static const uint32_t words[] = {
    0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x7ffffffeu, 0x80000001u, 12345, 0xffffcfc7u,
    0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xc0200000u,
    0x4effffffu, 0x4f000000u, 0xcf000000u, 0xcf000001u, 0x4f7fffffu, 0x4f800000u,
    0x5effffffu, 0x5f000000u, 0xdf000000u, 0xdf000001u, 0x5f7fffffu, 0x5f800000u,
    0x7f7fffffu, 0xff7fffffu, 0x00800000u, 0x00000001u, 0x80000001u,
    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x4b800001u, 0x3dcccccdu};

static const uint64_t longs[] = {
    0, 1, 0xffffffffffffffffull, 2, 0x7fffffffull, 0x80000000ull, 0xffffffff80000000ull,
    0xffffffff7fffffffull, 0xffffffffull, 0x100000000ull, 0x100000001ull, 0xffffffff00000000ull,
    0xfffffffeffffffffull, 0x20000000000000ull, 0x20000000000001ull, 0xffdfffffffffffffull,
    0x7fffffffffffffffull, 0x8000000000000000ull, 0x7ffffffffffffffeull, 0x8000000000000001ull,
    0x4000000000000000ull, 0x7fffff8000000000ull, 0xffffff0000000000ull, 0x7ffffffffffffc00ull,
    0xfffffffffffff800ull, 0x1000001ull, 1234567890123456789ull, 0xeeddef0b82167eebull,
    0x7fffffc0ull, 0xffffffff7fffff80ull};

static const double doubles[] = {
    0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.999, -0.999,
    2147483646.5, 2147483647.0, 2147483647.5, -2147483647.0, -2147483647.5, -2147483648.0,
    -2147483649.0, 4294967294.5, 4294967295.0, 4294967296.0, 9007199254740993.0,
    0x1.fffffffffffffp62, 0x1p63, -0x1p63, -0x1.0000000000001p63, 0x1.fffffffffffffp63, 0x1p64,
    1e300, -1e300, 3.4e38, 3.5e38, -3.5e38, 1e-300, 1e-45, 0x1p-1074, DBL_MIN, 0.1,
    123456.789, -98765.4321, 16777217.0, 2147483520.0, 2147483584.0};

static const float floats[] = {
    0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.999f, 16777217.0f, 2147483520.0f,
    0x1p31f, -0x1p31f, -2147483904.0f, 4294967040.0f, 0x1p32f, 0x1.fffffep62f, 0x1p63f,
    -0x1p63f, -0x1.000002p63f, 0x1.fffffep63f, 0x1p64f, FLT_MAX, -FLT_MAX, FLT_MIN,
    0x1p-149f, 0x1p-130f, 0.1f, 123.456f, -123.456f};

static const uint64_t double_bits[] = {0x8000000000000000ull, 0x7ff0000000000000ull,
                                       0xfff0000000000000ull, 0x7ff8000000000000ull,
                                       0xfff8000000000000ull, 0x7ff0000000000001ull,
                                       0x7ff8000000000123ull};
static const uint32_t float_bits[] = {0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                      0xffc00000u, 0x7f800001u, 0x7fc00123u};

static const char *const strings[] = {"", "a", "hello, world", "ab\0cd", "\xff\xfe\x80",
                                      "h\xc3\xa9llo", "  spaces  ", "tab\there", "\n"};
static const size_t string_lens[] = {1, 2, 13, 6, 4, 7, 11, 9, 2};

static void natural_inputs(int itype, int valfmt, size_t limit) {
  struct input ins[128];
  size_t n = 0;
  unsigned char buf[256];
  switch (itype) {
    case PM_TYPE_64:
    case PM_TYPE_U64:
      for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
        ins[n++] = block(valfmt, itype, &longs[i], 8);
      break;
    case PM_TYPE_DOUBLE:
      for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
        ins[n++] = block(valfmt, itype, &doubles[i], 8);
      for (size_t i = 0; i < sizeof double_bits / sizeof double_bits[0]; i++)
        ins[n++] = block(valfmt, itype, &double_bits[i], 8);
      break;
    case PM_TYPE_FLOAT:
      for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        ins[n++] = block(valfmt, itype, &floats[i], 4);
      for (size_t i = 0; i < sizeof float_bits / sizeof float_bits[0]; i++)
        ins[n++] = block(valfmt, itype, &float_bits[i], 4);
      break;
    case PM_TYPE_STRING:
      for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        ins[n++] = block(valfmt, itype, strings[i], string_lens[i]);
      ins[n++] = block(valfmt, itype, "", 0);
      ins[n++] = block(valfmt, itype, "abc", 3); /* no terminating NUL */
      ins[n++] = block(valfmt, itype, "abc\0\0\0\0", 8); /* padded */
      memset(buf, 'x', 200);
      buf[200] = '\0';
      ins[n++] = block(valfmt, itype, buf, 201);
      break;
    case PM_TYPE_AGGREGATE: {
      static const size_t lens[] = {0, 1, 3, 4, 8, 13, 64};
      for (size_t i = 0; i < 64; i++) buf[i] = (unsigned char)(i * 37 + (i % 3 == 0 ? 0 : 1));
      for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        ins[n++] = block(valfmt, itype, buf, lens[i]);
      break;
    }
    default: {
      /* event arrays: no records, and one record with no parameters */
      static const int32_t none[1] = {0};
      static const int32_t one[5] = {1, 1700000000, 5000, 0, 0};
      static const int32_t minus_one = -1;
      static const int32_t seven = 7;
      ins[n++] = block(valfmt, itype, none, sizeof none);
      ins[n++] = block(valfmt, itype, one, sizeof one);
      ins[n++] = block(valfmt, itype, &minus_one, 4);
      ins[n++] = block(valfmt, itype, &seven, 4);
      break;
    }
  }
  for (size_t i = 0; i < n && i < limit; i++) run_all_otypes(&ins[i], itype);
}

/* Value blocks every itype sees: odd lengths, vtype 0 (which PCP accepts
 * for any itype), mismatched vtypes. */
static void cross_inputs(int itype) {
  static const size_t lens[] = {0, 1, 3, 4, 7, 8, 9, 12, 16};
  static const int64_t one64 = 1;
  static const double one_d = 1.0;
  static const float one_f = 1.0f;
  static const unsigned char agg[5] = {1, 2, 3, 4, 5};
  unsigned char pattern[16];
  struct input in;
  for (int i = 0; i < 16; i++) pattern[i] = (unsigned char)(0x11 * (i + 1));
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    in = block(PM_VAL_DPTR, itype, pattern, lens[i]);
    run_all_otypes(&in, itype);
  }
  static const int vtypes8[] = {0, 255, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_DOUBLE};
  for (size_t i = 0; i < sizeof vtypes8 / sizeof vtypes8[0]; i++) {
    in = block(PM_VAL_DPTR, vtypes8[i], vtypes8[i] == PM_TYPE_DOUBLE ? (const void *)&one_d : (const void *)&one64, 8);
    run_all_otypes(&in, itype);
  }
  in = block(PM_VAL_DPTR, 0, &one_d, 8);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, 0, &one_f, 4);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, PM_TYPE_FLOAT, &one_f, 4);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, PM_TYPE_STRING, "xy", 3);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, 0, "xy", 3);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, PM_TYPE_AGGREGATE, agg, sizeof agg);
  run_all_otypes(&in, itype);
  in = block(PM_VAL_DPTR, 0, agg, sizeof agg);
  run_all_otypes(&in, itype);
  /* valfmt values PCP does not define */
  static const int bad_valfmts[] = {3, -1, 256};
  for (size_t i = 0; i < sizeof bad_valfmts / sizeof bad_valfmts[0]; i++) {
    in = block(bad_valfmts[i], itype, &one64, 8);
    run_all_otypes(&in, itype);
  }
}

int main(void) {
  for (size_t t = 0; t < NTYPES; t++) {
    int itype = types[t];
    int full = itype == PM_TYPE_32 || itype == PM_TYPE_U32 || itype == PM_TYPE_FLOAT ||
               itype == PM_TYPE_UNKNOWN;
    size_t nwords = full ? sizeof words / sizeof words[0] : 3;
    for (size_t i = 0; i < nwords; i++) {
      struct input in = insitu(words[i]);
      run_all_otypes(&in, itype);
    }
    natural_inputs(itype, PM_VAL_DPTR, 1000);
    natural_inputs(itype, PM_VAL_SPTR, 6);
    cross_inputs(itype);
  }
  return 0;
}
