// Deadlines and socket waits; see socket_wait.h.
#include "socket_wait.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace pmapi {

int64_t MonotonicNanos() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

int64_t DeadlineAfter(absl::Duration d) {
  if (d == absl::InfiniteDuration()) return kNoDeadline;
  const int64_t ns = absl::ToInt64Nanoseconds(d);
  const int64_t now = MonotonicNanos();
  return ns >= kNoDeadline - now ? kNoDeadline : now + ns;
}

namespace {

// Returns the milliseconds left until `deadline` for poll(): -1 for no
// deadline, else at least 0, rounded up.
int PollMillis(int64_t deadline) {
  if (deadline == kNoDeadline) return -1;
  const int64_t left = deadline - MonotonicNanos();
  if (left <= 0) return 0;
  return static_cast<int>(std::min<int64_t>((left + 999999) / 1000000, 1 << 30));
}

}  // namespace

int WaitFd(int fd, short events, int64_t deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    int n = poll(&p, 1, PollMillis(deadline));
    if (n > 0) return 1;
    if (n == 0) {
      if (MonotonicNanos() >= deadline) return 0;
      continue;  // poll's rounding woke us early
    }
    if (errno != EINTR) return -errno;
  }
}

}  // namespace pmapi
