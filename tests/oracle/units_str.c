/* Prints PCP's pmUnitsStr for a systematic sample of pmUnits tuples and what
 * pmParseUnitsStr makes of that text again. One line per tuple:
 *
 *   dimSpace dimTime dimCount scaleSpace scaleTime scaleCount<TAB>text<TAB>result
 *
 * where result is "ok<TAB>six fields<TAB>multiplier as %a<TAB>its 64 bits in
 * hex" or "err<TAB>code<TAB>errmsg".
 *
 * The sample: every scale combination with all dimensions zero; every tuple
 * with exactly one dimension set, for each of its 16 scales and three choices
 * of the other scales; and all 4096 dimension triples with four scale
 * patterns each (zero, valid scales, and two spreads over all 16 values). */
#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_tuple(const pmUnits *u) {
  printf("%d %d %d %d %d %d", u->dimSpace, u->dimTime, u->dimCount, u->scaleSpace,
         u->scaleTime, u->scaleCount);
}

static void emit(int ds, int dt, int dc, int ss, int st, int sc) {
  pmUnits u, back;
  double mult;
  char *errmsg = NULL;
  char text[60];
  uint64_t bits;
  int sts;

  memset(&u, 0, sizeof(u));
  u.dimSpace = ds;
  u.dimTime = dt;
  u.dimCount = dc;
  u.scaleSpace = ss;
  u.scaleTime = st;
  u.scaleCount = sc;
  pmUnitsStr_r(&u, text, sizeof(text));
  print_tuple(&u);
  printf("\t%s\t", text);
  sts = pmParseUnitsStr(text, &back, &mult, &errmsg);
  if (sts < 0) {
    printf("err\t%d\t%s\n", sts, errmsg ? errmsg : "");
    free(errmsg);
    return;
  }
  memcpy(&bits, &mult, sizeof(bits));
  printf("ok\t");
  print_tuple(&back);
  printf("\t%a\t%016llx\n", mult, (unsigned long long)bits);
}

/* Sets the scale of dimension `which` to `own` and the other two to a
 * pattern, for the one-dimension sample. */
static void emit_single(int which, int dim, int own, int pattern) {
  int s[3];
  for (int k = 0; k < 3; k++) {
    if (pattern == 0) s[k] = 0;
    else if (pattern == 1) s[k] = 15;
    else s[k] = (own + 5 * (k + 1)) % 16;
  }
  s[which] = own;
  int d[3] = {0, 0, 0};
  d[which] = dim;
  /* scaleCount is a signed nibble: 8..15 stand for -8..-1 */
  emit(d[0], d[1], d[2], s[0], s[1], s[2] >= 8 ? s[2] - 16 : s[2]);
}

int main(void) {
  for (int ss = 0; ss < 16; ss++)
    for (int st = 0; st < 16; st++)
      for (int sc = -8; sc < 8; sc++) emit(0, 0, 0, ss, st, sc);

  for (int which = 0; which < 3; which++)
    for (int dim = -8; dim < 8; dim++) {
      if (dim == 0) continue;
      for (int own = 0; own < 16; own++)
        for (int pattern = 0; pattern < 3; pattern++) emit_single(which, dim, own, pattern);
    }

  for (int i = 0; i < 4096; i++) {
    int ds = (i / 256) % 16 - 8, dt = (i / 16) % 16 - 8, dc = i % 16 - 8;
    emit(ds, dt, dc, 0, 0, 0);
    emit(ds, dt, dc, i % 9, (i / 9) % 6, (i / 54) % 16 - 8);
    emit(ds, dt, dc, (i * 7 + 3) % 16, (i * 11 + 5) % 16, (i * 13 + 1) % 16 - 8);
    emit(ds, dt, dc, (i / 16) % 16, i % 16, (i / 256) % 16 - 8);
  }
  return 0;
}
