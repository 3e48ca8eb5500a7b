/*
 * api.c: a walk through the classic C PMAPI on one archive, printing what
 * each call returns: the name space, descriptors, instance domains, help
 * text, labels, the archive label, record-by-record and interpolated
 * fetches, the profile, event records, the parsers and formatters, time
 * zones, and contexts in several threads.
 *
 * Usage: api ARCHIVE EVENT-ARCHIVE
 */
#include <pcp/pmapi.h>
#include <pthread.h>

static int failures;

static void check(const char *what, int sts)
{
    if (sts < 0) {
        printf("%s: %s\n", what, pmErrStr(sts));
        failures++;
    }
}

static int leaves;
static void count_leaf(const char *name) { (void)name; leaves++; }
static void count_leaf_r(const char *name, void *closure)
{
    if (strncmp(name, "sample.dupnames", 15) == 0)
        ++*(int *)closure;
}

static void names(void)
{
    const char *list[] = { "sample.long.one", "no.such.metric", "kernel.all.load", "sample" };
    pmID ids[4];
    char **kids, *name, **all;
    int *status, n, i, sts;

    n = pmLookupName(4, list, ids);
    printf("pmLookupName: %d of 4:", n);
    for (i = 0; i < 4; i++)
        printf(" %s", ids[i] == PM_ID_NULL ? "PM_ID_NULL" : pmIDStr(ids[i]));
    printf("\n");
    printf("pmLookupName(no.such.metric): %s\n", pmErrStr(pmLookupName(1, &list[1], ids)));
    printf("pmLookupName(sample): %s\n", pmErrStr(pmLookupName(1, &list[3], ids)));
    {
        const char *bad[] = { "no.such", "also.not" };
        printf("pmLookupName(2 unknown): %d, (0 names): %s\n", pmLookupName(2, bad, ids),
               pmErrStr(pmLookupName(0, bad, ids)));
    }

    n = pmGetChildrenStatus("sample.dupnames", &kids, &status);
    printf("pmGetChildrenStatus(sample.dupnames): %d:", n);
    for (i = 0; i < n; i++)
        printf(" %s(%s)", kids[i], status[i] == PMNS_LEAF_STATUS ? "leaf" : "node");
    printf("\n");
    free(kids);
    free(status);
    n = pmGetChildren("sample.long.one", &kids);
    printf("pmGetChildren(leaf): %d\n", n);
    printf("pmGetChildren(bogus): %s\n", pmErrStr(pmGetChildren("bogus.name", &kids)));

    sts = pmTraversePMNS("", count_leaf);
    printf("pmTraversePMNS: %d, %d leaves seen\n", sts, leaves);
    n = 0;
    sts = pmTraversePMNS_r("sample", count_leaf_r, &n);
    printf("pmTraversePMNS_r(sample): %d, %d under sample.dupnames\n", sts, n);

    pmLookupName(1, &list[0], ids);
    if ((sts = pmNameID(ids[0], &name)) == 0) {
        printf("pmNameID(%s): %s\n", pmIDStr(ids[0]), name);
        free(name);
    }
    {
        const char *dup = "sample.dupnames.two.seconds";
        pmLookupName(1, &dup, ids);
    }
    n = pmNameAll(ids[0], &all);
    printf("pmNameAll(%s): %d:", pmIDStr(ids[0]), n);
    for (i = 0; i < n; i++)
        printf(" %s", all[i]);
    printf("\n");
    free(all);
    printf("pmNameID(bad): %s\n", pmErrStr(pmNameID(pmID_build(200, 1, 1), &name)));
}

