// Fuzz target: the interval parsers, ParseInterval (pmParseInterval) and
// ParseHighResInterval (pmParseHighResInterval).
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/interval.h"
#include "pmapi/timewindow.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<absl::Duration> d = pmapi::ParseInterval(text);
  fuzz::Consume(d.ok() ? static_cast<uint64_t>(absl::ToInt64Nanoseconds(*d))
                       : fuzz::Digest(d.status()));
  absl::StatusOr<pmapi::TimeSpec> t = pmapi::ParseHighResInterval(text);
  fuzz::Consume(t.ok() ? static_cast<uint64_t>(t->sec) + static_cast<uint64_t>(t->nsec) : fuzz::Digest(t.status()));
  return 0;
}
