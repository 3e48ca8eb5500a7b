// Checks ErrStr against PCP 6.0.3's pmErrStr for every code in the golden
// table tests/data/oracle/errstr.tsv (made by tests/oracle/regen.sh).
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

TEST(ErrorsTest, EveryCodeMatchesPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/errstr.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    int code = std::stoi(line.substr(0, tab));
    EXPECT_EQ(ErrStr(code), line.substr(tab + 1)) << "code " << code;
    ++rows;
  }
  EXPECT_GT(rows, 20000);
}

TEST(ErrorsTest, StatusCarriesCode) {
  absl::Status s = PcpError(kErrName);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(PcpCode(s), -12357);
  EXPECT_EQ(s.message(), "Unknown metric name");
  EXPECT_EQ(PcpCode(PcpError(kErrEol, "pmFetch")), kErrEol);
  EXPECT_EQ(PcpError(kErrEol, "pmFetch").message(), "pmFetch: End of PCP archive log");
  EXPECT_EQ(PcpCode(absl::OkStatus()), 0);
  EXPECT_EQ(PcpCode(absl::InternalError("x")), kErrGeneric);
}

TEST(ErrorsTest, Names) {
  EXPECT_EQ(ErrName(kErrIpc), "PM_ERR_IPC");
  EXPECT_EQ(ErrName(-1), "");
}

}  // namespace
}  // namespace pmapi
