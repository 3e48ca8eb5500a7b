// Reading one archive file: mmap for plain files, liblzma for .xz.
#include "archive_file.h"

#include <fcntl.h>
#include <lzma.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/strings/match.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Closes a file descriptor on scope exit.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  int fd_;
};

// Returns the whole of fd's contents. REQUIRES: fd is open for reading.
absl::StatusOr<std::vector<uint8_t>> ReadAll(int fd, size_t size_hint) {
  std::vector<uint8_t> buf(size_hint);
  size_t got = 0;
  for (;;) {
    if (got == buf.size()) buf.resize(buf.size() * 2 + 4096);
    ssize_t n = read(fd, buf.data() + got, buf.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return PcpError(-errno);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  return buf;
}

// Returns the decompression of an xz (or lzma-alone) stream.
absl::StatusOr<std::vector<uint8_t>> Inflate(const std::vector<uint8_t>& in) {
  lzma_stream strm = LZMA_STREAM_INIT;
  if (lzma_auto_decoder(&strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
    return PcpError(kErrLogrec);
  }
  std::vector<uint8_t> out(in.size() * 4 + 4096);
  strm.next_in = in.data();
  strm.avail_in = in.size();
  lzma_ret ret = LZMA_OK;
  while (ret == LZMA_OK) {
    if (strm.total_out == out.size()) out.resize(out.size() * 2);
    strm.next_out = out.data() + strm.total_out;
    strm.avail_out = out.size() - strm.total_out;
    ret = lzma_code(&strm, LZMA_FINISH);
  }
  const size_t produced = strm.total_out;
  lzma_end(&strm);
  if (ret != LZMA_STREAM_END) return PcpError(kErrLogrec);
  out.resize(produced);
  return out;
}

}  // namespace

bool IsCompressedName(const std::string& path) {
  return absl::EndsWith(path, ".xz") || absl::EndsWith(path, ".lzma");
}

ArchiveFile::ArchiveFile(ArchiveFile&& other) noexcept { *this = std::move(other); }

ArchiveFile& ArchiveFile::operator=(ArchiveFile&& other) noexcept {
  if (this != &other) {
    Release();
    path_ = std::move(other.path_);
    inflated_ = std::move(other.inflated_);
    compressed_ = other.compressed_;
    mapping_ = std::exchange(other.mapping_, nullptr);
    size_ = std::exchange(other.size_, 0);
    data_ = mapping_ != nullptr ? static_cast<const uint8_t*>(mapping_) : inflated_.data();
    other.data_ = nullptr;
  }
  return *this;
}

ArchiveFile::~ArchiveFile() { Release(); }

void ArchiveFile::Release() {
  if (mapping_ != nullptr) munmap(mapping_, size_);
  mapping_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  inflated_.clear();
}

void ArchiveFile::DropPages() const {
  if (mapping_ != nullptr) madvise(mapping_, size_, MADV_DONTNEED);
}

absl::StatusOr<ArchiveFile> ArchiveFile::Open(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PcpError(-errno);
  FdCloser closer(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) return PcpError(-errno);
  if (S_ISDIR(st.st_mode)) return PcpError(-EISDIR);
  ArchiveFile f;
  f.path_ = path;
  if (IsCompressedName(path)) {
    absl::StatusOr<std::vector<uint8_t>> raw = ReadAll(fd, static_cast<size_t>(st.st_size));
    if (!raw.ok()) return raw.status();
    absl::StatusOr<std::vector<uint8_t>> plain = Inflate(*raw);
    if (!plain.ok()) return plain.status();
    f.inflated_ = std::move(*plain);
    f.compressed_ = true;
    f.data_ = f.inflated_.data();
    f.size_ = f.inflated_.size();
    return f;
  }
  if (st.st_size == 0) return f;
  void* m = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED) {
    // Not mappable (a pipe, say): read it instead.
    absl::StatusOr<std::vector<uint8_t>> raw = ReadAll(fd, static_cast<size_t>(st.st_size));
    if (!raw.ok()) return raw.status();
    f.inflated_ = std::move(*raw);
    f.data_ = f.inflated_.data();
    f.size_ = f.inflated_.size();
    return f;
  }
  f.mapping_ = m;
  f.data_ = static_cast<const uint8_t*>(m);
  f.size_ = static_cast<size_t>(st.st_size);
  return f;
}

}  // namespace pmapi
