// system.cc: libpcp's internal calls over the operating system: paths,
// child processes, signals, becoming a daemon, shared memory maps, the
// data segment's growth, and libpcp's FILE wrapper (__pmFILE).
#include <execinfo.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pcp_internal.h"

// libpcp's FILE wrapper. Callers only hold pointers to it; here it is a
// plain stdio stream (libpcp also reads compressed files through it,
// which the archive reader does in this library).
struct __pmFILE {
  FILE* stream;
};

extern "C" {

int __pmAbsolutePath(char* path) { return path[0] == '/'; }

// mkdir -p: 0 if `dir` exists (and may be used) or was made; -1 with errno
// set otherwise.
int __pmMakePath(const char* dir, mode_t mode) {
  if (access(dir, R_OK | W_OK | X_OK) == 0) return 0;
  if (errno != ENOENT) return -1;
  std::string path(dir, strnlen(dir, PATH_MAX - 1));
  for (size_t i = 1; i < path.size(); i++) {
    if (path[i] != '/') continue;
    path[i] = '\0';
    if (mkdir(path.c_str(), mode) < 0 && errno != EEXIST) return -1;
    path[i] = '/';
  }
  return mkdir(path.c_str(), mode);
}

// Runs argv[0] (found on $PATH) with pipes to its standard input (*toChild)
// and from its standard output (*fromChild); returns its pid, or -errno.
pid_t __pmProcessCreate(char** argv, int* fromChild, int* toChild) {
  int in[2], out[2];
  if (pipe(in) < 0) return -errno;
  if (pipe(out) < 0) {
    int err = errno;
    close(in[0]);
    close(in[1]);
    return -err;
  }
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid > 0) {
    close(in[0]);
    close(out[1]);
    *fromChild = out[0];
    *toChild = in[1];
    return pid;
  }
  close(in[1]);
  close(out[0]);
  if (in[0] != 0) {
    dup2(in[0], 0);
    close(in[0]);
  }
  if (out[1] != 1) {
    dup2(out[1], 1);
    close(out[1]);
  }
  execvp(argv[0], argv);
  std::fprintf(stderr, "execvp: %s\n", std::strerror(errno));
  std::exit(1);
}

// The growth of the data segment, in kilobytes, since the first call
// (which records where it started and reports 0).
int __pmProcessDataSize(unsigned long* size) {
  static char* base = nullptr;
  char* now = static_cast<char*>(sbrk(0));
  if (size != nullptr && base != nullptr) {
    *size = static_cast<unsigned long>(now - base) / 1024;
  } else {
    base = now;
    if (size != nullptr) *size = 0;
  }
  return 0;
}

int __pmSetSignalHandler(int sig, __pmSignalHandler func) {
  std::signal(sig, func);
  return 0;
}

// Becomes a daemon: the parent exits, the child leaves its session (and
// closes its standard input when bit 0 of `flags` is set).
void __pmServerStart(int, char**, int flags) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::signal(SIGTTOU, SIG_IGN);
  std::signal(SIGTTIN, SIG_IGN);
  std::signal(SIGTSTP, SIG_IGN);
  pid_t child = fork();
  if (child < 0) {
    pmNotifyErr(LOG_ERR, "__pmServerStart: fork");
  } else if (child > 0) {
    std::fclose(stderr);
    std::exit(0);
  }
  if (setsid() == -1) pmNotifyErr(LOG_WARNING, "__pmServerStart: setsid");
  if (flags & 1) close(0);
}

