// Fuzz target: the -D debug specification parser (pmSetDebug and
// pmClearDebug: names in any case, "all", decimal numbers, commas).
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "pcp/pmapi.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string spec(reinterpret_cast<const char*>(data), size);  // NUL-terminated copy
  int set = pmSetDebug(spec.c_str());
  int cleared = pmClearDebug(spec.c_str());
  // Either both accept the spec or both refuse it with the same code.
  if (set != cleared) __builtin_trap();
  fuzz::Consume(static_cast<uint64_t>(static_cast<uint32_t>(set)));
  pmClearDebug("all");
  return 0;
}
