/*
 * monitor.c: a pmclient-style performance monitor written against the
 * classic C PMAPI, as the Programmer's Guide describes one: a table of
 * metric names with symbolic indexes, one pmLookupName for the lot, then a
 * loop of pmFetch, pmExtractValue and pmConvScale, with the standard PCP
 * command line (pmGetOptions), time window and reporting zone
 * (pmGetContextOptions).
 *
 * Built with -DPMAPI_VERSION=3 it takes the high-resolution pmOptions
 * times and sets the mode with pmSetModeHighRes; the output is the same.
 *
 * It reports, every interval: the 1-minute load average, the CPU time
 * spent in user and system mode (as a percentage of the elapsed time and
 * of the CPUs), free memory in Mbyte and disk reads per second.
 */
#include <pcp/pmapi.h>

/* The metrics, in the order they are looked up and fetched. */
static const char *init_names[] = {
#define NUMCPU 0
    "hinv.ncpu",
};
static const char *sample_names[] = {
#define LOADAV 0
    "kernel.all.load",
#define CPU_USR 1
    "kernel.percpu.cpu.user",
#define CPU_SYS 2
    "kernel.all.cpu.sys",
#define FREEMEM 3
    "mem.util.free",
#define DKREAD 4
    "disk.all.read",
};
#define NUMSAMPLE (int)(sizeof(sample_names) / sizeof(sample_names[0]))

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ALIGN,
    PMOPT_ARCHIVE,
    PMOPT_DEBUG,
    PMOPT_HOST,
    PMOPT_LOCALPMDA,
    PMOPT_ORIGIN,
    PMOPT_START,
    PMOPT_SAMPLES,
    PMOPT_FINISH,
    PMOPT_INTERVAL,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMAPI_OPTIONS_HEADER("Reporting options"),
    { "repeat-header", 0, 'r', 0, "print the column header again every 10 lines" },
    PMAPI_OPTIONS_END
};

static pmOptions opts = {
    .version = PMAPI_VERSION,
    .flags = PM_OPTFLAG_STDOUT_TZ | PM_OPTFLAG_BOUNDARIES,
    .short_options = PMAPI_OPTIONS "Lr",
    .long_options = longopts,
    .short_usage = "[options]",
};

/* One sample's numbers, and what a rate needs from the previous one. */
struct sample {
    double stamp;
    float load1;
    double cpu_usr;   /* summed over the CPUs, milliseconds */
    double cpu_sys;
    float freemem;    /* Mbyte */
    double dkread;
};

static void fail(const char *what, int sts)
{
    fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), what, pmErrStr(sts));
    exit(1);
}

/* Value i of metric m as a double, or -1 when the fetch had none. */
static double value_of(pmResult *rp, pmDesc *descs, int m, int i)
{
    pmAtomValue atom;
    pmValueSet *vs = rp->vset[m];
    if (vs->numval <= i)
        return -1;
    if (pmExtractValue(vs->valfmt, &vs->vlist[i], descs[m].type, &atom, PM_TYPE_DOUBLE) < 0)
        return -1;
    return atom.d;
}

static void take_sample(pmResult *rp, pmDesc *descs, struct sample *s)
{
    static const pmUnits mbyte = { .dimSpace = 1, .scaleSpace = PM_SPACE_MBYTE };
    pmAtomValue in, out;
    pmValueSet *vs;
    int i, sts;

    s->stamp = pmtimevalToReal(&rp->timestamp);
    s->load1 = (float)value_of(rp, descs, LOADAV, 0);
    s->cpu_usr = 0;
    for (i = 0; i < rp->vset[CPU_USR]->numval; i++)
        s->cpu_usr += value_of(rp, descs, CPU_USR, i);
    s->cpu_sys = value_of(rp, descs, CPU_SYS, 0);
    s->dkread = value_of(rp, descs, DKREAD, 0);

    s->freemem = -1;
    vs = rp->vset[FREEMEM];
    if (vs->numval == 1 &&
        pmExtractValue(vs->valfmt, &vs->vlist[0], descs[FREEMEM].type, &in, PM_TYPE_FLOAT) == 0) {
        if ((sts = pmConvScale(PM_TYPE_FLOAT, &in, &descs[FREEMEM].units, &out, &mbyte)) < 0)
            fail("pmConvScale", sts);
        s->freemem = out.f;
    }
}

static void print_header(void)
{
    printf("%-8s %6s %6s %6s %9s %8s\n", "time", "load", "usr%", "sys%", "free(MB)", "reads/s");
}

static void print_line(const struct sample *now, const struct sample *prev, int ncpu)
{
    double dt = now->stamp - prev->stamp;
    time_t clock = (time_t)now->stamp;
    struct tm tm;
    double usr = 100.0 * (now->cpu_usr - prev->cpu_usr) / (dt * 1000.0 * ncpu);
    double sys = 100.0 * (now->cpu_sys - prev->cpu_sys) / (dt * 1000.0 * ncpu);
    double reads = (now->dkread - prev->dkread) / dt;

    pmLocaltime(&clock, &tm);
    printf("%02d:%02d:%02d %6.2f %6.2f %6.2f %9.1f %8.2f\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
           now->load1, usr, sys, now->freemem, reads);
}

