// pcp_hash_order.h: the order in which libpcp's hash tables (__pmHashCtl)
// enumerate their keys.
//
// PCP 6.0.3's pmdumplog lists descriptors (-d) and instance domains (-i)
// by walking libpcp's hash tables bucket by bucket, so its output order is
// the table's. The table starts with one bucket, grows when it holds more
// than four keys per bucket (doubling, then nudging the size off multiples
// of 2, 3 and 5), relinks each old chain onto the heads of the new chains,
// and always inserts at the head of a chain. This class replays those
// insertions on keys alone to recover the same order.
//
// Example:
//   PcpHashOrder h;
//   for (PmID id : ids_in_meta_order) h.Add(id);
//   for (uint32_t key : h.Keys()) ...
#ifndef PMAPI_TOOLS_PMDUMPLOG_PCP_HASH_ORDER_H_
#define PMAPI_TOOLS_PMDUMPLOG_PCP_HASH_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmdumplog {

class PcpHashOrder {
 public:
  // Inserts `key`. REQUIRES: key was not added before.
  void Add(uint32_t key);
  // Returns the keys in the table's walk order.
  std::vector<uint32_t> Keys() const;

 private:
  void Grow();

  size_t nodes_ = 0;
  // Each bucket's chain, head first.
  std::vector<std::vector<uint32_t>> buckets_;
};

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_PCP_HASH_ORDER_H_
