// A daemon agent's link to pmcd reads one PDU at a time: what pmcd sent
// beyond it stays in the descriptor, so an agent that waits on
// __pmdaInFd() with its own select() sees the next request (pmcd sends a
// profile and its fetch back to back).
#include <poll.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "c_pmda_link.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

// A PDU of `len` bytes (header and zeros) of `type`, in wire order.
std::vector<uint8_t> Pdu(uint32_t len, uint32_t type) {
  std::vector<uint8_t> out(len, 0);
  for (int i = 0; i < 4; ++i) {
    out[i] = static_cast<uint8_t>(len >> (24 - 8 * i));
    out[4 + i] = static_cast<uint8_t>(type >> (24 - 8 * i));
  }
  return out;
}

bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

TEST(AgentLinkTest, ReadsOnePduAndLeavesTheNextInTheDescriptor) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::vector<uint8_t> both = Pdu(20, 0x7004);  // a profile...
  std::vector<uint8_t> fetch = Pdu(16, 0x7005);  // ...and the fetch after it
  both.insert(both.end(), fetch.begin(), fetch.end());
  ASSERT_EQ(write(fds[1], both.data(), both.size()), static_cast<ssize_t>(both.size()));

  AgentLink link(fds[0], -1);
  absl::StatusOr<std::span<const uint8_t>> first = link.Read();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->size(), 20u);
  EXPECT_TRUE(Readable(fds[0])) << "the second PDU was taken from the pipe with the first";
  absl::StatusOr<std::span<const uint8_t>> second = link.Read();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->size(), 16u);
  EXPECT_EQ((*second)[7], 0x05);
  close(fds[1]);
  absl::StatusOr<std::span<const uint8_t>> end = link.Read();
  ASSERT_TRUE(end.ok());
  EXPECT_TRUE(end->empty());
  close(fds[0]);
}

}  // namespace
}  // namespace pmapi
