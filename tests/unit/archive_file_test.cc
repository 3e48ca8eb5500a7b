// Tests for ArchiveFile: ranges of plain, multi-block xz, single-block xz,
// concatenated-stream xz and lzma-alone files match the original bytes, and
// corrupt or truncated compressed files fail cleanly.
#include "archive_file.h"
#include "external_decompress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/archive.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

class ArchiveFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/archive_file_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // Compressible but not trivially so: a counter pattern with noise, like
    // archive records.
    std::mt19937 rng(7);
    plain_.resize(3 * 1024 * 1024 + 12345);
    for (size_t i = 0; i < plain_.size(); ++i) {
      plain_[i] = static_cast<char>((i % 251) ^ ((rng() & 7) == 0 ? rng() & 0xff : 0));
    }
    Write(dir_ + "/data", plain_);
  }
  void TearDown() override { ASSERT_EQ(std::system(("rm -rf " + dir_).c_str()), 0); }

  static void Write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // Runs a shell command in the test directory.
  void Sh(const std::string& cmd) {
    ASSERT_EQ(std::system(("cd " + dir_ + " && " + cmd).c_str()), 0) << cmd;
  }

  // Checks many ranges of `path` against the original: forward, backward
  // and random, with lengths crossing block boundaries.
  void ExpectSameBytes(const std::string& path, int random_reads = 60) {
    absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(path);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_EQ(f->size(), plain_.size());
    auto check = [&](uint64_t off, size_t len) {
      absl::StatusOr<std::span<const uint8_t>> got = f->Read(off, len);
      ASSERT_TRUE(got.ok()) << got.status() << " at " << off;
      const size_t want = off >= plain_.size() ? 0 : std::min(len, plain_.size() - off);
      ASSERT_EQ(got->size(), want) << off;
      ASSERT_EQ(std::string(reinterpret_cast<const char*>(got->data()), got->size()),
                plain_.substr(std::min<uint64_t>(off, plain_.size()), want))
          << "at " << off << " len " << len;
    };
    for (uint64_t off = 0; off < plain_.size(); off += 4093) check(off, 5000);
    for (uint64_t off = plain_.size(); off > 70000; off -= 65521) check(off - 70000, 70000);
    std::mt19937 rng(11);
    for (int i = 0; i < random_reads; ++i) check(rng() % plain_.size(), rng() % 300000);
    check(plain_.size() - 3, 100);
    check(plain_.size(), 10);
    check(0, plain_.size());
    absl::StatusOr<std::string> all = f->ReadAll();
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(*all, plain_);
  }

  std::string dir_;
  std::string plain_;
};

TEST_F(ArchiveFileTest, PlainFile) { ExpectSameBytes(dir_ + "/data"); }

// A forward scan reads each record just after the last: the window read
// ahead is joined to the part of a record that straddles the windows, and
// records longer than the room kept for that part are read afresh.
TEST_F(ArchiveFileTest, PlainFileScannedRecordByRecord) {
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/data");
  ASSERT_TRUE(f.ok()) << f.status();
  std::mt19937 rng(3);
  uint64_t off = 0;
  int reads = 0;
  while (off < plain_.size()) {
    // mostly archive-sized records, now and then one of 300 KB or more
    size_t len = (rng() % 17 == 0) ? 300000 + rng() % 400000 : 8 + rng() % 100000;
    absl::StatusOr<std::span<const uint8_t>> got = f->Read(off, len);
    ASSERT_TRUE(got.ok()) << got.status() << " at " << off;
    const size_t want = std::min(len, plain_.size() - off);
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(got->data()), got->size()), plain_.substr(off, want))
        << "at " << off << " len " << len;
    off += want;
    ++reads;
    // a jump back now and then, as a reader placing itself again does
    if (reads % 23 == 0 && off > 200000) off -= 150000;
  }
}

