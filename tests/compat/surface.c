/*
 * surface.c: the parts of <pcp/pmapi.h> that PCP's own client programs use
 * beyond the monitoring calls: loaded name spaces, the string helpers,
 * configuration, debug flags, option parsing details, label printing,
 * -K specs and the platform macros. Built against PCP's libpcp it writes
 * the expected output; against this library it must write the same.
 *
 *   surface api ARCHIVE         everything but option parsing
 *   surface opts ARGS...        pmGetOptions and pmGetContextOptions
 *   surface envopts ARGS...     the same with PCP_* variables set first
 *   surface multi ARGS...       pmGetOptions with PM_OPTFLAG_MULTI
 *   surface posix ARGS...       pmGetOptions with PM_OPTFLAG_POSIX
 */
#include <pcp/pmapi.h>

#include <math.h>

static void show_debug(const char *spec) {
    int sts, i, first = 1;
    const int *flags = (const int *)&pmDebugOptions;
    memset(&pmDebugOptions, 0, sizeof(pmDebugOptions));
    sts = pmSetDebug(spec);
    printf("pmSetDebug(\"%s\") -> %d:", spec, sts);
    for (i = 0; i < (int)(sizeof(pmDebugOptions) / sizeof(int)); i++) {
        if (flags[i]) {
            printf("%s%d", first ? " " : ",", i);
            first = 0;
        }
    }
    printf("\n");
    memset(&pmDebugOptions, 0, sizeof(pmDebugOptions));
}

static void show_strings(void) {
    char buf[8];
    FILE *f = tmpfile();
    char *word = NULL;
    ssize_t n;
    int sts;

    sts = pmstrncpy(buf, sizeof(buf), "abc");
    printf("pmstrncpy short -> %d \"%s\"\n", sts, buf);
    sts = pmstrncpy(buf, sizeof(buf), "abcdefghij");
    printf("pmstrncpy long -> %d \"%s\"\n", sts, buf);
    pmstrncpy(buf, sizeof(buf), "ab");
    sts = pmstrncat(buf, sizeof(buf), "cd");
    printf("pmstrncat fits -> %d \"%s\"\n", sts, buf);
    sts = pmstrncat(buf, sizeof(buf), "efghij");
    printf("pmstrncat truncates -> %d \"%s\"\n", sts, buf);
    printf("pmstrlen NULL %d, \"xyz\" %d\n", (int)pmstrlen(NULL), (int)pmstrlen("xyz"));
    fputs("  alpha beta\n\ngamma", f);
    rewind(f);
    for (;;) {
        n = pmfstring(f, &word);
        printf("pmfstring -> %d", (int)n);
        if (n > 0) {
            printf(" \"%s\"", word);
            free(word);
        }
        printf("\n");
        if (n < 0)
            break;
    }
    fclose(f);
}

static void show_platform(void) {
    int64_t big = -1234567890123LL;
    uint64_t ubig = 1234567890123ULL;
    char line[64];
    errno = ENOENT;
    printf("oserror %d osstrerror \"%s\"\n", oserror(), osstrerror());
    printf("FMT_INT64 %" FMT_INT64 " FMT_UINT64 %" FMT_UINT64 "\n", big, ubig);
    snprintf(line, sizeof(line), "%s%p", PRINTF_P_PFX, (void *)0x10);
    printf("PRINTF_P_PFX %s\n", line);
    printf("PM_VERSION_CURRENT %s PM_VERSION(6,0,3)\n",
           PM_VERSION_CURRENT == PM_VERSION(6, 0, 3) ? "==" : "!=");
#ifdef HAVE_PTHREAD_BARRIER_T
    printf("HAVE_PTHREAD_BARRIER_T\n");
#endif
#ifdef HAVE_GETDOMAINNAME
    printf("HAVE_GETDOMAINNAME\n");
#endif
#ifdef IS_LINUX
    printf("IS_LINUX\n");
#endif
    printf("htonl %s\n", htonl(1) == 1 ? "identity" : "swaps");
}

