// zone_options_test: our pminfo and pmval and PCP's, run side by side with
// -z, -Z and -O on reference archives: the zone note, origins in every form
// (offsets, @ctime, dates, bad times), event timestamps in the chosen zone,
// and the option errors (-z with -Z, -z without a source). Output, errors
// and exit status must be identical.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "same_as_pcp.h"

namespace pmapi {
namespace {

TEST(PminfoZone, SameAsPcp) {
  const std::string ref = std::string(PMAPI_TEST_DATA_DIR) + "/archives/reference/";
  const std::string v3 = ref + "small-v3/small-v3";
  const std::string events = ref + "events/events";
  const std::vector<std::string> lines = {
      "-z -f sample.long.one",
      "-L -z -f sample.long.one",
      "-a " + v3 + " -z -Z UTC -f sample.long.one",
      "-a " + v3 + " -Z UTC -z -f sample.long.one",
      "-a " + v3 + " -z -f sample.long.one",
      "-a " + v3 + " -Z EST5EDT -O @20:43:30 -f sample.seconds",
      "-a " + v3 + " -O junk -Z UTC -f sample.seconds",
      "-a " + ref + "small-v2/small-v2 -O @01:43:00 -f sample.seconds",
      "-a " + v3 + " -O +5 -f sample.seconds",
      "-a " + v3 + " -O -5 -f sample.seconds",
      "-a " + v3 + " -O +1000 -f sample.seconds",
      "-a " + v3 + " -O @01:43:30.5 -f sample.seconds sample.long.one",
      "-a " + ref + "multivol-v3/multivol-v3 -O @01:43:45 -f sample.seconds",
      "-a " + v3 + " -O '2026-11-22 01:43:40' -f sample.seconds",
      "-a " + events + " -z -x -f sample.event.records",
      "-a " + events + " -Z EST5EDT -x -f sample.event.records",
      "-a " + ref + "events-v3/events-v3 -Z Australia/Melbourne -f sample.event.highres_records",
  };
  for (const std::string& line : lines) {
    ToolRun pcp = ExpectSameAsPcp("pminfo " + line);
    EXPECT_FALSE(pcp.out.empty() && pcp.err.empty()) << line;
  }
}

// pmval's event records and their parameters, stamped in the chosen zone.
TEST(PmvalZone, EventStampsSameAsPcp) {
  const std::string ref = std::string(PMAPI_TEST_DATA_DIR) + "/archives/reference/";
  const std::vector<std::string> lines = {
      "-a " + ref + "events/events -Z EST5EDT -s 3 sample.event.records",
      "-a " + ref + "events/events -z -s 3 sample.event.records",
      "-a " + ref + "events-v3/events-v3 -Z EST5EDT -s 3 sample.event.highres_records",
      "-a " + ref + "events/events -Z Australia/Melbourne -s 3 -x . sample.event.records",
  };
  for (const std::string& line : lines) {
    ToolRun pcp = ExpectSameAsPcp("pmval " + line);
    EXPECT_NE(pcp.out.find("event record"), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace pmapi
