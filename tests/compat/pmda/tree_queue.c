/* tree_queue.c: the name-tree (pmdaTree*), dynamic name space
 * (pmdaDynamic*) and event-queue (pmdaEventQueue*, pmdaEventNewClient ...)
 * calls of <pcp/pmda.h>, exercised in a fixed order with every result
 * printed. Built against PCP's libpcp_pmda and against
 * libpmapi, the two outputs must be the same (tree_queue_test.sh). */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static void tree(void) {
    pmdaNameSpace *t = NULL;
    pmID id = 0;
    char **names = NULL, **kids = NULL;
    int *status = NULL, i, n;
    const char *look[] = {"a.b.c", "a.b", "a", "a.x", "z.y", "a.b.c.d"};
    const char *walk[] = {"a", "a.b", "a.b.c", "a.x", "z"};

    printf("create %d\n", pmdaTreeCreate(&t));
    printf("insert %d\n", pmdaTreeInsert(t, pmID_build(30, 1, 2), "a.b.c"));
    printf("insert %d\n", pmdaTreeInsert(t, pmID_build(30, 1, 3), "a.b.d"));
    printf("insert %d\n", pmdaTreeInsert(t, pmID_build(30, 2, 0), "a.e"));
    printf("insert %d\n", pmdaTreeInsert(t, pmID_build(30, 3, 0), "z.y"));
    printf("insert alias %d\n", pmdaTreeInsert(t, pmID_build(30, 1, 2), "z.alias"));
    printf("size %d\n", pmdaTreeSize(t));
    printf("name before hash %d\n", pmdaTreeName(t, pmID_build(30, 1, 2), &names));
    pmdaTreeRebuildHash(t, pmdaTreeSize(t));
    for (i = 0; i < 6; i++) {
        n = pmdaTreePMID(t, look[i], &id);
        printf("pmid %s: %d %s\n", look[i], n, n == 0 ? pmIDStr(id) : "-");
    }
    n = pmdaTreeName(t, pmID_build(30, 1, 2), &names);
    printf("names %d:", n);
    for (i = 0; i < n; i++) printf(" %s", names[i]);
    printf("\n");
    if (n > 0) free(names);
    printf("names of unknown %d\n", pmdaTreeName(t, pmID_build(30, 9, 9), &names));
    for (i = 0; i < 5; i++) {
        int traverse;
        for (traverse = 0; traverse < 2; traverse++) {
            kids = NULL;
            status = NULL;
            n = pmdaTreeChildren(t, walk[i], traverse, &kids, &status);
            printf("children %s traverse=%d: %d", walk[i], traverse, n);
            for (int k = 0; k < n; k++) printf(" %s/%d", kids[k], status[k]);
            printf("\n");
            if (n > 0) {
                free(kids);
                free(status);
            }
        }
    }
    pmdaTreeRelease(t);
}

static int decode(int array, void *buf, size_t size, struct timeval *tv, void *data) {
    pmAtomValue av;
    (void)data;
    printf("  event \"%.*s\" (%d bytes) at %ld\n", (int)size, (char *)buf, (int)size, (long)tv->tv_sec);
    if (pmdaEventAddRecord(array, tv, PM_EVENT_FLAG_POINT) < 0) return -1;
    av.cp = (char *)buf;
    return pmdaEventAddParam(array, pmID_build(30, 0, 1), PM_TYPE_STRING, &av) < 0 ? -1 : 1;
}

static int only_b(void *filter, void *buf, size_t size) {
    (void)filter;
    return !(size > 0 && ((char *)buf)[0] == 'b');
}

static void release(void *filter) { printf("  release %s\n", (char *)filter); }

static void records(int q, int ctx) {
    pmAtomValue av;
    int sts;
    memset(&av, 0, sizeof(av));
    sts = pmdaEventQueueRecords(q, &av, ctx, decode, NULL);
    printf("records q=%d ctx=%d: %d", q, ctx, sts);
    if (sts == PMDA_FETCH_STATIC && av.vbp != NULL)
        printf(" nrecords %d", ((pmEventArray *)av.vbp)->ea_nrecords);
    printf("\n");
}

static void stats(int q) {
    pmAtomValue a, b, c, d;
    pmdaEventQueueClients(q, &a);
    pmdaEventQueueCounter(q, &b);
    pmdaEventQueueBytes(q, &c);
    pmdaEventQueueMemory(q, &d);
    printf("stats q=%d: clients %u count %u bytes %llu memory %llu\n", q, a.ul, b.ul,
           (unsigned long long)c.ull, (unsigned long long)d.ull);
}

static void append(int q, const char *text, long sec) {
    struct timeval tv = {sec, 0};
    printf("append %s: %d\n", text, pmdaEventQueueAppend(q, (void *)text, strlen(text), &tv));
}

