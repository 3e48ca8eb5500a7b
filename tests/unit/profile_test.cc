// The instance profile's add/delete rules (pmAddProfile(3), pmDelProfile(3)).
#include "pmapi/profile.h"

#include <vector>

#include "gtest/gtest.h"

namespace pmapi {
namespace {

constexpr InDom kColour = MakeInDom(29, 1);
constexpr InDom kBin = MakeInDom(29, 2);

std::vector<Inst> Admitted(const Profile& p, InDom indom) {
  std::vector<Inst> out;
  for (int32_t i = 0; i < 5; ++i) {
    if (p.Admits(indom, Inst{i})) out.push_back(Inst{i});
  }
  return out;
}

TEST(ProfileTest, EverythingByDefault) {
  Profile p;
  EXPECT_TRUE(p.AdmitsAll());
  EXPECT_EQ(Admitted(p, kColour), (std::vector<Inst>{Inst{0}, Inst{1}, Inst{2}, Inst{3}, Inst{4}}));
  EXPECT_TRUE(p.Admits(kInDomNull, kInNull));
}

TEST(ProfileTest, DeleteAllThenAddSome) {
  Profile p;
  p.Delete(kColour, {});
  EXPECT_TRUE(Admitted(p, kColour).empty());
  std::vector<Inst> some = {Inst{1}, Inst{3}};
  p.Add(kColour, some);
  EXPECT_EQ(Admitted(p, kColour), some);
  EXPECT_EQ(Admitted(p, kBin).size(), 5u);  // other indoms untouched
  std::vector<Inst> three = {Inst{3}};
  p.Delete(kColour, three);
  EXPECT_EQ(Admitted(p, kColour), (std::vector<Inst>{Inst{1}}));
}

TEST(ProfileTest, DeleteSomeFromAll) {
  Profile p;
  std::vector<Inst> two = {Inst{2}};
  p.Delete(kColour, two);
  EXPECT_EQ(Admitted(p, kColour), (std::vector<Inst>{Inst{0}, Inst{1}, Inst{3}, Inst{4}}));
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
  std::vector<Inst> zero = {Inst{0}};
  p.Add(kBin, zero);
  EXPECT_EQ(Admitted(p, kBin), zero);
  EXPECT_TRUE(Admitted(p, kColour).empty());
  p.Add(kInDomNull, {});
  EXPECT_TRUE(p.AdmitsAll());
}

}  // namespace
}  // namespace pmapi
