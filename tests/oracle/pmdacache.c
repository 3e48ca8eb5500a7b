/* Runs a script of instance-domain cache operations against PCP's own
 * libpcp_pmda (pmdaCache*) and prints one row per script line:
 *
 *   <script line><TAB><result>
 *
 * The script is read from stdin, one command per line (see pmdacache.sh for
 * the commands). Each run of lines between "restart" commands is executed
 * in a fresh child process, so the caches start empty again while the
 * persistence files (under $PCP_VAR_DIR/config/pmda) remain: a PMDA restart.
 *
 * libpcp_pmda is opened with dlopen because regen.sh links with -lpcp only.
 * Results are escaped: backslash, tab and newline as \\ \t \n, other bytes
 * outside 0x20..0x7e as \xHH. Timestamps in persistence files that lie
 * within the run (the cache writes time(NULL)) are shown as NOW.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int (*store_fn)(pmInDom, int, const char *, void *);
static int (*store_key_fn)(pmInDom, int, const char *, int, const void *, void *);
static int (*lookup_fn)(pmInDom, int, char **, void **);
static int (*lookup_name_fn)(pmInDom, const char *, int *, void **);
static int (*lookup_key_fn)(pmInDom, const char *, int, const void *, char **, int *, void **);
static int (*op_fn)(pmInDom, int);
static int (*purge_fn)(pmInDom, time_t);
static int (*purge_cb_fn)(pmInDom, time_t, void (*)(void *));
static int (*resize_fn)(pmInDom, int);
static void (*dump_fn)(FILE *, pmInDom, int);

static time_t run_start;

static void *need(void *lib, const char *name) {
  void *f = dlsym(lib, name);
  if (f == NULL) {
    fprintf(stderr, "pmdacache: no %s in libpcp_pmda\n", name);
    exit(1);
  }
  return f;
}

static void load_library(void) {
  void *lib = dlopen("libpcp_pmda.so.3", RTLD_NOW | RTLD_GLOBAL);
  if (lib == NULL) {
    fprintf(stderr, "pmdacache: %s\n", dlerror());
    exit(1);
  }
  store_fn = need(lib, "pmdaCacheStore");
  store_key_fn = need(lib, "pmdaCacheStoreKey");
  lookup_fn = need(lib, "pmdaCacheLookup");
  lookup_name_fn = need(lib, "pmdaCacheLookupName");
  lookup_key_fn = need(lib, "pmdaCacheLookupKey");
  op_fn = need(lib, "pmdaCacheOp");
  purge_fn = need(lib, "pmdaCachePurge");
  purge_cb_fn = need(lib, "pmdaCachePurgeCallback");
  resize_fn = need(lib, "pmdaCacheResize");
  dump_fn = need(lib, "__pmdaCacheDump");
}

/* Output goes into one growing buffer per row, printed after the command. */
static char out[1 << 20];
static size_t outlen;

static void put_char(int c) {
  if (outlen + 1 < sizeof out) out[outlen++] = (char)c;
}

static void put_text(const char *s) {
  while (*s) put_char(*s++);
}

static void put_escaped(const char *s, size_t n) {
  char hex[8];
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') put_text("\\\\");
    else if (c == '\t') put_text("\\t");
    else if (c == '\n') put_text("\\n");
    else if (c == '\r') put_text("\\r");
    else if (c < 0x20 || c > 0x7e) {
      snprintf(hex, sizeof hex, "\\x%02x", c);
      put_text(hex);
    } else put_char(c);
  }
}

static void put_int(long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", v);
  put_text(buf);
}

static void put_ptr(void *p) {
  char buf[32];
  snprintf(buf, sizeof buf, "%p", p);
  put_text(buf);
}

