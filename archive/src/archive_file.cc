// Reading one archive file: pread through a window for plain files, liblzma block by block for
// .xz (see archive_file.h).
#include "archive_file.h"

#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <list>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "external_decompress.h"
#include "pmapi/archive.h"
#include "pmapi/errors.h"
#include "read_ahead.h"

namespace pmapi {
namespace {

// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// A plain file, read with pread into a window of the file that slides
// with the reads: forward from a read ahead of the window (or far from
// it), backward (the window ending with the read) from one just behind
// it, so scans in either direction make one system call per window. Only
// the window is held (a full scan holds half a megabyte, not the file).
// While a forward scan decodes one window, a worker thread reads the next
// (ReadAhead), and the part of a record that straddles the two is copied
// in front of it. The descriptor is closed by Drop and opened again by the
// next read.
class WindowSource : public FileSource {
 public:
  WindowSource(int fd, std::string path, uint64_t size)
      : fd_(fd), path_(std::move(path)), size_(size) {}
  ~WindowSource() override {
    ahead_.Stop();
    CloseFd();
  }
  uint64_t size() const override { return size_; }
  void Drop() override {
    ahead_.Stop();
    std::vector<uint8_t>().swap(buf_);
    std::vector<uint8_t>().swap(spare_);
    win_len_ = 0;
    CloseFd();
  }

  absl::StatusOr<std::span<const uint8_t>> Read(uint64_t offset, size_t len) override {
    if (offset >= size_) return std::span<const uint8_t>();
    len = static_cast<size_t>(std::min<uint64_t>(len, size_ - offset));
    if (offset < win_off_ || offset + len > win_off_ + win_len_) {
      if (absl::Status s = Fill(offset, len); !s.ok()) return s;
    }
    return std::span<const uint8_t>(win_ + (offset - win_off_), len);
  }

 private:
  static constexpr uint64_t kWindow = 512 << 10;
  // Room before a window read ahead for the record that straddles it.
  static constexpr size_t kHead = 256 << 10;

  // Reads a window holding [offset, offset + len).
  absl::Status Fill(uint64_t offset, size_t len) {
    uint64_t start = offset;
    const bool behind = win_len_ > 0 && offset < win_off_ && win_off_ - offset < kWindow;
    if (behind && len < kWindow) start = offset + len > kWindow ? offset + len - kWindow : 0;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size_ - start, std::max<uint64_t>(len, kWindow)));
    if (fd_ < 0) {
      ahead_.Wait();
      fd_ = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) return PcpError(-errno);
    }
    // A read at or inside the end of the window continues a forward scan;
    // only such reads are read ahead of.
    const bool sequential = !behind && win_len_ > 0 && start >= win_off_ && start <= win_off_ + win_len_;
    if (!sequential || !TakeAhead(start, offset + len)) {
      win_len_ = 0;
      if (buf_.size() < n) buf_.resize(n);
      if (absl::Status s = ReadFully(fd_, start, buf_.data(), n); !s.ok()) return s;
      win_ = buf_.data();
      win_off_ = start;
      win_len_ = n;
    }
    if (sequential) ReadNextAhead();
    return absl::OkStatus();
  }

  // Makes the window [start, ...) from the end of the current one and the
  // window read ahead; false when that does not hold [start, end).
  bool TakeAhead(uint64_t start, uint64_t end) {
    const uint64_t ahead = win_off_ + win_len_;
    if (win_len_ == 0 || start < win_off_ || start > ahead || ahead - start > kHead) return false;
    std::vector<uint8_t> next;
    absl::Status status;
    if (!ahead_.Take(ahead, &next, &status)) return false;
    const size_t got = next.size() - kHead;
    if (!status.ok() || ahead + got < end) {
      spare_ = std::move(next);
      return false;
    }
    const size_t tail = static_cast<size_t>(ahead - start);
    std::memcpy(next.data() + kHead - tail, win_ + (start - win_off_), tail);
    spare_ = std::move(buf_);
    buf_ = std::move(next);
    win_ = buf_.data() + kHead - tail;
    win_off_ = start;
    win_len_ = tail + got;
    return true;
  }

  void ReadNextAhead() {
    const uint64_t next = win_off_ + win_len_;
    if (next >= size_) return;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size_ - next, kWindow));
    ahead_.Start(fd_, next, n, kHead, std::move(spare_));
    spare_.clear();
  }

  void CloseFd() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  int fd_;
  std::string path_;
  uint64_t size_;
  std::vector<uint8_t> buf_;
  std::vector<uint8_t> spare_;  // a buffer for the next read ahead
  // The window: bytes [win_off_, win_off_ + win_len_) of the file at win_.
  const uint8_t* win_ = nullptr;
  uint64_t win_off_ = 0;
  size_t win_len_ = 0;
  ReadAhead ahead_;
};

