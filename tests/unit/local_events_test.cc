// The test agent's event metrics and cache-backed instance domain through
// a local context: the event round trip (agent -> packed array -> fetch ->
// UnpackEventRecords / UnpackHighResEventRecords) for a parameter of every
// type, missed records and flags, in both resolutions; instances that come
// and go in a pmdaCache; and pmval's report of both.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "golden_runner.h"
#include "local_fixture.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/extract.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

const std::string& kConfig = kLocalTestConfig;
constexpr int64_t kSec = 1700000000;

class LocalEventsTest : public LocalFixture {
 protected:
  std::vector<Result> Records(const std::string& name, bool highres) {
    Result r = FetchOne(name);
    EXPECT_EQ(r.sets().size(), 1u);
    if (r.sets().size() != 1) return {};
    const ValueSet& vs = r.sets()[0];
    EXPECT_EQ(vs.numval, 1);
    EXPECT_EQ(vs.valfmt, kValDptr);
    if (vs.numval != 1) return {};
    ValueView v = r.value(vs, 0);
    EXPECT_EQ(v.vtype, highres ? kTypeHighResEvent : kTypeEvent);
    absl::StatusOr<std::vector<Result>> recs =
        highres ? UnpackHighResEventRecords(v, vs.valfmt) : UnpackEventRecords(v, vs.valfmt);
    EXPECT_TRUE(recs.ok()) << recs.status();
    return recs.ok() ? *std::move(recs) : std::vector<Result>{};
  }
  absl::Status StoreString(const std::string& name, const std::string& text) {
    Result r;
    r.AddSet(Id(name), 1, kValDptr);
    std::string payload = text + '\0';
    r.AddBlock(kInNull, kTypeString,
               std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()));
    return ctx_->Store(r);
  }
  std::vector<Instance> CacheInstances() {
    absl::StatusOr<Desc> d = ctx_->LookupDesc(Id("test.cache.value"));
    EXPECT_TRUE(d.ok());
    absl::StatusOr<std::vector<Instance>> in = ctx_->GetInDom(d->indom);
    EXPECT_TRUE(in.ok()) << in.status();
    return in.ok() ? *in : std::vector<Instance>{};
  }
};

// Finds the value of `pmid` in one record.
const ValueSet* Param(const Result& rec, PmID pmid) {
  for (const ValueSet& vs : rec.sets()) {
    if (vs.pmid == pmid) return &vs;
  }
  return nullptr;
}

AtomValue Extract(const Result& rec, const ValueSet& vs, int type) {
  absl::StatusOr<AtomValue> a = ExtractValue(vs.valfmt, rec.value(vs, 0), type, type);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : AtomValue();
}

