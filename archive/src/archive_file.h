// archive_file.h: the bytes of one physical archive file (.meta, .index or
// a data volume), plain or xz-compressed, read by range.
//
// A plain file is read with pread through a window of half a megabyte that
// slides with the reads (forward, or backward for a backward scan), so a
// scan makes one system call per window and holds the window, not the
// file.
//
// An .xz file is read through its xz block index (decoded from the stream
// footer, for every concatenated stream): a range is served by decoding only
// the blocks that cover it. Small blocks are decoded whole into a small LRU
// cache; a large block (a single-block file, as `xz` makes without
// --block-size) is read through a decoding cursor that slides forward over
// it, so memory stays bounded by a window of a few megabytes, and a read
// behind the cursor restarts it at the beginning of its block. Files in the
// older lzma-alone format have no index and are inflated whole, up to a cap.
// See docs/archive-format.md.
//
// Example:
//   absl::StatusOr<pmapi::ArchiveFile> f = pmapi::ArchiveFile::Open("a.0.xz");
//   if (f.ok()) {
//     absl::StatusOr<std::span<const uint8_t>> head = f->Read(0, 132);
//   }
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "absl/status/statusor.h"

namespace pmapi {

// Where the bytes come from: a mapping or a decompressor (archive_file.cc).
class FileSource {
 public:
  virtual ~FileSource() = default;
  virtual uint64_t size() const = 0;
  virtual absl::StatusOr<std::span<const uint8_t>> Read(uint64_t offset, size_t len) = 0;
  // Gives back the memory held for reads so far (spans already returned
  // become invalid for compressed files).
  virtual void Drop() {}
};

class ArchiveFile {
 public:
  // The longest range one Read may ask of a compressed file, and the
  // largest lzma-alone file inflated whole. Longer requests fail with
  // PcpError(-EFBIG) rather than allocating without bound.
  static constexpr size_t kMaxReadBytes = size_t{1} << 30;

  ArchiveFile() = default;

  // Opens `path` (through liblzma if it ends in ".xz" or ".lzma").
  // Returns PcpError(-errno) if it cannot be read, PcpError(PM_ERR_LOGREC)
  // if the compressed data or its index is corrupt or truncated.
  static absl::StatusOr<ArchiveFile> Open(const std::string& path);

  // The (uncompressed) length of the file.
  uint64_t size() const { return source_ ? source_->size() : 0; }

  // Returns bytes [offset, offset + len) of the uncompressed contents, or
  // fewer if the file ends first (none at or past its end). The span stays
  // valid until the next Read of this file. Returns PcpError(PM_ERR_LOGREC)
  // if the compressed data is corrupt, PcpError(-EFBIG) if len exceeds
  // kMaxReadBytes for a compressed file.
  absl::StatusOr<std::span<const uint8_t>> Read(uint64_t offset, size_t len);

  // Gives back the pages, windows and cached blocks held for reads so far;
  // the next Read brings back what it needs. Spans returned before are
  // invalid afterwards.
  void Drop() {
    if (source_) source_->Drop();
  }

  // Returns the whole contents as a string (tests, small files).
  absl::StatusOr<std::string> ReadAll();

  const std::string& path() const { return path_; }
  bool compressed() const { return compressed_; }

 private:
  std::string path_;
  std::unique_ptr<FileSource> source_;
  bool compressed_ = false;
};

// Returns true if `path` names a file this reader can decompress.
bool IsCompressedName(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_FILE_H_
