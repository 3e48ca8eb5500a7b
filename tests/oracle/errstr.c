/* Prints PCP's pmErrStr for every code from -22500 to 0 and some far ones:
 * "code<TAB>text" per line. */
#include <pcp/pmapi.h>
#include <stdio.h>

int main(void) {
  static const int far[] = {-30000, -50000, -99999, -1000000, -2147483647, 1, 5, 12345};
  for (int c = -22500; c <= 0; c++) printf("%d\t%s\n", c, pmErrStr(c));
  for (unsigned i = 0; i < sizeof far / sizeof far[0]; i++) printf("%d\t%s\n", far[i], pmErrStr(far[i]));
  return 0;
}
