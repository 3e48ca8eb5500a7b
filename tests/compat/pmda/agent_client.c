/*
 * A client of the C agents, written against the classic C PMAPI: it opens
 * a local context (the agents run inside this process), and fetches,
 * stores, reads instances, help text and labels, and unpacks event
 * records, printing what it gets. agents_test.sh compares the output.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/pmapi.h>

static const char *names[] = {"simple.numfetch", "simple.color", "simple.now", "dyn.events", "dyn.sub.b"};
#define NUMFETCH 0
#define COLOR 1
#define NOW 2
#define EVENTS 3
#define SUB_B 4
#define NNAMES 5
static pmID pmids[NNAMES];

static int fail(const char *what, int sts)
{
    fprintf(stderr, "%s: %s\n", what, pmErrStr(sts));
    exit(1);
}

/* Stores one 32-bit value into instance inst of metric m. */
static int store(int m, int inst, int value)
{
    pmResult *r = calloc(1, sizeof(pmResult));
    pmValueSet *vs = calloc(1, sizeof(pmValueSet));
    int sts;

    vs->pmid = pmids[m];
    vs->numval = 1;
    vs->valfmt = PM_VAL_INSITU;
    vs->vlist[0].inst = inst;
    vs->vlist[0].value.lval = value;
    r->numpmid = 1;
    r->vset[0] = vs;
    sts = pmStore(r);
    free(vs);
    free(r);
    return sts;
}

static void print_colors(void)
{
    pmResult *r;
    int i, sts;

    if ((sts = pmFetch(1, &pmids[COLOR], &r)) < 0)
        fail("pmFetch", sts);
    printf("simple.color:");
    for (i = 0; i < r->vset[0]->numval; i++)
        printf(" [%d] %d", r->vset[0]->vlist[i].inst, r->vset[0]->vlist[i].value.lval);
    printf("\n");
    pmFreeResult(r);
}

static void print_events(void)
{
    pmResult *r, **records;
    pmAtomValue av;
    int n, i, j, sts;

    if ((sts = pmFetch(1, &pmids[EVENTS], &r)) < 0)
        fail("pmFetch", sts);
    if ((n = pmUnpackEventRecords(r->vset[0], 0, &records)) < 0)
        fail("pmUnpackEventRecords", n);
    printf("dyn.events: %d record(s)\n", n);
    for (i = 0; i < n; i++) {
        printf("  record at %ld.%06ld, %d value set(s)\n", (long)records[i]->timestamp.tv_sec,
               (long)records[i]->timestamp.tv_usec, records[i]->numpmid);
        for (j = 0; j < records[i]->numpmid; j++) {
            pmValueSet *vs = records[i]->vset[j];
            int type = vs->valfmt == PM_VAL_INSITU ? PM_TYPE_U32 : PM_TYPE_STRING;
            if ((sts = pmExtractValue(vs->valfmt, &vs->vlist[0], type, &av, type)) < 0)
                fail("pmExtractValue", sts);
            if (type == PM_TYPE_STRING) {
                printf("    %s \"%s\"\n", pmIDStr(vs->pmid), av.cp);
                free(av.cp);
            } else {
                printf("    %s %u\n", pmIDStr(vs->pmid), av.ul);
            }
        }
    }
    pmFreeEventResult(records);
    pmFreeResult(r);
}

int main(void)
{
    pmDesc desc;
    pmResult *r;
    pmLabelSet *sets;
    int *insts, n, i, sts;
    char **inames, *text;

    if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0)
        fail("pmNewContext", sts);
    if ((sts = pmLookupName(NNAMES, names, pmids)) != NNAMES)
        fail("pmLookupName", sts < 0 ? sts : PM_ERR_NAME);
    for (i = 0; i < NNAMES; i++)
        printf("%s %s\n", names[i], pmIDStr(pmids[i]));

    if ((sts = pmLookupDesc(pmids[NOW], &desc)) < 0)
        fail("pmLookupDesc", sts);
    printf("simple.now indom %s\n", pmInDomStr(desc.indom));
    if ((n = pmGetInDom(desc.indom, &insts, &inames)) < 0)
        fail("pmGetInDom", n);
    for (i = 0; i < n; i++)
        printf("  instance %d \"%s\"\n", insts[i], inames[i]);
    free(insts);
    free(inames);
    if ((n = pmGetInstancesLabels(desc.indom, &sets)) < 0)
        fail("pmGetInstancesLabels", n);
    for (i = 0; i < n; i++)
        printf("  labels of %d: %.*s\n", (int)sets[i].inst, (int)sets[i].jsonlen, sets[i].json);
    pmFreeLabelSets(sets, n);

    if ((sts = pmLookupDesc(pmids[COLOR], &desc)) < 0)
        fail("pmLookupDesc", sts);
    if ((sts = pmLookupInDomText(desc.indom, PM_TEXT_ONELINE, &text)) < 0)
        fail("pmLookupInDomText", sts);
    printf("simple.color indom: %s\n", text);
    free(text);

    if ((sts = pmFetch(1, &pmids[NUMFETCH], &r)) < 0)
        fail("pmFetch", sts);
    printf("simple.numfetch: %d\n", r->vset[0]->vlist[0].value.lval);
    pmFreeResult(r);
    print_colors();
    printf("store green=7: %d\n", store(COLOR, 1, 7));
    print_colors();
    printf("store numfetch=-1: %s\n", pmErrStr(store(NUMFETCH, PM_IN_NULL, -1)));
    printf("store red=300: %s\n", pmErrStr(store(COLOR, 0, 300)));
    printf("store purple=1: %s\n", pmErrStr(store(COLOR, 9, 1)));

    print_events();
    if ((sts = pmFetch(1, &pmids[SUB_B], &r)) < 0)
        fail("pmFetch", sts);
    printf("dyn.sub.b: \"%s\"\n", r->vset[0]->vlist[0].value.pval->vbuf);
    pmFreeResult(r);
    return pmDestroyContext(pmWhichContext()) < 0;
}
