/*
 * Starts a process through pmdaroot (pmdaRootProcessStart, over pipes),
 * talks to it, and terminates it (pmdaRootProcessTerminate), printing
 * what each call returns; then the calls' refusals of bad arguments.
 * root_test.sh runs it built with libpcp_pmda and with this library.
 *
 *   root_process SOCKET
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

static void report(const char *what, int sts)
{
    printf("%s: %d%s%s\n", what, sts < 0 ? -1 : sts, sts < 0 ? " " : "", sts < 0 ? pmErrStr(sts) : "");
}

int main(int argc, char **argv)
{
    char line[64] = "";
    char args[] = "/bin/cat -u";
    int fd, pid = -1, infd = -1, outfd = -1, sts;
    ssize_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s SOCKET\n", argv[0]);
        return 2;
    }
    if ((fd = pmdaRootConnect(argv[1])) < 0) {
        report("connect", fd);
        return 1;
    }
    sts = pmdaRootProcessStart(fd, 2, "cat", 3, args, (int)strlen(args), &pid, &infd, &outfd);
    report("start", sts);
    printf("pid %s, infd %s, outfd %s\n", pid > 0 ? "set" : "unset", infd >= 0 ? "open" : "closed",
           outfd >= 0 ? "open" : "closed");
    if (sts == 0 && infd >= 0 && outfd >= 0) {
        if (write(infd, "hello\n", 6) != 6)
            perror("write");
        n = read(outfd, line, sizeof(line) - 1);
        line[n > 0 ? n : 0] = '\0';
        printf("echoed: %s", line);
        report("terminate", pmdaRootProcessTerminate(fd, pid));
        close(infd);
        close(outfd);
    }
    report("start with no label", pmdaRootProcessStart(fd, 2, "", 0, args, 8, &pid, &infd, &outfd));
    report("start with a long label", pmdaRootProcessStart(fd, 2, "x", 64, args, 8, &pid, &infd, &outfd));
    report("hostname on no connection", pmdaRootContainerHostName(-1, "x", 1, line, sizeof(line)));
    pmdaRootShutdown(fd);
    return 0;
}