/* Decodes the script escapes \\ \t \n \xHH in place; returns the length. */
static size_t unescape(char *s) {
  char *w = s;
  for (char *r = s; *r; r++) {
    if (*r != '\\' || r[1] == '\0') {
      *w++ = *r;
      continue;
    }
    r++;
    if (*r == 'n') *w++ = '\n';
    else if (*r == 'r') *w++ = '\r';
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

static pmInDom parse_indom(const char *s) {
  if (strcmp(s, "null") == 0) return PM_INDOM_NULL;
  unsigned d = 0, serial = 0;
  sscanf(s, "%u.%u", &d, &serial);
  return pmInDom_build(d, serial);
}

/* Key argument: "-" no key (NULL, 0); "!" a key pointer with keylen 0;
 * "~" a key pointer with keylen -1; otherwise the key bytes in hex. */
static unsigned char keybuf[512];
static int parse_key(const char *s, const void **key) {
  static const unsigned char dummy[4] = {1, 2, 3, 4};
  if (strcmp(s, "-") == 0) {
    *key = NULL;
    return 0;
  }
  if (strcmp(s, "!") == 0 || strcmp(s, "~") == 0) {
    *key = dummy;
    return s[0] == '!' ? 0 : -1;
  }
  int n = 0;
  for (; s[2 * n] && s[2 * n + 1] && n < (int)sizeof keybuf; n++) {
    char hex[3] = {s[2 * n], s[2 * n + 1], 0};
    keybuf[n] = (unsigned char)strtol(hex, NULL, 16);
  }
  *key = keybuf;
  return n;
}

static char *path_of(pmInDom indom, char *buf, size_t len) {
  const char *vd = getenv("PCP_VAR_DIR");
  snprintf(buf, len, "%s/config/pmda/%s", vd ? vd : "/var/lib/pcp", pmInDomStr(indom));
  return buf;
}

/* Prints a persistence file, with the stamps written during this run as NOW. */
static void put_file(pmInDom indom) {
  char path[4096];
  FILE *f = fopen(path_of(indom, path, sizeof path), "r");
  if (f == NULL) {
    put_text("missing");
    return;
  }
  char line[8192];
  int first = 1;
  time_t now = time(NULL);
  while (fgets(line, sizeof line, f) != NULL) {
    long inst, stamp;
    int used = 0;
    if (!first && sscanf(line, "%ld %ld%n", &inst, &stamp, &used) == 2 && stamp >= run_start - 1 &&
        stamp <= now + 1) {
      char head[64];
      snprintf(head, sizeof head, "%ld NOW", inst);
      put_text(head);
      put_escaped(line + used, strlen(line + used));
    } else {
      put_escaped(line, strlen(line));
    }
    first = 0;
  }
  fclose(f);
}

static void write_file(pmInDom indom, char *content) {
  char path[4096];
  size_t n = unescape(content);
  FILE *f = fopen(path_of(indom, path, sizeof path), "w");
  if (f == NULL) {
    put_text("cannot write");
    return;
  }
  fwrite(content, 1, n, f);
  fclose(f);
  put_text("ok");
}

static void put_dump(pmInDom indom, int do_hash) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dump_fn(f, indom, do_hash);
  fclose(f);
  put_escaped(buf, len);
  free(buf);
}

static void on_purge(void *p) {
  put_text(" cb=");
  put_ptr(p);
}

/* Splits off the next space-separated word of *rest. */
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

static void put_lookup(int sts, const char *name, int inst, int show_inst, void *priv) {
  put_int(sts);
  if (sts < 0) return;
  if (name) {
    put_char(' ');
    put_escaped(name, strlen(name));
  }
  if (show_inst) {
    put_char(' ');
    put_int(inst);
  }
  put_char(' ');
  put_ptr(priv);
}

static void run(char *line) {
  char *rest = line;
  char *cmd = word(&rest);
  outlen = 0;
  if (strcmp(cmd, "restart") == 0) {
    put_text("-");
    return;
  }
  pmInDom indom = parse_indom(word(&rest));
  if (strcmp(cmd, "store") == 0) {
    int flags = atoi(word(&rest));
    void *priv = (void *)(uintptr_t)strtoul(word(&rest), NULL, 0);
    unescape(rest);
    put_int(store_fn(indom, flags, rest, priv));
  } else if (strcmp(cmd, "storekey") == 0) {
    int flags = atoi(word(&rest));
    void *priv = (void *)(uintptr_t)strtoul(word(&rest), NULL, 0);
    const void *key;
    int keylen = parse_key(word(&rest), &key);
    unescape(rest);
    put_int(store_key_fn(indom, flags, rest, keylen, key, priv));
  } else if (strcmp(cmd, "lookup") == 0) {
    char *name = NULL;
    void *priv = NULL;
    int sts = lookup_fn(indom, atoi(word(&rest)), &name, &priv);
    put_lookup(sts, name, 0, 0, priv);
  } else if (strcmp(cmd, "lookupname") == 0) {
    int inst = -1;
    void *priv = NULL;
    unescape(rest);
    int sts = lookup_name_fn(indom, rest, &inst, &priv);
    put_lookup(sts, NULL, inst, 1, priv);
  } else if (strcmp(cmd, "lookupkey") == 0) {
    const void *key;
    int keylen = parse_key(word(&rest), &key);
    char *name = NULL;
    int inst = -1;
    void *priv = NULL;
    unescape(rest);
    int sts = lookup_key_fn(indom, rest, keylen, key, &name, &inst, &priv);
    put_lookup(sts, name, inst, 1, priv);
  } else if (strcmp(cmd, "op") == 0) {
    put_int(op_fn(indom, atoi(word(&rest))));
  } else if (strcmp(cmd, "walk") == 0) {
    int sts = op_fn(indom, PMDA_CACHE_WALK_REWIND);
    put_int(sts);
    while (sts >= 0 && (sts = op_fn(indom, PMDA_CACHE_WALK_NEXT)) >= 0) {
      put_char(' ');
      put_int(sts);
    }
  } else if (strcmp(cmd, "purge") == 0) {
    put_int(purge_fn(indom, (time_t)atol(word(&rest))));
  } else if (strcmp(cmd, "purgecb") == 0) {
    time_t recent = (time_t)atol(word(&rest));
    size_t at = outlen;
    int sts = purge_cb_fn(indom, recent, on_purge);
    /* the callbacks were written first; put the status in front */
    char calls[4096];
    size_t n = outlen - at;
    if (n >= sizeof calls) n = sizeof calls - 1;
    memcpy(calls, out + at, n);
    outlen = at;
    put_int(sts);
    for (size_t i = 0; i < n; i++) put_char(calls[i]);
  } else if (strcmp(cmd, "resize") == 0) {
    put_int(resize_fn(indom, atoi(word(&rest))));
  } else if (strcmp(cmd, "dump") == 0) {
    put_dump(indom, atoi(word(&rest)));
  } else if (strcmp(cmd, "file") == 0) {
    put_file(indom);
  } else if (strcmp(cmd, "writefile") == 0) {
    write_file(indom, rest);
  } else if (strcmp(cmd, "rmfile") == 0) {
    char path[4096];
    put_int(unlink(path_of(indom, path, sizeof path)) == 0 ? 0 : -errno);
  } else {
    put_text("unknown command");
  }
}

static char *lines[20000];
static int nlines;

static void run_phase(int from, int to) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    load_library();
    run_start = time(NULL);
    for (int i = from; i < to; i++) {
      char copy[8192];
      snprintf(copy, sizeof copy, "%s", lines[i]);
      run(copy);
      printf("%s\t", lines[i]);
      fwrite(out, 1, outlen, stdout);
      putchar('\n');
      fflush(stdout);
    }
    fflush(stdout);
    _exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) printf("#crash\tsignal %d\n", WTERMSIG(status));
}

int main(void) {
  char line[8192];
  while (nlines < 20000 && fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '\0' || line[0] == '#') continue;
    lines[nlines++] = strdup(line);
  }
  int from = 0;
  for (int i = 0; i < nlines; i++) {
    if (strcmp(lines[i], "restart") == 0) {
      run_phase(from, i);
      printf("restart\t-\n");
      from = i + 1;
    }
  }
  run_phase(from, nlines);
  return 0;
}