static void metadata(void)
{
    const char *list[] = { "kernel.all.load", "disk.dev.read", "mem.util.free", "sample.aggregate.hullo" };
    pmID ids[5];
    pmDesc descs[5];
    int *insts, i, n, inst;
    char **inames, *name, *text;

    pmLookupName(4, list, ids);
    ids[4] = pmID_build(200, 1, 1);
    n = pmLookupDescs(5, ids, descs);
    printf("pmLookupDescs: %d\n", n);
    for (i = 0; i < 5; i++) {
        if (descs[i].pmid == PM_ID_NULL) {
            printf("  [%d] PM_ID_NULL\n", i);
            continue;
        }
        printf("  %s type %s indom %s sem %s units \"%s\" (%d.%d.%d)\n", pmIDStr(descs[i].pmid),
               pmTypeStr(descs[i].type), pmInDomStr(descs[i].indom), pmSemStr(descs[i].sem),
               pmUnitsStr(&descs[i].units), pmID_domain(descs[i].pmid),
               pmID_cluster(descs[i].pmid), pmID_item(descs[i].pmid));
    }
    printf("pmInDom_domain/serial: %u %u\n", pmInDom_domain(descs[0].indom), pmInDom_serial(descs[0].indom));

    n = pmGetInDom(descs[1].indom, &insts, &inames);
    printf("pmGetInDom(%s): %d:", pmInDomStr(descs[1].indom), n);
    for (i = 0; i < n; i++)
        printf(" %d=%s", insts[i], inames[i]);
    printf("\n");
    if (n > 0) {
        free(insts);
        free(inames);
    }
    n = pmGetInDomArchive(descs[0].indom, &insts, &inames);
    printf("pmGetInDomArchive(%s): %d:", pmInDomStr(descs[0].indom), n);
    for (i = 0; i < n; i++)
        printf(" %d=\"%s\"", insts[i], inames[i]);
    printf("\n");
    if (n > 0) {
        free(insts);
        free(inames);
    }
    inst = pmLookupInDom(descs[0].indom, "5 minute");
    printf("pmLookupInDom(5 minute): %d\n", inst);
    printf("pmLookupInDom(6 minute): %s\n", pmErrStr(pmLookupInDom(descs[0].indom, "6 minute")));
    printf("pmLookupInDomArchive(15 minute): %d\n", pmLookupInDomArchive(descs[0].indom, "15 minute"));
    if (pmNameInDom(descs[0].indom, inst, &name) == 0) {
        printf("pmNameInDom(%d): %s\n", inst, name);
        free(name);
    }
    printf("pmNameInDom(99): %s\n", pmErrStr(pmNameInDom(descs[0].indom, 99, &name)));
    printf("pmGetInDom(bad): %s\n", pmErrStr(pmGetInDom(pmInDom_build(200, 5), &insts, &inames)));

    if (pmLookupText(ids[0], PM_TEXT_ONELINE, &text) == 0) {
        printf("pmLookupText(oneline): %s\n", text);
        free(text);
    } else {
        printf("pmLookupText(oneline): %s\n", pmErrStr(pmLookupText(ids[0], PM_TEXT_ONELINE, &text)));
    }
    n = pmLookupInDomText(descs[0].indom, PM_TEXT_HELP, &text);
    printf("pmLookupInDomText: %s\n", pmErrStr(n));
    if (n == 0)
        free(text);
}

