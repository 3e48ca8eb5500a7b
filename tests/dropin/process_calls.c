/*
 * process_calls.c: libpcp's internal calls for running commands, reading
 * the configuration file, listing the library's features and plain socket
 * I/O, as PCP's own programs use them (pmlogconf, pmrepconf, pmconfig,
 * telnet-probe). Linked to the drop-in libpcp.so.3; process_calls.sh runs
 * it over the drop-in and over PCP's library and compares the two.
 *
 * Each line printed is "what: value". The program checks each value
 * against what libpcp documents and exits 1 on the first that differs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pcp/pmapi.h>

/* libpcp.h's declarations of the calls under test. */
typedef struct __pmExecCtl __pmExecCtl_t;
typedef void (*__pmConfigCallback)(char *, char *, char *);
typedef void (*__pmAPIConfigCallback)(const char *, const char *);
extern int __pmProcessAddArg(__pmExecCtl_t **, const char *);
extern int __pmProcessUnpickArgs(__pmExecCtl_t **, const char *);
extern int __pmProcessExec(__pmExecCtl_t **, int, int);
extern int __pmProcessPipe(__pmExecCtl_t **, const char *, int, FILE **);
extern int __pmProcessPipeClose(FILE *);
extern int __pmProcessExists(pid_t);
extern int __pmProcessTerminate(pid_t, int);
extern const __pmConfigCallback __pmNativeConfig;
extern void __pmConfig(__pmConfigCallback);
extern void __pmAPIConfig(__pmAPIConfigCallback);
extern ssize_t __pmRead(int, void *, size_t);
extern ssize_t __pmWrite(int, const void *, size_t);
extern int __pmSocketClosed(void);

#define TOSS_NONE 0
#define TOSS_STDOUT 2
#define TOSS_STDERR 4
#define WAIT 1

static void expect(const char *what, long got, long want) {
    printf("%s: %ld\n", what, got);
    fflush(stdout);
    if (got != want) {
        fprintf(stderr, "process_calls: %s is %ld, expected %ld\n", what, got, want);
        exit(1);
    }
}

static int run(const char *command, int toss) {
    __pmExecCtl_t *h = NULL;
    int sts = __pmProcessUnpickArgs(&h, command);
    return sts < 0 ? sts : __pmProcessExec(&h, toss, WAIT);
}

static void exec_calls(void) {
    __pmExecCtl_t *h = NULL;
    expect("exec exit code", run("sh -c 'exit 3'", TOSS_NONE), 3);
    expect("exec killed by SIGTERM", run("sh -c \"kill -TERM $$\"", TOSS_NONE), 1000 + SIGTERM);
    expect("exec unknown program", run("/nonexistent/program", TOSS_STDERR), 127);
    expect("exec quietly", run("echo this-line-is-tossed", TOSS_STDOUT), 0);
    expect("exec without arguments", __pmProcessExec(&h, TOSS_NONE, WAIT), PM_ERR_TOOSMALL);
    expect("unterminated quote", __pmProcessUnpickArgs(&h, "echo 'open"), PM_ERR_GENERIC);
    expect("list after unterminated quote", h == NULL, 1);
}

static void pipe_calls(void) {
    __pmExecCtl_t *h = NULL;
    FILE *fp = NULL;
    char line[64] = "";
    __pmProcessAddArg(&h, "/usr/bin/printf");
    __pmProcessAddArg(&h, "%s+%s");
    __pmProcessAddArg(&h, "one two");
    __pmProcessAddArg(&h, "three");
    expect("pipe bad type", __pmProcessPipe(&h, "rw", TOSS_NONE, &fp), -EINVAL);
    expect("pipe for reading", __pmProcessPipe(&h, "r", TOSS_NONE, &fp), 0);
    expect("list after pipe", h == NULL, 1);
    if (fgets(line, sizeof line, fp) == NULL) line[0] = '\0';
    printf("pipe read: %s\n", line);
    expect("pipe read matches", strcmp(line, "one two+three"), 0);
    expect("pipe close", __pmProcessPipeClose(fp), 0);

    __pmProcessUnpickArgs(&h, "sh -c 'read code; exit $code'");
    expect("pipe for writing", __pmProcessPipe(&h, "w", TOSS_NONE, &fp), 0);
    fputs("42\n", fp);
    expect("pipe close, child's code", __pmProcessPipeClose(fp), 42);

    fp = fopen("/dev/null", "r");
    expect("close of another stream", __pmProcessPipeClose(fp), PM_ERR_NOTCONN);
    fclose(fp);
}

