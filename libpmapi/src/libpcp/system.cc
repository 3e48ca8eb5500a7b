// system.cc: libpcp's internal calls over the operating system: paths,
// child processes, signals, becoming a daemon, shared memory maps, the
// data segment's growth, and libpcp's FILE wrapper (__pmFILE).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <cerrno>
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