static void labels(void)
{
    const char *list[] = { "kernel.all.load" };
    pmID id;
    pmLabelSet *sets;
    char merged[512];
    int n, i, j;

    n = pmGetContextLabels(&sets);
    printf("pmGetContextLabels: %d", n);
    for (i = 0; i < n; i++)
        printf(" %s", sets[i].json);
    printf("\n");
    if (n > 0)
        pmFreeLabelSets(sets, n);

    pmLookupName(1, list, &id);
    n = pmLookupLabels(id, &sets);
    printf("pmLookupLabels(kernel.all.load): %d sets\n", n);
    for (i = 0; i < n; i++) {
        printf("  inst %d nlabels %d %s:", (int)sets[i].inst, sets[i].nlabels, sets[i].json);
        for (j = 0; j < sets[i].nlabels; j++)
            printf(" %.*s=%.*s", sets[i].labels[j].namelen, sets[i].json + sets[i].labels[j].name,
                   sets[i].labels[j].valuelen, sets[i].json + sets[i].labels[j].value);
        printf("\n");
    }
    if (n > 0) {
        pmLabelSet *ptrs[16];
        for (i = 0; i < n && i < 16; i++)
            ptrs[i] = &sets[i];
        if (pmMergeLabelSets(ptrs, n < 16 ? n : 16, merged, sizeof merged, NULL, NULL) >= 0)
            printf("  merged: %s\n", merged);
        pmFreeLabelSets(sets, n);
    }
    {
        char *two[] = { "{\"b\":1,\"a\":\"x\"}", "{\"b\":2}" };
        n = pmMergeLabels(two, 2, merged, sizeof merged);
        printf("pmMergeLabels: %d %s\n", n, merged);
    }
    {
        /* nested maps merge as dotted names, in name order */
        char *maps[] = { "{\"map\":null,\"z\":[1,2]}",
                         "{\"map\":{\"priority\":\"one\",\"ratio\":2.5},\"m2\":{\"foo\":{\"bar\":true}}}" };
        char *bad[] = { "{\"a b\":1}" };
        n = pmMergeLabels(maps, 2, merged, sizeof merged);
        printf("pmMergeLabels (maps): %d %s\n", n, merged);
        n = pmMergeLabels(maps, 2, merged, 8);
        printf("pmMergeLabels (small buffer): %d\n", n);
        n = pmMergeLabels(bad, 1, merged, sizeof merged);
        printf("pmMergeLabels (bad): %d\n", n);
        n = pmMergeLabels(maps, 0, merged, sizeof merged);
        printf("pmMergeLabels (none): %d\n", n);
    }
}

static void archive(void)
{
    pmLogLabel label;
    pmHighResLogLabel hlabel;
    struct timeval end;
    pmResult *rp;
    int n = 0, marks = 0, values = 0, i, sts;

    check("pmGetArchiveLabel", pmGetArchiveLabel(&label));
    printf("label: magic %#x pid %d host %s tz %s start %ld.%06ld\n", label.ll_magic,
           (int)label.ll_pid, label.ll_hostname, label.ll_tz, (long)label.ll_start.tv_sec,
           (long)label.ll_start.tv_usec);
    check("pmGetHighResArchiveLabel", pmGetHighResArchiveLabel(&hlabel));
    printf("highres label: start %ld.%09ld zoneinfo %s\n", (long)hlabel.start.tv_sec,
           (long)hlabel.start.tv_nsec, hlabel.zoneinfo);
    check("pmGetArchiveEnd", pmGetArchiveEnd(&end));
    printf("end: %ld.%06ld\n", (long)end.tv_sec, (long)end.tv_usec);

    check("pmSetMode", pmSetMode(PM_MODE_FORW, &label.ll_start, 0));
    while ((sts = pmFetchArchive(&rp)) >= 0) {
        n++;
        if (rp->numpmid == 0)
            marks++;
        for (i = 0; i < rp->numpmid; i++)
            if (rp->vset[i]->numval > 0)
                values += rp->vset[i]->numval;
        pmFreeResult(rp);
    }
    printf("pmFetchArchive: %d records, %d marks, %d values, then %s\n", n, marks, values, pmErrStr(sts));

    /* Backwards from the end, two records. */
    check("pmSetMode(BACK)", pmSetMode(PM_MODE_BACK, &end, 0));
    for (i = 0; i < 2; i++) {
        if ((sts = pmFetchArchive(&rp)) < 0)
            break;
        printf("back %d: %ld.%06ld %d metrics\n", i, (long)rp->timestamp.tv_sec,
               (long)rp->timestamp.tv_usec, rp->numpmid);
        pmFreeResult(rp);
    }
}

