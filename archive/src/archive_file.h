// archive_file.h: the bytes of one physical archive file (.meta, .index or
// a data volume), plain or xz-compressed.
//
// A plain file is memory-mapped, so reading a record touches only the pages
// it spans. An .xz file is decompressed once, whole, into memory when it is
// opened: simple and fast for the volumes PCP writes (pmlogger_daily limits
// them by size), at the cost of memory proportional to the uncompressed
// volume; see docs/archive-format.md.
//
// Example:
//   absl::StatusOr<pmapi::ArchiveFile> f = pmapi::ArchiveFile::Open("a.0.xz");
//   if (f.ok()) Parse(f->bytes());
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace pmapi {

class ArchiveFile {
 public:
  ArchiveFile() = default;
  ArchiveFile(ArchiveFile&& other) noexcept;
  ArchiveFile& operator=(ArchiveFile&& other) noexcept;
  ~ArchiveFile();

  // Opens `path` (decompressing it if it ends in ".xz" or ".lzma").
  // Returns PcpError(-errno) if it cannot be read, PcpError(PM_ERR_LOGREC)
  // if the compressed data is corrupt.
  static absl::StatusOr<ArchiveFile> Open(const std::string& path);

  // Returns the file's (uncompressed) contents; valid while this lives.
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  bool compressed() const { return compressed_; }
  // Lets the kernel drop the resident pages of a mapped file; they come
  // back from the page cache when next touched. No effect otherwise.
  void DropPages() const;

 private:
  void Release();

  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;  // non-null when data_ is an mmap of the file
  std::vector<uint8_t> inflated_;
  bool compressed_ = false;
};

// Returns true if `path` names a file this reader can decompress.
bool IsCompressedName(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_
