/* Prints PCP's pmParseMetricSpec result for a fixed list of specifications,
 * each parsed with several default sources, one row each:
 *   spec<TAB>isarch<TAB>default<TAB>code<TAB>errmsg                 (error)
 *   spec<TAB>isarch<TAB>default<TAB>0<TAB>isarch<TAB>source<TAB>metric<TAB>ninst[<TAB>inst]...
 * Strings are escaped: \\ \t \n and \xHH for other bytes outside 0x20..0x7e;
 * a NULL default or source is written \N. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>

static void put_escaped(const char *s) {
  if (s == NULL) {
    fputs("\\N", stdout);
    return;
  }
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\\') fputs("\\\\", stdout);
    else if (*p == '\t') fputs("\\t", stdout);
    else if (*p == '\n') fputs("\\n", stdout);
    else if (*p < 0x20 || *p > 0x7e) printf("\\x%02x", *p);
    else putchar(*p);
  }
}

static void one(const char *spec, int isarch, char *source) {
  pmMetricSpec *msp = NULL;
  char *err = NULL;
  int sts = pmParseMetricSpec(spec, isarch, source, &msp, &err);
  put_escaped(spec);
  printf("\t%d\t", isarch);
  put_escaped(source);
  printf("\t%d\t", sts);
  if (sts < 0) {
    put_escaped(err);
    free(err);
  } else {
    printf("%d\t", msp->isarch);
    put_escaped(msp->source);
    putchar('\t');
    put_escaped(msp->metric);
    printf("\t%d", msp->ninst);
    for (int i = 0; i < msp->ninst; i++) {
      putchar('\t');
      put_escaped(msp->inst[i]);
    }
    pmFreeMetricSpec(msp);
  }
  putchar('\n');
}

static const char *const specs[] = {
  /* metric alone, white space */
  "kernel.all.load", "a", " a", "a ", "\ta\t", "  kernel.all.load  ", "", " ", "\t\n",
  "a b", "a\tb", "a.b.c.d.e.f", "a..b", ".", "a.", "_x.y_z", "a-b", "a@b", "a\"b", "a'b",
  /* hosts */
  "host:a.b", "host :a.b", "host: a.b", " host : a.b ", "my.host.example.com:a.b",
  "h:a", "localhost:kernel.all.cpu.user", ":a", " :a", "\t:a", "h:", "h: ", "h:[x]",
  "a:b:c", "h::m", "h:m:", "192.168.1.1:a", "[fe80::1]:a", "h\\:x:m", "h\\ x:m",
  "h x:m", "pcp://h:m",
  /* local context */
  "@:a.b", "@ :a.b", " @:a.b", "@@:a", "\\@:a", "@:", "@:a[1]", "@x:a",
  /* archives */
  "arch/a.b", "/var/log/pcp/pmlogger/host/20231121/a.b", "arch /a.b", "arch/ a.b", "/a",
  " /a", "a/", "a/b/c", "a/b/c:d.e", "x:y/z", "dir/arch:host/m", "./arch/m", "../a/m",
  "arch\\/x/m", "C:\\logs/m",
  /* instance lists */
  "a[1]", "a[1,2]", "a[1 2]", "a[ 1 , 2 ]", "a [1]", "a[]", "a[ ]", "a[,]", "a[ , ,]",
  "a[,1]", "a[1,]", "a[1,,2]", "a[\"x y\"]", "a[\"x y\", z]", "a[\"\"]", "a[ \"\" ]",
  "a[\"a\"\"b\"]", "a[\"a\"b]", "a[x\"y\"]", "a[\"x,y\"]", "a[\"x]y\"]", "a[\"x[y\"]",
  "a[\"x\\\"y\"]", "a[x\\,y]", "a[x\\ y]", "a[x\\]y]", "a[\\\\]", "a[x\\\\y]",
  "a[\"one\" \"two\" three]", "a[1\t2\n3]", "a[ [ ]", "a[[1]]", "h:a[1,2]",
  "h:a[\"x y\", z\\,w]", "arch/a[inst 1]", "@:a[\"inst 1\"]",
  "kernel.percpu.cpu.user[cpu0,cpu1]", "disk.dev.read[\"sda\",\"sdb\"]",
  /* unterminated lists */
  "a[", "a[1", "a[1,2", "a[\"x", "a[\"x]", "a[\"x\" \"y]", "a[x\\]", "a[\"x\\\"]", "a[ ",
  /* bad characters and trailing junk */
  "a]", "a,b", "a]b", ",a", "]", "h:,a", "a[1] x", "a[1]x", "a[1] [2]", "a[1]]",
  "a b c", "h:a b", "a[1] ", "a[1]\t", "a\\ b", "a\\[b", "a\\]b", "a\\,b", "a\\", "\\",
  "h:\\[m", "a\\:b", "a[a\"b \"c]", "a[\"a\" \"b\" c\"d e\"f]",
  /* non-ASCII */
  "h\xc3\xa9:m", "m\xc3\xa9tric", "a[\xc3\xa9]", "\xc3\xa9 x", "a \xe2\x82\xac",
  "a[\"\xc2\xa0\"]", "a\x01", "\x7f:a",
};

int main(void) {
  static char host[] = "localhost", archive[] = "/var/log/pcp/archive", local[] = "@", empty[] = "";
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    one(specs[i], 0, host);
    one(specs[i], 1, archive);
    one(specs[i], 2, local);
  }
  /* less usual defaults */
  one("a.b", 0, NULL);
  one("a.b", 1, empty);
  one("a.b", 5, host);
  one("a.b", -1, archive);
  one("h:a.b", 1, archive);
  one("arch/a.b", 0, host);
  one("@:a.b", 1, archive);
  return 0;
}