// A file held in memory: a file that is not a regular one or an inflated
// lzma-alone file.
class MemorySource : public FileSource {
 public:
  explicit MemorySource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  absl::StatusOr<std::span<const uint8_t>> Read(uint64_t offset, size_t len) override {
    if (offset >= bytes_.size()) return std::span<const uint8_t>();
    len = static_cast<size_t>(std::min<uint64_t>(len, bytes_.size() - offset));
    return std::span<const uint8_t>(bytes_.data() + offset, len);
  }

 private:
  std::vector<uint8_t> bytes_;
};

// One xz block, as the stream index describes it.
struct XzBlock {
  uint64_t file_offset;   // of its header in the compressed file
  uint64_t total_size;    // header, compressed data, padding and check
  uint64_t unpadded_size;
  uint64_t start;         // its first byte in the uncompressed contents
  uint64_t size;          // uncompressed
  lzma_check check;
};

// Reads the indexes of every stream of an xz file, last to first, and
// returns its blocks in file order.
absl::StatusOr<std::vector<XzBlock>> ReadXzIndex(int fd, uint64_t file_size) {
  constexpr uint64_t kHeader = LZMA_STREAM_HEADER_SIZE;
  constexpr uint64_t kMaxIndexBytes = 64 << 20;
  std::vector<std::vector<XzBlock>> streams;
  uint64_t pos = file_size;
  while (pos > 0) {
    // Stream padding: zero words between and after streams.
    uint8_t word[4];
    for (;;) {
      if (pos < 4) return PcpError(kErrLogrec);
      absl::Status s = ReadFully(fd, pos - 4, word, 4);
      if (!s.ok()) return s;
      if (word[0] | word[1] | word[2] | word[3]) break;
      pos -= 4;
    }
    if (pos < 2 * kHeader) return PcpError(kErrLogrec);
    uint8_t buf[LZMA_STREAM_HEADER_SIZE];
    absl::Status s = ReadFully(fd, pos - kHeader, buf, kHeader);
    if (!s.ok()) return s;
    lzma_stream_flags footer;
    if (lzma_stream_footer_decode(&footer, buf) != LZMA_OK) return PcpError(kErrLogrec);
    pos -= kHeader;
    if (footer.backward_size > pos - kHeader || footer.backward_size > kMaxIndexBytes) {
      return PcpError(kErrLogrec);
    }
    pos -= footer.backward_size;
    std::vector<uint8_t> raw(static_cast<size_t>(footer.backward_size));
    s = ReadFully(fd, pos, raw.data(), raw.size());
    if (!s.ok()) return s;
    lzma_index* index = nullptr;
    uint64_t memlimit = UINT64_MAX;
    size_t in_pos = 0;
    if (lzma_index_buffer_decode(&index, &memlimit, nullptr, raw.data(), &in_pos, raw.size()) !=
        LZMA_OK) {
      return PcpError(kErrLogrec);
    }
    const uint64_t blocks_bytes = lzma_index_total_size(index);
    if (blocks_bytes > pos - kHeader) {
      lzma_index_end(index, nullptr);
      return PcpError(kErrLogrec);
    }
    const uint64_t stream_start = pos - blocks_bytes - kHeader;
    s = ReadFully(fd, stream_start, buf, kHeader);
    lzma_stream_flags header;
    if (!s.ok() || lzma_stream_header_decode(&header, buf) != LZMA_OK ||
        lzma_stream_flags_compare(&header, &footer) != LZMA_OK) {
      lzma_index_end(index, nullptr);
      return s.ok() ? PcpError(kErrLogrec) : s;
    }
    std::vector<XzBlock> blocks;
    lzma_index_iter iter;
    lzma_index_iter_init(&iter, index);
    while (!lzma_index_iter_next(&iter, LZMA_INDEX_ITER_BLOCK)) {
      blocks.push_back(XzBlock{stream_start + iter.block.compressed_stream_offset,
                               iter.block.total_size, iter.block.unpadded_size,
                               iter.block.uncompressed_stream_offset, iter.block.uncompressed_size,
                               header.check});
    }
    lzma_index_end(index, nullptr);
    streams.push_back(std::move(blocks));
    pos = stream_start;
  }
  std::vector<XzBlock> all;
  uint64_t start = 0;
  for (auto it = streams.rbegin(); it != streams.rend(); ++it) {
    for (XzBlock b : *it) {
      b.start += start;
      all.push_back(b);
    }
    if (!it->empty()) start = all.back().start + all.back().size;
  }
  return all;
}

