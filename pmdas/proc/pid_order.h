// pid_order.h: the order in which PCP's proc agent lists processes, which
// is the walk of libpcp's hash table of them (buckets in turn, each
// bucket's chain from its newest entry), kept here by making the same
// additions and removals. A process's key goes into bucket key % size; the
// table starts with one bucket and grows (about doubling, to a multiple of
// 2, 3 and 5) when the additions ever made exceed four per bucket, the
// chains then relinked from the last bucket to the first. Removals do not
// count against the additions, as in PCP's agent.
#ifndef PMAPI_PMDAS_PROC_PID_ORDER_H_
#define PMAPI_PMDAS_PROC_PID_ORDER_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pmapi::proc_agent {

class PidOrder {
 public:
  void Add(uint32_t key) {
    ++added_;
    if (buckets_.empty()) {
      buckets_.resize(1);
    } else if (added_ / 4 > buckets_.size()) {
      Grow();
    }
    buckets_[key % buckets_.size()].push_back(key);  // the back is the chain's head
  }
  void Remove(uint32_t key) {
    if (buckets_.empty()) return;
    std::vector<uint32_t>& chain = buckets_[key % buckets_.size()];
    auto it = std::find(chain.begin(), chain.end(), key);
    if (it != chain.end()) chain.erase(it);
  }
  // Calls f(key) for each key in the table's walk order.
  template <typename F>
  void Walk(F f) const {
    for (const std::vector<uint32_t>& chain : buckets_) {
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) f(*it);
    }
  }

 private:
  void Grow() {
    size_t size = buckets_.size() * 2;
    if (size % 2) ++size;
    if (size % 3) size += 2;
    if (size % 5) size += 2;
    std::vector<std::vector<uint32_t>> grown(size);
    for (size_t b = buckets_.size(); b-- > 0;) {
      const std::vector<uint32_t>& chain = buckets_[b];
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) grown[*it % size].push_back(*it);
    }
    buckets_ = std::move(grown);
  }

  std::vector<std::vector<uint32_t>> buckets_;
  size_t added_ = 0;  // additions ever made
};

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_PID_ORDER_H_
