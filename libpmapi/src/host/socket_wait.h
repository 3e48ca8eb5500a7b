// socket_wait.h: deadlines and waiting for a socket, for the host
// connection and its TLS session. Deadlines are nanoseconds of
// CLOCK_MONOTONIC; kNoDeadline means none, kNow no waiting at all.
//
// Example:
//   int64_t deadline = pmapi::DeadlineAfter(absl::Seconds(10));
//   if (pmapi::WaitFd(fd, POLLIN, deadline) == 0) { /* timed out */ }
#ifndef PMAPI_SRC_HOST_SOCKET_WAIT_H_
#define PMAPI_SRC_HOST_SOCKET_WAIT_H_

#include <cstdint>

#include "absl/time/time.h"

namespace pmapi {

inline constexpr int64_t kNoDeadline = INT64_MAX;
// A deadline already passed: wait for nothing, take what has arrived.
inline constexpr int64_t kNow = 0;

int64_t MonotonicNanos();
// The deadline `d` from now (kNoDeadline for an infinite duration).
int64_t DeadlineAfter(absl::Duration d);
// Waits until fd is ready for poll() `events`. Returns 1 when ready, 0
// when the deadline passes, -errno on failure.
int WaitFd(int fd, short events, int64_t deadline);

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_SOCKET_WAIT_H_
