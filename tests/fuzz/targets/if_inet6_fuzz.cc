// Fuzz target: the linux agent's /proc/net/if_inet6 reader (ParseIfInet6),
// PCP's fscanf format over the whole text, fields kept from one line to
// the next.
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "pmdas/linux/linux_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  uint64_t h = 0;
  for (const pmapi::linux_agent::Inet6Entry& e : pmapi::linux_agent::ParseIfInet6(text)) {
    h += fuzz::Digest(e.dev) + fuzz::Digest(e.address) + e.scope;
  }
  fuzz::Consume(h);
  return 0;
}