static void process_calls(void) {
    pid_t child = fork();
    int status = 0;
    if (child == 0) {
        pause();
        _exit(0);
    }
    expect("own process exists", __pmProcessExists(getpid()), 1);
    expect("terminate child", __pmProcessTerminate(child, 0), 0);
    waitpid(child, &status, 0);
    expect("child ended by SIGTERM", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, 1);
    expect("reaped child exists", __pmProcessExists(child), 0);
}

static int config_calls_seen;

static void count_setting(char *name, char *dir, char *value) {
    (void)dir;
    printf("setting %s=%s\n", name, value);
    config_calls_seen++;
    __pmNativeConfig(name, dir, value);
}

static void config_calls(void) {
    char path[] = "/tmp/process_calls.XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("# a comment\nPC_TEST_A=1\nPC_TEST_B=\"two words\"\nnot a setting\nPC_TEST_C=3\n", f);
    fclose(f);
    setenv("PCP_CONF", path, 1);
    setenv("PC_TEST_C", "already", 1);
    __pmConfig(count_setting);
    unlink(path);
    expect("settings passed on", config_calls_seen, 2);
    printf("PC_TEST_B now: %s\n", getenv("PC_TEST_B"));
    expect("quotes removed", strcmp(getenv("PC_TEST_B"), "two words"), 0);
    expect("environment kept", strcmp(getenv("PC_TEST_C"), "already"), 0);
}

/* pmOpenLog's header: "Log for PROGRAM on HOST started DATE", a blank
 * line, then what the program writes. The host and date are left out. */
static void log_header(void) {
    char path[] = "/tmp/process_calls_log.XXXXXX";
    char line[256];
    int sts = 0, n = 0;
    FILE *log = fopen("/dev/null", "w");
    close(mkstemp(path));
    log = pmOpenLog("process_calls", path, log, &sts);
    expect("log opened", sts, 1);
    fprintf(log, "first line\n");
    fflush(log);
    FILE *in = fopen(path, "r");
    while (in != NULL && fgets(line, sizeof line, in) != NULL) {
        if (n++ == 0 && strncmp(line, "Log for process_calls on ", 25) == 0)
            strcpy(line, "Log for process_calls on HOST started DATE\n");
        printf("log: %s", line);
    }
    if (in != NULL) fclose(in);
    unlink(path);
    expect("log lines", n, 3);
}

static void print_feature(const char *name, const char *value) {
    if (strcmp(name, "pcp_version") == 0 || strcmp(name, "pmapi_version") == 0 ||
        strcmp(name, "v3_archives") == 0 || strcmp(name, "multi_archive_contexts") == 0)
        printf("feature %s=%s\n", name, value);
}

static void socket_calls(void) {
    int ends[2];
    char buf[8] = "";
    expect("read of a bad descriptor", __pmRead(-1, buf, sizeof buf), -EBADF);
    if (pipe(ends) < 0) exit(1);
    expect("write", __pmWrite(ends[1], "abc", 3), 3);
    expect("read", __pmRead(ends[0], buf, sizeof buf), 3);
    close(ends[0]);
    close(ends[1]);
    errno = EPIPE;
    expect("EPIPE means closed", __pmSocketClosed(), 1);
    errno = ECONNREFUSED;
    expect("ECONNREFUSED means closed", __pmSocketClosed(), 1);
    errno = EINTR;
    expect("EINTR does not", __pmSocketClosed(), 0);
}

int main(void) {
    exec_calls();
    pipe_calls();
    process_calls();
    config_calls();
    __pmAPIConfig(print_feature);
    socket_calls();
    log_header();
    printf("ok\n");
    return 0;
}