static void fetching(void)
{
    const char *list[] = { "sample.long.one", "kernel.all.load", "sample.string.hullo",
                           "sample.double.million", "disk.dev.read" };
    pmID ids[5];
    pmDesc desc;
    pmResult *rp;
    pmHighResResult *hrp;
    pmLogLabel label;
    struct timeval when;
    pmAtomValue atom, scaled;
    int i, j, sts, inst;
    pmUnits kbyte = { 0 }, byte = { 0 };

    pmLookupName(5, list, ids);
    pmGetArchiveLabel(&label);
    when = label.ll_start;
    when.tv_sec += 5;
    check("pmSetMode", pmSetMode(PM_MODE_INTERP, &when, 1500));
    for (j = 0; j < 2; j++) {
        if ((sts = pmFetch(5, ids, &rp)) < 0) {
            check("pmFetch", sts);
            return;
        }
        /* Instances come in no particular order; sort them to compare. */
        pmSortInstances(rp);
        printf("pmFetch at %ld.%06ld:\n", (long)rp->timestamp.tv_sec, (long)rp->timestamp.tv_usec);
        for (i = 0; i < rp->numpmid; i++) {
            pmValueSet *vs = rp->vset[i];
            int k;
            pmLookupDesc(vs->pmid, &desc);
            printf("  %s numval %d valfmt %d:", list[i], vs->numval, vs->valfmt);
            for (k = 0; k < vs->numval; k++) {
                printf(" [%d]", vs->vlist[k].inst);
                pmPrintValue(stdout, vs->valfmt, desc.type, &vs->vlist[k], 8);
            }
            printf("\n");
        }
        pmFreeResult(rp);
    }

    /* The profile: only instance 5 of the load average. */
    pmLookupDesc(ids[1], &desc);
    inst = 5;
    check("pmDelProfile", pmDelProfile(desc.indom, 0, NULL));
    check("pmAddProfile", pmAddProfile(desc.indom, 1, &inst));
    printf("pmAddProfile(PM_INDOM_NULL, 1): %s\n", pmErrStr(pmAddProfile(PM_INDOM_NULL, 1, &inst)));
    check("pmFetchHighRes", sts = pmFetchHighRes(1, &ids[1], &hrp));
    if (sts >= 0) {
        printf("profiled load at %ld.%09ld: %d value(s), inst %d\n", (long)hrp->timestamp.tv_sec,
               (long)hrp->timestamp.tv_nsec, hrp->vset[0]->numval, hrp->vset[0]->vlist[0].inst);
        check("pmExtractValue", pmExtractValue(hrp->vset[0]->valfmt, &hrp->vset[0]->vlist[0],
                                               PM_TYPE_FLOAT, &atom, PM_TYPE_DOUBLE));
        printf("  as double %.4f, as string ", atom.d);
        sts = pmExtractValue(hrp->vset[0]->valfmt, &hrp->vset[0]->vlist[0], PM_TYPE_FLOAT, &atom,
                             PM_TYPE_STRING);
        printf("%s\n", sts < 0 ? pmErrStr(sts) : atom.cp);
        if (sts == 0)
            free(atom.cp);
        pmFreeHighResResult(hrp);
    }
    check("pmAddProfile(all)", pmAddProfile(PM_INDOM_NULL, 0, NULL));

    /* Conversions. */
    atom.ll = 1536;
    kbyte.dimSpace = 1;
    kbyte.scaleSpace = PM_SPACE_KBYTE;
    byte.dimSpace = 1;
    check("pmConvScale", pmConvScale(PM_TYPE_64, &atom, &kbyte, &scaled, &byte));
    printf("pmConvScale: 1536 Kbyte = %lld byte\n", (long long)scaled.ll);
    printf("pmConvScale(space to time): %s\n",
           pmErrStr(pmConvScale(PM_TYPE_64, &atom, &kbyte, &scaled, &desc.units)));
    {
        pmValue v;
        v.inst = PM_IN_NULL;
        v.value.lval = -5;
        printf("pmExtractValue(-5 to U32): %s\n",
               pmErrStr(pmExtractValue(PM_VAL_INSITU, &v, PM_TYPE_32, &atom, PM_TYPE_U32)));
    }
    printf("pmAtomStr: %s | %s\n", pmAtomStr(&scaled, PM_TYPE_64), pmNumberStr(1234567.0));
}