static void show_config(const char *conf) {
    const char *names[] = {"pcp_version", "PMAPI_VERSION", "multi_threaded", "v3_archives",
                           "multi_archive_contexts", "lzma_decompress", "no_such_feature"};
    char *user = NULL;
    const char *v;
    int i, sts;
    for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
        v = pmGetAPIConfig(names[i]);
        printf("pmGetAPIConfig(%s) = %s\n", names[i], v ? v : "NULL");
    }
    sts = pmGetUsername(&user);
    printf("pmGetUsername -> %d %s\n", sts, user);
    printf("PCP_QA_DIR_X = \"%s\" (env \"%s\")\n", pmGetConfig("PCP_QA_DIR_X"),
           getenv("PCP_QA_DIR_X") ? getenv("PCP_QA_DIR_X") : "NULL");
    printf("PCP_QA_PROG_X = \"%s\"\n", pmGetConfig("PCP_QA_PROG_X"));
    v = pmGetOptionalConfig("PCP_QA_MISSING_X");
    printf("PCP_QA_MISSING_X = %s, pmGetConfig \"%s\"\n", v ? v : "NULL",
           pmGetConfig("PCP_QA_MISSING_X"));
    (void)conf;
}

static void show_kids(const char *name) {
    char **kids = NULL;
    int *status = NULL;
    int i, n = pmGetChildrenStatus(name, &kids, &status);
    printf("children of \"%s\" -> %d:", name, n);
    for (i = 0; i < n; i++)
        printf(" %s(%d)", kids[i], status[i]);
    printf("\n");
    if (n > 0) {
        free(kids);
        free(status);
    }
}

static void show_lookup(const char *name) {
    pmID id;
    const char *names[1];
    int sts;
    names[0] = name;
    sts = pmLookupName(1, names, &id);
    if (sts < 0)
        printf("lookup %s: %s\n", name, pmErrStr(sts));
    else
        printf("lookup %s: %s\n", name, pmIDStr(id));
}

static int leaves;
static void count_leaf(const char *name) { (void)name; leaves++; }

static void show_traverse(const char *name) {
    int sts;
    leaves = 0;
    sts = pmTraversePMNS(name, count_leaf);
    printf("traverse \"%s\" -> %d (%d leaves)\n", name, sts, leaves);
}

static void show_namespace(const char *dir, const char *archive) {
    char path[MAXPATHLEN];
    FILE *f;
    int sts, ctx;

    snprintf(path, sizeof(path), "%s/surface.pmns", dir);
    f = fopen(path, "w");
    fprintf(f, "root {\n    sample\n    other\n}\nsample {\n    seconds 29:0:3\n"
               "    colour 29:0:5\n    nothere 29:63:63\n}\nother {\n    x 1:2:3\n}\n");
    fclose(f);

    sts = pmLoadASCIINameSpace(path, 1);
    printf("load -> %d, location %d\n", sts, pmGetPMNSLocation());
    sts = pmLoadASCIINameSpace(path, 1);
    printf("load again -> %s\n", pmErrStr(sts));
    show_lookup("other.x");
    show_kids("");
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, archive)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return;
    }
    show_lookup("sample.nothere");
    show_lookup("sample.long.one");
    show_kids("");
    show_kids("sample");
    show_traverse("");
    sts = pmTrimNameSpace();
    printf("trim -> %d\n", sts);
    show_lookup("sample.nothere");
    show_lookup("sample.seconds");
    show_kids("");
    show_kids("sample");
    show_traverse("");
    pmUnloadNameSpace();
    show_lookup("sample.long.one");
    show_kids("event");
    show_lookup("event.flags");
    show_traverse("event");
    pmDestroyContext(ctx);
    fflush(stdout);
    sts = pmLoadASCIINameSpace("/no/such/pmns/file", 1);
    printf("load missing -> %s\n", pmErrStr(sts));
}

static void show_archive(const char *archive) {
    int ctx, n;
    pmLabelSet *sets = NULL;
    pmID id;
    const char *name = "sample.seconds";
    char host[MAXHOSTNAMELEN];

    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, archive)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return;
    }
    show_kids("");
    n = pmGetHostName(ctx, host, sizeof(host));
    printf("pmGetHostName -> %d %s\n", n, host);
    if ((n = pmGetContextLabels(&sets)) > 0) {
        pmPrintLabelSets(stdout, PM_IN_NULL, PM_LABEL_CONTEXT, sets, n);
        pmFreeLabelSets(sets, n);
    }
    if (pmLookupName(1, &name, &id) == 1 && (n = pmGetItemLabels(id, &sets)) > 0) {
        pmPrintLabelSets(stdout, id, PM_LABEL_ITEM, sets, n);
        pmFreeLabelSets(sets, n);
    }
    pmDestroyContext(ctx);
}

