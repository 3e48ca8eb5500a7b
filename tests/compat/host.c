/*
 * host.c: a client of a pmcd (PM_CONTEXT_HOST) running the sample agent:
 * names, descriptors, help text, instances, values, a store and its
 * read-back, the profile, and a fetchgroup on the same pmcd. Only metrics
 * whose values do not move between runs are printed.
 *
 * Usage: host HOSTSPEC
 */
#include <pcp/pmapi.h>

static const char *names[] = {
    "sample.long.one", "sample.long.million", "sample.ulonglong.million",
    "sample.double.million", "sample.string.hullo", "sample.bin", "sample.dupnames.two.bin",
};
#define NNAMES (int)(sizeof(names) / sizeof(names[0]))

static void fail(const char *what, int sts)
{
    printf("%s: %s\n", what, pmErrStr(sts));
    exit(1);
}

static void print_result(pmResult *rp, pmDesc *descs)
{
    int i, j;
    pmSortInstances(rp);
    for (i = 0; i < rp->numpmid; i++) {
        pmValueSet *vs = rp->vset[i];
        printf("  %s:", names[i]);
        if (vs->numval < 0)
            printf(" %s", pmErrStr(vs->numval));
        for (j = 0; j < vs->numval; j++) {
            printf(" [%d]", vs->vlist[j].inst);
            pmPrintValue(stdout, vs->valfmt, descs[i].type, &vs->vlist[j], 1);
        }
        printf("\n");
    }
}

static int store_long(const char *name, int value)
{
    pmID id;
    pmResult *rp;
    int sts;
    if ((sts = pmLookupName(1, &name, &id)) < 0 || (sts = pmFetch(1, &id, &rp)) < 0)
        return sts;
    rp->vset[0]->vlist[0].value.lval = value;
    sts = pmStore(rp);
    pmFreeResult(rp);
    return sts;
}

