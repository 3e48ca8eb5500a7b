// SHA-1 against the FIPS 180 examples and a digest pminfo -s prints.
#include "sha1.h"

#include <string>

#include "gtest/gtest.h"

namespace pmtools {
namespace {

TEST(Sha1Test, StandardVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  EXPECT_EQ(Sha1Hex(std::string(55, 'x')).size(), 40u);  // tail fits one block
  EXPECT_EQ(Sha1Hex(std::string(56, 'x')), "901305367c259952f4e7af8323f480d59f81335b");
}

TEST(Sha1Test, PcpSourceIdentifier) {
  // The source identifier PCP 6.0.3's pminfo -s prints for an archive whose
  // host is "vm".
  EXPECT_EQ(Sha1Hex(R"({"series":"source","labels":{"hostname":"vm"}})"),
            "d6b1c3fb245987038d85c76cd36d94c0895f8eae");
}

}  // namespace
}  // namespace pmtools