int main(int argc, char **argv)
{
    pmID init_ids[1], ids[NUMSAMPLE];
    pmDesc descs[NUMSAMPLE];
    pmResult *rp;
    struct sample prev, now;
    int c, sts, ctx, ncpu, inst, lines = 0, every = 0, samples;
    const char *source;
    char *name;
    pmAtomValue atom;

    while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
        if (c == 'r')
            every = 10;
        else
            opts.errors++;
    }
    if (opts.optind != argc)
        opts.errors++;
    if (opts.errors) {
        pmUsageMessage(&opts);
        exit(1);
    }
    if (opts.flags & PM_OPTFLAG_EXIT) {
        pmflush();
        exit(0);
    }

    if (opts.context == PM_CONTEXT_ARCHIVE)
        source = opts.archives[0];
    else if (opts.context == PM_CONTEXT_HOST)
        source = opts.hosts[0];
    else if (opts.context == PM_CONTEXT_LOCAL)
        source = NULL;
    else {
        opts.context = PM_CONTEXT_HOST;
        source = "local:";
    }
    if ((ctx = pmNewContext(opts.context, source)) < 0) {
        fprintf(stderr, "%s: cannot open source \"%s\": %s\n", pmGetProgname(),
                source ? source : "local context", pmErrStr(ctx));
        exit(1);
    }
    if (pmGetContextOptions(ctx, &opts) < 0 || opts.errors) {
        pmflush();
        exit(1);
    }

    if ((sts = pmLookupName(1, init_names, init_ids)) < 0)
        fail("pmLookupName(hinv.ncpu)", sts);
    if ((sts = pmLookupName(NUMSAMPLE, sample_names, ids)) != NUMSAMPLE) {
        for (c = 0; c < NUMSAMPLE; c++)
            if (ids[c] == PM_ID_NULL)
                fprintf(stderr, "%s: metric %s not found\n", pmGetProgname(), sample_names[c]);
        exit(1);
    }
    if ((sts = pmLookupDescs(NUMSAMPLE, ids, descs)) != NUMSAMPLE)
        fail("pmLookupDescs", sts < 0 ? sts : PM_ERR_PMID);
    for (c = 0; c < NUMSAMPLE; c++)
        printf("# %-22s %-8s %-4s %-8s %s\n", sample_names[c], pmIDStr(ids[c]),
               pmTypeStr(descs[c].type), pmSemStr(descs[c].sem), pmUnitsStr(&descs[c].units));

    /* Only the 1-minute load average: narrow the profile to it. */
    if (opts.context == PM_CONTEXT_ARCHIVE)
        inst = pmLookupInDomArchive(descs[LOADAV].indom, "1 minute");
    else
        inst = pmLookupInDom(descs[LOADAV].indom, "1 minute");
    if (inst < 0)
        fail("pmLookupInDom(1 minute)", inst);
    if ((sts = pmDelProfile(descs[LOADAV].indom, 0, NULL)) < 0 ||
        (sts = pmAddProfile(descs[LOADAV].indom, 1, &inst)) < 0)
        fail("profile", sts);
    if (opts.context == PM_CONTEXT_ARCHIVE)
        sts = pmNameInDomArchive(descs[LOADAV].indom, inst, &name);
    else
        sts = pmNameInDom(descs[LOADAV].indom, inst, &name);
    if (sts == 0) {
        printf("# load average instance %d is \"%s\"\n", inst, name);
        free(name);
    }

    if (opts.context == PM_CONTEXT_ARCHIVE) {
#if PMAPI_VERSION == PMAPI_VERSION_3
        struct timespec step = opts.interval;
        if (step.tv_sec == 0 && step.tv_nsec == 0)
            step.tv_sec = 1;
        if ((sts = pmSetModeHighRes(PM_MODE_INTERP, &opts.origin, &step)) < 0)
            fail("pmSetModeHighRes", sts);
#else
        int msec = (int)(opts.interval.tv_sec * 1000 + opts.interval.tv_usec / 1000);
        if (msec == 0)
            msec = 1000;
        if ((sts = pmSetMode(PM_MODE_INTERP, &opts.origin, msec)) < 0)
            fail("pmSetMode", sts);
#endif
    }

    if ((sts = pmFetch(1, init_ids, &rp)) < 0)
        fail("pmFetch(hinv.ncpu)", sts);
    ncpu = 1;
    if (rp->vset[0]->numval == 1 &&
        pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[0], PM_TYPE_U32, &atom, PM_TYPE_32) == 0)
        ncpu = atom.l;
    printf("# host %s, %d CPU%s\n", pmGetContextHostName(ctx), ncpu, ncpu == 1 ? "" : "s");
    pmFreeResult(rp);

    samples = opts.samples > 0 ? opts.samples : -1;
    if ((sts = pmFetch(NUMSAMPLE, ids, &rp)) < 0)
        fail("pmFetch", sts);
    take_sample(rp, descs, &prev);
    pmFreeResult(rp);
    print_header();
    while (samples == -1 || samples-- > 0) {
        if (opts.context != PM_CONTEXT_ARCHIVE) {
#if PMAPI_VERSION == PMAPI_VERSION_3
            struct timespec pause = opts.interval;
#else
            struct timespec pause = { opts.interval.tv_sec, opts.interval.tv_usec * 1000 };
#endif
            if (pause.tv_sec == 0 && pause.tv_nsec == 0)
                pause.tv_sec = 1;
            nanosleep(&pause, NULL);
        }
        if ((sts = pmFetch(NUMSAMPLE, ids, &rp)) < 0) {
            if (sts == PM_ERR_EOL) {
                printf("# end of archive\n");
                break;
            }
            fail("pmFetch", sts);
        }
        take_sample(rp, descs, &now);
        pmFreeResult(rp);
        if (every && lines && lines % every == 0)
            print_header();
        print_line(&now, &prev, ncpu);
        lines++;
        prev = now;
    }
    pmDestroyContext(ctx);
    pmFreeOptions(&opts);
    return 0;
}
