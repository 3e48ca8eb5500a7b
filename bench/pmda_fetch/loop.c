/* The agent library's own cost per request, without pmcd, pipes or
 * context switches: PCP's shipped simple agent's tables and callbacks are
 * not needed, so a small agent of the same shape (one singular metric and
 * one of three instances) answers N FETCH requests read from a memory
 * file, its replies going to /dev/null, through __pmdaMainPDU. Built
 * against libpcp_pmda and against libpmapi; prints the CPU time per
 * request.   loop N */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static pmdaInstid colours[] = {{0, "red"}, {1, "green"}, {2, "blue"}};
static pmdaIndom indoms[] = {{0, 3, colours}};
static pmdaMetric metrics[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_32, 0, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};
static unsigned int fetches;

static int value(pmdaMetric *m, unsigned int inst, pmAtomValue *av) {
    if (pmID_item(m->m_desc.pmid) == 0) av->ul = fetches++;
    else av->l = (int)inst * 100;
    return 1;
}

static void put32(unsigned char *p, unsigned int v) {
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static double cpu_seconds(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
    long i, n = argc > 1 ? atol(argv[1]) : 200000;
    unsigned char pdu[36];
    pmdaInterface dp;
    pmdaExt *ext;
    int in, out;
    double t0, t1;

    memset(&dp, 0, sizeof(dp));
    pmdaDaemon(&dp, PMDA_INTERFACE_7, "loop", 253, NULL, NULL);
    pmdaSetFetchCallBack(&dp, value);
    pmdaInit(&dp, indoms, 1, metrics, 2);
    /* FETCH: header, context, unused time, two PMIDs */
    memset(pdu, 0, sizeof(pdu));
    put32(pdu, sizeof(pdu));
    put32(pdu + 4, 0x7003);
    put32(pdu + 24, 2);
    put32(pdu + 28, pmID_build(253, 0, 0));
    put32(pdu + 32, pmID_build(253, 0, 1));
    in = memfd_create("requests", 0);
    out = open("/dev/null", O_WRONLY);
    for (i = 0; i < n; i++)
        if (write(in, pdu, sizeof(pdu)) != (ssize_t)sizeof(pdu)) return 1;
    lseek(in, 0, SEEK_SET);
    ext = dp.version.any.ext;
    ext->e_infd = in;
    ext->e_outfd = out;
    t0 = cpu_seconds();
    for (i = 0; i < n; i++)
        if (__pmdaMainPDU(&dp) < 0) return 1;
    t1 = cpu_seconds();
    printf("%.3f us CPU/request (%ld requests, %u fetches)\n", (t1 - t0) / n * 1e6, n, fetches);
    return 0;
}