static void unpack(const char *events_archive)
{
    const char *name = "sample.event.records";
    pmID id;
    pmResult *rp, **records;
    pmLogLabel label;
    int ctx, n, i, j, k, sts, found = 0;

    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, events_archive)) < 0) {
        check("pmNewContext(events)", ctx);
        return;
    }
    pmLookupName(1, &name, &id);
    pmGetArchiveLabel(&label);
    pmSetMode(PM_MODE_FORW, &label.ll_start, 0);
    while (found < 2 && (sts = pmFetch(1, &id, &rp)) >= 0) {
        pmValueSet *vs = rp->vset[0];
        for (i = 0; i < vs->numval; i++) {
            n = pmUnpackEventRecords(vs, i, &records);
            if (n < 0) {
                check("pmUnpackEventRecords", n);
                continue;
            }
            found++;
            printf("inst %d: %d record(s)\n", vs->vlist[i].inst, n);
            for (j = 0; j < n; j++) {
                printf("  record at %ld.%06ld, %d parameter(s)\n", (long)records[j]->timestamp.tv_sec,
                       (long)records[j]->timestamp.tv_usec, records[j]->numpmid);
                for (k = 0; k < records[j]->numpmid; k++) {
                    pmValueSet *p = records[j]->vset[k];
                    pmDesc d;
                    char *pname = NULL;
                    if (pmLookupDesc(p->pmid, &d) < 0 || pmNameID(p->pmid, &pname) < 0)
                        continue;
                    printf("    %s =", pname);
                    pmPrintValue(stdout, p->valfmt, d.type, &p->vlist[0], 1);
                    printf("\n");
                    free(pname);
                }
            }
            pmFreeEventResult(records);
        }
        pmFreeResult(rp);
    }
    /* The high-resolution records, from the start again. */
    name = "sample.event.highres_records";
    if ((sts = pmLookupName(1, &name, &id)) < 0) {
        printf("pmLookupName(%s): %s\n", name, pmErrStr(sts));
    } else {
        pmHighResResult **hrecords;
        pmSetMode(PM_MODE_FORW, &label.ll_start, 0);
        found = 0;
        while (found < 2 && (sts = pmFetch(1, &id, &rp)) >= 0) {
            pmValueSet *vs = rp->vset[0];
            for (i = 0; i < vs->numval; i++) {
                n = pmUnpackHighResEventRecords(vs, i, &hrecords);
                if (n < 0) {
                    printf("pmUnpackHighResEventRecords: %s\n", pmErrStr(n));
                    continue;
                }
                found++;
                printf("highres inst %d: %d record(s)\n", vs->vlist[i].inst, n);
                for (j = 0; j < n; j++) {
                    printf("  record at %ld.%09ld, %d parameter(s):", (long)hrecords[j]->timestamp.tv_sec,
                           (long)hrecords[j]->timestamp.tv_nsec, hrecords[j]->numpmid);
                    for (k = 0; k < hrecords[j]->numpmid; k++)
                        printf(" %s", pmIDStr(hrecords[j]->vset[k]->pmid));
                    printf("\n");
                }
                pmFreeHighResEventResult(hrecords);
            }
            pmFreeResult(rp);
        }
    }
    pmDestroyContext(ctx);
}