void* __pmMemoryMap(int fd, size_t sz, int writable) {
  void* addr = mmap(nullptr, sz, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
  return addr == MAP_FAILED ? nullptr : addr;
}

void __pmMemoryUnmap(void* addr, size_t sz) { munmap(addr, sz); }

// Writes this process's pid to PCP_RUN_DIR/SPEC.pid (readable by all),
// removed at exit: 0, or -errno (with a message when `verbose`).
int __pmServerCreatePIDFile(const char* spec, int verbose) {
  static std::string* pidfile = nullptr;
  const char* rundir = pmGetConfig("PCP_RUN_DIR");
  std::string path = std::string(rundir != nullptr ? rundir : "") + "/" + spec + ".pid";
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    int err = errno;
    if (verbose) std::fprintf(stderr, "Error: cannot open PID file %s\n", path.c_str());
    return -err;
  }
  if (pidfile == nullptr) {
    pidfile = new std::string(path);
    std::atexit([] { unlink(pidfile->c_str()); });
  }
  std::fprintf(f, "%d", static_cast<int>(getpid()));
  (void)fchmod(fileno(f), S_IRUSR | S_IRGRP | S_IROTH);
  std::fclose(f);
  return 0;
}

// Sends `message` to the service manager's socket ($NOTIFY_SOCKET, as
// sd_notify(3) does); nothing when the variable is not set.
static int NotifyServiceManager(const std::string& message) {
  const char* where = std::getenv("NOTIFY_SOCKET");
  if (where == nullptr) return 0;
  if (std::strchr("@/", where[0]) == nullptr || std::strlen(where) < 2) {
    pmNotifyErr(LOG_ERR, "__pm_sd_notify: invalid notify_socket=\"%s\"\n", where);
    return PM_ERR_GENERIC;
  }
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    pmNotifyErr(LOG_ERR, "__pm_sd_notify: failed to create AF_UNIX socket: %s\n", std::strerror(errno));
    return PM_ERR_GENERIC;
  }
  struct sockaddr_un to = {};
  to.sun_family = AF_UNIX;
  std::strncpy(to.sun_path, where, sizeof to.sun_path - 1);
  if (where[0] == '@') to.sun_path[0] = '\0';
  socklen_t len = static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path) +
                                         std::min(std::strlen(where), sizeof to.sun_path - 1));
  int sts = 0;
  if (sendto(fd, message.data(), message.size(), MSG_NOSIGNAL, reinterpret_cast<struct sockaddr*>(&to), len) < 0) {
    pmNotifyErr(LOG_ERR, "Error __pm_sd_notify: sendmsg \"%s\" failed: %s\n", message.c_str(), std::strerror(errno));
    sts = PM_ERR_GENERIC;
  }
  close(fd);
  return sts;
}

int __pmServerNotifyServiceManagerReady(pid_t pid) {
  return NotifyServiceManager("READY=1\nMAINPID=" + std::to_string(pid));
}

int __pmServerNotifyServiceManagerStopping(pid_t) { return NotifyServiceManager("STOPPING=1"); }

// The call stack, on standard error (a diagnostic PCP's programs print
// when they fail badly).
void __pmDumpStack(void) {
  void* frames[64];
  int n = backtrace(frames, 64);
  std::fprintf(stderr, "\nProcedure call traceback ...\n");
  std::fflush(stderr);
  backtrace_symbols_fd(frames, n, fileno(stderr));
}

// libpcp notes where the program's text starts, to print offsets; the
// symbols backtrace_symbols_fd prints need no such note.
void __pmDumpStackInit(void*) {}

__pmFILE* __pmFopen(const char* path, const char* mode) {
  FILE* stream = std::fopen(path, mode);
  if (stream == nullptr) return nullptr;
  auto* f = static_cast<__pmFILE*>(std::malloc(sizeof(__pmFILE)));
  if (f == nullptr) {
    std::fclose(stream);
    errno = ENOMEM;
    return nullptr;
  }
  f->stream = stream;
  return f;
}

int __pmFclose(__pmFILE* f) {
  int sts = std::fclose(f->stream);
  std::free(f);
  return sts;
}

int __pmFflush(__pmFILE* f) { return std::fflush(f->stream); }
int __pmFileno(__pmFILE* f) { return fileno(f->stream); }
int __pmFseek(__pmFILE* f, long offset, int whence) { return std::fseek(f->stream, offset, whence); }
long __pmFtell(__pmFILE* f) { return std::ftell(f->stream); }

}  // extern "C"
