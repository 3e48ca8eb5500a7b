#include "pmapi/types.h"

namespace pmapi {
namespace {

int SignedNibble(uint32_t word, int shift) {
  int v = static_cast<int>((word >> shift) & 0xfu);
  return v >= 8 ? v - 16 : v;
}

}  // namespace

uint32_t PackUnits(const Units& u) {
  return (static_cast<uint32_t>(u.dim_space & 0xf) << 28) |
         (static_cast<uint32_t>(u.dim_time & 0xf) << 24) |
         (static_cast<uint32_t>(u.dim_count & 0xf) << 20) |
         (static_cast<uint32_t>(u.scale_space & 0xf) << 16) |
         (static_cast<uint32_t>(u.scale_time & 0xf) << 12) |
         (static_cast<uint32_t>(u.scale_count & 0xf) << 8);
}

Units UnpackUnits(uint32_t word) {
  Units u;
  u.dim_space = static_cast<int8_t>(SignedNibble(word, 28));
  u.dim_time = static_cast<int8_t>(SignedNibble(word, 24));
  u.dim_count = static_cast<int8_t>(SignedNibble(word, 20));
  u.scale_space = static_cast<uint8_t>((word >> 16) & 0xfu);
  u.scale_time = static_cast<uint8_t>((word >> 12) & 0xfu);
  u.scale_count = static_cast<int8_t>(SignedNibble(word, 8));
  return u;
}

}  // namespace pmapi