static void parsers(void)
{
    struct timeval tv, start, end, rs, re, ro;
    struct timespec ts;
    pmMetricSpec *spec;
    pmUnits units;
    double mult;
    char *err = NULL;
    int sts, i;

    sts = pmParseInterval("1 min 30.5 sec", &tv, &err);
    printf("pmParseInterval: %d %ld.%06ld\n", sts, (long)tv.tv_sec, (long)tv.tv_usec);
    sts = pmParseInterval("3 parsecs", &tv, &err);
    printf("pmParseInterval(bad): %d\n%s", sts, err);
    free(err);
    sts = pmParseHighResInterval("250 msec", &ts, &err);
    printf("pmParseHighResInterval: %d %ld.%09ld\n", sts, (long)ts.tv_sec, (long)ts.tv_nsec);

    start.tv_sec = 1795311800;
    start.tv_usec = 186708;
    end.tv_sec = 1795311828;
    end.tv_usec = 207743;
    sts = pmParseTimeWindow("+5", "-3", NULL, "+10", &start, &end, &rs, &re, &ro, &err);
    printf("pmParseTimeWindow: %d start %ld.%06ld end %ld.%06ld origin %ld.%06ld\n", sts,
           (long)rs.tv_sec, (long)rs.tv_usec, (long)re.tv_sec, (long)re.tv_usec, (long)ro.tv_sec,
           (long)ro.tv_usec);
    sts = pmParseTimeWindow("@bogus", NULL, NULL, NULL, &start, &end, &rs, &re, &ro, &err);
    printf("pmParseTimeWindow(bad): %d\n%s", sts, err);
    free(err);

    sts = pmParseMetricSpec("myhost:kernel.all.load[1 minute,\"15 minute\"]", 0, "local:", &spec, &err);
    if (sts == 0) {
        printf("pmParseMetricSpec: isarch %d source %s metric %s ninst %d", spec->isarch,
               spec->source, spec->metric, spec->ninst);
        for (i = 0; i < spec->ninst; i++)
            printf(" [%s]", spec->inst[i]);
        printf("\n");
        pmFreeMetricSpec(spec);
    }
    sts = pmParseMetricSpec("disk.dev.read[sda", 0, "local:", &spec, &err);
    printf("pmParseMetricSpec(bad): %s\n%s\n", pmErrStr(sts), err);
    free(err);

    sts = pmParseUnitsStr("MB / hour", &units, &mult, &err);
    printf("pmParseUnitsStr: %d \"%s\" x %g\n", sts, pmUnitsStr(&units), mult);
    sts = pmParseUnitsStr("furlongs", &units, &mult, &err);
    printf("pmParseUnitsStr(bad): %s: %s\n", pmErrStr(sts), err);
    free(err);
}

static void strings(void)
{
    int codes[] = { PM_ERR_NAME, PM_ERR_EOL, PM_ERR_NOCONTEXT, PM_ERR_TOOBIG, -ENOENT, -EPERM };
    char buf[PM_MAXERRMSGLEN];
    pmUnits u = { 0 };
    unsigned int i;

    for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
        printf("pmErrStr(%d): %s\n", codes[i], pmErrStr_r(codes[i], buf, sizeof buf));
    u.dimSpace = 1;
    u.dimTime = -1;
    u.scaleSpace = PM_SPACE_MBYTE;
    u.scaleTime = PM_TIME_SEC;
    printf("pmUnitsStr: %s\n", pmUnitsStr(&u));
    printf("pmIDStr: %s %s\n", pmIDStr(pmID_build(60, 2, 0)), pmIDStr(PM_ID_NULL));
    printf("pmInDomStr: %s %s\n", pmInDomStr(pmInDom_build(29, 2)), pmInDomStr(PM_INDOM_NULL));
    printf("pmTypeStr: %s %s %s\n", pmTypeStr(PM_TYPE_U64), pmTypeStr(PM_TYPE_EVENT), pmTypeStr(42));
    printf("pmSemStr: %s %s\n", pmSemStr(PM_SEM_COUNTER), pmSemStr(PM_SEM_DISCRETE));
    printf("pmEventFlagsStr: %s\n", pmEventFlagsStr(PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID));
    printf("pmNumberStr: [%s] [%s]\n", pmNumberStr(0.5), pmNumberStr(12345678901.0));
    {
        /* pmPrintDesc over every type, odd semantics and units included. */
        int types[] = { -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255 };
        pmDesc d;
        memset(&d, 0, sizeof d);
        for (i = 0; i < sizeof types / sizeof types[0]; i++) {
            d.type = types[i];
            d.indom = i % 2 ? PM_INDOM_NULL : pmInDom_build(29, i);
            d.sem = (int)(i % 6);
            d.units.dimSpace = i % 3;
            d.units.dimTime = -(int)(i % 2);
            d.units.scaleSpace = i % 4;
            d.units.scaleTime = i % 5;
            d.units.dimCount = i == 5;
            d.units.scaleCount = i == 5 ? 3 : 0;
            pmPrintDesc(stdout, &d);
        }
    }
}

