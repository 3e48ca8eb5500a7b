// archive_discovery.h: the files of one archive, found from a name as
// PCP's tools accept it: the archive's base name, or any of its files
// (".meta", ".index", a volume ".N"), each perhaps compressed (".xz",
// ".gz", ...).
//
// Example:
//   std::string base = pmapi::ArchiveBaseName("archives/small-v3.0.xz");   // "archives/small-v3"
//   absl::StatusOr<pmapi::ArchiveFiles> files = pmapi::FindArchiveFiles(base);
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_DISCOVERY_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_DISCOVERY_H_

#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace pmapi {

// The files that make up one archive: a file of each kind, an
// uncompressed one preferred to a compressed one.
struct ArchiveFiles {
  std::string meta;
  std::string index;
  std::map<int, std::string> volumes;
};

// Returns the archive base name for `name`: a file of the archive loses its
// ".meta", ".index" or ".N" (and compression) suffix; anything else is
// taken to be the base name already.
std::string ArchiveBaseName(std::string_view name);

// Returns the files of the archive `base`. As PCP: with some of them there
// but the metadata or every data volume missing, PM_ERR_LOGFILE; with
// none, ENOENT (negated).
absl::StatusOr<ArchiveFiles> FindArchiveFiles(const std::string& base);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_DISCOVERY_H_