static void show_units_interval(void) {
    pmUnits u = {0};
    char small[20], big[80];
    struct timeval tv;
    const char *specs[] = {"0.0000015", "1.0000004", "2.9999996", "0.1234567sec", "10msec"};
    char *err = NULL;
    int i, sts;
    u.dimSpace = 1;
    u.scaleSpace = PM_SPACE_KBYTE;
    printf("pmUnitsStr_r small %s, big %s\n",
           pmUnitsStr_r(&u, small, sizeof(small)) ? "text" : "NULL",
           pmUnitsStr_r(&u, big, sizeof(big)) ? big : "NULL");
    for (i = 0; i < (int)(sizeof(specs) / sizeof(specs[0])); i++) {
        sts = pmParseInterval(specs[i], &tv, &err);
        printf("pmParseInterval(%s) -> %d %ld.%06ld\n", specs[i], sts, (long)tv.tv_sec,
               (long)tv.tv_usec);
    }
}

static void show_specs(void) {
    const char *specs[] = {"bogus", "add", "add,", "add,29", "add,999,x.so,init", "add,29,x.so",
                           "add,29,x.so,", "del,,", "clear", "clearx", "add,-1,x,y", "add,29,x.so,x_init",
                           "del,29", "del,30", "del,,x.so", "del,,y.so"};
    const char *mech[] = {"bogus", "shell"};
    char **urls = NULL;
    char *why;
    int i;
    for (i = 0; i < (int)(sizeof(specs) / sizeof(specs[0])); i++) {
        why = pmSpecLocalPMDA(specs[i]);
        printf("pmSpecLocalPMDA(%s) -> %s\n", specs[i], why ? why : "NULL");
    }
    for (i = 0; i < 2; i++)
        printf("pmDiscoverServices(pmcd, %s) -> %d\n", mech[i],
               pmDiscoverServices(PM_SERVER_SERVICE_SPEC, mech[i], &urls));
}

static void show_missing(const char *archive) {
    pmFG fg;
    pmAtomValue v;
    int sts, st = 0;
    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, archive)) < 0) {
        printf("pmCreateFetchGroup: %s\n", pmErrStr(sts));
        return;
    }
    sts = pmExtendFetchGroup_item(fg, "sample.seconds", NULL, NULL, &v, PM_TYPE_DOUBLE, &st);
    printf("extend -> %d\n", sts);
    sts = pmFetchGroup(fg);
    printf("before any fetch: %s nan, sign %s\n", isnan(v.d) ? "is" : "is not",
           signbit(v.d) ? "negative" : "positive");
    pmDestroyFetchGroup(fg);
}

static int run_api(const char *archive) {
    char dir[] = "/tmp/surfaceXXXXXX";
    char conf[MAXPATHLEN];
    FILE *f;
    const char *debug[] = {"pdu", "PDU", "Fetch,Value", "3", "1024", "-1", "pdu,",
                           ",pdu", "pdu,,fetch", "12x", "2,pmns", "ALL", "0x10", "1073741824"};
    int i;

    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(conf, sizeof(conf), "%s/pcp.conf", dir);
    f = fopen(conf, "w");
    fprintf(f, "# a test configuration\nPCP_QA_DIR_X=/qa/dir\nPCP_QA_PROG_X=\"prog -x\"\n"
               "PCP_BINADM_DIR=/usr/lib/pcp/bin\nPCP_VAR_DIR=/var/lib/pcp\nPCP_USER=pcp\n");
    fclose(f);
    setenv("PCP_CONF", conf, 1);

    show_config(conf);
    show_strings();
    show_platform();
    for (i = 0; i < (int)(sizeof(debug) / sizeof(debug[0])); i++)
        show_debug(debug[i]);
    show_units_interval();
    show_specs();
    show_archive(archive);
    show_missing(archive);
    show_namespace(dir, archive);
    fflush(stdout);
    snprintf(conf, sizeof(conf), "rm -rf %s", dir);
    return system(conf) != 0;
}

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ARCHIVE,
    PMOPT_HOST,
    PMOPT_START,
    PMOPT_FINISH,
    PMOPT_ORIGIN,
    PMOPT_ALIGN,
    PMOPT_INTERVAL,
    PMOPT_SAMPLES,
    PMOPT_LOCALPMDA,
    PMOPT_SPECLOCAL,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_DEBUG,
    PMOPT_HELP,
    PMAPI_OPTIONS_TEXT("Some text between options."),
    {"plain", 0, 0, NULL, "a long option without a letter"},
    {"value", 1, 'v', "N", "an option of the program"},
    PMAPI_OPTIONS_END};

