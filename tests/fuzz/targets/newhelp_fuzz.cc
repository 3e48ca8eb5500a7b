// Fuzz target: HelpFile::ParseNewhelp, the reader of newhelp's binary help
// (NAME.dir and NAME.pag) that PCP's compiled agents open. The input is a
// 4-byte little-endian length, that many bytes of .dir, and the .pag; the
// corpus holds the pairs of PCP's installed agents, whole and cut down.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "fuzz_support.h"
#include "pmda_help.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  uint32_t dir_len = 0;
  std::memcpy(&dir_len, data, sizeof dir_len);
  std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
  const size_t cut = dir_len <= rest.size() ? dir_len : rest.size();
  absl::StatusOr<pmapi::HelpFile> help = pmapi::HelpFile::ParseNewhelp(rest.substr(0, cut), rest.substr(cut));
  if (!help.ok()) return 0;
  fuzz::Consume(static_cast<int>(help->size()));
  for (uint32_t id : {0u, 1u, 0x2c00001u}) {
    if (const pmapi::HelpEntry* e = help->ForPmID(pmapi::PmID{id})) {
      fuzz::Consume(static_cast<int>(e->oneline.size() + e->text.size()));
    }
    if (const pmapi::HelpEntry* e = help->ForInDom(pmapi::InDom{id})) {
      fuzz::Consume(static_cast<int>(e->oneline.size()));
    }
  }
  return 0;
}
