// same_as_pcp.h: runs one command line with our tool and with PCP's (see
// golden_live_tools.h) and expects the same exit status, standard output
// and standard error.
//
// Example:
//   pmapi::ToolRun pcp = pmapi::ExpectSameAsPcp("pminfo -a ARCHIVE -z -f m");
//   EXPECT_FALSE(pcp.out.empty());
#ifndef PMAPI_TESTS_INTEROP_SAME_AS_PCP_H_
#define PMAPI_TESTS_INTEROP_SAME_AS_PCP_H_

#include <string>

#include "golden_live_tools.h"
#include "gtest/gtest.h"

namespace pmapi {

// Returns PCP's run, for checks of its own.
inline ToolRun ExpectSameAsPcp(const std::string& command) {
  ToolRun ours = RunOurs(command);
  ToolRun pcp = RunPcp(command);
  EXPECT_EQ(ours.status, pcp.status) << command;
  EXPECT_EQ(ours.out, pcp.out) << command;
  EXPECT_EQ(ours.err, pcp.err) << command;
  return pcp;
}

}  // namespace pmapi

#endif  // PMAPI_TESTS_INTEROP_SAME_AS_PCP_H_