void CheckRecords(const std::vector<Result>& recs, bool highres) {
  ASSERT_EQ(recs.size(), 3u);
  // record 0: a point with a parameter of every type
  EXPECT_EQ(recs[0].timestamp_ns(), kSec * 1000000000 + (highres ? 123456789 : 123456000));
  const ValueSet* flags = Param(recs[0], kEventFlagsPmid);
  ASSERT_NE(flags, nullptr);
  EXPECT_EQ(static_cast<uint32_t>(recs[0].value(*flags, 0).lval), kEventFlagPoint);
  struct Want {
    unsigned item;
    int type;
  };
  const Want kWant[] = {{2, kType32},    {3, kTypeU32},    {4, kType64},     {5, kTypeU64},
                        {6, kTypeFloat}, {7, kTypeDouble}, {8, kTypeString}, {9, kTypeAggregate}};
  for (const Want& w : kWant) {
    const ValueSet* vs = Param(recs[0], MakePmID(250, 4, w.item));
    ASSERT_NE(vs, nullptr) << "item " << w.item;
    ASSERT_EQ(vs->numval, 1);
    const AtomValue a = Extract(recs[0], *vs, w.type);
    switch (w.type) {
      case kType32: EXPECT_EQ(vs->valfmt, kValInsitu); EXPECT_EQ(a.l, -3); break;
      case kTypeU32: EXPECT_EQ(a.ul, 4000000000u); break;
      case kType64: EXPECT_EQ(a.ll, -5000000000LL); break;
      case kTypeU64: EXPECT_EQ(a.ull, 18000000000000000000ULL); break;
      case kTypeFloat: EXPECT_EQ(a.f, 1.5f); break;
      case kTypeDouble: EXPECT_EQ(a.d, -2.25); break;
      case kTypeString: EXPECT_EQ(a.bytes, "event string"); break;
      default: EXPECT_EQ(a.bytes, std::string("\x01\x02\x00\xff", 4)); break;
    }
    if (w.type != kType32 && w.type != kTypeU32) {
      EXPECT_EQ(recs[0].value(*vs, 0).vtype, w.type);
    }
  }
  // record 1: seven missed records, flags and count only
  EXPECT_EQ(recs[1].timestamp_ns(), (kSec + 1) * 1000000000);
  ASSERT_EQ(recs[1].sets().size(), 2u);
  EXPECT_EQ(static_cast<uint32_t>(recs[1].value(recs[1].sets()[0], 0).lval), kEventFlagMissed);
  const ValueSet* missed = Param(recs[1], kEventMissedPmid);
  ASSERT_NE(missed, nullptr);
  EXPECT_EQ(recs[1].value(*missed, 0).lval, 7);
  // record 2: a start record with one string
  EXPECT_EQ(recs[2].timestamp_ns(), (kSec + 2) * 1000000000 + 500000000);
  ASSERT_EQ(recs[2].sets().size(), 2u);
  EXPECT_EQ(static_cast<uint32_t>(recs[2].value(recs[2].sets()[0], 0).lval),
            kEventFlagStart | kEventFlagId);
  const ValueSet* last = Param(recs[2], MakePmID(250, 4, 8));
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(Extract(recs[2], *last, kTypeString).bytes, "last");
}

TEST_F(LocalEventsTest, DescriptorsOfEventMetrics) {
  EXPECT_EQ(ctx_->LookupDesc(Id("test.event.records"))->type, kTypeEvent);
  EXPECT_EQ(ctx_->LookupDesc(Id("test.event.highres_records"))->type, kTypeHighResEvent);
  EXPECT_EQ(ctx_->LookupDesc(Id("test.event.param_aggregate"))->type, kTypeAggregate);
}

TEST_F(LocalEventsTest, RecordsRoundTripEveryParameterType) {
  CheckRecords(Records("test.event.records", false), false);
  // a second fetch refills the same array
  CheckRecords(Records("test.event.records", false), false);
}

TEST_F(LocalEventsTest, HighResRecordsRoundTripEveryParameterType) {
  CheckRecords(Records("test.event.highres_records", true), true);
  CheckRecords(Records("test.event.highres_records", true), true);
}

TEST_F(LocalEventsTest, ResolutionMismatchIsAnError) {
  Result r = FetchOne("test.event.records");
  const ValueSet& vs = r.sets()[0];
  EXPECT_EQ(PcpCode(UnpackHighResEventRecords(r.value(vs, 0), vs.valfmt).status()), kErrType);
  EXPECT_EQ(PcpCode(UnpackEventRecords(r.value(vs, 0), kValInsitu).status()), kErrConv);
}

TEST_F(LocalEventsTest, ParametersHaveNoValuesOfTheirOwn) {
  Result r = FetchOne("test.event.param_string");
  EXPECT_EQ(r.sets()[0].numval, 0);
}

