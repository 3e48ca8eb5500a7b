// raw_dump.h: pmdumplog -v, a hex dump of one physical archive file,
// record by record, exactly as the bytes lie on disk (compressed files are
// not decompressed, as PCP does not decompress them for -v either).
//
// Example:
//   return RawDump("archive.0");   // the process exit status
#ifndef PMAPI_TOOLS_PMDUMPLOG_RAW_DUMP_H_
#define PMAPI_TOOLS_PMDUMPLOG_RAW_DUMP_H_

#include <string>

namespace pmdumplog {

// Prints the dump of `path` to stdout; returns 0, or 1 (with a message on
// stderr) if the file cannot be opened.
int RawDump(const std::string& path);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_RAW_DUMP_H_
