// The tools' own time stamps over the library's ClockStamp and DateStamp.
#include "stamps.h"

namespace pmtools {
namespace {

// An int64 narrowed the way a C cast to int narrows it, as PCP's tools
// pass their fractions to printf.
int AsCInt(int64_t v) { return static_cast<int>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

}  // namespace

absl::StatusOr<std::string> PmvalStamp(const pmapi::TimeZone& zone, int64_t seconds,
                                       int64_t nsec) {
  return pmapi::ClockStamp(zone, seconds, AsCInt(nsec) / 1000000, 3);
}

absl::StatusOr<std::string> PmdumplogStamp(const pmapi::TimeZone& zone, int64_t seconds,
                                           int64_t nsec, int archive_version) {
  if (archive_version == 2) return pmapi::ClockStamp(zone, seconds, AsCInt(nsec / 1000), 6);
  return pmapi::ClockStamp(zone, seconds, AsCInt(nsec), 9);
}

absl::StatusOr<std::string> PmdumplogDate(const pmapi::TimeZone& zone, int64_t seconds,
                                          int64_t nsec, int archive_version) {
  if (archive_version == 2) return pmapi::DateStamp(zone, seconds, AsCInt(nsec / 1000), 6);
  return pmapi::DateStamp(zone, seconds, AsCInt(nsec), 9);
}

}  // namespace pmtools