TEST_F(ArchiveFileTest, PlainFileReadAgainAfterDrop) {
  // Drop frees the window and closes the file; the next read opens it
  // again, and a file gone by then is an error, not a crash.
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/data");
  ASSERT_TRUE(f.ok()) << f.status();
  for (uint64_t off : {uint64_t{0}, uint64_t{2000000}, uint64_t{100}}) {
    absl::StatusOr<std::span<const uint8_t>> got = f->Read(off, 1000);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(got->data()), got->size()),
              plain_.substr(off, 1000));
    f->Drop();
  }
  Sh("mv data moved");
  EXPECT_FALSE(f->Read(5000, 10).ok());
}

TEST_F(ArchiveFileTest, MultiBlockXz) {
  Sh("xz -0 -k -c --block-size=200000 data > multi.xz");
  Sh("xz --list -v multi.xz | grep -q 'Blocks: *1[0-9]'");
  ExpectSameBytes(dir_ + "/multi.xz");
}

TEST_F(ArchiveFileTest, LargeBlocksGoThroughTheCursor) {
  // Blocks above the cache limit, so reads slide the decoding cursor
  // forward, restart it to go back, and cross from one large block to the
  // next; then one large single block.
  const std::string part = plain_;
  while (plain_.size() < 2 * (8 << 20) + 300000) plain_ += part;
  Write(dir_ + "/data", plain_);
  Sh("xz -0 -k -c --block-size=9000000 data > big-blocks.xz");
  Sh("xz --list -v big-blocks.xz | grep -q 'Blocks: *3$'");
  ExpectSameBytes(dir_ + "/big-blocks.xz", 10);
  Sh("xz -0 -k -c data > big-single.xz");
  ExpectSameBytes(dir_ + "/big-single.xz", 10);
}

TEST_F(ArchiveFileTest, SingleBlockXz) {
  Sh("xz -0 -k -c data > single.xz");
  Sh("xz --list -v single.xz | grep -q 'Blocks: *1$'");
  ExpectSameBytes(dir_ + "/single.xz");
}

TEST_F(ArchiveFileTest, ConcatenatedStreamsWithPadding) {
  Write(dir_ + "/a", plain_.substr(0, 1000000));
  Write(dir_ + "/b", plain_.substr(1000000));
  Sh("xz -0 -c --block-size=300000 a > cat.xz && head -c 8 /dev/zero >> cat.xz && "
     "xz -0 -c --check=sha256 b >> cat.xz");
  ExpectSameBytes(dir_ + "/cat.xz");
}

TEST_F(ArchiveFileTest, LzmaAlone) {
  Sh("xz -0 -k -c --format=lzma data > data.lzma");
  ExpectSameBytes(dir_ + "/data.lzma");
}

TEST_F(ArchiveFileTest, EmptyXz) {
  Sh(": | xz -0 -c > empty.xz");
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/empty.xz");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->size(), 0u);
  absl::StatusOr<std::span<const uint8_t>> got = f->Read(0, 10);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->empty());
}

// Every truncation of a compressed file fails at open: the index is at
// the end.
TEST_F(ArchiveFileTest, TruncatedXzFailsAtOpen) {
  Sh("xz -0 -k -c --block-size=500000 data > multi.xz");
  const std::string whole = Slurp(dir_ + "/multi.xz");
  for (size_t cut : {size_t{0}, size_t{5}, size_t{12}, whole.size() / 2, whole.size() - 1,
                     whole.size() - 12, whole.size() - 13}) {
    Write(dir_ + "/cut.xz", whole.substr(0, cut));
    absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/cut.xz");
    ASSERT_FALSE(f.ok()) << "cut at " << cut;
    EXPECT_EQ(PcpCode(f.status()), kErrLogrec) << "cut at " << cut;
  }
}

