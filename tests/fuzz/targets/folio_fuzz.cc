// Fuzz target: an archive folio (pmafm's list of archives) read by
// __pmAddOptArchiveFolio, into a pmOptions with and without
// PM_OPTFLAG_MULTI (the first input byte chooses), then freed.
#include <pcp/pmapi.h>

#include <cstdint>
#include <span>
#include <string>

#include "fuzz_support.h"
#include "pcp_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::span<const uint8_t> in(data, size);
  const std::string path = fuzz::ScratchDir() + "/folio";
  if (!fuzz::WriteFile(path, in.subspan(1))) return 0;
  pmOptions opts = {};
  opts.version = PMAPI_VERSION_2;
  opts.flags = (data[0] & 1) ? PM_OPTFLAG_MULTI : 0;
  std::string arg = path;
  __pmAddOptArchiveFolio(&opts, arg.data());
  uint64_t h = static_cast<uint64_t>(opts.errors) * 31 + static_cast<uint64_t>(opts.narchives);
  for (int i = 0; i < opts.narchives; ++i) h += fuzz::Digest(std::string(opts.archives[i]));
  fuzz::Consume(h);
  pmFreeOptions(&opts);
  pmflush();  // the messages about a faulty folio (pmprintf keeps them)
  return 0;
}