static int report_opts(pmOptions *o);

/* Parses the arguments, reports what pmGetOptions made of them, and frees
 * the options as a program is expected to. */
static int run_opts(int argc, char **argv, int flags) {
    pmOptions opts;
    int c, sts;

    memset(&opts, 0, sizeof(opts));
    opts.short_options = "a:D:h:K:LS:T:O:A:t:s:Z:zv:?";
    opts.long_options = longopts;
    opts.flags = flags;
    while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
        printf("option %d (%c) index %d arg %s\n", c, c > 32 ? c : '.', opts.index,
               opts.optarg ? opts.optarg : "-");
    }
    /* Options end at the first operand with PM_OPTFLAG_POSIX. */
    for (c = opts.optind; (flags & PM_OPTFLAG_POSIX) && c < argc; c++)
        printf("operand %s\n", argv[c]);
    sts = report_opts(&opts);
    pmFreeOptions(&opts);
    return sts;
}

static int report_opts(pmOptions *o) {
    int i, ctx, sts;

    printf("version %d errors %d flags 0x%x context %d Lflag %d\n", o->version, o->errors,
           o->flags, o->context, o->Lflag);
    for (i = 0; i < o->narchives; i++)
        printf("archive[%d] %s\n", i, o->archives[i]);
    for (i = 0; i < o->nhosts; i++)
        printf("host[%d] %s\n", i, o->hosts[i]);
    printf("samples %d interval %ld.%06ld\n", o->samples, (long)o->interval.tv_sec,
           (long)o->interval.tv_usec);
    if (o->errors) {
        fflush(stdout);
        pmUsageMessage(o);
        return 1;
    }
    if (o->narchives == 1) {
        if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, o->archives[0])) < 0) {
            printf("pmNewContext(%s): %s\n", o->archives[0], pmErrStr(ctx));
            return 1;
        }
        sts = pmGetContextOptions(ctx, o);
        printf("pmGetContextOptions -> %d errors %d flags 0x%x\n", sts, o->errors, o->flags);
        printf("window %ld.%06ld .. %ld.%06ld origin %ld.%06ld\n", (long)o->start.tv_sec,
               (long)o->start.tv_usec, (long)o->finish.tv_sec, (long)o->finish.tv_usec,
               (long)o->origin.tv_sec, (long)o->origin.tv_usec);
        fflush(stdout);
        pmflush();
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "api") == 0)
        return run_api(argv[2]);
    if (argc >= 2 && strcmp(argv[1], "opts") == 0)
        return run_opts(argc - 1, argv + 1, 0);
    if (argc >= 2 && strcmp(argv[1], "multi") == 0)
        return run_opts(argc - 1, argv + 1, PM_OPTFLAG_MULTI);
    if (argc >= 2 && strcmp(argv[1], "posix") == 0)
        return run_opts(argc - 1, argv + 1, PM_OPTFLAG_POSIX);
    if (argc >= 2 && strcmp(argv[1], "envopts") == 0) {
        setenv("PCP_ARCHIVE", "small-v3/small-v3", 1);
        setenv("PCP_INTERVAL", "2.5", 1);
        setenv("PCP_SAMPLES", "7", 1);
        setenv("PCP_DEBUG", "fetch", 1);
        return run_opts(argc - 1, argv + 1, 0);
    }
    fprintf(stderr, "usage: surface api ARCHIVE | opts|multi|posix|envopts ARGS...\n");
    return 2;
}
