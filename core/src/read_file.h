// read_file.h: a whole file read into memory with plain system calls
// (one open, a size hint from fstat, reads until the end), for the
// configuration, name-space, help and agent files the library reads.
//
// Example:
//   absl::StatusOr<std::string> text = pmapi::ReadWholeFile("/etc/pcp.conf");
#ifndef PMAPI_CORE_READ_FILE_H_
#define PMAPI_CORE_READ_FILE_H_

#include <string>

#include "absl/status/statusor.h"

namespace pmapi {

// The bytes of `path`; a PCP error (the negated errno of the failed open
// or read, with the path as its message) otherwise.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_CORE_READ_FILE_H_
