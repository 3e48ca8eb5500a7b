// pmapi/timespec.h: the library's one time value, seconds and nanoseconds
// as PCP's struct timespec holds them and as archives store them (v2
// archives' microseconds scaled by 1000).
//
// It is kept as given, not normalised: PCP can leave nsec at 1000000000
// after adding offsets, and a corrupt archive's time must be reported as
// read.
//
// Example:
//   pmapi::TimeSpec t = pmapi::TimeSpec::FromNanos(1500000000);  // {1, 500000000}
//   t.nanos();                                                    // 1500000000
#ifndef PMAPI_TIMESPEC_H_
#define PMAPI_TIMESPEC_H_

#include <compare>
#include <cstdint>

namespace pmapi {

struct TimeSpec {
  int64_t sec = 0;
  int64_t nsec = 0;

  friend bool operator==(const TimeSpec&, const TimeSpec&) = default;
  friend std::strong_ordering operator<=>(const TimeSpec& a, const TimeSpec& b) {
    if (a.sec != b.sec) return a.sec <=> b.sec;
    return a.nsec <=> b.nsec;
  }
  // The time in nanoseconds since the epoch (wrapping on absurd values
  // rather than overflowing).
  int64_t nanos() const {
    return static_cast<int64_t>(static_cast<uint64_t>(sec) * 1000000000u + static_cast<uint64_t>(nsec));
  }
  // The time `ns` nanoseconds after the epoch, nsec in [0, 1e9).
  static TimeSpec FromNanos(int64_t ns) {
    TimeSpec t{ns / 1000000000, ns % 1000000000};
    if (t.nsec < 0) {
      t.nsec += 1000000000;
      --t.sec;
    }
    return t;
  }
};

// An archive's times are the same value (the name says where one came from).
using ArchiveTime = TimeSpec;

}  // namespace pmapi

#endif  // PMAPI_TIMESPEC_H_
