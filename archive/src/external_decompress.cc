// Runs an external decompressor and reads its output through a pipe.
#include "external_decompress.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/match.h"
#include "pmapi/errors.h"

extern char** environ;

namespace pmapi {
namespace {

struct Decompressor {
  const char* suffix;
  const char* program;
  const char* flags;
};

constexpr Decompressor kDecompressors[] = {
    {".bz2", "bzip2", "-dc"}, {".bz", "bzip2", "-dc"}, {".gz", "gzip", "-dc"},
    {".Z", "gzip", "-dc"},    {".z", "gzip", "-dc"},   {".zst", "zstd", "-dcq"},
};

const Decompressor* Find(const std::string& path) {
  for (const Decompressor& d : kDecompressors) {
    if (absl::EndsWith(path, d.suffix)) return &d;
  }
  return nullptr;
}

// Starts `d` on `path` with stdout on `out_fd`; returns its pid or -errno.
pid_t Start(const Decompressor& d, const std::string& path, int out_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // A name without a directory gets PCP's "./" (the program's messages
  // show it).
  const std::string arg = path.find('/') == std::string::npos ? "./" + path : path;
  char* argv[] = {const_cast<char*>(d.program), const_cast<char*>(d.flags),
                  const_cast<char*>(arg.c_str()), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, d.program, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc != 0 ? -rc : pid;
}

// Waits for `pid`; returns its exit status (256 + signal for a signal).
int Wait(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 256;
  }
  if (WIFSIGNALED(status)) return 256 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 256;
}

// Reads `fd` to its end: 0, else PM_ERR_TOOBIG past `cap` bytes or -errno
// for a read error.
int ReadAll(int fd, size_t cap, std::vector<uint8_t>* out) {
  uint8_t buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0) return 0;
    if (out->size() + static_cast<size_t>(n) > cap) return kErrToobig;
    out->insert(out->end(), buffer, buffer + n);
  }
}

}  // namespace

const char* ExternalDecompressor(const std::string& path) {
  const Decompressor* d = Find(path);
  return d == nullptr ? nullptr : d->program;
}

absl::StatusOr<std::vector<uint8_t>> RunDecompressor(const std::string& path, size_t cap) {
  const Decompressor* d = Find(path);
  if (d == nullptr) return PcpError(-EINVAL);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return PcpError(-errno);
  const pid_t pid = Start(*d, path, fds[1]);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return PcpError(pid);
  }
  std::vector<uint8_t> bytes;
  // A file that expands past `cap` (a decompression bomb) is cut short.
  const int read_status = ReadAll(fds[0], cap, &bytes);
  if (read_status != 0) kill(pid, SIGKILL);
  close(fds[0]);
  const int status = Wait(pid);
  if (read_status != 0) return PcpError(read_status);
  if (status != 0) return PcpError(kErrLogrec);
  return bytes;
}

}  // namespace pmapi
