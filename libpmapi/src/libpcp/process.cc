// process.cc: libpcp's way of running a command without a shell. A caller
// builds the argument list one word at a time (__pmProcessAddArg) or from
// a command line split on blanks and quotes (__pmProcessUnpickArgs), then
// runs it to completion (__pmProcessExec) or with a pipe to its standard
// input or from its standard output (__pmProcessPipe, closed with
// __pmProcessPipeClose). Either call consumes the list. A finished child's
// status is its exit code, 1000 plus the signal that ended or stopped it,
// or 2000 for anything else.
#include <sys/types.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pcp_internal.h"

struct __pmExecCtl {
  std::vector<std::string> args;
};

namespace {

// While a child starts (and, for __pmProcessExec, runs), the caller
// ignores SIGINT and SIGQUIT and holds SIGCHLD back, as system(3) does;
// the child gets the caller's own dispositions back before exec.
class CallerSignals {
 public:
  int Hold() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    if (sigaction(SIGINT, &ignore, &intr_) < 0) return -errno;
    if (sigaction(SIGQUIT, &ignore, &quit_) < 0) return -errno;
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &block, &mask_) < 0) return -errno;
    held_ = true;
    return 0;
  }
  int Release() {
    if (!held_) return 0;
    held_ = false;
    if (sigaction(SIGINT, &intr_, nullptr) < 0) return -errno;
    if (sigaction(SIGQUIT, &quit_, nullptr) < 0) return -errno;
    if (sigprocmask(SIG_SETMASK, &mask_, nullptr) < 0) return -errno;
    return 0;
  }

 private:
  struct sigaction intr_ {};
  struct sigaction quit_ {};
  sigset_t mask_{};
  bool held_ = false;
};

int DecodeStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 1000 + WTERMSIG(status);
  if (WIFSTOPPED(status)) return 1000 + WSTOPSIG(status);
  return 2000;
}

int WaitFor(pid_t pid) {
  int status = 0;
  pid_t got;
  while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  return got == pid ? DecodeStatus(status) : -errno;
}

void Redirect(FILE* stream, const char* mode) {
  if (std::freopen("/dev/null", mode, stream) == nullptr) {
    // Nothing useful can be said from the child; the command runs anyway.
  }
}

void TossStreams(int toss) {
  if (toss & PM_EXEC_TOSS_STDIN) Redirect(stdin, "r");
  if (toss & PM_EXEC_TOSS_STDOUT) Redirect(stdout, "w");
  if (toss & PM_EXEC_TOSS_STDERR) Redirect(stderr, "w");
}

// In the child: argv[0] loses its directory, the program is found on
// $PATH as given; 127 if it cannot be run.
[[noreturn]] void RunChild(const __pmExecCtl& ctl) {
  const std::string& path = ctl.args[0];
  std::vector<std::string> words = ctl.args;
  if (size_t slash = path.rfind('/'); slash != std::string::npos && slash + 1 < path.size()) {
    words[0] = path.substr(slash + 1);
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execvp(path.c_str(), argv.data());
  _exit(127);
}

void Consume(__pmExecCtl_t** handle) {
  delete *handle;
  *handle = nullptr;
}

// The pipes __pmProcessPipe opened, so __pmProcessPipeClose can wait for
// the right child.
std::mutex pipes_lock;
std::vector<std::pair<FILE*, pid_t>> pipes;

void RememberPipe(FILE* fp, pid_t pid) {
  std::lock_guard<std::mutex> hold(pipes_lock);
  pipes.emplace_back(fp, pid);
}

pid_t ForgetPipe(FILE* fp) {
  std::lock_guard<std::mutex> hold(pipes_lock);
  for (auto it = pipes.begin(); it != pipes.end(); ++it) {
    if (it->first == fp) {
      pid_t pid = it->second;
      pipes.erase(it);
      return pid;
    }
  }
  return 0;
}

// The child's end of the pipe becomes its standard output ('r': the
// caller reads) or standard input ('w': the caller writes).
[[noreturn]] void RunPipeChild(const __pmExecCtl& ctl, bool reading, int toss, int ends[2]) {
  if (reading) {
    close(ends[0]);
    dup2(ends[1], STDOUT_FILENO);
    close(ends[1]);
    TossStreams(toss & (PM_EXEC_TOSS_STDIN | PM_EXEC_TOSS_STDERR));
  } else {
    close(ends[1]);
    dup2(ends[0], STDIN_FILENO);
    close(ends[0]);
    TossStreams(toss & (PM_EXEC_TOSS_STDOUT | PM_EXEC_TOSS_STDERR));
  }
  RunChild(ctl);
}

}  // namespace

