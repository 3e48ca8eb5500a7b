// oracle_table.h: opens a golden truth table from tests/data/oracle. Large
// tables are stored xz-compressed ("NAME.tsv.xz") and inflated here, so a
// test names the table the same way whichever form is in the tree.
#ifndef PMAPI_TESTS_UNIT_ORACLE_TABLE_H_
#define PMAPI_TESTS_UNIT_ORACLE_TABLE_H_

#include <unistd.h>

#include <sstream>
#include <string>

#include "archive_file.h"

namespace pmapi {

// Returns a stream over the table at `path` (or `path`.xz); the stream is
// failed when neither exists or the table is empty.
inline std::istringstream OpenOracleTable(const std::string& path) {
  std::string contents;
  for (const std::string& p : {path, path + ".xz"}) {
    if (access(p.c_str(), R_OK) != 0) continue;
    absl::StatusOr<ArchiveFile> f = ArchiveFile::Open(p);
    absl::StatusOr<std::string> all = f.ok() ? f->ReadAll() : f.status();
    if (all.ok()) contents = std::move(*all);
    break;
  }
  std::istringstream in(contents);
  if (contents.empty()) in.setstate(std::ios::failbit);
  return in;
}

}  // namespace pmapi

#endif  // PMAPI_TESTS_UNIT_ORACLE_TABLE_H_
