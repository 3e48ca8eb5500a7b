// host_sigpipe_test: a client of a host context ignores SIGPIPE as libpcp
// makes its clients do (on the first PDU sent), so pminfo writing into a
// pipe whose reader has gone gets write errors and exits as PCP's does,
// not killed by the signal: `pminfo -f | head -1` under pipefail is 0.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {
namespace {

// The pipeline's status (the tool's, under pipefail), or -1.
int PipelineStatus(const std::string& tool) {
  const std::string shell = "cd /tmp && env -u PMCD_HOST " + PmcdEnv() +
                            "TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= bash -c 'set -o pipefail; " + tool +
                            " -h localhost -f | head -1 >/dev/null'";
  int rc = std::system(shell.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(HostSigpipe, PminfoIntoAClosedPipeExitsAsPcps) {
  const int pcp = PipelineStatus("/usr/bin/pminfo");
  EXPECT_EQ(pcp, 0);
  EXPECT_EQ(PipelineStatus(PMAPI_PMINFO), pcp);
}

}  // namespace
}  // namespace pmapi
