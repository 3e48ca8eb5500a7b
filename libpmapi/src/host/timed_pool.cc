// Threads running timed jobs; see timed_pool.h.
#include "timed_pool.h"

#include <utility>

namespace pmapi {

TimedPool::TimedPool(int threads) {
  if (threads < 1) threads = 1;
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

TimedPool::~TimedPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void TimedPool::Post(absl::Time at, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push(Job{at, next_seq_++, std::move(job)});
  }
  wake_.notify_one();
}

void TimedPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (jobs_.empty()) {
      wake_.wait(lock);
      continue;
    }
    const absl::Time at = jobs_.top().at;
    if (at > absl::Now()) {
      wake_.wait_for(lock, absl::ToChronoNanoseconds(at - absl::Now()));
      continue;
    }
    std::function<void()> run = jobs_.top().run;
    jobs_.pop();
    lock.unlock();
    run();
    lock.lock();
  }
}

}  // namespace pmapi
