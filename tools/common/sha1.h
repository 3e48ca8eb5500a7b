// tools/common/sha1.h: the SHA-1 digest (FIPS 180-4), which PCP uses to
// name time series: pminfo -s prints the digests of small JSON documents
// describing a metrics source, a metric and an instance.
//
// Example:
//   std::string hex = pmtools::Sha1Hex("abc");  // a9993e36...
#ifndef PMAPI_TOOLS_COMMON_SHA1_H_
#define PMAPI_TOOLS_COMMON_SHA1_H_

#include <string>
#include <string_view>

namespace pmtools {

// Returns the SHA-1 digest of `data` as 40 lower-case hex digits.
std::string Sha1Hex(std::string_view data);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_SHA1_H_
