// test_agent.h: the test agent, the fixture for the library's own
// tests: a metric of every value type, static instance domains, storable
// metrics with range checks, help text, labels, a dynamic name subtree,
// event and high-resolution event metrics (fixed records carrying a
// parameter of every type, and missed records), and an instance domain
// kept in a pmdaCache whose instances are added, hidden and culled by
// storing to test.cache.control.
//
// It is built only with the tests, as the shared object pmda_test.so (the
// init function test_init), next to a copy of its help file; the build
// tree's pmdas/pmcd.conf (PMAPI_TEST_PMCDCONF) loads it.
//
// Example (a configuration line):
//   test 250 dso test_init test/pmda_test.so pmns=/src/pmdas/test/root_test
#ifndef PMAPI_PMDAS_TEST_TEST_AGENT_H_
#define PMAPI_PMDAS_TEST_TEST_AGENT_H_

#include "pmapi/pmda.h"

namespace pmapi {

// The test agent's init function (the shared object's test_init calls it).
// REQUIRES: dp.home() is the directory holding its "help" file.
void TestAgentInit(Pmda& dp);

}  // namespace pmapi

#endif  // PMAPI_PMDAS_TEST_TEST_AGENT_H_
