// pmapi/timespec.h: the library's one time value, seconds and nanoseconds
// as PCP's struct timespec holds them and as archives store them (v2
// archives' microseconds scaled by 1000).
//
// It is kept as given, not normalised: PCP can leave nsec at 1000000000
// after adding offsets, and a corrupt archive's time must be reported as
// read.
//
// The C++ interface speaks of time in absl::Time and absl::Duration; a
// TimeSpec the library reports (an archive label's start, an index entry's
// stamp) converts to absl::Time wherever one is taken, so a label's start
// feeds Context::SetMode as it is.
//
// Example:
//   pmapi::TimeSpec t = pmapi::TimeSpec::FromNanos(1500000000);  // {1, 500000000}
//   int64_t ns = t.nanos();                                       // 1500000000
//   absl::Time when = t;                          // 1970-01-01T00:00:01.5Z
#ifndef PMAPI_TIMESPEC_H_
#define PMAPI_TIMESPEC_H_

#include <compare>
#include <cstdint>

#include "absl/time/time.h"

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
  [[nodiscard]] int64_t nanos() const {
    return static_cast<int64_t>(static_cast<uint64_t>(sec) * 1000000000u + static_cast<uint64_t>(nsec));
  }
  // The same instant as an absl::Time (nsec beyond a second carries over).
  operator absl::Time() const {  // NOLINT(google-explicit-constructor): one time vocabulary
    return absl::FromUnixSeconds(sec) + absl::Nanoseconds(nsec);
  }
  // The instant `t` to the nanosecond (its sub-nanosecond part dropped).
  [[nodiscard]] static TimeSpec FromTime(absl::Time t) { return FromNanos(absl::ToUnixNanos(t)); }
  // The time `ns` nanoseconds after the epoch, nsec in [0, 1e9).
  [[nodiscard]] static TimeSpec FromNanos(int64_t ns) {
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
