// external_decompress.h: archive files compressed with bzip2, gzip or
// zstd, which PCP decompresses by running the compressor's own program
// ("bzip2 -dc FILE", "gzip -dc FILE", "zstd -dcq FILE"). Here too: the
// program's output is read through a pipe (at most `cap` bytes: a bigger
// output stops the program), and what it writes to stderr (its own
// diagnostics) passes through, as it does for PCP.
// (xz and lzma files are read in-process: archive_file.cc.)
//
// Example:
//   if (const char* cmd = pmapi::ExternalDecompressor("a.0.bz2")) {
//     absl::StatusOr<std::vector<uint8_t>> bytes = pmapi::RunDecompressor("a.0.bz2");
//   }
#ifndef PMAPI_ARCHIVE_EXTERNAL_DECOMPRESS_H_
#define PMAPI_ARCHIVE_EXTERNAL_DECOMPRESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace pmapi {

// The program PCP runs for `path`'s suffix (.bz2 .bz: bzip2; .gz .Z .z:
// gzip; .zst: zstd), or null for any other name.
const char* ExternalDecompressor(const std::string& path);

// Runs the decompressor for `path` and returns its output. Errors:
// PM_ERR_LOGREC when the program fails or exits non-zero (as PCP reports
// it), -errno when it cannot be started, PM_ERR_TOOBIG beyond `cap` bytes.
absl::StatusOr<std::vector<uint8_t>> RunDecompressor(const std::string& path, size_t cap);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_EXTERNAL_DECOMPRESS_H_