// Decodes one xz block from its compressed bytes, piece by piece.
class BlockDecoder {
 public:
  BlockDecoder() = default;
  BlockDecoder(const BlockDecoder&) = delete;
  BlockDecoder& operator=(const BlockDecoder&) = delete;
  ~BlockDecoder() { lzma_end(&strm_); }

  // Positions the decoder at the first byte of `block`; fd stays the
  // caller's.
  absl::Status Start(int fd, const XzBlock& block) {
    lzma_end(&strm_);
    strm_ = LZMA_STREAM_INIT;
    fd_ = fd;
    done_ = false;
    produced_ = 0;
    expected_ = block.size;
    uint8_t header[LZMA_BLOCK_HEADER_SIZE_MAX];
    absl::Status s = ReadFully(fd, block.file_offset, header, 1);
    if (!s.ok()) return s;
    block_ = lzma_block{};
    lzma_block& b = block_;
    b.version = 0;
    b.check = block.check;
    b.filters = filters_;
    b.header_size = lzma_block_header_size_decode(header[0]);
    if (header[0] == 0 || b.header_size > block.total_size) return PcpError(kErrLogrec);
    s = ReadFully(fd, block.file_offset + 1, header + 1, b.header_size - 1);
    if (!s.ok()) return s;
    if (lzma_block_header_decode(&b, nullptr, header) != LZMA_OK) return PcpError(kErrLogrec);
    // The header must agree with the index.
    lzma_ret ret = lzma_block_compressed_size(&b, block.unpadded_size);
    if (ret == LZMA_OK) ret = lzma_block_decoder(&strm_, &b);
    // The decoder has copied the filter options; it keeps using block_.
    for (size_t i = 0; filters_[i].id != LZMA_VLI_UNKNOWN; ++i) {
      free(filters_[i].options);
      filters_[i].options = nullptr;
    }
    if (ret != LZMA_OK) return PcpError(kErrLogrec);
    in_pos_ = block.file_offset + b.header_size;
    in_end_ = block.file_offset + block.total_size;
    return absl::OkStatus();
  }

  // Decodes up to `n` bytes into `out`; returns how many (0 at the block's
  // end) or PM_ERR_LOGREC if the data is corrupt or shorter than indexed.
  absl::StatusOr<size_t> Decode(uint8_t* out, size_t n) {
    if (done_ || n == 0) return size_t{0};
    strm_.next_out = out;
    strm_.avail_out = n;
    while (strm_.avail_out > 0) {
      if (strm_.avail_in == 0 && in_pos_ < in_end_) {
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(sizeof(in_), in_end_ - in_pos_));
        absl::Status s = ReadFully(fd_, in_pos_, in_, chunk);
        if (!s.ok()) return s;
        in_pos_ += chunk;
        strm_.next_in = in_;
        strm_.avail_in = chunk;
      }
      const lzma_ret ret = lzma_code(&strm_, LZMA_RUN);
      if (ret == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      // LZMA_BUF_ERROR: no progress twice running, so the input ended
      // before the block did.
      if (ret != LZMA_OK) return PcpError(kErrLogrec);
    }
    const size_t got = n - strm_.avail_out;
    produced_ += got;
    if (produced_ > expected_ || (done_ && produced_ != expected_)) return PcpError(kErrLogrec);
    return got;
  }

