// fuzz_support.h: what the fuzz targets share: the libFuzzer entry point's
// declaration, a scratch directory for targets that must go through files,
// and digests that read every byte a decoder hands back (so the sanitizers
// see any span that points outside its buffer).
//
// Example (a target):
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     pmapi::Result r;
//     if (pmapi::DecodeResultPdu({data, size}, &r).ok()) fuzz::Consume(fuzz::Digest(r));
//     return 0;
//   }
#ifndef PMAPI_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define PMAPI_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "pmapi/result.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fuzz {

// Returns a checksum of every field and payload byte of `r`.
uint64_t Digest(const pmapi::Result& r);
// Returns a checksum of `bytes`.
uint64_t Digest(std::span<const uint8_t> bytes);
uint64_t Digest(std::string_view text);
// Returns a checksum of an error's code and message.
uint64_t Digest(const absl::Status& status);

// Keeps a digest alive so the reads that made it are not optimised away.
void Consume(uint64_t digest);

// Returns the path of a directory private to this process, created on the
// first call and removed (with its contents) when the process exits.
const std::string& ScratchDir();

// Replaces the file at `path` with `bytes`. Returns false on any error.
bool WriteFile(const std::string& path, std::span<const uint8_t> bytes);

// Returns true if `path` names an existing file; removes it if so.
bool RemoveFile(const std::string& path);

// Reads a 32-bit big-endian word at data[at], or 0 past the end.
uint32_t Word(std::span<const uint8_t> data, size_t at);

}  // namespace fuzz

#endif  // PMAPI_TESTS_FUZZ_FUZZ_SUPPORT_H_
