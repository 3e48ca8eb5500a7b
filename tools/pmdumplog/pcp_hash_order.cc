// Replaying libpcp's hash table growth; see pcp_hash_order.h.
#include "pcp_hash_order.h"

namespace pmdumplog {

void PcpHashOrder::Grow() {
  size_t size = buckets_.size() * 2;
  if (size % 2) ++size;
  if (size % 3) size += 2;
  if (size % 5) size += 2;
  std::vector<std::vector<uint32_t>> grown(size);
  // Old buckets are visited last to first, each chain head to tail, and
  // every key is pushed onto the head of its new chain.
  for (size_t b = buckets_.size(); b-- > 0;) {
    for (uint32_t key : buckets_[b]) {
      std::vector<uint32_t>& chain = grown[key % size];
      chain.insert(chain.begin(), key);
    }
  }
  buckets_.swap(grown);
}

void PcpHashOrder::Add(uint32_t key) {
  ++nodes_;
  if (buckets_.empty()) {
    buckets_.resize(1);
  } else if (nodes_ / 4 > buckets_.size()) {
    Grow();
  }
  std::vector<uint32_t>& chain = buckets_[key % buckets_.size()];
  chain.insert(chain.begin(), key);
}

std::vector<uint32_t> PcpHashOrder::Keys() const {
  std::vector<uint32_t> out;
  out.reserve(nodes_);
  for (const std::vector<uint32_t>& chain : buckets_) {
    out.insert(out.end(), chain.begin(), chain.end());
  }
  return out;
}

}  // namespace pmdumplog