 private:
  lzma_stream strm_ = LZMA_STREAM_INIT;
  // liblzma's block decoder reads and updates this while it runs.
  lzma_block block_{};
  lzma_filter filters_[LZMA_FILTERS_MAX + 1];
  int fd_ = -1;
  bool done_ = false;
  uint64_t produced_ = 0;
  uint64_t expected_ = 0;
  uint64_t in_pos_ = 0;
  uint64_t in_end_ = 0;
  uint8_t in_[64 << 10];
};

// An .xz file read through its block index.
class XzSource : public FileSource {
 public:
  // Blocks up to this size are decoded whole and cached, at most
  // kCachedBlocks of them; larger ones go through the sliding cursor.
  static constexpr uint64_t kCachedBlockMax = 8 << 20;
  static constexpr size_t kCachedBlocks = 4;
  // The cursor decodes this much at a time, and keeps this much behind a
  // read it had to seek for (so a backward scan is not quadratic).
  static constexpr size_t kStep = 1 << 20;
  static constexpr size_t kKeepBehind = 4 << 20;

  // Takes `fd` over.
  XzSource(int fd, std::vector<XzBlock> blocks) : fd_(fd), blocks_(std::move(blocks)) {
    size_ = blocks_.empty() ? 0 : blocks_.back().start + blocks_.back().size;
  }
  ~XzSource() override { close(fd_); }
  uint64_t size() const override { return size_; }
  void Drop() override {
    cache_.clear();
    cursor_block_ = SIZE_MAX;
    std::vector<uint8_t>().swap(window_);
    std::vector<uint8_t>().swap(scratch_);
  }

  absl::StatusOr<std::span<const uint8_t>> Read(uint64_t offset, size_t len) override {
    if (offset >= size_) return std::span<const uint8_t>();
    len = static_cast<size_t>(std::min<uint64_t>(len, size_ - offset));
    if (len > ArchiveFile::kMaxReadBytes) return PcpError(-EFBIG);
    size_t b = BlockOf(offset);
    const XzBlock& first = blocks_[b];
    if (offset + len <= first.start + first.size) return ReadInBlock(b, offset, len);
    // The range crosses blocks: gather it piece by piece.
    scratch_.clear();
    while (scratch_.size() < len) {
      const XzBlock& blk = blocks_[b];
      const uint64_t at = offset + scratch_.size();
      const size_t n =
          static_cast<size_t>(std::min<uint64_t>(len - scratch_.size(), blk.start + blk.size - at));
      absl::StatusOr<std::span<const uint8_t>> piece = ReadInBlock(b, at, n);
      if (!piece.ok()) return piece.status();
      scratch_.insert(scratch_.end(), piece->begin(), piece->end());
      ++b;
    }
    return std::span<const uint8_t>(scratch_);
  }

 private:
  struct Cached {
    size_t block;
    std::vector<uint8_t> bytes;
  };

  size_t BlockOf(uint64_t offset) const {
    auto it = std::upper_bound(blocks_.begin(), blocks_.end(), offset,
                               [](uint64_t o, const XzBlock& b) { return o < b.start; });
    return static_cast<size_t>(it - blocks_.begin()) - 1;
  }

  absl::StatusOr<std::span<const uint8_t>> ReadInBlock(size_t b, uint64_t offset, size_t len) {
    if (blocks_[b].size <= kCachedBlockMax) {
      absl::StatusOr<const std::vector<uint8_t>*> bytes = CachedBlock(b);
      if (!bytes.ok()) return bytes.status();
      return std::span<const uint8_t>(**bytes).subspan(offset - blocks_[b].start, len);
    }
    return CursorRead(b, offset, len);
  }

  // Returns block b decoded whole, from the cache or decoded now.
  absl::StatusOr<const std::vector<uint8_t>*> CachedBlock(size_t b) {
    for (auto it = cache_.begin(); it != cache_.end(); ++it) {
      if (it->block != b) continue;
      cache_.splice(cache_.begin(), cache_, it);
      return &cache_.front().bytes;
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(blocks_[b].size));
    auto decoder = std::make_unique<BlockDecoder>();
    absl::Status s = decoder->Start(fd_, blocks_[b]);
    size_t got = 0;
    while (s.ok() && got < bytes.size()) {
      absl::StatusOr<size_t> n = decoder->Decode(bytes.data() + got, bytes.size() - got);
      if (!n.ok()) {
        s = n.status();
      } else if (*n == 0) {
        s = PcpError(kErrLogrec);
      } else {
        got += *n;
      }
    }
    if (!s.ok()) return s;
    if (cache_.size() == kCachedBlocks) cache_.pop_back();
    cache_.push_front(Cached{b, std::move(bytes)});
    return &cache_.front().bytes;
  }

