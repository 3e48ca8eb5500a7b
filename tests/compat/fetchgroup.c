/*
 * fetchgroup.c: the fetchgroup examples of pmfetchgroup(3), as a program.
 *
 * Usage: fetchgroup ARCHIVE [EVENT-ARCHIVE]
 *
 * Registers single values, whole instance domains and the timestamp of a
 * PCP archive in one fetchgroup, with rate, unit and type conversions,
 * replays the archive at 2-second steps and prints every output with its
 * status. Then clears the group, registers one metric again and fetches
 * twice more. With a second archive holding event metrics, also prints
 * the fields of the event records each fetch finds.
 */
#include <pcp/pmapi.h>

#define MAXINST 8

#ifdef PCP_6_0_HEADER
/* PCP 6.0.3's libpcp exports pmClearFetchGroup but its header misses it;
 * this lets the program be built against PCP itself for comparison. */
extern int pmClearFetchGroup(pmFG);
#endif

static void fail(const char *what, int sts)
{
    fprintf(stderr, "fetchgroup: %s: %s\n", what, pmErrStr(sts));
    exit(1);
}

static void stamp(const struct timeval *tv)
{
    time_t clock = tv->tv_sec;
    struct tm tm;
    pmLocaltime(&clock, &tm);
    printf("%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(tv->tv_usec / 1000));
}

static void show_double(const char *what, double v, int sts)
{
    if (sts < 0)
        printf("  %-28s %s\n", what, pmErrStr(sts));
    else
        printf("  %-28s %.4f\n", what, v);
}

/* Replays ARCHIVE through one fetchgroup. */
static void replay(const char *archive)
{
    pmFG fg;
    pmLogLabel label;
    struct timeval when;
    pmAtomValue load1, cpu_user, freemem, ncpu, release, physmem_text, hullo;
    int load1_sts, cpu_user_sts, freemem_sts, ncpu_sts, release_sts, physmem_sts, hullo_sts;
    int codes[MAXINST], stss[MAXINST], net_sts, load_sts;
    char *names[MAXINST];
    pmAtomValue values[MAXINST], loads[MAXINST];
    int load_codes[MAXINST], load_stss[MAXINST];
    unsigned int num, load_num, i;
    int sts, ctx, n;

    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, archive)) < 0)
        fail("pmCreateFetchGroup", sts);
    ctx = pmGetFetchGroupContext(fg);
    if ((sts = pmUseContext(ctx)) < 0)
        fail("pmUseContext", sts);
    if ((sts = pmGetArchiveLabel(&label)) < 0)
        fail("pmGetArchiveLabel", sts);
    printf("archive from host %s, zone %s\n", label.ll_hostname, label.ll_tz);
    if ((sts = pmSetMode(PM_MODE_INTERP, &label.ll_start, 2000)) < 0)
        fail("pmSetMode", sts);

    if ((sts = pmExtendFetchGroup_item(fg, "kernel.all.load", "1 minute", NULL, &load1,
                                       PM_TYPE_DOUBLE, &load1_sts)) < 0)
        fail("extend kernel.all.load", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "kernel.all.cpu.user", NULL, NULL, &cpu_user,
                                       PM_TYPE_DOUBLE, &cpu_user_sts)) < 0)
        fail("extend kernel.all.cpu.user", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "mem.util.free", NULL, "Mbyte", &freemem,
                                       PM_TYPE_DOUBLE, &freemem_sts)) < 0)
        fail("extend mem.util.free", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "hinv.ncpu", NULL, NULL, &ncpu, PM_TYPE_U32,
                                       &ncpu_sts)) < 0)
        fail("extend hinv.ncpu", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "kernel.uname.release", NULL, NULL, &release,
                                       PM_TYPE_STRING, &release_sts)) < 0)
        fail("extend kernel.uname.release", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "mem.physmem", NULL, "Gbyte", &physmem_text,
                                       PM_TYPE_STRING, &physmem_sts)) < 0)
        fail("extend mem.physmem", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "sample.string.hullo", NULL, NULL, &hullo,
                                       PM_TYPE_STRING, &hullo_sts)) < 0)
        fail("extend sample.string.hullo", sts);
    if ((sts = pmExtendFetchGroup_indom(fg, "network.interface.in.bytes", "Kbyte/sec", codes,
                                        names, values, PM_TYPE_DOUBLE, stss, MAXINST, &num,
                                        &net_sts)) < 0)
        fail("extend network.interface.in.bytes", sts);
    if ((sts = pmExtendFetchGroup_indom(fg, "kernel.all.load", "instant", load_codes, NULL,
                                        loads, PM_TYPE_FLOAT, load_stss, MAXINST, &load_num,
                                        &load_sts)) < 0)
        fail("extend kernel.all.load indom", sts);
    if ((sts = pmExtendFetchGroup_timestamp(fg, &when)) < 0)
        fail("extend timestamp", sts);

    /* A metric that is not there, an instance that is not there. */
    sts = pmExtendFetchGroup_item(fg, "no.such.metric", NULL, NULL, NULL, PM_TYPE_DOUBLE, NULL);
    printf("no.such.metric: %s\n", pmErrStr(sts));
    sts = pmExtendFetchGroup_item(fg, "kernel.all.load", "42 minute", NULL, NULL, PM_TYPE_DOUBLE, NULL);
    printf("kernel.all.load[42 minute]: %s\n", pmErrStr(sts));
    sts = pmExtendFetchGroup_item(fg, "mem.util.free", NULL, "furlongs", NULL, PM_TYPE_DOUBLE, NULL);
    printf("mem.util.free in furlongs: %s\n", sts < 0 ? "rejected" : "accepted");

    for (n = 0; n < 5; n++) {
        sts = pmFetchGroup(fg);
        printf("fetch %d: ", n);
        stamp(&when);
        printf(" (status %d)\n", sts);
        show_double("load 1 minute", load1.d, load1_sts);
        show_double("cpu user ms/s", cpu_user.d, cpu_user_sts);
        show_double("free Mbyte", freemem.d, freemem_sts);
        if (ncpu_sts < 0)
            printf("  %-28s %s\n", "ncpu", pmErrStr(ncpu_sts));
        else
            printf("  %-28s %u\n", "ncpu", ncpu.ul);
        printf("  %-28s %s\n", "release", release_sts < 0 ? pmErrStr(release_sts) : release.cp);
        printf("  %-28s %s\n", "physmem Gbyte (text)",
               physmem_sts < 0 ? pmErrStr(physmem_sts) : physmem_text.cp);
        printf("  %-28s %s\n", "hullo", hullo_sts < 0 ? pmErrStr(hullo_sts) : hullo.cp);
        printf("  network in Kbyte/s: %u interface(s), status %d\n", num, net_sts);
        for (i = 0; i < num; i++) {
            char what[64];
            snprintf(what, sizeof what, "[%d] %s", codes[i], names[i] ? names[i] : "(no name)");
            show_double(what, values[i].d, stss[i]);
        }
        printf("  load averages:");
        for (i = 0; i < load_num; i++) {
            if (load_stss[i] < 0)
                printf(" [%d] ?", load_codes[i]);
            else
                printf(" [%d] %.2f", load_codes[i], (double)loads[i].f);
        }
        printf("\n");
    }

    if ((sts = pmClearFetchGroup(fg)) < 0)
        fail("pmClearFetchGroup", sts);
    if ((sts = pmExtendFetchGroup_item(fg, "kernel.all.pswitch", NULL, NULL, &cpu_user,
                                       PM_TYPE_64, &cpu_user_sts)) < 0)
        fail("extend kernel.all.pswitch", sts);
    for (n = 0; n < 2; n++) {
        sts = pmFetchGroup(fg);
        if (cpu_user_sts < 0)
            printf("after clear, fetch %d: pswitch/s %s\n", n, pmErrStr(cpu_user_sts));
        else
            printf("after clear, fetch %d: pswitch/s %lld\n", n, (long long)cpu_user.ll);
    }
    if ((sts = pmDestroyFetchGroup(fg)) < 0)
        fail("pmDestroyFetchGroup", sts);
}