// A damaged byte inside the compressed data opens (the index is intact)
// but reading the block holding it fails with PM_ERR_LOGREC; blocks before
// it still read.
TEST_F(ArchiveFileTest, CorruptBlockFailsOnRead) {
  for (const char* flags : {"--block-size=500000", ""}) {
    Sh(std::string("xz -0 -k -c ") + flags + " data > bad.xz");
    std::string bytes = Slurp(dir_ + "/bad.xz");
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x55);
    Write(dir_ + "/bad.xz", bytes);
    absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/bad.xz");
    ASSERT_TRUE(f.ok()) << f.status();
    absl::StatusOr<std::span<const uint8_t>> all = f->Read(0, static_cast<size_t>(f->size()));
    ASSERT_FALSE(all.ok()) << flags;
    EXPECT_EQ(PcpCode(all.status()), kErrLogrec);
    if (*flags != '\0') {
      absl::StatusOr<std::span<const uint8_t>> head = f->Read(0, 1000);
      ASSERT_TRUE(head.ok()) << head.status();
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(head->data()), head->size()),
                plain_.substr(0, 1000));
    }
  }
}

TEST_F(ArchiveFileTest, CorruptIndexFailsAtOpen) {
  Sh("xz -0 -k -c --block-size=500000 data > bad.xz");
  std::string bytes = Slurp(dir_ + "/bad.xz");
  bytes[bytes.size() - 20] = static_cast<char>(bytes[bytes.size() - 20] ^ 0x01);
  Write(dir_ + "/bad.xz", bytes);
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/bad.xz");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(PcpCode(f.status()), kErrLogrec);
}

TEST_F(ArchiveFileTest, NotXzAtAll) {
  Write(dir_ + "/junk.xz", "this is not compressed data at all");
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/junk.xz");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(PcpCode(f.status()), kErrLogrec);
}

TEST_F(ArchiveFileTest, ReadsAreClippedToTheFile) {
  Sh("xz -0 -k -c data > single.xz");
  absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(dir_ + "/single.xz");
  ASSERT_TRUE(f.ok());
  EXPECT_LT(f->size(), ArchiveFile::kMaxReadBytes);
  absl::StatusOr<std::span<const uint8_t>> got = f->Read(0, SIZE_MAX);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), plain_.size());
}

// bzip2, gzip and zstd files are read through the program PCP runs for
// them; a damaged one fails as PCP reports it (PM_ERR_LOGREC).
bool HaveProgram(const char* name) {
  return std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0;
}

TEST_F(ArchiveFileTest, ExternalDecompressors) {
  struct Case {
    const char* program;
    const char* compress;
    const char* suffix;
  };
  for (const Case& c : {Case{"bzip2", "bzip2 -k data", ".bz2"}, Case{"gzip", "gzip -k data", ".gz"},
                        Case{"zstd", "zstd -q -k data", ".zst"}}) {
    if (!HaveProgram(c.program)) {
      ADD_FAILURE() << c.program << " is not installed (scripts/install-deps.sh installs it)";
      continue;
    }
    Sh(c.compress);
    ExpectSameBytes(dir_ + "/data" + c.suffix, 5);
    const std::string packed = Slurp(dir_ + "/data" + c.suffix);
    Write(dir_ + "/cut" + c.suffix, packed.substr(0, packed.size() / 2));
    absl::StatusOr<ArchiveFile> cut = ArchiveFile::Open(dir_ + "/cut" + c.suffix);
    ASSERT_FALSE(cut.ok()) << c.program;
    EXPECT_EQ(PcpCode(cut.status()), kErrLogrec) << c.program;
  }
}

TEST_F(ArchiveFileTest, ExternalDecompressorOutputIsCapped) {
  Sh("gzip -c data > big.gz");
  absl::StatusOr<std::vector<uint8_t>> small = RunDecompressor(dir_ + "/big.gz", 1000);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(PcpCode(small.status()), kErrToobig);
  absl::StatusOr<std::vector<uint8_t>> whole = RunDecompressor(dir_ + "/big.gz", plain_.size());
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(whole->size(), plain_.size());
}

TEST_F(ArchiveFileTest, CompressedFileSizeIsItsContentsSize) {
  Sh("bzip2 -c data > vol.0.bz2");
  EXPECT_EQ(ArchiveFileSize(dir_ + "/vol.0"), static_cast<int64_t>(plain_.size()));
  EXPECT_EQ(ArchiveFileSize(dir_ + "/none.0"), -1);
}

}  // namespace
}  // namespace pmapi