extern "C" {

int __pmProcessAddArg(__pmExecCtl_t** handle, const char* arg) {
  if (*handle == nullptr) *handle = new __pmExecCtl;
  (*handle)->args.emplace_back(arg);
  return 0;
}

// Words are separated by white space; a word that starts with a single or
// double quote runs to the matching quote. An unmatched quote discards
// the list and returns PM_ERR_GENERIC.
int __pmProcessUnpickArgs(__pmExecCtl_t** handle, const char* command) {
  std::string line = command;
  size_t at = 0;
  while (at < line.size()) {
    if (std::isspace(static_cast<unsigned char>(line[at]))) {
      ++at;
      continue;
    }
    char end = ' ';
    if (line[at] == '"' || line[at] == '\'') end = line[at++];
    size_t stop = line.find(end, at);
    if (stop == std::string::npos && end != ' ') {
      pmNotifyErr(LOG_WARNING, "__pmProcessUnpickArgs: unterminated quote (%c) in command: %s\n", end,
                  command);
      Consume(handle);
      return PM_ERR_GENERIC;
    }
    if (stop == std::string::npos) stop = line.size();
    __pmProcessAddArg(handle, line.substr(at, stop - at).c_str());
    at = stop + 1;
  }
  return 0;
}

int __pmProcessExec(__pmExecCtl_t** handle, int toss, int wait) {
  if (*handle == nullptr) return PM_ERR_TOOSMALL;
  CallerSignals signals;
  if (int sts = signals.Hold(); sts < 0) return sts;
  pid_t pid = fork();
  if (pid == 0) {
    signals.Release();
    TossStreams(toss);
    RunChild(**handle);
  }
  int fork_error = errno;
  Consume(handle);
  if (pid < 0) {
    signals.Release();
    return -fork_error;
  }
  int sts = wait == PM_EXEC_WAIT ? WaitFor(pid) : 0;
  if (int restored = signals.Release(); restored < 0) return restored;
  return sts;
}

int __pmProcessPipe(__pmExecCtl_t** handle, const char* type, int toss, FILE** fp) {
  *fp = nullptr;
  if (*handle == nullptr) return PM_ERR_TOOSMALL;
  if (std::strcmp(type, "r") != 0 && std::strcmp(type, "w") != 0) return -EINVAL;
  bool reading = type[0] == 'r';
  CallerSignals signals;
  if (int sts = signals.Hold(); sts < 0) return sts;
  int ends[2];
  if (pipe(ends) < 0) {
    int err = errno;
    signals.Release();
    Consume(handle);
    return -err;
  }
  pid_t pid = fork();
  if (pid == 0) {
    signals.Release();
    RunPipeChild(**handle, reading, toss, ends);
  }
  int fork_error = errno;
  Consume(handle);
  if (pid < 0) {
    close(ends[0]);
    close(ends[1]);
    signals.Release();
    return -fork_error;
  }
  close(reading ? ends[1] : ends[0]);
  *fp = fdopen(reading ? ends[0] : ends[1], type);
  if (*fp == nullptr) {
    int err = errno;
    signals.Release();
    return -err;
  }
  RememberPipe(*fp, pid);
  return signals.Release();
}

int __pmProcessPipeClose(FILE* fp) {
  pid_t pid = ForgetPipe(fp);
  if (pid == 0) return PM_ERR_NOTCONN;
  if (std::fclose(fp) != 0) return -errno;
  return WaitFor(pid);
}

int __pmProcessExists(pid_t pid) {
  std::string path = "/proc/" + std::to_string(pid);
  return access(path.c_str(), F_OK) == 0;
}

int __pmProcessTerminate(pid_t pid, int force) { return kill(pid, force ? SIGKILL : SIGTERM); }

}  // extern "C"
