// proc.psinfo.{ttyname,environ,labels} of the built-in proc agent over a
// made-up tree below PROC_STATSPATH: terminal names from the tree's
// /proc/tty/drivers as PCP's agent looks them up, the environment with its
// NULs as blanks (and PCP's agent's buffer that only grows between
// successful reads), and the security label read until it is read once.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A stat line whose tty_nr (field 7) is `tty`.
std::string StatLine(int pid, unsigned tty) {
  return std::to_string(pid) + " (p) S 1 1 1 " + std::to_string(tty) +
         " -1 0 0 0 0 0 1 2 0 0 20 0 1 0 100 1000 20 0 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
}

class ProcPsinfoTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = testing::TempDir() + "/psinfo.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    std::filesystem::create_directories(root_ + "/proc/tty");
    WriteFile(root_ + "/proc/tty/drivers",
              "/dev/tty             /dev/tty        5       0 system:/dev/tty\n"
              "serial               /dev/ttyS       4      64 serial\n"
              "pty_slave            /dev/pts      136 0-1048575 pty:slave\n"
              "unknown              /dev/tty        4 1-63 console\n");
    // pid: tty_nr (0: none; 4:64 ttyS; 136:5 pts/5; 5:0 tty)
    for (auto [pid, tty] : std::map<int, unsigned>{{10, 0}, {11, (4 << 8) | 64}, {12, (136 << 8) | 5}, {13, 5 << 8}}) {
      const std::string dir = root_ + "/proc/" + std::to_string(pid);
      std::filesystem::create_directories(dir + "/attr");
      WriteFile(dir + "/stat", StatLine(pid, tty));
      WriteFile(dir + "/cmdline", std::string("p\0", 2));
      WriteFile(dir + "/environ", std::string("A=1\0LONGER=22\0", 14));
    }
    WriteFile(root_ + "/proc/12/attr/current", "unconfined\n");
    setenv("PROC_STATSPATH", root_.c_str(), 1);
    LocalOptions opts;
    opts.config_path = PMAPI_TEST_PMCDCONF;
    absl::StatusOr<Context> c = OpenLocalContext(opts);
    unsetenv("PROC_STATSPATH");
    ASSERT_TRUE(c.ok()) << c.status();
    ctx_.emplace(*std::move(c));
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  // The string values of `name` by process id.
  std::map<Inst, std::string> Strings(const char* name) {
    std::map<Inst, std::string> out;
    absl::StatusOr<PmID> id = ctx_->LookupName(name);
    EXPECT_TRUE(id.ok()) << name;
    if (!id.ok()) return out;
    absl::StatusOr<Result> r = ctx_->Fetch({&*id, 1});
    EXPECT_TRUE(r.ok()) << name;
    if (!r.ok()) return out;
    const ValueSet& vs = r->sets()[0];
    for (int j = 0; j < vs.numval; ++j) {
      const ValueView v = r->value(vs, j);
      std::string s(v.payload.begin(), v.payload.end());
      if (!s.empty() && s.back() == '\0') s.pop_back();
      out[v.inst] = s;
    }
    return out;
  }

  std::string root_;
  std::optional<Context> ctx_;
};

TEST_F(ProcPsinfoTest, TerminalNamesAsPcpLooksThemUp) {
  // 4:64 is ttyS's only minor; 136:5 one of pts's range; 5:0 the tty
  // driver's only minor; 0 is no terminal
  EXPECT_EQ(Strings("proc.psinfo.ttyname"),
            (std::map<Inst, std::string>{
                {Inst{10}, "?"}, {Inst{11}, "ttyS"}, {Inst{12}, "pts/5"}, {Inst{13}, "tty"}}));
}

TEST_F(ProcPsinfoTest, EnvironmentKeepsPcpsBuffer) {
  EXPECT_EQ(Strings("proc.psinfo.environ").at(Inst{10}), "A=1 LONGER=22");
  // a shorter environment afterwards shows the rest of the longer one, as
  // PCP's agent's buffer does; an empty one gives ""
  WriteFile(root_ + "/proc/10/environ", std::string("B=2\0", 4));
  WriteFile(root_ + "/proc/11/environ", "");
  std::map<Inst, std::string> env = Strings("proc.psinfo.environ");
  EXPECT_EQ(env.at(Inst{10}), "B=2  ONGER=22");  // the read's own NUL took the L
  EXPECT_EQ(env.at(Inst{11}), "");
}

TEST_F(ProcPsinfoTest, LabelReadUntilReadOnce) {
  for (const char* pid : {"10", "11", "13"}) WriteFile(root_ + "/proc/" + pid + "/attr/current", "kernel\n");
  std::map<Inst, std::string> labels = Strings("proc.psinfo.labels");
  EXPECT_EQ(labels.at(Inst{12}), "unconfined");
  EXPECT_EQ(labels.at(Inst{10}), "kernel");
  WriteFile(root_ + "/proc/12/attr/current", "changed\n");
  EXPECT_EQ(Strings("proc.psinfo.labels").at(Inst{12}), "unconfined");
}

// Processes without the file answer as PCP's agent answers (the metric is
// not supported): with no value at all, that error stands for the fetch.
TEST_F(ProcPsinfoTest, MissingLabelFile) {
  std::filesystem::remove(root_ + "/proc/12/attr/current");
  absl::StatusOr<PmID> id = ctx_->LookupName("proc.psinfo.labels");
  ASSERT_TRUE(id.ok());
  absl::StatusOr<Result> r = ctx_->Fetch({&*id, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sets()[0].numval, kErrAppversion);
}

}  // namespace
}  // namespace pmapi
