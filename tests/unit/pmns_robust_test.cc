// Bad and hostile input: every case ends in a value or an error, never a
// crash, a hang or an out-of-bounds read (run under the sanitizer build).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

std::string TempFile(const std::string& content) {
  char name[] = "/tmp/pmns_robust_XXXXXX";
  int fd = mkstemp(name);
  EXPECT_GE(fd, 0);
  close(fd);
  std::ofstream(name, std::ios::binary) << content;
  return name;
}

TEST(PmnsRobustTest, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "root{}:*.#/ \t\nabc019_\"<>defineifdefendifinclude";
  for (int round = 0; round < 300; ++round) {
    std::string text;
    int len = rng() % 400;
    for (int i = 0; i < len; ++i) {
      text += (rng() % 8 == 0) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    }
    std::string path = TempFile(text);
    absl::StatusOr<Pmns> ns = Pmns::LoadFile(path);
    if (ns.ok()) {
      auto all = ns->Traverse("");
      ASSERT_TRUE(all.ok());
      for (const std::string& name : *all) (void)ns->LookupName(name);
    } else {
      EXPECT_NE(PcpCode(ns.status()), 0);
    }
    std::remove(path.c_str());
  }
}

TEST(PmnsRobustTest, ShellIsRefused) {
  std::string path = TempFile("#shell \"echo root { a 1:0:1 }\"\n");
  absl::StatusOr<Pmns> ns = Pmns::LoadFile(path);
  EXPECT_EQ(PcpCode(ns.status()), kErrPmns);
  EXPECT_NE(ns.status().message().find("#shell is not supported"), std::string::npos);
  std::remove(path.c_str());
}

TEST(PmnsRobustTest, NulBytesAndLongTokens) {
  std::string text = std::string("root {\n a\0junk\n 1:0:1\n}\n", 24) + "root2 {\n " +
                     std::string(5000, 'x') + " 1:0:2\n}\n";
  std::string path = TempFile(text);
  absl::StatusOr<Pmns> ns = Pmns::LoadFile(path);
  EXPECT_EQ(PcpCode(ns.status()), kErrPmns);
  std::remove(path.c_str());
}

TEST(PmnsRobustTest, DeepNamesAddedOneByOne) {
  Pmns ns;
  std::string deep = "a";
  for (int i = 0; i < 3000; ++i) deep += ".a";  // the path index grows with depth squared
  ASSERT_TRUE(ns.AddName(deep, MakePmID(1, 0, 1)).ok());
  auto all = ns.Traverse("");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ(all->front(), deep);
  EXPECT_EQ(*ns.LookupName(deep), MakePmID(1, 0, 1));
  EXPECT_EQ(*ns.NameID(MakePmID(1, 0, 1)), deep);
  EXPECT_EQ(PcpCode(ns.LookupName("a.a").status()), kErrNonleaf);
}

TEST(PmnsRobustTest, FlagBitIsRejected) {
  Pmns ns;
  EXPECT_EQ(PcpCode(ns.AddName("x", PmID{0x80000001u})), kErrPmid);
  EXPECT_TRUE(ns.AddName("y", kPmIDNull).ok());  // PCP keeps it, but hidden
  EXPECT_EQ(PcpCode(ns.LookupName("y").status()), kErrName);
  EXPECT_EQ(ns.NumNames(), 0u);
}

TEST(PmnsRobustTest, MissingFileIsErrno) {
  absl::StatusOr<Pmns> ns = Pmns::LoadFile("/nonexistent/pmns/root");
  EXPECT_EQ(PcpCode(ns.status()), -2);
}

}  // namespace
}  // namespace pmapi
