/*
 * replay.c: replays an archive through the classic C PMAPI, as a custom
 * monitor would, and prints everything each fetch returns. Every metric
 * the archive's name space names is looked up, described and fetched
 * together at each step, in one of four modes:
 *
 *   forw              PM_MODE_FORW from the start of the archive
 *   back              PM_MODE_BACK from its end
 *   interp:STEP       PM_MODE_INTERP from the start, STEP seconds apart
 *   interp-back:STEP  PM_MODE_INTERP from the end, going back
 *
 * STEP is seconds, or /N for the archive's extent in N steps (rounded
 * down to the millisecond, at least one). Given several modes, it replays
 * the archive in each in turn, on a new context; each replay is headed by
 * "=== MODE".
 *
 * Usage: replay [-q] [-d] [-n MAXSTEPS] ARCHIVE MODE...
 *
 * With -d only the derived metrics (domain 511) are fetched: with
 * PCP_DERIVED_CONFIG unset these are the default configuration's, and
 * each fetch evaluates every one of them (bench/compare's replay-derived
 * row).
 *
 * The same source is built against PCP's libpcp and against this
 * library; replay_test.sh compares what the two print. With -q nothing is
 * printed but the totals (for timing: bench/compare's replay rows).
 *
 * Output: one line per metric (PMID, type, indom, semantics, units), then
 * for each fetch its time and each value set: PMID, number of values or
 * error, and each value as instance and either the in-place integer or
 * the block's type, length and bytes in hexadecimal. A fetch error is
 * printed and counted; the replay stops at PM_ERR_EOL, after the fifth
 * error or after MAXSTEPS fetches.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char **names;
static int nnames;
static int maxnames;

static void add_name(const char *name)
{
    if (nnames == maxnames) {
        maxnames = maxnames ? 2 * maxnames : 256;
        names = realloc(names, maxnames * sizeof(*names));
        if (names == NULL) {
            fprintf(stderr, "replay: out of memory\n");
            exit(1);
        }
    }
    names[nnames++] = strdup(name);
}

static int by_pmid(const void *a, const void *b)
{
    pmID x = *(const pmID *)a, y = *(const pmID *)b;
    return x < y ? -1 : x > y;
}

/* Every PMID the name space names, sorted, each once; *out holds them. */
static int derived_only;

static int lookup_all(pmID **out)
{
    for (int i = 0; i < nnames; i++)
        free(names[i]);
    nnames = 0;
    int sts = pmTraversePMNS("", add_name);
    if (sts < 0) {
        printf("pmTraversePMNS: %s\n", pmErrStr(sts));
        return 0;
    }
    pmID *pmids = malloc((nnames + 1) * sizeof(pmID));
    if (pmids == NULL)
        return 0;
    int n = 0;
    for (int i = 0; i < nnames; i++) {
        pmID id;
        const char *one = names[i];
        if (pmLookupName(1, &one, &id) < 0 || id == PM_ID_NULL)
            continue;
        if (derived_only && pmID_domain(id) != 511)
            continue;
        pmids[n++] = id;
    }
    qsort(pmids, n, sizeof(pmID), by_pmid);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || pmids[k - 1] != pmids[i])
            pmids[k++] = pmids[i];
    *out = pmids;
    return k;
}

static void print_descs(int n, pmID *pmids, int quiet)
{
    for (int i = 0; i < n; i++) {
        pmDesc d;
        int sts = pmLookupDesc(pmids[i], &d);
        if (quiet)
            continue;
        if (sts < 0)
            printf("desc %s: %s\n", pmIDStr(pmids[i]), pmErrStr(sts));
        else
            printf("desc %s type %d indom %s sem %d units %s\n", pmIDStr(pmids[i]), d.type,
                   pmInDomStr(d.indom), d.sem, pmUnitsStr(&d.units));
    }
}

static void print_value(int valfmt, const pmValue *v)
{
    if (valfmt == PM_VAL_INSITU) {
        printf("  inst %d lval %d\n", v->inst, v->value.lval);
        return;
    }
    const pmValueBlock *vb = v->value.pval;
    printf("  inst %d type %d len %u", v->inst, vb->vtype, vb->vlen);
    if (vb->vlen > PM_VAL_HDR_SIZE) {
        printf(" ");
        const unsigned char *p = (const unsigned char *)vb->vbuf;
        for (unsigned j = 0; j + PM_VAL_HDR_SIZE < vb->vlen; j++)
            printf("%02x", p[j]);
    }
    printf("\n");
}

/* Values touched in quiet mode, so the totals depend on every value. */
static unsigned long long checksum;

static void print_result(const pmHighResResult *rp, int quiet, long *nvalues)
{
    if (!quiet)
        printf("@ %lld.%09ld numpmid %d\n", (long long)rp->timestamp.tv_sec,
               (long)rp->timestamp.tv_nsec, rp->numpmid);
    for (int i = 0; i < rp->numpmid; i++) {
        const pmValueSet *vs = rp->vset[i];
        if (vs->numval > 0)
            *nvalues += vs->numval;
        if (quiet) {
            for (int j = 0; j < vs->numval; j++)
                checksum += vs->valfmt == PM_VAL_INSITU ? (unsigned)vs->vlist[j].value.lval
                                                        : vs->vlist[j].value.pval->vlen;
            continue;
        }
        if (vs->numval < 0) {
            printf(" %s error %s\n", pmIDStr(vs->pmid), pmErrStr(vs->numval));
            continue;
        }
        printf(" %s numval %d\n", pmIDStr(vs->pmid), vs->numval);
        for (int j = 0; j < vs->numval; j++)
            print_value(vs->valfmt, &vs->vlist[j]);
    }
}

