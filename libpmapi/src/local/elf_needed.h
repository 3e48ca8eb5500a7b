// elf_needed.h: the shared libraries an ELF shared object names as its
// direct dependencies (its DT_NEEDED entries), read from the file's bytes
// without loading it. The local context uses this to refuse an agent
// built against PCP's own libraries before dlopen would load them.
//
// Example:
//   absl::StatusOr<std::vector<std::string>> libs = pmapi::ElfNeeded(bytes);
//   // {"libpcp_pmda.so.3", "libpcp.so.3", "libc.so.6"} for PCP's pmda_sample.so
#ifndef PMAPI_LOCAL_ELF_NEEDED_H_
#define PMAPI_LOCAL_ELF_NEEDED_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pmapi {

// Returns the DT_NEEDED names of an ELF object of this process's class and
// byte order, in file order; an empty list for an object without a dynamic
// segment. Errors: PM_ERR_GENERIC when `image` is not such an ELF object or
// its headers point outside it.
absl::StatusOr<std::vector<std::string>> ElfNeeded(std::string_view image);

// True when one of `needed` is PCP's libpcp or libpcp_pmda (any version).
bool NeedsPcpLibrary(const std::vector<std::string>& needed);

}  // namespace pmapi

#endif  // PMAPI_LOCAL_ELF_NEEDED_H_