int main(int argc, char **argv)
{
    pmID ids[NNAMES];
    pmDesc descs[NNAMES];
    pmResult *rp;
    char *text, **inames;
    int *insts, ctx, sts, n, i, bins[2] = { 300, 700 };
    pmFG fg;
    pmAtomValue vals[16];
    int codes[16];
    unsigned int num;
    pmAtomValue one;

    if (argc != 2) {
        fprintf(stderr, "Usage: %s HOSTSPEC\n", argv[0]);
        return 1;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0)
        fail("pmNewContext", ctx);
    printf("PMNS location remote: %d\n", pmGetPMNSLocation() == PMNS_REMOTE);
    if ((n = pmLookupName(NNAMES, names, ids)) != NNAMES)
        fail("pmLookupName", n < 0 ? n : PM_ERR_NAME);
    if ((n = pmLookupDescs(NNAMES, ids, descs)) != NNAMES)
        fail("pmLookupDescs", n < 0 ? n : PM_ERR_PMID);
    for (i = 0; i < NNAMES; i++)
        printf("%s %s %s %s %s \"%s\"\n", names[i], pmIDStr(ids[i]), pmTypeStr(descs[i].type),
               pmInDomStr(descs[i].indom), pmSemStr(descs[i].sem), pmUnitsStr(&descs[i].units));
    if ((sts = pmLookupText(ids[0], PM_TEXT_ONELINE, &text)) == 0) {
        printf("oneline: %s\n", text);
        free(text);
    }
    if ((sts = pmLookupText(ids[0], PM_TEXT_HELP, &text)) == 0) {
        printf("help: %s\n", text);
        free(text);
    }
    n = pmGetInDom(descs[5].indom, &insts, &inames);
    printf("pmGetInDom(%s): %d:", pmInDomStr(descs[5].indom), n);
    for (i = 0; i < n; i++)
        printf(" %d=%s", insts[i], inames[i]);
    printf("\n");
    if (n > 0) {
        free(insts);
        free(inames);
    }
    printf("pmLookupInDom(bin-500): %d\n", pmLookupInDom(descs[5].indom, "bin-500"));

    if ((sts = pmFetch(NNAMES, ids, &rp)) < 0)
        fail("pmFetch", sts);
    printf("fetch:\n");
    print_result(rp, descs);
    pmFreeResult(rp);

    pmDelProfile(descs[5].indom, 0, NULL);
    pmAddProfile(descs[5].indom, 2, bins);
    if ((sts = pmFetch(NNAMES, ids, &rp)) < 0)
        fail("pmFetch", sts);
    printf("fetch with sample.bin narrowed to 300 and 700:\n");
    print_result(rp, descs);
    pmFreeResult(rp);
    pmAddProfile(PM_INDOM_NULL, 0, NULL);

    printf("store sample.write_me 37: %d\n", store_long("sample.write_me", 37));
    {
        const char *wm = "sample.write_me";
        pmID id;
        pmLookupName(1, &wm, &id);
        if (pmFetch(1, &id, &rp) == 0) {
            pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[0], PM_TYPE_32, &one, PM_TYPE_32);
            printf("sample.write_me now %d\n", one.l);
            pmFreeResult(rp);
        }
    }
    printf("store sample.write_me 2: %d\n", store_long("sample.write_me", 2));
    printf("store sample.long.one: %s\n", pmErrStr(store_long("sample.long.one", 5)));
    {
        /* A string value travels in a value block. */
        const char *sw = "sample.string.write_me";
        pmID id;
        pmResult *orig;
        if ((sts = pmLookupName(1, &sw, &id)) < 0 || (sts = pmFetch(1, &id, &orig)) < 0) {
            printf("%s: %s\n", sw, pmErrStr(sts));
        } else {
            pmResult *rq;
            pmValueBlock *vb = malloc(PM_VAL_HDR_SIZE + 6);
            pmFetch(1, &id, &rq);
            vb->vtype = PM_TYPE_STRING;
            vb->vlen = PM_VAL_HDR_SIZE + 6;
            memcpy(vb->vbuf, "hello", 6);
            {
                /* The fetched block belongs to the result: put it back
                 * before the result is freed. */
                pmValueBlock *fetched = rq->vset[0]->vlist[0].value.pval;
                rq->vset[0]->vlist[0].value.pval = vb;
                printf("store sample.string.write_me hello: %d\n", pmStore(rq));
                rq->vset[0]->vlist[0].value.pval = fetched;
                free(vb);
            }
            pmFreeResult(rq);
            if (pmFetch(1, &id, &rq) == 0) {
                printf("sample.string.write_me now ");
                pmPrintValue(stdout, rq->vset[0]->valfmt, PM_TYPE_STRING, &rq->vset[0]->vlist[0], 1);
                printf("\n");
                pmFreeResult(rq);
            }
            printf("restore: %d\n", pmStore(orig));
            pmFreeResult(orig);
        }
    }

    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_HOST, argv[1])) < 0)
        fail("pmCreateFetchGroup", sts);
    sts = pmExtendFetchGroup_indom(fg, "sample.bin", "count x 10^2", codes, NULL, vals,
                                   PM_TYPE_DOUBLE, NULL, 16, &num, NULL);
    printf("sample.bin in hundreds: %s\n", pmErrStr(sts));
    if ((sts = pmExtendFetchGroup_indom(fg, "sample.bin", "instant", codes, NULL, vals,
                                        PM_TYPE_DOUBLE, NULL, 16, &num, NULL)) < 0)
        fail("pmExtendFetchGroup_indom", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "sample.long.million", NULL, NULL, &one, PM_TYPE_STRING,
                                       NULL)) < 0)
        fail("pmExtendFetchGroup_item", sts);
    if ((sts = pmFetchGroup(fg)) < 0)
        fail("pmFetchGroup", sts);
    printf("fetchgroup: sample.long.million as string %s, sample.bin:", one.cp);
    for (i = 0; i < (int)num; i++)
        printf(" %d=%g", codes[i], vals[i].d);
    printf("\n");
    pmDestroyFetchGroup(fg);
    pmDestroyContext(ctx);
    return 0;
}