  // Serves a range inside large block b from the sliding window
  // [win_start_, win_start_ + window_.size()), whose end is always where
  // the decoder stands.
  absl::StatusOr<std::span<const uint8_t>> CursorRead(size_t b, uint64_t offset, size_t len) {
    const uint64_t win_end = win_start_ + window_.size();
    if (cursor_block_ == b && offset >= win_start_ && offset + len <= win_end) {
      return std::span<const uint8_t>(window_).subspan(offset - win_start_, len);
    }
    if (cursor_block_ != b || offset < win_start_) {
      absl::Status s = decoder_.Start(fd_, blocks_[b]);
      if (!s.ok()) {
        cursor_block_ = SIZE_MAX;
        return s;
      }
      cursor_block_ = b;
      win_start_ = blocks_[b].start;
      window_.clear();
    }
    // Keep what is needed: a margin behind a read that jumped, nothing
    // behind a read that continues where the last one ended.
    const bool jumped = offset > win_start_ + window_.size();
    const uint64_t keep_from = jumped ? offset - std::min<uint64_t>(offset, kKeepBehind) : offset;
    Trim(keep_from);
    while (win_start_ + window_.size() < offset + len) {
      const size_t old = window_.size();
      window_.resize(old + kStep);
      absl::StatusOr<size_t> n = decoder_.Decode(window_.data() + old, kStep);
      window_.resize(old + (n.ok() ? *n : 0));
      if (!n.ok() || *n == 0) {
        cursor_block_ = SIZE_MAX;
        window_.clear();
        return n.ok() ? PcpError(kErrLogrec) : n.status();
      }
      Trim(keep_from);
    }
    return std::span<const uint8_t>(window_).subspan(offset - win_start_, len);
  }

  // Drops the window's bytes before `from` (if it has any).
  void Trim(uint64_t from) {
    if (from <= win_start_) return;
    const size_t drop = static_cast<size_t>(std::min<uint64_t>(from - win_start_, window_.size()));
    window_.erase(window_.begin(), window_.begin() + static_cast<ptrdiff_t>(drop));
    win_start_ += drop;
  }

  int fd_;
  std::vector<XzBlock> blocks_;
  uint64_t size_ = 0;
  BlockDecoder decoder_;
  std::list<Cached> cache_;
  size_t cursor_block_ = SIZE_MAX;
  uint64_t win_start_ = 0;
  std::vector<uint8_t> window_;
  std::vector<uint8_t> scratch_;
};

