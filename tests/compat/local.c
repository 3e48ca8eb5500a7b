/*
 * local.c: a client of a local context (PM_CONTEXT_LOCAL): the agents run
 * inside this process. Lists the test agent's metrics with their values,
 * stores a value and reads it back, and reads an instance domain through
 * a fetchgroup on a second local context.
 */
#include <pcp/pmapi.h>

static void show(const char *name)
{
    pmID id;
    pmDesc desc;
    pmResult *rp;
    int sts, i;

    if ((sts = pmLookupName(1, &name, &id)) < 0 || (sts = pmLookupDesc(id, &desc)) < 0) {
        printf("%s: %s\n", name, pmErrStr(sts));
        return;
    }
    if (strcmp(name, "test.fetches") == 0 || strcmp(name, "test.numfetch") == 0)
        return; /* counts every fetch made by anyone */
    if ((sts = pmFetch(1, &id, &rp)) < 0) {
        printf("%s: %s\n", name, pmErrStr(sts));
        return;
    }
    printf("%s (%s, %s):", name, pmTypeStr(desc.type), pmSemStr(desc.sem));
    if (rp->vset[0]->numval < 0)
        printf(" %s", pmErrStr(rp->vset[0]->numval));
    for (i = 0; i < rp->vset[0]->numval; i++) {
        char *iname = NULL;
        if (desc.indom != PM_INDOM_NULL && pmNameInDom(desc.indom, rp->vset[0]->vlist[i].inst, &iname) == 0) {
            printf(" [%s]", iname);
            free(iname);
        }
        pmPrintValue(stdout, rp->vset[0]->valfmt, desc.type, &rp->vset[0]->vlist[i], 1);
    }
    printf("\n");
    pmFreeResult(rp);
}

static void traverse(const char *name) { show(name); }

static int store(const char *name, int value)
{
    pmID id;
    pmResult *rp;
    int sts;

    if ((sts = pmLookupName(1, &name, &id)) < 0)
        return sts;
    if ((sts = pmFetch(1, &id, &rp)) < 0)
        return sts;
    rp->vset[0]->vlist[0].value.lval = value;
    sts = pmStore(rp);
    pmFreeResult(rp);
    return sts;
}

int main(void)
{
    int ctx, sts, codes[4], stss[4];
    unsigned int num, i;
    char *names[4];
    pmAtomValue vals[4];
    pmFG fg;

    if ((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        fprintf(stderr, "pmNewContext(LOCAL): %s\n", pmErrStr(ctx));
        return 1;
    }
    sts = pmTraversePMNS("test", traverse);
    printf("%d metrics under test\n", sts);

    printf("store test.write_me 42: %d\n", store("test.write_me", 42));
    show("test.write_me");
    printf("store test.readonly 1: %s\n", pmErrStr(store("test.readonly", 1)));

    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_LOCAL, NULL)) < 0) {
        fprintf(stderr, "pmCreateFetchGroup: %s\n", pmErrStr(sts));
        return 1;
    }
    if ((sts = pmExtendFetchGroup_indom(fg, "test.colour", NULL, codes, names, vals,
                                        PM_TYPE_STRING, stss, 4, &num, NULL)) < 0) {
        fprintf(stderr, "pmExtendFetchGroup_indom: %s\n", pmErrStr(sts));
        return 1;
    }
    sts = pmFetchGroup(fg);
    printf("fetchgroup: %d, %u instances:", sts, num);
    for (i = 0; i < num; i++)
        printf(" %d/%s=%s", codes[i], names[i], stss[i] < 0 ? pmErrStr(stss[i]) : vals[i].cp);
    printf("\n");
    pmDestroyFetchGroup(fg);

    setenv("PCP_COMPAT_DIR", "/compat/dir", 1);
    printf("pmGetConfig: [%s] [%s], optional %s, separator %c, agents dir set %d\n",
           pmGetConfig("PCP_COMPAT_DIR"), pmGetConfig("PCP_NO_SUCH_VARIABLE"),
           pmGetOptionalConfig("PCP_NO_SUCH_VARIABLE") == NULL ? "NULL" : "set",
           pmPathSeparator(), pmGetConfig("PCP_PMDAS_DIR")[0] == '/');
    pmDestroyContext(ctx);
    return 0;
}
