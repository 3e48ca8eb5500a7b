#include "names.h"

#include <cstdio>

#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmtools {

std::shared_ptr<const pmapi::Pmns> LoadNameSpaceOption(const char* tool, const std::string& path,
                                                      bool dupok) {
  absl::StatusOr<std::shared_ptr<const pmapi::Pmns>> ns = pmapi::LoadNameSpace(path, dupok);
  if (ns.ok()) return *ns;
  std::fflush(stdout);
  std::string why(ns.status().message());
  if (!why.empty() && why.back() != '\n') why += '\n';
  std::fputs(why.c_str(), stderr);
  std::fprintf(stderr, "%s: Cannot load namespace from \"%s\": %s\n", tool, path.c_str(),
               pmapi::ErrStr(pmapi::PcpCode(ns.status())).c_str());
  return nullptr;
}

}  // namespace pmtools
