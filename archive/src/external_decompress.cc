// Runs an external decompressor with its output in a memfd, then reads it.
#include "external_decompress.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

// Starts `d` on `path` with stdout on `out_fd`; returns its exit status
// (256 + signal for a signal) or -errno.
int Run(const Decompressor& d, const std::string& path, int out_fd) {
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
  if (rc != 0) return -rc;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -errno;
  }
  if (WIFSIGNALED(status)) return 256 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 256;
}

absl::StatusOr<std::vector<uint8_t>> ReadBack(int fd, size_t cap) {
  struct stat st;
  if (fstat(fd, &st) != 0) return PcpError(-errno);
  const size_t size = static_cast<size_t>(st.st_size);
  if (size > cap) return PcpError(kErrToobig);
  std::vector<uint8_t> bytes(size);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pread(fd, bytes.data() + done, size - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return PcpError(n < 0 ? -errno : kErrLogrec);
    done += static_cast<size_t>(n);
  }
  return bytes;
}

}  // namespace

const char* ExternalDecompressor(const std::string& path) {
  const Decompressor* d = Find(path);
  return d == nullptr ? nullptr : d->program;
}

absl::StatusOr<std::vector<uint8_t>> RunDecompressor(const std::string& path, size_t cap) {
  const Decompressor* d = Find(path);
  if (d == nullptr) return PcpError(-EINVAL);
  const int fd = memfd_create("pmapi-decompress", MFD_CLOEXEC);
  if (fd < 0) return PcpError(-errno);
  const int status = Run(*d, path, fd);
  absl::StatusOr<std::vector<uint8_t>> out =
      status < 0 ? absl::StatusOr<std::vector<uint8_t>>(PcpError(status))
      : status != 0 ? absl::StatusOr<std::vector<uint8_t>>(PcpError(kErrLogrec))
                    : ReadBack(fd, cap);
  close(fd);
  return out;
}

}  // namespace pmapi
