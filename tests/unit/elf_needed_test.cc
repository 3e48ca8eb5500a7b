// Checks ElfNeeded on real objects (this test program, PCP's sample agent
// when PCP is installed) and on broken images, and that the local context
// refuses an agent built against PCP's libraries without loading them.
#include "elf_needed.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/local.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

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

// PCP's own compiled sample agent, hosted in a local context: it binds to
// this library (the version-node libraries answer to libpcp.so.3 and
// libpcp_pmda.so.3), and no library of PCP's is loaded.
TEST(ElfNeededTest, LocalContextHostsAnAgentBuiltByPcp) {
  if (Slurp(kPcpSampleDso).empty()) GTEST_SKIP() << "PCP's sample agent is not installed";
  const std::string dir = testing::TempDir() + "/pcp-sampledso";
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/pmcd.conf") << "sampledso\t30\tdso\tsample_init\t" << kPcpSampleDso << "\n";
  std::ofstream(dir + "/root_sampledso") << "root {\n  sampledso\n}\n"
                                         << "sampledso {\n  long\n  string\n}\n"
                                         << "sampledso.long {\n  one 30:0:10\n  ten 30:0:11\n}\n"
                                         << "sampledso.string {\n  hullo 30:0:31\n}\n";
  std::vector<std::string> warnings;
  LocalOptions opts;
  opts.config_path = dir + "/pmcd.conf";
  opts.warnings = &warnings;
#if defined(__SANITIZE_ADDRESS__)
  // PCP's sample agent keeps what it allocates for the life of the
  // process, as over libpcp_pmda: that is the agent's, not a leak of ours
  __lsan::ScopedDisabler agent_allocations;
#endif
  absl::StatusOr<Context> ctx = OpenLocalContext(opts);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  // (The agent may warn of help text it cannot find: it is not installed.)
  for (const std::string& w : warnings) {
    EXPECT_EQ(w.find("needs"), std::string::npos) << w;
    EXPECT_EQ(w.find("error attaching"), std::string::npos) << w;
  }
  absl::StatusOr<PmID> ten = ctx->LookupName("sampledso.long.ten");
  absl::StatusOr<PmID> hullo = ctx->LookupName("sampledso.string.hullo");
  ASSERT_TRUE(ten.ok()) << ten.status();
  ASSERT_TRUE(hullo.ok()) << hullo.status();
  std::vector<PmID> ids = {*ten, *hullo};
  absl::StatusOr<Result> r = ctx->Fetch(ids);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->numpmid(), 2);
  ASSERT_EQ(r->sets()[0].numval, 1);
  EXPECT_EQ(r->value(r->sets()[0], 0).lval, 10);
  ASSERT_EQ(r->sets()[1].numval, 1);
  const std::string maps = Slurp("/proc/self/maps");
  EXPECT_EQ(maps.find("/usr/lib/libpcp"), std::string::npos);
  EXPECT_EQ(maps.find("/usr/lib/x86_64-linux-gnu/libpcp"), std::string::npos);
  EXPECT_NE(maps.find("nodes/libpcp.so.3"), std::string::npos);
}

// An agent that needs a library of PCP's this one does not replace is
// refused, with the library named.
TEST(ElfNeededTest, LocalContextRefusesAnAgentNeedingLibpcpWeb) {
  const char kDocker[] = "/var/lib/pcp/pmdas/docker/pmda_docker.so";
  if (Slurp(kDocker).empty()) GTEST_SKIP() << "PCP's docker agent is not installed";
  const std::string dir = testing::TempDir() + "/pcp-docker";
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/pmcd.conf") << "docker\t141\tdso\tdocker_init\t" << kDocker << "\n";
  std::ofstream(dir + "/root_docker") << "root {\n  docker\n}\ndocker {\n  x 141:0:0\n}\n";
  std::vector<std::string> warnings;
  LocalOptions opts;
  opts.config_path = dir + "/pmcd.conf";
  opts.warnings = &warnings;
  absl::StatusOr<Context> ctx = OpenLocalContext(opts);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  const bool refused = std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("needs PCP's libpcp_web.so.1, which this library does not replace") != std::string::npos;
  });
  EXPECT_TRUE(refused) << (warnings.empty() ? "no warnings" : warnings[0]);
  EXPECT_EQ(Slurp("/proc/self/maps").find("libpcp_web"), std::string::npos);
}

}  // namespace
}  // namespace pmapi
