/*
 * pmda_calls.c: libpcp_pmda's and libpcp's internal calls that PCP's
 * compiled agents import: the pmdaroot messages (__pmdaSendRootPDU*,
 * __pmdaRecvRootPDU*, __pmdaDecodeRootPDU*), the instance walk
 * (__pmdaCntInst, __pmdaStartInst, __pmdaNextInst), __pmdaSetContext,
 * pmdaNodeLookup and __pmDumpNameNode, __pmdaCacheDumpAll, and the timed
 * callbacks (__pmAF*). Built as PCP's agents are (against PCP's libraries);
 * pmda_calls.sh runs it over
 * the drop-in and over PCP's libraries and compares what it prints
 * (with the argument "start-request", over the drop-in only).
 *
 * Each line printed is "what: value"; the program also checks what libpcp
 * documents and exits 1 on the first check that fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

/* pmdaroot.h's and libpcp.h's declarations of the calls under test, and
 * the name-space node as libpcp lays it out. */
extern int __pmdaSendRootPDUInfo(int, int, int);
extern int __pmdaRecvRootPDUInfo(int, int *, int *);
extern int __pmdaSendRootPDUContainer(int, int, int, const char *, int, int);
extern int __pmdaRecvRootPDUContainer(int, int, void *, int);
extern int __pmdaDecodeRootPDUContainer(void *, int, int *, char *, int);
extern int __pmdaSendRootPDUStartReq(int, int, const char *, int, const char *, int);
extern int __pmdaRecvRootPDUStartReq(int, void *, int);
extern int __pmdaSendRootPDUStart(int, int, int, int, const char *, int, int);
extern int __pmdaRecvRootPDUStart(int, void *, int);
extern int __pmdaDecodeRootPDUStart(void *, int, int *, int *, int *, int *, char *, int, char *, int);
extern int __pmdaSendRootPDUStop(int, int, int, int, int, int);
extern int __pmdaRecvRootPDUStop(int, int, void *, int);
extern int __pmdaDecodeRootPDUStop(void *, int, int *, int *, int *);
extern int __pmdaCntInst(pmInDom, pmdaExt *);
extern void __pmdaStartInst(pmInDom, pmdaExt *);
extern int __pmdaNextInst(int *, pmdaExt *);
extern void __pmdaSetContext(int);
extern void __pmdaCacheDumpAll(FILE *, int);
typedef struct pn_s {
    struct pn_s *parent, *next, *first, *hash;
    char *name;
    pmID pmid;
} node_t;
typedef struct {
    node_t *root;
    node_t **htab;
    int htabsize;
    char *symbol;
    int contiguous;
    int mark_state;
} tree_t;
extern node_t *pmdaNodeLookup(node_t *, const char *);
extern void __pmDumpNameNode(FILE *, node_t *, int);
extern int __pmAFregister(const struct timeval *, void *, void (*)(int, void *));
extern int __pmAFunregister(int);
extern void __pmAFblock(void);
extern void __pmAFunblock(void);
extern int __pmAFisempty(void);

#define HOSTNAME 0x9002
#define STOP 0x900a

static void check(const char *what, int ok)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        exit(1);
    }
}

static void pair(int fds[2])
{
    check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
}

