// pmdas/common/scan.h: pieces of sscanf's formats, for readers that must
// take odd text exactly as a PCP agent's sscanf/fscanf call takes it.
// Each piece reads from `*pos` on and moves it past what it read; on a
// mismatch it returns false, as the scanf call would stop there.
//
// Example (sscanf(line, "%s %llu", name, &v)):
//   size_t pos = 0;
//   std::string name; uint64_t v;
//   bool both = ScanWord(line, &pos, &name) && ScanUnsigned(line, &pos, &v);
#ifndef PMAPI_PMDAS_COMMON_SCAN_H_
#define PMAPI_PMDAS_COMMON_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pmapi::agent_scan {

// White space (a blank in a format).
void SkipSpace(std::string_view s, size_t* pos);
// %s: a word after white space.
bool ScanWord(std::string_view s, size_t* pos, std::string* word);
// %llu / %lu / %u: an optional sign and decimal digits after white space,
// as strtoull reads them (too large: all ones; negative: wrapped). A %u
// caller keeps the low 32 bits, as glibc's scanf does.
bool ScanUnsigned(std::string_view s, size_t* pos, uint64_t* value);
// %f: a float after white space, as strtof reads it.
bool ScanFloat(std::string_view s, size_t* pos, float* value);
// A literal of a format: a blank matches any run of white space, other
// characters themselves.
bool ScanLiteral(std::string_view s, size_t* pos, std::string_view literal);

}  // namespace pmapi::agent_scan

#endif  // PMAPI_PMDAS_COMMON_SCAN_H_
