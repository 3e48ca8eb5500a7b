/*
 * Prints the layout facts of <pcp/pmda.h> that an agent binary depends
 * on: sizes and offsets of its structures, bit-field placement and
 * constant values. layout_test.sh compiles this once against PCP's
 * installed headers and once against ours and compares the two outputs.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFF(t, f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(t, f))
#define VALUE(c) printf("%s %ld\n", #c, (long)(c))

static void bytes(const char *what, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    printf("%s", what);
    for (i = 0; i < n; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

int main(void)
{
    pmdaInterface dp;
    pmDesc desc = {PMDA_PMID(3, 7), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER,
                   PMDA_PMUNITS(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_SEC, 0)};

    SIZE(pmdaInstid); OFF(pmdaInstid, i_name);
    SIZE(pmdaIndom); OFF(pmdaIndom, it_numinst); OFF(pmdaIndom, it_set);
    SIZE(pmdaMetric); OFF(pmdaMetric, m_desc);
    SIZE(pmdaExt);
    OFF(pmdaExt, e_flags); OFF(pmdaExt, e_ext); OFF(pmdaExt, e_sockname); OFF(pmdaExt, e_name);
    OFF(pmdaExt, e_logfile); OFF(pmdaExt, e_helptext); OFF(pmdaExt, e_status); OFF(pmdaExt, e_infd);
    OFF(pmdaExt, e_outfd); OFF(pmdaExt, e_port); OFF(pmdaExt, e_singular); OFF(pmdaExt, e_ordinal);
    OFF(pmdaExt, e_direct); OFF(pmdaExt, e_domain); OFF(pmdaExt, e_nmetrics); OFF(pmdaExt, e_nindoms);
    OFF(pmdaExt, e_help); OFF(pmdaExt, e_prof); OFF(pmdaExt, e_io); OFF(pmdaExt, e_indoms);
    OFF(pmdaExt, e_idp); OFF(pmdaExt, e_metrics); OFF(pmdaExt, e_resultCallBack);
    OFF(pmdaExt, e_fetchCallBack); OFF(pmdaExt, e_checkCallBack); OFF(pmdaExt, e_doneCallBack);
    OFF(pmdaExt, e_context); OFF(pmdaExt, e_endCallBack); OFF(pmdaExt, e_labelCallBack);
    SIZE(pmdaInterface);
    OFF(pmdaInterface, domain); OFF(pmdaInterface, comm); OFF(pmdaInterface, status);
    OFF(pmdaInterface, version);
    OFF(pmdaInterface, version.any.ext); OFF(pmdaInterface, version.any.profile);
    OFF(pmdaInterface, version.two.fetch); OFF(pmdaInterface, version.three.desc);
    OFF(pmdaInterface, version.four.instance); OFF(pmdaInterface, version.four.text);
    OFF(pmdaInterface, version.five.store); OFF(pmdaInterface, version.five.pmid);
    OFF(pmdaInterface, version.six.name); OFF(pmdaInterface, version.six.children);
    OFF(pmdaInterface, version.six.attribute); OFF(pmdaInterface, version.seven.label);
    SIZE(pmdaIoType);

    memset(&dp, 0, sizeof(dp));
    dp.comm.pmda_interface = 0x12;
    dp.comm.pmapi_version = 0x34;
    dp.comm.flags = 0x5678;
    bytes("comm", &dp.comm, sizeof(dp.comm));
    bytes("desc", &desc, sizeof(desc));

    VALUE(PMDA_INTERFACE_2); VALUE(PMDA_INTERFACE_3); VALUE(PMDA_INTERFACE_4);
    VALUE(PMDA_INTERFACE_5); VALUE(PMDA_INTERFACE_6); VALUE(PMDA_INTERFACE_7);
    VALUE(PMDA_INTERFACE_LATEST);
    VALUE(pmdaPipe); VALUE(pmdaInet); VALUE(pmdaUnix); VALUE(pmdaUnknown); VALUE(pmdaIPv6);
    VALUE(PMDA_FETCH_NOVALUES); VALUE(PMDA_FETCH_STATIC); VALUE(PMDA_FETCH_DYNAMIC);
    VALUE(PMDA_EXT_FLAG_DIRECT); VALUE(PMDA_EXT_FLAG_HASHED); VALUE(PMDA_EXT_SETUPDONE);
    VALUE(PMDA_EXT_CONNECTED); VALUE(PMDA_EXT_NOTREADY); VALUE(PMDA_EXT_LABEL_CHANGE);
    VALUE(PMDA_EXT_NAMES_CHANGE);
    VALUE(PMDA_FLAG_AUTHORIZE); VALUE(PMDA_FLAG_CONTAINER);
    VALUE(PMDA_ATTR_USERNAME); VALUE(PMDA_ATTR_USERID); VALUE(PMDA_ATTR_GROUPID);
    VALUE(PMDA_ATTR_PROCESSID); VALUE(PMDA_ATTR_CONTAINER);
    VALUE(PMDA_PMID(4095, 1023)); VALUE(PMDA_PMID(4096, 1024)); VALUE(PMDA_PMID(5, 9));
    VALUE(PMDA_CACHE_LOAD); VALUE(PMDA_CACHE_ADD); VALUE(PMDA_CACHE_HIDE); VALUE(PMDA_CACHE_CULL);
    VALUE(PMDA_CACHE_EMPTY); VALUE(PMDA_CACHE_SAVE); VALUE(PMDA_CACHE_STRINGS);
    VALUE(PMDA_CACHE_ACTIVE); VALUE(PMDA_CACHE_INACTIVE); VALUE(PMDA_CACHE_SIZE);
    VALUE(PMDA_CACHE_SIZE_ACTIVE); VALUE(PMDA_CACHE_SIZE_INACTIVE); VALUE(PMDA_CACHE_REUSE);
    VALUE(PMDA_CACHE_WALK_REWIND); VALUE(PMDA_CACHE_WALK_NEXT); VALUE(PMDA_CACHE_CHECK);
    VALUE(PMDA_CACHE_REORG); VALUE(PMDA_CACHE_SYNC); VALUE(PMDA_CACHE_DUMP);
    VALUE(PMDA_CACHE_DUMP_ALL);
    return 0;
}