static void root_messages(void)
{
    int fds[2], version = -1, features = -1, pid = -1, infd = -1, outfd = -1, ipc = -1, code = -1, force = -1;
    char buf[8192], name[128];
    int n, len;

    pair(fds);
    printf("info send: %d\n", __pmdaSendRootPDUInfo(fds[0], 3, 0));
    n = __pmdaRecvRootPDUInfo(fds[1], &version, &features);
    printf("info recv: %d version %d features %d\n", n, version, features);
    printf("container send: %d\n", __pmdaSendRootPDUContainer(fds[0], HOSTNAME, 42, "box", 3, 0));
    n = __pmdaRecvRootPDUContainer(fds[1], HOSTNAME, buf, sizeof buf);
    printf("container recv: %d\n", n);
    len = __pmdaDecodeRootPDUContainer(buf, n, &pid, name, sizeof name);
    printf("container decode: %d pid %d name %s\n", len, pid, name);
    printf("container decode, small name buffer: %d\n", __pmdaDecodeRootPDUContainer(buf, n, &pid, name, 2));
    printf("container send, wrong type read: %d\n", __pmdaSendRootPDUContainer(fds[0], HOSTNAME, 1, "x", 1, 0));
    printf("container recv as stop: %d\n", __pmdaRecvRootPDUContainer(fds[1], STOP, buf, sizeof buf));
    printf("start send, no descriptors: %d\n", __pmdaSendRootPDUStart(fds[0], 77, -1, -1, "agent", 5, 0) > 0);
    n = __pmdaRecvRootPDUStart(fds[1], buf, sizeof buf);
    printf("start recv: %d\n", n);
    n = __pmdaDecodeRootPDUStart(buf, n, &pid, &infd, &outfd, &ipc, name, sizeof name, NULL, 0);
    printf("start decode: %d pid %d infd %d outfd %d name %s\n", n, pid, infd, outfd, name);
    printf("start send, descriptors: %d\n", __pmdaSendRootPDUStart(fds[0], 78, 0, 1, "agent", 5, 0) > 0);
    n = __pmdaRecvRootPDUStart(fds[1], buf, sizeof buf);
    __pmdaDecodeRootPDUStart(buf, n, &pid, &infd, &outfd, &ipc, name, sizeof name, NULL, 0);
    printf("start recv, descriptors: %d pid %d passed %d\n", n, pid, infd >= 0 && outfd >= 0 && infd != 0);
    if (infd > 2) close(infd);
    if (outfd > 2) close(outfd);
    printf("stop send: %d\n", __pmdaSendRootPDUStop(fds[0], STOP, 77, 9, 1, 0));
    n = __pmdaRecvRootPDUStop(fds[1], STOP, buf, sizeof buf);
    printf("stop recv: %d", n);
    n = __pmdaDecodeRootPDUStop(buf, n, &pid, &code, &force);
    printf(" decode %d pid %d code %d force %d\n", n, pid, code, force);
    close(fds[0]);
    printf("recv at end of stream: %d\n", __pmdaRecvRootPDUStop(fds[1], STOP, buf, sizeof buf));
    close(fds[1]);
}

/* A start request, sent and received. Only over the drop-in: PCP's
 * __pmdaRecvRootPDUStartReq receives into its own pointer variable (8
 * bytes) and so always fails with -EINVAL, leaving the message unread. */
static void start_request(void)
{
    int fds[2], pid = -1, infd = -1, outfd = -1, ipc = -1, n;
    char buf[8192], name[128], args[256];

    pair(fds);
    printf("start request send: %d\n", __pmdaSendRootPDUStartReq(fds[0], 1, "agent", 5, "pmdax -d 1", 10));
    n = __pmdaRecvRootPDUStartReq(fds[1], buf, sizeof buf);
    printf("start request recv: %d\n", n);
    check("start request received", n == 114);
    printf("start request decode: %d", __pmdaDecodeRootPDUStart(buf, n, &pid, &infd, &outfd, &ipc, name,
                                                                 sizeof name, args, sizeof args));
    printf(" ipctype %d name %s args %s\n", ipc, name, args);
    check("start request decoded", ipc == 1 && strcmp(name, "agent") == 0 && strcmp(args, "pmdax -d 1") == 0);
    close(fds[0]);
    close(fds[1]);
}

static int text(int ident, int type, char **buffer, pmdaExt *pmda)
{
    (void)ident; (void)type; (void)buffer; (void)pmda;
    return PM_ERR_TEXT;
}

static int fetch(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    (void)m;
    atom->ul = inst;
    return 1;
}

