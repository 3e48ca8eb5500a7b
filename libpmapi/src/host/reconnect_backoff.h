// reconnect_backoff.h: libpcp's rule for reconnecting to a pmcd that went
// away. The first attempt after the loss is made at once; each failed
// attempt then waits the next of a list of delays (PMCD_RECONNECT_TIMEOUT,
// "5,10,20,40,80" seconds by default), the last one repeating, before the
// next attempt; a success starts the list again.
//
// Used by a host context's Reconnect() and by each host of a HostGroup.
//
// Example:
//   pmapi::ReconnectBackoff backoff = pmapi::ReconnectBackoff::FromEnvironment();
//   if (backoff.Due(absl::Now())) {
//     if (TryToConnect()) backoff.Succeeded(); else backoff.Failed(absl::Now());
//   }
#ifndef PMAPI_SRC_HOST_RECONNECT_BACKOFF_H_
#define PMAPI_SRC_HOST_RECONNECT_BACKOFF_H_

#include <cstddef>
#include <vector>

#include "absl/time/time.h"

namespace pmapi {

// Parses a PMCD_RECONNECT_TIMEOUT value as libpcp does: positive integers
// separated by commas. Returns an empty list when any part is not one.
std::vector<int> ParseReconnectBackoff(const char* text);

class ReconnectBackoff {
 public:
  // `seconds` empty means libpcp's default list.
  explicit ReconnectBackoff(std::vector<int> seconds);
  // The delays from PMCD_RECONNECT_TIMEOUT when it is a valid list.
  static ReconnectBackoff FromEnvironment();

  // True when an attempt may be made at `now`.
  bool Due(absl::Time now) const { return step_ == 0 || now >= retry_at_; }
  // The time the next attempt is due (the infinite past when it is now).
  absl::Time retry_at() const { return step_ == 0 ? absl::InfinitePast() : retry_at_; }
  void Succeeded() { step_ = 0; }
  // Starts the next delay from `now`.
  void Failed(absl::Time now);
  const std::vector<int>& seconds() const { return seconds_; }

 private:
  std::vector<int> seconds_;
  // How many delays have been used since the last success.
  size_t step_ = 0;
  absl::Time retry_at_ = absl::InfinitePast();
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_RECONNECT_BACKOFF_H_
