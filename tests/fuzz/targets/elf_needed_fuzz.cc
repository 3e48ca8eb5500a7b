// Fuzz target: ElfNeeded over arbitrary bytes taken as an ELF image. The
// corpus holds small real shared objects and cut-down headers.
#include <cstdint>
#include <string_view>

#include "elf_needed.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view image(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<std::string>> needed = pmapi::ElfNeeded(image);
  if (needed.ok()) fuzz::Consume(pmapi::NeedsPcpLibrary(*needed) ? 1 : 0);
  return 0;
}
