/*
 * The "simple" agent of the PCP Programmer's Guide, written against
 * <pcp/pmda.h>. Five metrics in three clusters:
 *   simple.numfetch   fetches answered (storable)
 *   simple.color      red/green/blue, each stepping by one per fetch (storable)
 *   simple.time.user  user CPU seconds of the hosting process
 *   simple.time.sys   system CPU seconds of the hosting process
 *   simple.now        the second, minute and hour of the time of day, over
 *                     an instance domain kept with pmdaCache and read from
 *                     simple.conf (comma-separated "sec", "min", "hour")
 * It replaces the fetch, instance, store and label handlers, calling the
 * library's defaults from its own, and labels its domain, its instance
 * domains and the simple.now instances. Its help text and simple.conf sit
 * beside the shared object.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

static pmdaInstid color[] = {{0, "red"}, {1, "green"}, {2, "blue"}};

#define COLOR_INDOM 0
#define NOW_INDOM 1
static pmdaIndom indomtab[] = {
    {COLOR_INDOM, 3, color},
    {NOW_INDOM, 0, NULL},
};

static pmdaMetric metrictab[] = {
    /* numfetch */
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT,
            PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    /* color */
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_32, COLOR_INDOM, PM_SEM_INSTANT,
            PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    /* time.user */
    {NULL, {PMDA_PMID(1, 2), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER,
            PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
    /* time.sys */
    {NULL, {PMDA_PMID(1, 3), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER,
            PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
    /* now */
    {NULL, {PMDA_PMID(2, 4), PM_TYPE_U32, NOW_INDOM, PM_SEM_INSTANT,
            PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

/* One field of the time of day: a simple.now instance's private data. */
struct timeslice {
    int tm_field;
    const char *tm_name;
};
static struct timeslice timeslices[] = {
    {0, "sec"}, {0, "min"}, {0, "hour"},
};
#define NSLICES ((int)(sizeof(timeslices) / sizeof(timeslices[0])))

static unsigned int numfetch;
static int red, green = 100, blue = 200;
static char helppath[PATH_MAX];
static char confpath[PATH_MAX];
static time_t conf_mtime = -1;

static unsigned int cluster_of(pmID id) { return (id >> 10) & 0xfff; }
static unsigned int item_of(pmID id) { return id & 0x3ff; }
static unsigned int serial_of(pmInDom indom) { return indom & 0x3fffff; }

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

/* Rereads simple.conf when it changed: its tokens become the active
 * instances of NOW_INDOM, every other known instance inactive. */
static void simple_timenow_check(void)
{
    pmInDom indom = indomtab[NOW_INDOM].it_indom;
    struct stat sb;
    char line[256], *tok, *save = NULL;
    FILE *fp;
    int i;

    if (stat(confpath, &sb) != 0) {
        if (conf_mtime != 0)
            pmdaCacheOp(indom, PMDA_CACHE_INACTIVE);
        conf_mtime = 0;
        return;
    }
    if (sb.st_mtime == conf_mtime)
        return;
    conf_mtime = sb.st_mtime;
    pmdaCacheOp(indom, PMDA_CACHE_INACTIVE);
    if ((fp = fopen(confpath, "r")) == NULL)
        return;
    if (fgets(line, sizeof(line), fp) != NULL) {
        for (tok = strtok_r(line, ",\n", &save); tok != NULL; tok = strtok_r(NULL, ",\n", &save)) {
            for (i = 0; i < NSLICES; i++) {
                if (strcmp(tok, timeslices[i].tm_name) == 0)
                    pmdaCacheStore(indom, PMDA_CACHE_ADD, timeslices[i].tm_name, &timeslices[i]);
            }
        }
    }
    fclose(fp);
}

static void simple_timenow_refresh(void)
{
    time_t now = time(NULL);
    struct tm tm;

    localtime_r(&now, &tm);
    timeslices[0].tm_field = tm.tm_sec;
    timeslices[1].tm_field = tm.tm_min;
    timeslices[2].tm_field = tm.tm_hour;
}

static int simple_fetch(int numpmid, pmID pmidlist[], pmResult **resp, pmdaExt *pmda)
{
    numfetch++;
    simple_timenow_check();
    simple_timenow_refresh();
    return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

static int simple_instance(pmInDom indom, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
    simple_timenow_check();
    return pmdaInstance(indom, inst, name, result, pmda);
}

static int simple_fetchCallBack(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    static unsigned int oldfetch;
    static double usr, sys;
    unsigned int cluster = cluster_of(mdesc->m_desc.pmid);
    unsigned int item = item_of(mdesc->m_desc.pmid);
    struct timeslice *tsp;

    if (inst != PM_IN_NULL && !(cluster == 0 && item == 1) && !(cluster == 2 && item == 4))
        return PM_ERR_INST;
    if (cluster == 0) {
        if (item == 0) {
            atom->ul = numfetch;
        } else if (item == 1) {
            switch (inst) {
            case 0: red = (red + 1) % 256; atom->l = red; break;
            case 1: green = (green + 1) % 256; atom->l = green; break;
            case 2: blue = (blue + 1) % 256; atom->l = blue; break;
            default: return PM_ERR_INST;
            }
        } else {
            return PM_ERR_PMID;
        }
    } else if (cluster == 1) {
        if (oldfetch < numfetch) {
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            usr = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
            sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
            oldfetch = numfetch;
        }
        if (item == 2)
            atom->d = usr;
        else if (item == 3)
            atom->d = sys;
        else
            return PM_ERR_PMID;
    } else if (cluster == 2 && item == 4) {
        if (pmdaCacheLookup(indomtab[NOW_INDOM].it_indom, (int)inst, NULL, (void **)&tsp) != PMDA_CACHE_ACTIVE)
            return PM_ERR_INST;
        atom->ul = (unsigned int)tsp->tm_field;
    } else {
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

/* Stores into one color instance; returns 0 or the error. */
static int store_color(int inst, int val)
{
    if (val < 0)
        return PM_ERR_SIGN;
    if (val > 255)
        return PM_ERR_CONV;
    switch (inst) {
    case 0: red = val; return 0;
    case 1: green = val; return 0;
    case 2: blue = val; return 0;
    default: return PM_ERR_INST;
    }
}

static int simple_store(pmResult *result, pmdaExt *pmda)
{
    int i, j, val, sts = 0;
    (void)pmda;

    for (i = 0; i < result->numpmid && sts == 0; i++) {
        pmValueSet *vsp = result->vset[i];
        unsigned int cluster = cluster_of(vsp->pmid), item = item_of(vsp->pmid);

        if (cluster == 0 && item == 0) {
            val = vsp->vlist[0].value.lval;
            if (val < 0) {
                sts = PM_ERR_SIGN;
                val = 0;
            }
            numfetch = (unsigned int)val;
        } else if (cluster == 0 && item == 1) {
            for (j = 0; j < vsp->numval && sts == 0; j++)
                sts = store_color(vsp->vlist[j].inst, vsp->vlist[j].value.lval);
        } else if ((cluster == 1 && (item == 2 || item == 3)) || (cluster == 2 && item == 4)) {
            sts = PM_ERR_PERMISSION;
        } else {
            sts = PM_ERR_PMID;
        }
    }
    return sts;
}

static int simple_label(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    switch (type) {
    case PM_LABEL_DOMAIN:
        pmdaAddLabels(lpp, "{\"role\":\"testing\"}");
        break;
    case PM_LABEL_INDOM:
        if (serial_of((pmInDom)ident) == COLOR_INDOM) {
            pmdaAddLabels(lpp, "{\"indom_name\":\"color\"}");
            pmdaAddLabels(lpp, "{\"model\":\"RGB\"}");
        }
        if (serial_of((pmInDom)ident) == NOW_INDOM) {
            pmdaAddLabels(lpp, "{\"indom_name\":\"time\"}");
            pmdaAddLabels(lpp, "{\"unitsystem\":\"SI\"}");
        }
        break;
    default:
        break;
    }
    return pmdaLabel(ident, type, lpp, pmda);
}

static int simple_labelCallBack(pmInDom indom, unsigned int inst, pmLabelSet **lp)
{
    struct timeslice *tsp;

    if (serial_of(indom) != NOW_INDOM)
        return 0;
    if (pmdaCacheLookup(indom, (int)inst, NULL, (void **)&tsp) != PMDA_CACHE_ACTIVE)
        return 0;
    return pmdaAddLabels(lp, "{\"units\":\"%s\"}", tsp->tm_name);
}

void simple_init(pmdaInterface *dp)
{
    find_home(helppath, sizeof(helppath), "simple.help");
    find_home(confpath, sizeof(confpath), "simple.conf");
    pmdaDSO(dp, PMDA_INTERFACE_7, "simple DSO", helppath);
    if (dp->status != 0)
        return;
    dp->version.seven.fetch = simple_fetch;
    dp->version.seven.store = simple_store;
    dp->version.seven.instance = simple_instance;
    dp->version.seven.label = simple_label;
    pmdaSetFetchCallBack(dp, simple_fetchCallBack);
    pmdaSetLabelCallBack(dp, simple_labelCallBack);
    pmdaInit(dp, indomtab, sizeof(indomtab) / sizeof(indomtab[0]),
             metrictab, sizeof(metrictab) / sizeof(metrictab[0]));
    conf_mtime = -1;
    simple_timenow_check();
}
