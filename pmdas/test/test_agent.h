// test_agent.h: the built-in test agent, the fixture for the library's own
// tests: a metric of every value type, static instance domains, storable
// metrics with range checks, help text, labels and a dynamic name subtree.
// (Event-type metrics are pending the event record support.)
//
// Example (a configuration line):
//   test 250 builtin test_init test pmns=../pmns/namespaces/root_test
#ifndef PMAPI_PMDAS_TEST_TEST_AGENT_H_
#define PMAPI_PMDAS_TEST_TEST_AGENT_H_

#include "pmapi/pmda.h"

namespace pmapi {

// The test agent's init function (test_init). REQUIRES: dp.home() is the
// directory holding its "help" file.
void TestAgentInit(Pmda& dp);

}  // namespace pmapi

#endif  // PMAPI_PMDAS_TEST_TEST_AGENT_H_
