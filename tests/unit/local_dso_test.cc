// Checks shared-object agents: the DSO test agent is loaded by path and
// init function from a configuration file written here, and answers
// fetches, descriptors, instances and help text. Also checks that agents
// which cannot be loaded are left out with a warning, as PCP does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

const std::string kNamespace = std::string(PMAPI_TEST_DATA_DIR) + "/../../pmdas/dsotest/root_dsotest";

std::string WriteConfig(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

absl::StatusOr<Context> Open(const std::string& config, std::vector<std::string>* warnings) {
  LocalOptions opts;
  opts.config_path = config;
  opts.warnings = warnings;
  return OpenLocalContext(opts);
}

TEST(LocalDsoTest, LoadsByPathAndAnswersFetches) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = Open(
      WriteConfig("dso.conf", std::string("dsotest\t251\tdso\tdsotest_init\t") + PMAPI_DSOTEST_PATH +
                                  " pmns=" + kNamespace + "\n"),
      &warnings);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> answer = ctx->LookupName("dsotest.answer");
  ASSERT_TRUE(answer.ok()) << answer.status() << (warnings.empty() ? "" : warnings[0]);
  EXPECT_EQ(*answer, MakePmID(251, 0, 0));
  PmID ids[] = {*answer, *ctx->LookupName("dsotest.greeting"), *ctx->LookupName("dsotest.shelf"),
                *ctx->LookupName("dsotest.calls")};
  absl::StatusOr<Result> r = ctx->Fetch(ids);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value(r->sets()[0], 0).lval, 42);
  ValueView g = r->value(r->sets()[1], 0);
  EXPECT_EQ(std::string(g.payload.begin(), g.payload.end()), std::string("hello from a shared object\0", 27));
  ASSERT_EQ(r->sets()[2].numval, 2);
  EXPECT_EQ(r->value(r->sets()[2], 1).inst, Inst{2});
  EXPECT_EQ(r->value(r->sets()[2], 1).lval, 20);
  r = ctx->Fetch(ids);
  uint64_t calls = 0;
  ValueView c = r->value(r->sets()[3], 0);
  ASSERT_EQ(c.payload.size(), 8u);
  std::memcpy(&calls, c.payload.data(), 8);
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(ctx->LookupDesc(ids[2])->indom, MakeInDom(251, 0));
  EXPECT_EQ(*ctx->NameInDom(MakeInDom(251, 0), Inst{1}), "top");
  EXPECT_EQ(*ctx->LookupText(*answer, TextKind::kOneline), "The answer");
  EXPECT_EQ(*ctx->LookupInDomText(MakeInDom(251, 0), TextKind::kOneline), "Two shelves");
  EXPECT_EQ(PcpCode(ctx->Fetch({&ids[0], 1}).status()), 0);
}

TEST(LocalDsoTest, TwoContextsShareTheLibrary) {
  const std::string config = WriteConfig(
      "dso2.conf", std::string("dsotest 251 dso dsotest_init ") + PMAPI_DSOTEST_PATH + " pmns=" + kNamespace + "\n");
  absl::StatusOr<Context> a = Open(config, nullptr);
  absl::StatusOr<Context> b = Open(config, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  PmID id = MakePmID(251, 0, 0);
  EXPECT_EQ(a->Fetch({&id, 1})->sets()[0].numval, 1);
  a = absl::StatusOr<Context>(PcpError(kErrGeneric));  // closes a's agent
  EXPECT_EQ(b->Fetch({&id, 1})->sets()[0].numval, 1);
}

TEST(LocalDsoTest, UnloadableAgentsAreLeftOut) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = Open(
      WriteConfig("bad.conf",
                  "missing 240 dso missing_init /nonexistent/pmda_missing.so\n"
                  // a shared object that is not one of our agents
                  "libm 241 dso cos /lib/x86_64-linux-gnu/libm.so.6\n" +
                      std::string("noinit 242 dso nosuch_init ") + PMAPI_DSOTEST_PATH + "\n"
                      "nobuiltin 243 builtin nosuch_init\n"),
      &warnings);
  ASSERT_TRUE(ctx.ok());
  // One warning per agent that did not load (with no name-space file
  // named, the default name space may add its own about their names).
  int load_warnings = 0;
  for (const std::string& w : warnings) {
    if (w.find("name space") == std::string::npos) ++load_warnings;
  }
  EXPECT_EQ(load_warnings, 4) << warnings.size();
  for (unsigned d : {240u, 241u, 242u, 243u}) {
    PmID id = MakePmID(d, 0, 0);
    EXPECT_EQ(PcpCode(ctx->LookupDesc(id).status()), kErrNoagent) << d;
    EXPECT_EQ(ctx->Fetch({&id, 1})->sets()[0].numval, kErrNoagent) << d;
  }
}

TEST(LocalDsoTest, DuplicateDomainKeepsTheFirst) {
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx = Open(
      WriteConfig("dup.conf", std::string("dsotest 251 dso dsotest_init ") + PMAPI_DSOTEST_PATH +
                                  " pmns=" + kNamespace + "\nagain 251 dso dsotest_init " + PMAPI_DSOTEST_PATH + "\n"),
      &warnings);
  ASSERT_TRUE(ctx.ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("already has an agent"), std::string::npos);
}

// A shared object is looked for as PCP's local context looks: the path as
// given, below $PCP_PMDAS_DIR, and either with ".so" added.
TEST(LocalDsoTest, FoundAsPcpLooksForIt) {
  const std::string path = PMAPI_DSOTEST_PATH;
  const std::string dir = path.substr(0, path.rfind('/'));
  const std::string file = path.substr(dir.size() + 1);
  const std::string stem = file.substr(0, file.size() - 3);  // without ".so"
  setenv("PCP_PMDAS_DIR", dir.c_str(), 1);
  for (const std::string& named : {dir + "/" + stem, file, stem}) {
    std::vector<std::string> warnings;
    absl::StatusOr<Context> ctx = Open(
        WriteConfig("find.conf", "dsotest 251 dso dsotest_init " + named + " pmns=" + kNamespace + "\n"), &warnings);
    ASSERT_TRUE(ctx.ok());
    EXPECT_TRUE(ctx->LookupName("dsotest.answer").ok()) << named << (warnings.empty() ? "" : warnings[0]);
  }
  std::vector<std::string> warnings;
  absl::StatusOr<Context> ctx =
      Open(WriteConfig("find.conf", "dsotest 251 dso dsotest_init nothere/x pmns=" + kNamespace + "\n"), &warnings);
  unsetenv("PCP_PMDAS_DIR");
  ASSERT_TRUE(ctx.ok());
  ASSERT_EQ(warnings.size(), 1u);
  // (a relative path with a directory in it is taken below the
  // configuration file's directory first)
  EXPECT_NE(warnings[0].find("cannot find DSO at \""), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("nothere/x.so\" or \""), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace pmapi