static void zones(void)
{
    time_t clock = 1795311800;
    char buf[32], *tz;
    struct tm tm;
    int z, ctx;

    z = pmNewZone("EST5EDT");
    printf("pmNewZone: %d, pmCtime: %s", z >= 0, pmCtime(&clock, buf));
    pmLocaltime(&clock, &tm);
    printf("pmLocaltime: %02d:%02d %s\n", tm.tm_hour, tm.tm_min, tm.tm_zone);
    ctx = pmWhichContext();
    z = pmNewContextZone();
    pmWhichZone(&tz);
    printf("pmNewContextZone (context %d): %s, pmCtime: %s", ctx, tz, pmCtime(&clock, buf));
}

/* Each thread has its own current context. */
static const char *thread_archive;
static void *worker(void *arg)
{
    int id = *(int *)arg, ctx, mine;
    pmLogLabel label;
    char name[64];

    mine = pmWhichContext();
    ctx = pmNewContext(PM_CONTEXT_ARCHIVE, thread_archive);
    snprintf(name, sizeof name, "thread %d", id);
    if (ctx < 0 || pmWhichContext() != ctx || pmGetArchiveLabel(&label) < 0)
        printf("%s: bad context\n", name);
    *(int *)arg = (mine == PM_ERR_NOCONTEXT) ? 1 : 0;
    pmDestroyContext(ctx);
    return NULL;
}

static void contexts(const char *archive)
{
    pthread_t t[4];
    int ids[4], i, ok = 0, ctx, dup;

    ctx = pmWhichContext();
    dup = pmDupContext();
    printf("pmDupContext: new %d, current %d\n", dup != ctx, pmWhichContext() == dup);
    printf("pmUseContext(old): %d, current %d\n", pmUseContext(ctx), pmWhichContext() == ctx);
    printf("pmDestroyContext(dup): %d, again: %s\n", pmDestroyContext(dup), pmErrStr(pmDestroyContext(dup)));
    printf("pmUseContext(dup): %s\n", pmErrStr(pmUseContext(dup)));
    printf("pmNewContext(bad archive): %s\n", pmErrStr(pmNewContext(PM_CONTEXT_ARCHIVE, "/no/such/archive")));
    printf("current still %d\n", pmWhichContext() == ctx);
    printf("pmReconnectContext: %d\n", pmReconnectContext(ctx) == ctx);
    printf("pmGetContextHostName: %s\n", pmGetContextHostName(ctx));

    thread_archive = archive;
    for (i = 0; i < 4; i++) {
        ids[i] = i;
        pthread_create(&t[i], NULL, worker, &ids[i]);
    }
    for (i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        ok += ids[i];
    }
    printf("threads starting with no current context: %d of 4\n", ok);
    printf("main thread's context unchanged: %d\n", pmWhichContext() == ctx);
}

int main(int argc, char **argv)
{
    int ctx;

    if (argc != 3) {
        fprintf(stderr, "Usage: %s ARCHIVE EVENT-ARCHIVE\n", argv[0]);
        return 1;
    }
    printf("pmWhichContext before any: %s\n", pmErrStr(pmWhichContext()));
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
        fprintf(stderr, "%s: %s\n", argv[1], pmErrStr(ctx));
        return 1;
    }
    names();
    metadata();
    labels();
    archive();
    fetching();
    parsers();
    strings();
    zones();
    contexts(argv[1]);
    pmUseContext(ctx);
    unpack(argv[2]);
    printf("failures: %d\n", failures);
    return 0;
}
