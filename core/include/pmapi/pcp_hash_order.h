// pmapi/pcp_hash_order.h: the order in which libpcp's hash tables
// (__pmHashCtl) walk their keys, kept by making the same additions and
// removals on the keys alone.
//
// Several of PCP's outputs follow that walk: pmdumplog lists descriptors
// (-d) and instance domains (-i) by it, and PCP's proc agent lists
// processes by it. A key goes into bucket key % size and onto the head of
// that bucket's chain. The table starts with one bucket and grows (about
// doubling, then nudged off multiples of 2, 3 and 5) when the additions
// ever made exceed four per bucket; the old chains are then relinked from
// the last bucket to the first, each from its head, every key onto the
// head of its new chain. Removals do not count against the additions.
//
// Given: const std::vector<uint32_t>& pmids_in_meta_order
// Example:
//   pmapi::PcpHashOrder order;
//   for (uint32_t id : pmids_in_meta_order) order.Add(id);
//   order.Walk([](uint32_t key) { std::cout << key << "\n"; });
//   std::vector<uint32_t> keys = order.Keys();     // the same order
#ifndef PMAPI_PCP_HASH_ORDER_H_
#define PMAPI_PCP_HASH_ORDER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmapi {

class PcpHashOrder {
 public:
  // Adds `key`. REQUIRES: the table does not hold it.
  void Add(uint32_t key) {
    ++added_;
    if (buckets_.empty()) {
      buckets_.resize(1);
    } else if (added_ / 4 > buckets_.size()) {
      Grow();
    }
    buckets_[key % buckets_.size()].push_back(key);  // the back is the chain's head
  }

  // Removes `key`, if the table holds it.
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

  // The keys in the table's walk order.
  [[nodiscard]] std::vector<uint32_t> Keys() const {
    std::vector<uint32_t> out;
    Walk([&out](uint32_t key) { out.push_back(key); });
    return out;
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

}  // namespace pmapi

#endif  // PMAPI_PCP_HASH_ORDER_H_
