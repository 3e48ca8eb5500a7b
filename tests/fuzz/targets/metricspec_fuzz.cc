// Fuzz target: ParseMetricSpec (pmParseMetricSpec). The first byte chooses
// the default source kind; the rest is the specification.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/metricspec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view spec(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<pmapi::MetricSpec> m = pmapi::ParseMetricSpec(spec, data[0] % 3, "local:");
  if (!m.ok()) {
    fuzz::Consume(fuzz::Digest(m.status()));
    return 0;
  }
  uint64_t h = fuzz::Digest(m->source) + fuzz::Digest(m->metric) + static_cast<uint64_t>(m->isarch);
  for (const std::string& i : m->instances) h += fuzz::Digest(i);
  fuzz::Consume(h);
  return 0;
}
