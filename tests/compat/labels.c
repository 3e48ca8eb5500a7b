/*
 * labels.c: the label sets of metrics in an archive, level by level and
 * merged, as pmLookupLabels(3) and the per-level functions return them.
 *
 * Usage: labels ARCHIVE METRIC...
 */
#include <pcp/pmapi.h>

static void print_sets(const char *what, int n, pmLabelSet *sets)
{
    int i, j;

    if (n < 0) {
        printf("%s: %s\n", what, pmErrStr(n));
        return;
    }
    printf("%s: %d set(s)\n", what, n);
    for (i = 0; i < n; i++) {
        printf("  inst %d nlabels %d json %s\n", (int)sets[i].inst, sets[i].nlabels,
               sets[i].json ? sets[i].json : "(null)");
        for (j = 0; j < sets[i].nlabels; j++) {
            pmLabel *l = &sets[i].labels[j];
            printf("    %.*s = %.*s (flags %#x)\n", l->namelen, sets[i].json + l->name,
                   l->valuelen, sets[i].json + l->value, l->flags & ~PM_LABEL_COMPOUND);
        }
    }
}

int main(int argc, char **argv)
{
    pmLabelSet *sets, *ptrs[64];
    pmDesc desc;
    pmID id;
    char buf[1024];
    int ctx, n, i, k, sts;
    pmLogLabel label;
    pmResult *rp;

    if (argc < 3) {
        fprintf(stderr, "Usage: %s ARCHIVE METRIC...\n", argv[0]);
        return 1;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
        printf("%s: %s\n", argv[1], pmErrStr(ctx));
        return 1;
    }
    /* Labels are metadata in force at the collection time: go past the
     * first record. */
    pmGetArchiveLabel(&label);
    pmSetMode(PM_MODE_FORW, &label.ll_start, 0);
    if (pmFetchArchive(&rp) == 0)
        pmFreeResult(rp);

    n = pmGetContextLabels(&sets);
    print_sets("context", n, sets);
    if (n > 0)
        pmFreeLabelSets(sets, n);

    for (k = 2; k < argc; k++) {
        const char *name = argv[k];
        printf("== %s\n", name);
        if ((sts = pmLookupName(1, &name, &id)) < 0 || (sts = pmLookupDesc(id, &desc)) < 0) {
            printf("%s\n", pmErrStr(sts));
            continue;
        }
        n = pmGetDomainLabels(pmID_domain(id), &sets);
        print_sets("domain", n, sets);
        if (n > 0)
            pmFreeLabelSets(sets, n);
        n = pmGetClusterLabels(id, &sets);
        print_sets("cluster", n, sets);
        if (n > 0)
            pmFreeLabelSets(sets, n);
        n = pmGetItemLabels(id, &sets);
        print_sets("item", n, sets);
        if (n > 0)
            pmFreeLabelSets(sets, n);
        if (desc.indom != PM_INDOM_NULL) {
            n = pmGetInDomLabels(desc.indom, &sets);
            print_sets("indom", n, sets);
            if (n > 0)
                pmFreeLabelSets(sets, n);
            n = pmGetInstancesLabels(desc.indom, &sets);
            print_sets("instances", n, sets);
            if (n > 0)
                pmFreeLabelSets(sets, n);
        }
        n = pmLookupLabels(id, &sets);
        print_sets("pmLookupLabels", n, sets);
        if (n > 0) {
            int m = 0;
            for (i = 0; i < n && m < 64; i++)
                if (sets[i].inst == PM_IN_NULL)
                    ptrs[m++] = &sets[i];
            if ((sts = pmMergeLabelSets(ptrs, m, buf, sizeof buf, NULL, NULL)) >= 0)
                printf("  merged (%d): %s\n", sts, buf);
            else
                printf("  merged: %s\n", pmErrStr(sts));
            pmFreeLabelSets(sets, n);
        }
    }
    pmDestroyContext(ctx);
    return 0;
}