static int set_mode(const char *mode, const char *step)
{
    pmHighResLogLabel label;
    struct timespec end, delta = {0, 0};
    int sts = pmGetHighResArchiveLabel(&label);
    if (sts < 0) {
        printf("pmGetHighResArchiveLabel: %s\n", pmErrStr(sts));
        return sts;
    }
    if ((sts = pmGetHighResArchiveEnd(&end)) < 0) {
        printf("pmGetHighResArchiveEnd: %s\n", pmErrStr(sts));
        return sts;
    }
    printf("start %lld.%09ld end %lld.%09ld\n", (long long)label.start.tv_sec,
           (long)label.start.tv_nsec, (long long)end.tv_sec, (long)end.tv_nsec);
    if (step != NULL) {
        /* "/N": the archive's extent in N steps (at least a millisecond). */
        double s = atof(step);
        if (step[0] == '/') {
            double extent = (double)(end.tv_sec - label.start.tv_sec) +
                            (double)(end.tv_nsec - label.start.tv_nsec) / 1e9;
            s = extent / atof(step + 1);
            s = s < 0.001 ? 0.001 : (double)(long long)(s * 1000) / 1000;
        }
        delta.tv_sec = (time_t)s;
        delta.tv_nsec = (long)((s - (double)delta.tv_sec) * 1e9);
    }
    if (strcmp(mode, "forw") == 0)
        sts = pmSetModeHighRes(PM_MODE_FORW, &label.start, NULL);
    else if (strcmp(mode, "back") == 0)
        sts = pmSetModeHighRes(PM_MODE_BACK, &end, NULL);
    else if (strcmp(mode, "interp") == 0)
        sts = pmSetModeHighRes(PM_MODE_INTERP, &label.start, &delta);
    else if (strcmp(mode, "interp-back") == 0) {
        delta.tv_sec = -delta.tv_sec;
        delta.tv_nsec = -delta.tv_nsec;
        sts = pmSetModeHighRes(PM_MODE_INTERP, &end, &delta);
    } else {
        fprintf(stderr, "replay: unknown mode %s\n", mode);
        exit(2);
    }
    if (sts < 0)
        printf("pmSetMode: %s\n", pmErrStr(sts));
    return sts;
}

/* Replays `archive` in one mode ("forw", "back", "interp:STEP" or
 * "interp-back:STEP") on a context of its own. */
static int replay(const char *archive, const char *spec, int quiet, long maxsteps)
{
    char mode[32];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof(mode))
        len = sizeof(mode) - 1;
    memcpy(mode, spec, len);
    mode[len] = '\0';
    int ctx = pmNewContext(PM_CONTEXT_ARCHIVE, archive);
    if (ctx < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return 1;
    }
    pmID *pmids = NULL;
    int n = lookup_all(&pmids);
    printf("metrics %d\n", n);
    print_descs(n, pmids, quiet);
    if (set_mode(mode, colon ? colon + 1 : NULL) < 0) {
        pmDestroyContext(ctx);
        free(pmids);
        return 1;
    }
    long steps = 0, nvalues = 0;
    int errors = 0;
    while (steps < maxsteps && errors < 5) {
        pmHighResResult *rp;
        int sts = pmFetchHighRes(n, pmids, &rp);
        steps++;
        if (sts < 0) {
            printf("fetch: %s\n", pmErrStr(sts));
            if (sts == PM_ERR_EOL)
                break;
            errors++;
            continue;
        }
        print_result(rp, quiet, &nvalues);
        pmFreeHighResResult(rp);
    }
    printf("fetches %ld values %ld errors %d", steps, nvalues, errors);
    if (quiet)
        printf(" checksum %llu", checksum);
    printf("\n");
    pmDestroyContext(ctx);
    free(pmids);
    return 0;
}

int main(int argc, char **argv)
{
    int quiet = 0, c;
    long maxsteps = 100000;
    while ((c = getopt(argc, argv, "qdn:")) != -1) {
        if (c == 'q')
            quiet = 1;
        else if (c == 'd')
            derived_only = 1;
        else if (c == 'n')
            maxsteps = atol(optarg);
        else
            return 2;
    }
    if (argc - optind < 2) {
        fprintf(stderr, "Usage: replay [-q] [-d] [-n MAXSTEPS] ARCHIVE MODE...\n");
        return 2;
    }
    const char *archive = argv[optind];
    int sts = 0;
    for (int i = optind + 1; i < argc; i++) {
        printf("=== %s\n", argv[i]);
        fflush(stdout);
        sts |= replay(archive, argv[i], quiet, maxsteps);
        fflush(stdout);
    }
    return sts;
}