static void queues(void) {
    pmAtomValue av;
    char msg[16];
    int q = pmdaEventNewQueue("first", 20);
    int q2 = pmdaEventNewActiveQueue("second", 100, 1);
    printf("queues %d %d\n", q, q2);
    printf("same name %d\n", pmdaEventNewQueue("first", 10));
    printf("zero size %d\n", pmdaEventNewQueue("third", 0));
    printf("handle %d %d\n", pmdaEventQueueHandle("second"), pmdaEventQueueHandle("none"));
    append(q, "nobody listens", 1);
    stats(q);
    printf("client %d %d %d\n", pmdaEventNewClient(7), pmdaEventNewClient(8), pmdaEventNewClient(7));
    pmdaEventClients(&av);
    printf("clients %u\n", av.ul);
    records(q, 7);
    records(q, 8);
    records(q, 9);
    stats(q);
    append(q, "alpha", 2);
    append(q, "beta", 3);
    records(q, 7); /* no access yet */
    printf("access %d\n", pmdaEventSetAccess(7, q, 1));
    append(q, "gamma", 4);
    records(q, 7);
    records(q, 7);
    printf("filter %d\n", pmdaEventSetFilter(8, q, "f8", only_b, release));
    append(q, "bravo", 5);
    append(q, "charlie", 6);
    append(q, "big event larger than twenty", 7);
    append(q, "boxer", 8);
    stats(q);
    records(q, 8);
    records(q, 7);
    append(q2, "delta", 9);
    records(q2, 7);
    printf("end %d %d\n", pmdaEventEndClient(8), pmdaEventEndClient(42));
    stats(q);
    printf("shutdown %d %d\n", pmdaEventQueueShutdown(q), pmdaEventQueueShutdown(99));
    printf("handle after shutdown %d\n", pmdaEventQueueHandle("first"));
    printf("end %d\n", pmdaEventEndClient(7));
    printf("handle after last client %d\n", pmdaEventQueueHandle("first"));
    pmdaEventClients(&av);
    printf("clients %u\n", av.ul);
    printf("print [%s]\n", __pmdaEventPrint("a\tb\001cdefghijklmnopqrstu", 21, msg, sizeof(msg)));
    printf("print [%s]\n", __pmdaEventPrint("xy", 2, msg, sizeof(msg)));
}

static pmdaMetric fixed[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(5, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(5, 1), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, 0)}},
};
static int updates;

static int pmns_update(pmdaExt *ext, pmdaNameSpace **tree) {
    (void)ext;
    updates++;
    if (*tree != NULL) return 0;
    pmdaTreeCreate(tree);
    pmdaTreeInsert(*tree, pmID_build(31, 5, 0), "dyn.one.x");
    pmdaTreeInsert(*tree, pmID_build(31, 5, 0), "dyn.two.x");
    pmdaTreeRebuildHash(*tree, 2);
    return 1;
}

static int text_update(pmdaExt *ext, pmID pmid, int type, char **buf) {
    static char text[64];
    (void)ext;
    pmsprintf(text, sizeof(text), "help for %s type %d", pmIDStr(pmid), type);
    *buf = text;
    return 0;
}

static void mtab_update(pmdaMetric *template, pmdaMetric *slot, int tree) {
    *slot = *template;
    slot->m_desc.pmid = pmID_build(pmID_domain(template->m_desc.pmid), 6, tree * 10 + pmID_item(template->m_desc.pmid));
}

static void mtab_counts(int *total, int *trees) {
    *total = 2;
    *trees = 2;
}

static int zero(pmdaMetric *m, unsigned int inst, pmAtomValue *av) {
    (void)m;
    (void)inst;
    av->ul = 0;
    return 1;
}

static void dynamic(void) {
    pmdaInterface dp;
    pmdaExt *ext;
    char *text = NULL;
    int i;
    memset(&dp, 0, sizeof(dp));
    dp.domain = 31;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "dyn DSO", NULL);
    pmdaSetFetchCallBack(&dp, zero);
    pmdaInit(&dp, NULL, 0, fixed, 3);
    ext = dp.version.any.ext;
    pmdaExtDynamicPMNS("dyn", NULL, 0, pmns_update, text_update, mtab_update, mtab_counts, fixed, 3, ext);
    printf("metrics before %d\n", ext->e_nmetrics);
    printf("lookup name dyn.one %s\n", pmdaDynamicLookupName(ext, "dyn.one") ? "found" : "none");
    printf("lookup name dyn.one.x %s\n", pmdaDynamicLookupName(ext, "dyn.one.x") ? "found" : "none");
    printf("lookup name dyn.three %s\n", pmdaDynamicLookupName(ext, "dyn.three") ? "found" : "none");
    printf("metrics after %d (updates %d)\n", ext->e_nmetrics, updates);
    for (i = 0; i < ext->e_nmetrics; i++)
        printf("  metric %s type %d\n", pmIDStr(ext->e_metrics[i].m_desc.pmid), ext->e_metrics[i].m_desc.type);
    printf("lookup pmid 31.5.0 %s\n", pmdaDynamicLookupPMID(ext, pmID_build(31, 5, 0)) ? "found" : "none");
    printf("lookup pmid 31.5.1 %s\n", pmdaDynamicLookupPMID(ext, pmID_build(31, 5, 1)) ? "found" : "none");
    i = pmdaDynamicLookupText(pmID_build(31, 5, 0), PM_TEXT_ONELINE, &text, ext);
    printf("text %d %s\n", i, i == 0 ? text : "-");
    printf("text of unknown %d\n", pmdaDynamicLookupText(pmID_build(31, 9, 0), PM_TEXT_ONELINE, &text, ext));
    pmdaDynamicMetricTable(ext);
    printf("metrics rebuilt %d (updates %d)\n", ext->e_nmetrics, updates);
}

int main(void) {
    tree();
    queues();
    dynamic();
    return 0;
}
