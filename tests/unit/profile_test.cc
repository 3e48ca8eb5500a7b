// The instance profile's add/delete rules (pmAddProfile(3), pmDelProfile(3)).
#include "pmapi/profile.h"

#include <vector>

#include "gtest/gtest.h"

namespace pmapi {
namespace {

constexpr InDom kColour = MakeInDom(29, 1);
constexpr InDom kBin = MakeInDom(29, 2);

std::vector<int32_t> Admitted(const Profile& p, InDom indom) {
  std::vector<int32_t> out;
  for (int32_t i = 0; i < 5; ++i) {
    if (p.Admits(indom, i)) out.push_back(i);
  }
  return out;
}

TEST(ProfileTest, EverythingByDefault) {
  Profile p;
  EXPECT_TRUE(p.AdmitsAll());
  EXPECT_EQ(Admitted(p, kColour), (std::vector<int32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(p.Admits(kInDomNull, kInNull));
}

TEST(ProfileTest, DeleteAllThenAddSome) {
  Profile p;
  p.Delete(kColour, {});
  EXPECT_TRUE(Admitted(p, kColour).empty());
  std::vector<int32_t> some = {1, 3};
  p.Add(kColour, some);
  EXPECT_EQ(Admitted(p, kColour), some);
  EXPECT_EQ(Admitted(p, kBin).size(), 5u);  // other indoms untouched
  std::vector<int32_t> three = {3};
  p.Delete(kColour, three);
  EXPECT_EQ(Admitted(p, kColour), (std::vector<int32_t>{1}));
}

TEST(ProfileTest, DeleteSomeFromAll) {
  Profile p;
  std::vector<int32_t> two = {2};
  p.Delete(kColour, two);
  EXPECT_EQ(Admitted(p, kColour), (std::vector<int32_t>{0, 1, 3, 4}));
  p.Add(kColour, two);
  EXPECT_EQ(Admitted(p, kColour).size(), 5u);
}

TEST(ProfileTest, GlobalExcludeThenAddOneIndom) {
  Profile p;
  uint64_t g = p.generation();
  p.Delete(kInDomNull, {});
  EXPECT_GT(p.generation(), g);
  EXPECT_TRUE(Admitted(p, kColour).empty());
  EXPECT_TRUE(Admitted(p, kBin).empty());
  EXPECT_TRUE(p.Admits(kInDomNull, kInNull));  // singular values always come
  std::vector<int32_t> zero = {0};
  p.Add(kBin, zero);
  EXPECT_EQ(Admitted(p, kBin), zero);
  EXPECT_TRUE(Admitted(p, kColour).empty());
  p.Add(kInDomNull, {});
  EXPECT_TRUE(p.AdmitsAll());
}

}  // namespace
}  // namespace pmapi
