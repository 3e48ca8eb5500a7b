/* Loads one ASCII PMNS file with PCP's pmLoadASCIINameSpace and prints the
 * load status with everything PCP wrote to stderr, then (unless -l is given
 * or the load failed) every PMNS answer listed in pmns_dump.h.
 *
 *   pmns [-l] FILE DUPOK
 * First row: load FILE DUPOK RC ESCAPED-STDERR */
#include <unistd.h>
#include "pmns_dump.h"

/* Prints text with backslash, newline and tab escaped. */
static void print_escaped(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\') fputs("\\\\", stdout);
    else if (s[i] == '\n') fputs("\\n", stdout);
    else if (s[i] == '\t') fputs("\\t", stdout);
    else putchar(s[i]);
  }
}

int main(int argc, char **argv) {
  int only_load = argc > 1 && strcmp(argv[1], "-l") == 0;
  if (argc != 3 + only_load) {
    fprintf(stderr, "usage: pmns [-l] FILE DUPOK\n");
    return 1;
  }
  const char *file = argv[1 + only_load];
  int dupok = atoi(argv[2 + only_load]);

  /* capture stderr of libpcp and of the pmcpp it runs */
  fflush(stderr);
  FILE *err = tmpfile();
  int saved = dup(2);
  dup2(fileno(err), 2);
  int rc = pmLoadASCIINameSpace(file, dupok);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);

  long len = ftell(err);
  fseek(err, 0, SEEK_END);
  len = ftell(err);
  rewind(err);
  char *text = malloc(len + 1);
  size_t got = fread(text, 1, len, err);
  printf("load\t%s\t%d\t%d\t", file, dupok, rc);
  print_escaped(text, got);
  printf("\n");
  free(text);
  fclose(err);
  if (rc < 0 || only_load) return 0;
  dump_pmns();
  return 0;
}
