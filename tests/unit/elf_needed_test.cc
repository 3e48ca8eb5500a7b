// Checks ElfNeeded on real objects (this test program, PCP's sample agent
// when PCP is installed) and on broken images, and that the local context
// refuses an agent built against PCP's libraries without loading them.
#include "elf_needed.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

const char kPcpSampleDso[] = "/var/lib/pcp/pmdas/sample/pmda_sample.so";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(ElfNeededTest, ReadsThisProgramsLibraries) {
  absl::StatusOr<std::vector<std::string>> needed = ElfNeeded(Slurp("/proc/self/exe"));
  ASSERT_TRUE(needed.ok()) << needed.status();
  EXPECT_TRUE(Has(*needed, "libpmapi.so.0"));
  EXPECT_TRUE(std::any_of(needed->begin(), needed->end(),
                          [](const std::string& n) { return n.rfind("libc.so", 0) == 0; }));
  EXPECT_FALSE(NeedsPcpLibrary(*needed));
}

TEST(ElfNeededTest, FindsPcpsLibrariesInPcpsSampleAgent) {
  std::string image = Slurp(kPcpSampleDso);
  if (image.empty()) GTEST_SKIP() << "PCP's sample agent is not installed";
  absl::StatusOr<std::vector<std::string>> needed = ElfNeeded(image);
  ASSERT_TRUE(needed.ok()) << needed.status();
  EXPECT_TRUE(Has(*needed, "libpcp_pmda.so.3"));
  EXPECT_TRUE(NeedsPcpLibrary(*needed));
}

TEST(ElfNeededTest, RefusesWhatIsNotAnElfObjectOfThisKind) {
  EXPECT_FALSE(ElfNeeded("").ok());
  EXPECT_FALSE(ElfNeeded("#!/bin/sh\necho hello\n").ok());
  std::string image = Slurp("/proc/self/exe");
  ASSERT_GT(image.size(), 64u);
  image[4] = image[4] == 1 ? 2 : 1;  // the other ELF class
  EXPECT_FALSE(ElfNeeded(image).ok());
}

TEST(ElfNeededTest, TruncatedAndDamagedImagesAreErrorsNotCrashes) {
  const std::string image = Slurp("/proc/self/exe");
  for (size_t n = 0; n < std::min<size_t>(image.size(), 8192); n += 7) {
    (void)ElfNeeded(std::string_view(image).substr(0, n));
  }
  std::string damaged = image;
  for (size_t i = 16; i < 64 && i < damaged.size(); ++i) {
    std::string copy = damaged;
    copy[i] = static_cast<char>(0xff);
    (void)ElfNeeded(copy);
  }
}

TEST(ElfNeededTest, LocalContextRefusesAnAgentBuiltAgainstPcp) {
  if (Slurp(kPcpSampleDso).empty()) GTEST_SKIP() << "PCP's sample agent is not installed";
  const std::string config = testing::TempDir() + "/pcp-sampledso.conf";
  std::ofstream(config) << "sampledso\t30\tdso\tsampledso_init\t" << kPcpSampleDso << "\n";
  std::vector<std::string> warnings;
  LocalOptions opts;
  opts.config_path = config;
  opts.warnings = &warnings;
  absl::StatusOr<Context> ctx = OpenLocalContext(opts);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  const bool refused = std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("is linked with PCP's libpcp") != std::string::npos;
  });
  EXPECT_TRUE(refused) << (warnings.empty() ? "no warnings" : warnings[0]);
  EXPECT_EQ(Slurp("/proc/self/maps").find("libpcp"), std::string::npos);
}

}  // namespace
}  // namespace pmapi
