/* Shared by pmns.c and pmns_add.c: prints every answer PCP's PMNS services
 * give for the currently loaded name space, one row per question, so the
 * unit tests can replay the same questions against pmapi::Pmns.
 *
 * Rows (tab separated):
 *   traverse START RC        then one "tleaf NAME" row per callback
 *   children NAME RC CHILD=STATUS...
 *   lookup NAME RC PMID
 *   nameall PMID RC NAME...
 *   nameid PMID RC NAME
 *
 * Derived metrics that libpcp always registers (event.flags, event.missed)
 * are not part of any PMNS file and are left out of every row. */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **leaves;
static int nleaves, maxleaves;
/* the full traversal from the root, for derived_only() */
static char **all_leaves;
static int *all_derived;
static int nall_leaves;

static void collect(const char *name) {
  if (nleaves == maxleaves) {
    maxleaves = maxleaves ? 2 * maxleaves : 1024;
    leaves = realloc(leaves, maxleaves * sizeof(char *));
  }
  leaves[nleaves++] = strdup(name);
}

static int is_derived_pmid(pmID id) {
  return id != PM_ID_NULL && pmID_domain(id) == 511 && pmID_item(id) != 0;
}

static int lookup_one(const char *name, pmID *id) {
  const char *names[1] = {name};
  return pmLookupName(1, names, id);
}

static int is_derived_leaf(const char *name) {
  pmID id;
  return lookup_one(name, &id) >= 0 && is_derived_pmid(id);
}

/* True when every leaf at or below path comes from a derived metric. */
static int derived_only(const char *path) {
  size_t n = strlen(path);
  int derived = 0, real = 0;
  for (int i = 0; i < nall_leaves; i++) {
    if (strcmp(all_leaves[i], path) == 0 ||
        (n > 0 && strncmp(all_leaves[i], path, n) == 0 && all_leaves[i][n] == '.')) {
      if (all_derived[i]) derived++; else real++;
    }
  }
  return derived > 0 && real == 0;
}

static void traverse_row(const char *start) {
  int save = nleaves;
  int rc = pmTraversePMNS(start, collect);
  int shown = 0;
  for (int i = save; i < nleaves; i++)
    if (!is_derived_leaf(leaves[i])) shown++;
  printf("traverse\t%s\t%d\n", start, rc < 0 ? rc : shown);
  for (int i = save; i < nleaves; i++) {
    if (!is_derived_leaf(leaves[i])) printf("tleaf\t%s\n", leaves[i]);
    free(leaves[i]);
  }
  nleaves = save;
}

static void children_row(const char *name) {
  char **kids = NULL;
  int *status = NULL;
  int rc = pmGetChildrenStatus(name, &kids, &status);
  char path[1024];
  int shown = 0;
  for (int i = 0; i < rc; i++) {
    snprintf(path, sizeof path, "%s%s%s", name, *name ? "." : "", kids[i]);
    if (!derived_only(path)) shown++;
  }
  printf("children\t%s\t%d", name, rc < 0 ? rc : shown);
  for (int i = 0; i < rc; i++) {
    snprintf(path, sizeof path, "%s%s%s", name, *name ? "." : "", kids[i]);
    if (!derived_only(path)) printf("\t%s=%d", kids[i], status[i]);
  }
  printf("\n");
  if (rc > 0) { free(kids); free(status); }
}

static void lookup_row(const char *name) {
  pmID id;
  int rc = lookup_one(name, &id);
  printf("lookup\t%s\t%d\t%s\n", name, rc, pmIDStr(id));
}

static void names_rows(pmID id) {
  char **names = NULL;
  char *one = NULL;
  char idstr[32];
  pmIDStr_r(id, idstr, sizeof idstr);
  int rc = pmNameAll(id, &names);
  printf("nameall\t%s\t%d", idstr, rc);
  for (int i = 0; i < rc; i++) printf("\t%s", names[i]);
  printf("\n");
  if (rc > 0) free(names);
  rc = pmNameID(id, &one);
  printf("nameid\t%s\t%d\t%s\n", idstr, rc, rc >= 0 ? one : "");
  if (rc >= 0) free(one);
}

static int seen_before(pmID *ids, int n, pmID id) {
  for (int i = 0; i < n; i++)
    if (ids[i] == id) return 1;
  return 0;
}

static void probe_leaf(const char *leaf, pmID id) {
  char buf[1024];
  lookup_row(leaf);
  children_row(leaf);
  snprintf(buf, sizeof buf, "%s.x", leaf);
  lookup_row(buf);
  if (id != PM_ID_NULL && pmID_domain(id) == 511) {
    /* root of a dynamic subtree */
    snprintf(buf, sizeof buf, "%s.x.y", leaf);
    lookup_row(buf);
    snprintf(buf, sizeof buf, "%s.x", leaf);
    children_row(buf);
    traverse_row(buf);
    traverse_row(leaf);
  }
}

static void probe_nonleaf(const char *node) {
  char buf[1024];
  children_row(node);
  if (*node == '\0') return;
  lookup_row(node);
  snprintf(buf, sizeof buf, "%s.no_such", node);
  lookup_row(buf);
  snprintf(buf, sizeof buf, "%s.", node);
  lookup_row(buf);
}

/* Dumps everything for the loaded PMNS. */
static void dump_pmns(void) {
  static const char *odd[] = {"", ".", "..", "no_such", ".x", "x.", "no_such.x"};
  traverse_row("");
  /* keep a private copy of the full traversal */
  nleaves = 0;
  pmTraversePMNS("", collect);
  int total = nleaves;
  char **all = leaves;
  leaves = NULL;
  nleaves = maxleaves = 0;
  all_leaves = all;
  nall_leaves = total;
  all_derived = malloc((total + 1) * sizeof(int));
  for (int i = 0; i < total; i++) all_derived[i] = is_derived_leaf(all[i]);

  /* every non-leaf node once, in traversal order of first appearance */
  probe_nonleaf("");
  char **done = malloc((total + 1) * sizeof(char *));
  int ndone = 0;
  for (int i = 0; i < total; i++) {
    if (is_derived_leaf(all[i])) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s", all[i]);
    for (char *dot = strchr(path, '.'); dot != NULL; dot = strchr(dot + 1, '.')) {
      *dot = '\0';
      int seen = 0;
      for (int j = 0; j < ndone && !seen; j++) seen = strcmp(done[j], path) == 0;
      if (!seen) {
        done[ndone++] = strdup(path);
        if (strchr(path, '.') == NULL) traverse_row(path);
        probe_nonleaf(path);
      }
      *dot = '.';
    }
    pmID id;
    lookup_one(all[i], &id);
    probe_leaf(all[i], id);
  }
  for (unsigned i = 0; i < sizeof odd / sizeof odd[0]; i++) lookup_row(odd[i]);
  traverse_row("no_such");
  if (total > 0 && !is_derived_leaf(all[0])) traverse_row(all[0]);

  pmID *ids = malloc((total + 8) * sizeof(pmID));
  int nids = 0;
  for (int i = 0; i < total; i++) {
    pmID id;
    if (lookup_one(all[i], &id) < 0 || is_derived_pmid(id)) continue;
    if (!seen_before(ids, nids, id)) ids[nids++] = id;
  }
  for (int i = 0; i < nids; i++) names_rows(ids[i]);
  static const pmID extra[] = {PM_ID_NULL, 0, 1, (511u << 22), (510u << 22) | (4095u << 10) | 1023u};
  for (unsigned i = 0; i < sizeof extra / sizeof extra[0]; i++)
    if (!seen_before(ids, nids, extra[i])) names_rows(extra[i]);
}

