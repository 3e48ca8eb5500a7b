/*
 * A test agent for the parts of <pcp/pmda.h> the Guide's examples leave
 * out: names served by the agent itself (a "dyn.sub" subtree marked
 * DYN:*:* in its namespace file, answered by its pmid, name and children
 * handlers), an event metric whose records are built with pmdaEvent*, the
 * client context number (pmdaGetContext) and the end-context callback,
 * which appends "end CONTEXT" to the file $DYN_END_FILE when set.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

static pmdaMetric metrictab[] = {
    /* dyn.events */
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_EVENT, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    /* dyn.context */
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    /* dyn.sub.a */
    {NULL, {PMDA_PMID(1, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},
    /* dyn.sub.b */
    {NULL, {PMDA_PMID(1, 1), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

static const char *subnames[] = {"a", "b"};
static int domain;
static int events = -1;

static unsigned int cluster_of(pmID id) { return (id >> 10) & 0xfff; }
static unsigned int item_of(pmID id) { return id & 0x3ff; }
static pmID make_pmid(unsigned int cluster, unsigned int item)
{
    return ((unsigned int)domain << 22) | (cluster << 10) | item;
}

/* A list of n strings in one allocation, as PCP's agents return them. */
static char **string_block(const char **names, int n, const char *prefix)
{
    size_t size = n * sizeof(char *);
    char **list, *p;
    int i;

    for (i = 0; i < n; i++)
        size += strlen(prefix) + strlen(names[i]) + 1;
    if ((list = malloc(size)) == NULL)
        return NULL;
    p = (char *)&list[n];
    for (i = 0; i < n; i++) {
        list[i] = p;
        p += sprintf(p, "%s%s", prefix, names[i]) + 1;
    }
    return list;
}

static int dyn_pmid(const char *name, pmID *pmid, pmdaExt *pmda)
{
    int i;
    (void)pmda;

    for (i = 0; i < 2; i++) {
        if (strncmp(name, "dyn.sub.", 8) == 0 && strcmp(name + 8, subnames[i]) == 0) {
            *pmid = make_pmid(1, i);
            return 0;
        }
    }
    return PM_ERR_NAME;
}

static int dyn_name(pmID pmid, char ***names, pmdaExt *pmda)
{
    (void)pmda;
    if (cluster_of(pmid) != 1 || item_of(pmid) > 1)
        return PM_ERR_PMID;
    if ((*names = string_block(&subnames[item_of(pmid)], 1, "dyn.sub.")) == NULL)
        return -ENOMEM;
    return 1;
}

static int dyn_children(const char *name, int traverse, char ***kids, int **status, pmdaExt *pmda)
{
    (void)pmda;
    if (strcmp(name, "dyn.sub") != 0)
        return PM_ERR_NAME;
    if ((*kids = string_block(subnames, 2, traverse ? "dyn.sub." : "")) == NULL)
        return -ENOMEM;
    if ((*status = calloc(2, sizeof(int))) == NULL) {
        free(*kids);
        return -ENOMEM;
    }
    (*status)[0] = (*status)[1] = PMNS_LEAF_STATUS;
    return 2;
}

static int dyn_fetchCallBack(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    unsigned int cluster = cluster_of(mdesc->m_desc.pmid), item = item_of(mdesc->m_desc.pmid);
    struct timeval tv = {1700000000, 500};
    pmAtomValue param;

    if (inst != PM_IN_NULL)
        return PM_ERR_INST;
    if (cluster == 0 && item == 0) {
        if (events < 0 && (events = pmdaEventNewArray()) < 0)
            return events;
        pmdaEventResetArray(events);
        pmdaEventAddRecord(events, &tv, PM_EVENT_FLAG_POINT);
        param.ul = 7;
        pmdaEventAddParam(events, make_pmid(1, 0), PM_TYPE_U32, &param);
        param.cp = "hello";
        pmdaEventAddParam(events, make_pmid(1, 1), PM_TYPE_STRING, &param);
        atom->vbp = (pmValueBlock *)pmdaEventGetAddr(events);
        return PMDA_FETCH_STATIC;
    }
    if (cluster == 0 && item == 1) {
        atom->ul = (unsigned int)pmdaGetContext();
        return PMDA_FETCH_STATIC;
    }
    if (cluster == 1 && item == 0) {
        atom->ul = 1;
        return PMDA_FETCH_STATIC;
    }
    if (cluster == 1 && item == 1) {
        atom->cp = strdup("from a dynamic name");
        return atom->cp ? PMDA_FETCH_DYNAMIC : -ENOMEM;
    }
    return PM_ERR_PMID;
}

static void dyn_end(int context)
{
    const char *path = getenv("DYN_END_FILE");
    FILE *fp;

    if (path != NULL && (fp = fopen(path, "a")) != NULL) {
        fprintf(fp, "end %d\n", context);
        fclose(fp);
    }
}

void dyn_init(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_7, "dyn DSO", NULL);
    if (dp->status != 0)
        return;
    domain = dp->domain;
    dp->version.seven.pmid = dyn_pmid;
    dp->version.seven.name = dyn_name;
    dp->version.seven.children = dyn_children;
    pmdaSetFetchCallBack(dp, dyn_fetchCallBack);
    pmdaSetEndContextCallBack(dp, dyn_end);
    pmdaInit(dp, NULL, 0, metrictab, sizeof(metrictab) / sizeof(metrictab[0]));
}

/* Init functions for the loader's error paths: one that never calls
 * pmdaDSO, one whose set-up fails, one asking for interface 1. */
void dyn_silent_init(pmdaInterface *dp) { (void)dp; }

void dyn_failing_init(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_7, "dyn DSO", NULL);
    dp->status = PM_ERR_PERMISSION;
}

void dyn_old_init(pmdaInterface *dp) { pmdaDSO(dp, 1, "dyn DSO", NULL); }
