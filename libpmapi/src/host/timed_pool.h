// timed_pool.h: a few threads that run jobs, each no earlier than its time.
//
// A HostGroup connects and reconnects its hosts here: setting up a
// connection blocks (TLS and authentication exchanges, the connect timeout),
// so a handful of threads do it for hundreds of hosts while the group's own
// thread goes on fetching from the hosts already connected.
//
// Example:
//   pmapi::TimedPool pool(4);
//   pool.Post(absl::Now() + absl::Seconds(5), [] { Reconnect(); });
//   // ~TimedPool drops the jobs not yet started and waits for the others.
#ifndef PMAPI_SRC_HOST_TIMED_POOL_H_
#define PMAPI_SRC_HOST_TIMED_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace pmapi {

class TimedPool {
 public:
  explicit TimedPool(int threads);
  ~TimedPool();
  TimedPool(const TimedPool&) = delete;
  TimedPool& operator=(const TimedPool&) = delete;

  // Runs `job` on one of the threads once `at` has come (at once for a
  // time already past). Jobs due at the same time run in posting order.
  void Post(absl::Time at, std::function<void()> job);

 private:
  struct Job {
    absl::Time at;
    uint64_t seq;
    std::function<void()> run;
  };
  struct Later {
    bool operator()(const Job& a, const Job& b) const {
      return a.at != b.at ? a.at > b.at : a.seq > b.seq;
    }
  };
  void Work();

  std::mutex mu_;
  std::condition_variable wake_;
  std::priority_queue<Job, std::vector<Job>, Later> jobs_;
  uint64_t next_seq_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_TIMED_POOL_H_