static pmdaInstid colours[] = {{0, "red"}, {1, "green"}, {2, "blue"}};
static pmdaIndom indoms[] = {{0, 3, colours}};
static pmdaMetric metrics[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, 0, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

static void instance_walk(void)
{
    pmdaInterface dp;
    pmdaExt *pmda;
    pmInDom indom;
    int inst, n = 0;

    memset(&dp, 0, sizeof dp);
    dp.domain = 250;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "calls", NULL);
    dp.version.any.text = text;
    pmdaSetFetchCallBack(&dp, fetch);
    pmdaInit(&dp, indoms, 1, metrics, 1);
    check("pmdaInit", dp.status == 0);
    pmda = dp.version.any.ext;
    indom = indoms[0].it_indom;
    printf("instances counted: %d\n", __pmdaCntInst(indom, pmda));
    printf("instances of PM_INDOM_NULL: %d\n", __pmdaCntInst(PM_INDOM_NULL, pmda));
    __pmdaStartInst(indom, pmda);
    printf("instances walked:");
    while (__pmdaNextInst(&inst, pmda)) {
        printf(" %d", inst);
        check("walk ends", ++n <= 3);
    }
    printf("\n");
    __pmdaSetContext(5);
    printf("context after __pmdaSetContext(5): %d\n", pmdaGetContext());
}

static void names(void)
{
    tree_t *tree = NULL;
    node_t *node;

    check("pmdaTreeCreate", pmdaTreeCreate((pmdaNameSpace **)&tree) == 0);
    pmdaTreeInsert((pmdaNameSpace *)tree, pmID_build(250, 1, 1), "calls.a.one");
    pmdaTreeInsert((pmdaNameSpace *)tree, pmID_build(250, 1, 2), "calls.a.two");
    pmdaTreeInsert((pmdaNameSpace *)tree, pmID_build(250, 2, 1), "calls.b");
    pmdaTreeRebuildHash((pmdaNameSpace *)tree, 3);
    node = pmdaNodeLookup(tree->root->first, "calls.a.two");
    printf("lookup calls.a.two: %s\n", node ? pmIDStr(node->pmid) : "none");
    node = pmdaNodeLookup(tree->root->first, "calls.a");
    printf("lookup calls.a: %s (%s)\n", node ? node->name : "none", node && node->first ? "non-leaf" : "leaf");
    node = pmdaNodeLookup(tree->root->first, "calls.c");
    printf("lookup calls.c: %s\n", node ? node->name : "none");
    printf("tree dump:\n");
    fflush(stdout);
    __pmDumpNameNode(stdout, tree->root, 1);
    fflush(stdout);
    pmdaTreeRelease((pmdaNameSpace *)tree);
}

static void caches(void)
{
    pmInDom indom = pmInDom_build(250, 9);

    pmdaCacheStore(indom, PMDA_CACHE_ADD, "alpha", NULL);
    pmdaCacheStore(indom, PMDA_CACHE_ADD, "beta", NULL);
    pmdaCacheStore(indom, PMDA_CACHE_HIDE, "alpha", NULL);
    printf("cache dump:\n");
    fflush(stdout);
    __pmdaCacheDumpAll(stdout, 0);
    fflush(stdout);
}

static volatile int calls;

static void tick(int id, void *data)
{
    (void)id; (void)data;
    calls++;
}

static void timed_callbacks(void)
{
    struct timeval delta = {0, 20000};
    struct timespec nap = {0, 10000000};
    int id, i;

    printf("af empty at first: %d\n", __pmAFisempty() != 0);
    id = __pmAFregister(&delta, NULL, tick);
    printf("af registered: %d, empty: %d\n", id >= 0, __pmAFisempty() != 0);
    for (i = 0; i < 300 && calls < 3; i++) nanosleep(&nap, NULL);
    printf("af called again and again: %d\n", calls >= 3);
    __pmAFblock();
    __pmAFunblock();
    printf("af unregister: %d\n", __pmAFunregister(id));
    printf("af unregister again: %d\n", __pmAFunregister(id));
    printf("af empty at last: %d\n", __pmAFisempty() != 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "start-request") == 0) {
        start_request();
        printf("ok\n");
        return 0;
    }
    root_messages();
    instance_walk();
    names();
    caches();
    timed_callbacks();
    printf("ok\n");
    return 0;
}
