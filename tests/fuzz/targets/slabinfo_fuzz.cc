// Fuzz target: the linux agent's /proc/slabinfo reader (ParseSlabinfo).
// The first byte picks the page shift (0 to 31) and whether the format
// version is already known (the agent keeps the first it reads; then the
// header is not looked at); the rest is the file. The text is read twice,
// the second time with the version the first read fixed, as the agent's
// next refresh would.
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "pmdas/linux/linux_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const unsigned pageshift = data[0] & 31;
  int major = (data[0] & 32) ? 2 : -1;
  int minor = (data[0] & 64) ? 0 : 1;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  uint64_t h = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [name, c] : pmapi::linux_agent::ParseSlabinfo(text, &major, &minor, pageshift)) {
      h += fuzz::Digest(name) + c.active_objs + c.total_objs + c.total_size + c.object_size + c.active_slabs +
           c.total_slabs + c.pages_per_slab + c.objects_per_slab + c.seen;
    }
  }
  fuzz::Consume(h + static_cast<uint64_t>(static_cast<uint32_t>(major)) + static_cast<uint32_t>(minor));
  return 0;
}