TEST_F(LocalEventsTest, CacheInstancesComeAndGo) {
  std::vector<Instance> in = CacheInstances();
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[0].name, "alpha");
  EXPECT_EQ(in[1].name, "beta");
  EXPECT_EQ(in[2].name, "gamma");
  const Inst beta = in[1].id;
  ASSERT_TRUE(StoreString("test.cache.control", "add delta").ok());
  ASSERT_TRUE(StoreString("test.cache.control", "hide beta").ok());
  in = CacheInstances();
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[2].name, "delta");
  Result r = FetchOne("test.cache.value");
  ASSERT_EQ(r.sets()[0].numval, 3);
  for (int j = 0; j < 3; ++j) EXPECT_NE(r.value(r.sets()[0], j).inst, beta);
  EXPECT_EQ(PcpCode(ctx_->LookupInDom(ctx_->LookupDesc(Id("test.cache.value"))->indom, "beta").status()),
            kErrInst);
  // reactivated, beta keeps its instance number
  ASSERT_TRUE(StoreString("test.cache.control", "add beta").ok());
  in = CacheInstances();
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[1].id, beta);
  EXPECT_EQ(in[1].name, "beta");
  // culled, it is forgotten
  ASSERT_TRUE(StoreString("test.cache.control", "cull beta").ok());
  EXPECT_EQ(CacheInstances().size(), 3u);
  EXPECT_EQ(PcpCode(StoreString("test.cache.control", "hide nobody")), kErrInst);
  EXPECT_EQ(PcpCode(StoreString("test.cache.control", "explode")), kErrConv);
  // values follow the instances: ten times the name length plus the number
  r = FetchOne("test.cache.value");
  ASSERT_EQ(r.sets()[0].numval, 3);
  for (int j = 0; j < 3; ++j) {
    ValueView v = r.value(r.sets()[0], j);
    absl::StatusOr<std::string> name = ctx_->NameInDom(ctx_->LookupDesc(Id("test.cache.value"))->indom, v.inst);
    ASSERT_TRUE(name.ok());
    EXPECT_EQ(static_cast<uint32_t>(v.lval),
              name->size() * 10 + static_cast<uint32_t>(ToPcp(v.inst)));
  }
}

// pmval's live report of the agent's records; the text follows PCP's
// pmval event layout (record stamps in the reporting zone, three or nine
// decimals, flags, parameters, the missed count).
std::string RunPmval(const std::string& args, int* status) {
  const std::string shell = "cd /tmp && env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= "
                            "PCP_PMCDCONF_PATH='" + kConfig + "' '" + golden::SelfDir() + "/../tools/pmval' " +
                            args + " 2>&1";
  std::string out;
  FILE* p = popen(shell.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int rc = pclose(p);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

std::string ShellHostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string Report(const std::string& metric, const std::string& frac3, const std::string& frac0,
                   const std::string& frac5) {
  return metric + ": 3 event records\n"
         "  22:13:20." + frac3 + " --- event record [0] flags 0x1 (point) ---\n"
         "    test.event.param_32 -3\n"
         "    test.event.param_u32 4000000000\n"
         "    test.event.param_64 -5000000000\n"
         "    test.event.param_u64 18000000000000000000\n"
         "    test.event.param_float 1.5\n"
         "    test.event.param_double -2.25\n"
         "    test.event.param_string \"event string\"\n"
         "    test.event.param_aggregate [010200ff]\n"
         "  22:13:21." + frac0 + " --- event record [1] flags 0x80000000 (missed) ---\n"
         "    ==> 7 missed event records\n"
         "  22:13:22." + frac5 + " --- event record [2] flags 0xa (start,id) ---\n"
         "    test.event.param_string \"last\"\n";
}

TEST(PmvalLocalEvents, RecordsAsPcpPrintsThem) {
  int status = -1;
  std::string out = RunPmval("-L -s 2 -t 0.05 test.event.records", &status);
  EXPECT_EQ(status, 0);
  const std::string one = Report("test.event.records", "123", "000", "500");
  EXPECT_EQ(out, "host:      " + ShellHostname() + "\nsamples:   2\ninterval:  0.05 sec\n" + one + one);
}

TEST(PmvalLocalEvents, HighResRecordsAsPcpPrintsThem) {
  int status = -1;
  std::string out = RunPmval("-L -s 1 test.event.highres_records", &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(out, "host:      " + ShellHostname() + "\nsamples:   1\n" +
                     Report("test.event.highres_records", "123456789", "000000000", "500000000"));
}

TEST(PmvalLocalEvents, CacheIndomColumns) {
  int status = -1;
  std::string out = RunPmval("-L -s 1 test.cache.value", &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(out, "\nmetric:    test.cache.value\nhost:      " + ShellHostname() +
                     "\nsemantics: instantaneous value\nunits:     none\nsamples:   1\n\n"
                     "      alpha        beta       gamma \n"
                     "         50          41          52 \n");
}

}  // namespace
}  // namespace pmapi
