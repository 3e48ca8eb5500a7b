// host_batch_test: our pminfo asks the private pmcd for names and values
// in batches of -b exactly as PCP 6.0.3's pminfo does (the same number of
// PMNS_NAMES and fetch requests for the same command), and asks for the
// descriptors of each batch in one DESC_IDS request where PCP's pminfo
// sends one DESC_REQ per metric. pmcd's own PDU counters
// (pmcd.pdu_in.*) are read before and after each run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "golden_live_tools.h"
#include "gtest/gtest.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"

namespace pmapi {
namespace {

struct Counts {
  int64_t names = 0;
  int64_t fetches = 0;
  int64_t desc_req = 0;
  int64_t desc_ids = 0;
};

Counts operator-(const Counts& a, const Counts& b) {
  return {a.names - b.names, a.fetches - b.fetches, a.desc_req - b.desc_req,
          a.desc_ids - b.desc_ids};
}

class PduCounters {
 public:
  PduCounters() {
    std::string socket = PmcdEnv();
    size_t at = socket.find("PMCD_SOCKET=");
    socket = socket.substr(at + 12, socket.find(' ', at) - at - 12);
    absl::StatusOr<Context> ctx = OpenHostContext("unix:" + socket);
    EXPECT_TRUE(ctx.ok()) << ctx.status();
    if (!ctx.ok()) return;
    ctx_.emplace(std::move(*ctx));
    const std::string names[] = {"pmcd.pdu_in.pmns_names", "pmcd.pdu_in.fetch",
                                 "pmcd.pdu_in.highres_fetch", "pmcd.pdu_in.desc_req",
                                 "pmcd.pdu_in.desc_ids"};
    for (const absl::StatusOr<PmID>& id : ctx_->LookupNames(names)) {
      EXPECT_TRUE(id.ok()) << id.status();
      ids_.push_back(id.value_or(kPmIDNull));
    }
  }

  // Reads the counters; each read costs pmcd one fetch request.
  Counts Read() {
    Counts c;
    if (!ctx_.has_value()) return c;
    absl::StatusOr<Result> r = ctx_->Fetch(ids_);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return c;
    auto value = [&](int i) -> int64_t {
      const ValueSet& vs = r->sets()[i];
      return vs.numval == 1 ? r->value(vs, 0).lval : -1;
    };
    c.names = value(0);
    c.fetches = value(1) + value(2);
    c.desc_req = value(3);
    c.desc_ids = value(4);
    return c;
  }

 private:
  std::optional<Context> ctx_;
  std::vector<PmID> ids_;
};

struct Runs {
  Counts ours;
  Counts pcp;
};

Runs Measure(const std::string& command) {
  PduCounters counters;
  Counts before = counters.Read();
  ToolRun ours = RunOurs(command);
  Counts middle = counters.Read();
  ToolRun pcp = RunPcp(command);
  Counts after = counters.Read();
  EXPECT_EQ(ours.status, pcp.status) << command;
  EXPECT_EQ(ours.err, pcp.err) << command;
  return {middle - before, after - middle};
}

TEST(HostBatch, DescriptorsComeOnePduPerBatch) {
  Runs r = Measure("pminfo -d -b 10 sample");
  EXPECT_EQ(r.ours.names, r.pcp.names);
  EXPECT_GT(r.ours.names, 10);
  // At most one per batch of names (a batch of one uses DESC_REQ).
  EXPECT_GE(r.ours.desc_ids, 10);
  EXPECT_LE(r.ours.desc_ids, r.ours.names);
  EXPECT_EQ(r.pcp.desc_ids, 0);
  EXPECT_GT(r.pcp.desc_req, 100);
  EXPECT_LT(r.ours.desc_req, 10);
}

TEST(HostBatch, ValuesComeOneFetchPerBatch) {
  for (const char* cmd : {"pminfo -f -b 7 sample.long sample.colour sample.string",
                          "pminfo -f sample", "pminfo -f -b 1 sample.long",
                          "pminfo -v -b 50 sampledso"}) {
    Runs r = Measure(cmd);
    EXPECT_EQ(r.ours.names, r.pcp.names) << cmd;
    EXPECT_EQ(r.ours.fetches, r.pcp.fetches) << cmd;
  }
}

TEST(HostBatch, NamesAloneAreNotLookedUp) {
  Runs r = Measure("pminfo sample");
  EXPECT_EQ(r.ours.names, r.pcp.names);
  EXPECT_LT(r.ours.names, 5);
}

TEST(HostBatch, ForcedInstancesFetchAgainAsPcpDoes) {
  const std::string cmd = "pminfo -F sample.needprofile";
  Runs r = Measure(cmd);
  EXPECT_EQ(r.ours.fetches, r.pcp.fetches);
  EXPECT_EQ(RunOurs(cmd).out, RunPcp(cmd).out);
}

}  // namespace
}  // namespace pmapi
