/*
 * layout.c: prints the sizes, member offsets and bit-field positions of
 * the <pcp/pmapi.h> structures and the values of its constants, so that
 * the header's layouts can be compared with PCP's (tests/compat/expected/
 * layout.out was printed by this program built against PCP 6.0.3's
 * header).
 */
#include <pcp/pmapi.h>

#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFF(t, m) printf("offsetof %s.%s %zu\n", #t, #m, offsetof(t, m))
#define VAL(c) printf("%s %lld\n", #c, (long long)(c))

/* Prints the bytes of an object after one bit-field was set. */
static void bytes(const char *what, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;
    printf("bits %s", what);
    for (i = 0; i < n; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

#define BITS(t, field, value)                                   \
    do {                                                        \
        t obj;                                                  \
        memset(&obj, 0, sizeof obj);                            \
        obj.field = value;                                      \
        bytes(#t "." #field, &obj, sizeof obj < 8 ? sizeof obj : 8); \
    } while (0)

int main(void)
{
    SIZE(pmID); SIZE(pmInDom); SIZE(pmUnits); SIZE(pmDesc); SIZE(pmAtomValue);
    SIZE(pmValueBlock); SIZE(pmValue); SIZE(pmValueSet); SIZE(pmResult);
    SIZE(pmHighResResult); SIZE(pmInResult); SIZE(pmLabel); SIZE(pmLabelSet);
    SIZE(pmTimeval); SIZE(pmTimespec); SIZE(pmLogLabel); SIZE(pmHighResLogLabel);
    SIZE(pmEventParameter); SIZE(pmEventRecord); SIZE(pmHighResEventRecord);
    SIZE(pmEventArray); SIZE(pmHighResEventArray); SIZE(pmMetricSpec);
    SIZE(pmLongOptions); SIZE(pmOptions); SIZE(pmInDomProfile); SIZE(pmProfile);
    SIZE(pmdebugoptions_t);

    OFF(pmDesc, type); OFF(pmDesc, indom); OFF(pmDesc, sem); OFF(pmDesc, units);
    OFF(pmValueBlock, vbuf); OFF(pmValue, value);
    OFF(pmValueSet, numval); OFF(pmValueSet, valfmt); OFF(pmValueSet, vlist);
    OFF(pmResult, numpmid); OFF(pmResult, vset);
    OFF(pmHighResResult, numpmid); OFF(pmHighResResult, vset);
    OFF(pmInResult, numinst); OFF(pmInResult, instlist); OFF(pmInResult, namelist);
    OFF(pmLabelSet, nlabels); OFF(pmLabelSet, json); OFF(pmLabelSet, labels); OFF(pmLabelSet, hash);
    OFF(pmLogLabel, ll_pid); OFF(pmLogLabel, ll_start); OFF(pmLogLabel, ll_hostname); OFF(pmLogLabel, ll_tz);
    OFF(pmHighResLogLabel, start); OFF(pmHighResLogLabel, hostname);
    OFF(pmHighResLogLabel, timezone); OFF(pmHighResLogLabel, zoneinfo);
    OFF(pmEventRecord, er_flags); OFF(pmEventRecord, er_nparams); OFF(pmEventRecord, er_param);
    OFF(pmHighResEventRecord, er_flags); OFF(pmHighResEventRecord, er_param);
    OFF(pmEventArray, ea_nrecords); OFF(pmEventArray, ea_record);
    OFF(pmHighResEventArray, ea_record);
    OFF(pmMetricSpec, source); OFF(pmMetricSpec, metric); OFF(pmMetricSpec, ninst); OFF(pmMetricSpec, inst);
    OFF(pmLongOptions, has_arg); OFF(pmLongOptions, short_opt); OFF(pmLongOptions, argname); OFF(pmLongOptions, message);
    OFF(pmOptions, short_options); OFF(pmOptions, override); OFF(pmOptions, optind); OFF(pmOptions, optarg);
    OFF(pmOptions, errors); OFF(pmOptions, context); OFF(pmOptions, hosts); OFF(pmOptions, archives);
    OFF(pmOptions, start); OFF(pmOptions, interval); OFF(pmOptions, align_optarg);
    OFF(pmOptions, timezone); OFF(pmOptions, samples); OFF(pmOptions, guiport); OFF(pmOptions, padding);
    OFF(pmdebugoptions_t, appl0); OFF(pmdebugoptions_t, labels); OFF(pmdebugoptions_t, tls);

    BITS(pmUnits, dimSpace, 1); BITS(pmUnits, dimTime, 1); BITS(pmUnits, dimCount, 1);
    BITS(pmUnits, scaleSpace, 1); BITS(pmUnits, scaleTime, 1); BITS(pmUnits, scaleCount, 1);
    BITS(pmValueBlock, vtype, 1); BITS(pmValueBlock, vlen, 1);
    BITS(pmLabel, name, 1); BITS(pmLabel, namelen, 1); BITS(pmLabel, flags, 1);
    BITS(pmLabel, value, 1); BITS(pmLabel, valuelen, 1);
    BITS(pmEventParameter, ep_type, 1); BITS(pmEventParameter, ep_len, 1);
    BITS(pmEventArray, ea_type, 1); BITS(pmEventArray, ea_len, 1);

    VAL(PM_ID_NULL); VAL(PM_INDOM_NULL); VAL(PM_IN_NULL);
    VAL(PM_ERR_GENERIC); VAL(PM_ERR_NAME); VAL(PM_ERR_EOL); VAL(PM_ERR_NOCONTEXT);
    VAL(PM_ERR_INDOM_LOG); VAL(PM_ERR_TLS); VAL(PM_ERR_TOOBIG); VAL(PM_ERR_NYI);
    VAL(PM_ERR_PMDAREADY); VAL(PM_MAXERRMSGLEN);
    VAL(PM_TYPE_NOSUPPORT); VAL(PM_TYPE_HIGHRES_EVENT); VAL(PM_TYPE_UNKNOWN);
    VAL(PM_SEM_COUNTER); VAL(PM_SEM_DISCRETE);
    VAL(PM_SPACE_YBYTE); VAL(PM_TIME_HOUR); VAL(PM_COUNT_ONE);
    VAL(PM_CONTEXT_LOCAL); VAL(PM_CTXFLAG_NO_FEATURE_CHECK); VAL(PM_MODE_BACK);
    VAL(PM_XTB_SET(PM_TIME_SEC)); VAL(PM_TEXT_DIRECT); VAL(PM_LABEL_OPTIONAL);
    VAL(PM_MAXLABELJSONLEN); VAL(PM_VAL_SPTR); VAL(PM_VAL_VLEN_MAX);
    VAL(PM_LOG_MAGIC); VAL(PM_LOG_FEATURE_QA); VAL(PM_EVENT_FLAG_MISSED);
    VAL(PMCD_AGENT_CHANGE); VAL(PMCD_NAMES_CHANGE); VAL(PM_OPTFLAG_QUIET);
    VAL(PMNS_NONLEAF_STATUS); VAL(PM_PROFILE_EXCLUDE); VAL(DYNAMIC_PMID);
    printf("PMAPI_OPTIONS %s\n", PMAPI_OPTIONS);
    {
        pmLongOptions all[] = { PMAPI_GENERAL_OPTIONS, PMOPT_HOSTSFILE, PMOPT_SPECLOCAL,
                                PMOPT_LOCALPMDA, PMOPT_UNIQNAMES, PMOPT_ARCHIVE_LIST,
                                PMOPT_ARCHIVE_FOLIO, PMOPT_HOST_LIST, PMOPT_CONTAINER,
                                PMOPT_DERIVED, PMAPI_OPTIONS_END };
        pmLongOptions *o;
        for (o = all; o->long_opt; o++)
            printf("option %s %d %c %s %s\n", o->long_opt, o->has_arg, o->short_opt ? o->short_opt : '0',
                   o->argname ? o->argname : "-", o->message ? o->message : "-");
    }
    return 0;
}
