// Fuzz target: ParseUnitsStr (pmParseUnitsStr), and UnitsStr on what it
// returns.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<pmapi::ParsedUnits> p = pmapi::ParseUnitsStr(text);
  if (p.ok()) {
    uint64_t bits = 0;  // the multiplier may be inf or NaN: digest its bits
    std::memcpy(&bits, &p->multiplier, sizeof bits);
    fuzz::Consume(fuzz::Digest(pmapi::UnitsStr(p->units)) + bits);
  } else {
    fuzz::Consume(fuzz::Digest(p.status()));
  }
  return 0;
}