/* Prints the fields of the event records of an archive's event metric. */
static void events(const char *archive)
{
    pmFG fg;
    pmLogLabel label;
    struct timespec times[MAXINST];
    pmAtomValue vals[MAXINST], strs[MAXINST];
    int stss[MAXINST], str_stss[MAXINST], sts, str_sts, field_sts, n;
    unsigned int num, str_num, i;

    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, archive)) < 0)
        fail("pmCreateFetchGroup", sts);
    pmUseContext(pmGetFetchGroupContext(fg));
    if ((sts = pmGetArchiveLabel(&label)) < 0)
        fail("pmGetArchiveLabel", sts);
    if ((sts = pmSetMode(PM_MODE_FORW, &label.ll_start, 0)) < 0)
        fail("pmSetMode", sts);
    if ((sts = pmExtendFetchGroup_event(fg, "sample.event.records", "fungus",
                                        "sample.event.param_32", NULL, times, vals, PM_TYPE_32,
                                        stss, MAXINST, &num, &field_sts)) < 0)
        fail("extend event param_32", sts);
    if ((sts = pmExtendFetchGroup_event(fg, "sample.event.records", "fungus",
                                        "sample.event.param_string", NULL, NULL, strs,
                                        PM_TYPE_STRING, str_stss, MAXINST, &str_num,
                                        &str_sts)) < 0)
        fail("extend event param_string", sts);
    for (n = 0; n < 6; n++) {
        if ((sts = pmFetchGroup(fg)) < 0) {
            printf("event fetch %d: %s\n", n, pmErrStr(sts));
            break;
        }
        printf("event fetch %d: %u param_32, %u param_string (status %d, %d)\n", n, num, str_num,
               field_sts, str_sts);
        for (i = 0; i < num; i++) {
            struct timeval tv = { times[i].tv_sec, times[i].tv_nsec / 1000 };
            printf("  ");
            stamp(&tv);
            if (stss[i] < 0)
                printf(" param_32 %s\n", pmErrStr(stss[i]));
            else
                printf(" param_32 %d\n", vals[i].l);
        }
        for (i = 0; i < str_num; i++)
            printf("  param_string %s\n", str_stss[i] < 0 ? pmErrStr(str_stss[i]) : strs[i].cp);
    }
    pmDestroyFetchGroup(fg);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "Usage: %s ARCHIVE [EVENT-ARCHIVE]\n", argv[0]);
        return 1;
    }
    replay(argv[1]);
    if (argc == 3)
        events(argv[2]);
    return 0;
}