// Returns the whole of fd's contents, up to `cap` bytes (-EFBIG past it).
absl::StatusOr<std::vector<uint8_t>> ReadWhole(int fd, size_t cap) {
  std::vector<uint8_t> buf(1 << 16);
  size_t got = 0;
  for (;;) {
    if (got == buf.size()) {
      if (buf.size() >= cap) return PcpError(-EFBIG);
      buf.resize(std::min(cap, buf.size() * 2));
    }
    const ssize_t n = read(fd, buf.data() + got, buf.size() - got);
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

// Inflates a file in the lzma-alone format (no index to seek by), up to
// ArchiveFile::kMaxReadBytes of output.
absl::StatusOr<std::vector<uint8_t>> InflateAlone(int fd) {
  absl::StatusOr<std::vector<uint8_t>> in = ReadWhole(fd, ArchiveFile::kMaxReadBytes);
  if (!in.ok()) return in.status();
  lzma_stream strm = LZMA_STREAM_INIT;
  if (lzma_alone_decoder(&strm, UINT64_MAX) != LZMA_OK) return PcpError(kErrLogrec);
  std::vector<uint8_t> out(in->size() * 4 + 4096);
  strm.next_in = in->data();
  strm.avail_in = in->size();
  lzma_ret ret = LZMA_OK;
  while (ret == LZMA_OK) {
    if (strm.total_out == out.size()) {
      if (out.size() >= ArchiveFile::kMaxReadBytes) break;
      out.resize(std::min(ArchiveFile::kMaxReadBytes, out.size() * 2));
    }
    strm.next_out = out.data() + strm.total_out;
    strm.avail_out = out.size() - strm.total_out;
    ret = lzma_code(&strm, LZMA_FINISH);
  }
  const size_t produced = strm.total_out;
  lzma_end(&strm);
  if (ret == LZMA_OK) return PcpError(-EFBIG);
  if (ret != LZMA_STREAM_END) return PcpError(kErrLogrec);
  out.resize(produced);
  return out;
}

absl::StatusOr<std::unique_ptr<FileSource>> OpenCompressed(int fd, uint64_t file_size) {
  uint8_t magic[6] = {};
  if (file_size >= sizeof(magic)) {
    absl::Status s = ReadFully(fd, 0, magic, sizeof(magic));
    if (!s.ok()) return s;
  }
  static constexpr uint8_t kXzMagic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
  if (std::memcmp(magic, kXzMagic, sizeof(magic)) != 0) {
    absl::StatusOr<std::vector<uint8_t>> plain = InflateAlone(fd);
    if (!plain.ok()) return plain.status();
    return std::unique_ptr<FileSource>(new MemorySource(std::move(*plain)));
  }
  absl::StatusOr<std::vector<XzBlock>> blocks = ReadXzIndex(fd, file_size);
  if (!blocks.ok()) return blocks.status();
  const int own = dup(fd);
  if (own < 0) return PcpError(-errno);
  return std::unique_ptr<FileSource>(new XzSource(own, std::move(*blocks)));
}

}  // namespace

bool IsCompressedName(const std::string& path) {
  return absl::EndsWith(path, ".xz") || absl::EndsWith(path, ".lzma");
}

absl::StatusOr<std::span<const uint8_t>> ArchiveFile::Read(uint64_t offset, size_t len) {
  if (!source_) return std::span<const uint8_t>();
  return source_->Read(offset, len);
}

absl::StatusOr<std::string> ArchiveFile::ReadAll() {
  absl::StatusOr<std::span<const uint8_t>> all = Read(0, static_cast<size_t>(size()));
  if (!all.ok()) return all.status();
  return std::string(reinterpret_cast<const char*>(all->data()), all->size());
}

absl::StatusOr<ArchiveFile> ArchiveFile::Open(const std::string& path) {
  const int raw_fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw_fd < 0) return PcpError(-errno);
  Fd fd(raw_fd);
  struct stat st;
  if (fstat(raw_fd, &st) != 0) return PcpError(-errno);
  if (S_ISDIR(st.st_mode)) return PcpError(-EISDIR);
  ArchiveFile f;
  f.path_ = path;
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (ExternalDecompressor(path) != nullptr) {
    absl::StatusOr<std::vector<uint8_t>> bytes = RunDecompressor(path, ArchiveFile::kMaxReadBytes);
    if (!bytes.ok()) return bytes.status();
    f.source_ = std::make_unique<MemorySource>(std::move(*bytes));
    f.compressed_ = true;
    return f;
  }
  if (IsCompressedName(path)) {
    absl::StatusOr<std::unique_ptr<FileSource>> src = OpenCompressed(raw_fd, file_size);
    if (!src.ok()) return src.status();
    f.source_ = std::move(*src);
    f.compressed_ = true;
    return f;
  }
  if (file_size == 0) return f;
  if (!S_ISREG(st.st_mode)) {
    // Not a regular file (a pipe, say): read it whole.
    absl::StatusOr<std::vector<uint8_t>> bytes = ReadWhole(raw_fd, SIZE_MAX);
    if (!bytes.ok()) return bytes.status();
    f.source_ = std::make_unique<MemorySource>(std::move(*bytes));
    return f;
  }
  f.source_ = std::make_unique<WindowSource>(fd.release(), path, file_size);
  return f;
}

int64_t ArchiveFileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) return static_cast<int64_t>(st.st_size);
  // A compressed file's size is that of its contents, as PCP sees them.
  for (const char* suffix : {".xz", ".lzma", ".bz2", ".bz", ".gz", ".Z", ".z", ".zst"}) {
    const std::string name = path + suffix;
    if (stat(name.c_str(), &st) != 0) continue;
    absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(name);
    return f.ok() ? static_cast<int64_t>(f->size()) : -1;
  }
  return -1;
}

}  // namespace pmapi
