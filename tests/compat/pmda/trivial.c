/*
 * The "trivial" agent of the PCP Programmer's Guide, written against
 * <pcp/pmda.h>: one singular metric, trivial.time, the time of day in
 * seconds. It uses interface 2 and every default handler; only the fetch
 * callback is its own. Its help text sits beside the shared object.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

static pmdaMetric metrictab[] = {
    /* trivial.time */
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT,
            PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
};

static char helppath[PATH_MAX];

static unsigned int cluster_of(pmID id) { return (id >> 10) & 0xfff; }
static unsigned int item_of(pmID id) { return id & 0x3ff; }

static int trivial_fetchCallBack(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    if (cluster_of(mdesc->m_desc.pmid) != 0 || item_of(mdesc->m_desc.pmid) != 1)
        return PM_ERR_PMID;
    if (inst != PM_IN_NULL)
        return PM_ERR_INST;
    atom->ul = (unsigned int)time(NULL);
    return 0; /* interface 2: any value >= 0 means "here is a value" */
}

/* The directory this shared object was loaded from, where its files are. */
static void find_home(char *buf, size_t size, const char *file)
{
    Dl_info info;
    const char *slash;

    if (dladdr((void *)find_home, &info) == 0 || info.dli_fname == NULL ||
        (slash = strrchr(info.dli_fname, '/')) == NULL) {
        snprintf(buf, size, "%s", file);
        return;
    }
    snprintf(buf, size, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname, file);
}

void trivial_init(pmdaInterface *dp)
{
    find_home(helppath, sizeof(helppath), "trivial.help");
    pmdaDSO(dp, PMDA_INTERFACE_2, "trivial DSO", helppath);
    if (dp->status != 0)
        return;
    pmdaSetFetchCallBack(dp, trivial_fetchCallBack);
    pmdaInit(dp, NULL, 0, metrictab, sizeof(metrictab) / sizeof(metrictab[0]));
}
