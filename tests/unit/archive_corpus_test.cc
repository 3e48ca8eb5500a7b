// Tests for the classes of difference the sweep of PCP's QA archives
// (tests/corpus) found, each on the pcp-testsuite archive that shows it:
// repeated instance-domain records, names padded with NULs, metrics of the
// derived domain that pmlogger logged, interpolated unsigned 64-bit
// counters, temporal indexes pointing inside records, and folders holding
// no archive.
// Skipped where Debian's pcp-testsuite is not installed.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/archive.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

const std::string kSuite = "/var/lib/pcp/testsuite/archives/";

std::unique_ptr<Archive> OpenSuiteArchive(const std::string& name) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kSuite + name);
  if (!a.ok()) {
    ADD_FAILURE() << name << ": " << a.status();
    return nullptr;
  }
  return std::move(*a);
}

class ArchiveCorpusTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kSuite + "540117-short.meta")) {
      GTEST_SKIP() << "pcp-testsuite is not installed";
    }
  }
};

// 540117-short holds each of two instance-domain records twice at one
// time; PCP keeps one of each.
TEST_F(ArchiveCorpusTest, RepeatedInDomRecordIsKeptOnce) {
  std::unique_ptr<Archive> a = OpenSuiteArchive("540117-short");
  ASSERT_NE(a, nullptr);
  size_t records = 0;
  size_t snapshots = 0;
  std::vector<InDom> seen;
  for (const StoredInDomRecord& r : a->indom_records()) {
    ++records;
    if (std::find(seen.begin(), seen.end(), r.indom) != seen.end()) continue;
    seen.push_back(r.indom);
    snapshots += a->InDomHistory(r.indom)->size();
  }
  EXPECT_EQ(records, snapshots + 2);
}

// bigace_v2 has records of one time that differ, and later repeats of
// earlier ones of that time. A repeat becomes the latest of its time, and
// values read then are named from the latest: at 05:11:15.932888 PCP
// names instance 7733366 "7733366 isql AWAITING COMMAND", the record
// repeated after "7733366 isql COMMIT TRANSACTI".
TEST_F(ArchiveCorpusTest, RepeatBecomesTheLatestOfItsTime) {
  std::unique_ptr<Archive> a = OpenSuiteArchive("bigace_v2");
  ASSERT_NE(a, nullptr);
  int slots = 0;
  bool awaiting_after_commit = false;
  for (InDom indom : a->indoms()) {
    const std::vector<InDomSnapshot>& h = *a->InDomHistory(indom);
    for (size_t i = 1; i < h.size(); ++i) {
      if (h[i].stamp != h[i - 1].stamp) continue;
      EXPECT_NE(h[i].entries, h[i - 1].entries);  // no two alike
      if (i + 1 < h.size() && h[i + 1].stamp == h[i].stamp) continue;
      ++slots;  // h[i] is the latest of its time
      for (size_t k = 0; k < h[i].size(); ++k) {
        std::optional<std::string_view> n = a->InstanceName(indom, h[i].inst(k), h[i].stamp);
        ASSERT_TRUE(n.has_value());
        EXPECT_EQ(*n, h[i].name(k));
      }
      size_t at = h[i].Find(Inst{7733366});
      size_t before = h[i - 1].Find(Inst{7733366});
      if (at < h[i].size() && before < h[i - 1].size() &&
          h[i].name(at) == "7733366 isql AWAITING COMMAND" &&
          h[i - 1].name(before) == "7733366 isql COMMIT TRANSACTI") {
        awaiting_after_commit = true;
      }
    }
  }
  EXPECT_GT(slots, 0);
  EXPECT_TRUE(awaiting_after_commit);
}

// vldb-disks stores the name disk.dev.total with NULs after it inside the
// name's length; the name ends at the first of them.
TEST_F(ArchiveCorpusTest, NameEndsAtItsFirstNul) {
  std::unique_ptr<Archive> a = OpenSuiteArchive("vldb-disks");
  ASSERT_NE(a, nullptr);
  absl::StatusOr<PmID> id = a->pmns().LookupName("disk.dev.total");
  ASSERT_TRUE(id.ok()) << id.status();
  const MetricDesc* d = a->FindDesc(*id);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->names.size(), 1u);
  EXPECT_EQ(d->names[0], "disk.dev.total");
}

// log-derived holds values pmlogger logged for derived metrics, under
// PMIDs of the derived domain (511.2048.N); a fetch reads them from the
// records like any other metric's.
TEST_F(ArchiveCorpusTest, LoggedDerivedDomainMetricIsFetched) {
  absl::StatusOr<Context> ctx = Context::OpenArchive(kSuite + "log-derived");
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  absl::StatusOr<PmID> id = ctx->LookupName("mem.util.allcache");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, MakePmID(511, 2048, 1));
  std::unique_ptr<Archive> a = OpenSuiteArchive("log-derived");
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(ctx->SetMode(Mode::kForw, absl::FromUnixNanos(a->label().start.nanos()),
                           absl::ZeroDuration())
                  .ok());
  PmID ids[] = {*id};
  absl::StatusOr<Result> r = ctx->Fetch(ids);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->numpmid(), 1);
  ASSERT_EQ(r->sets()[0].numval, 1);
  uint64_t v = 0;
  ValueView view = r->value(r->sets()[0], 0);
  ASSERT_EQ(view.payload.size(), 8u);
  std::memcpy(&v, view.payload.data(), 8);
  EXPECT_EQ(v, 10607260u);
}

// babylon.pmview_v2 logged disk.all.read and disk.all.write (unsigned
// 64-bit counters) in blocks of vtype 0 whose bytes make values of every
// sign. Interpolated, each is computed as libpcp computes it (the prior
// value and the difference taken as signed) and comes back as a block of
// the metric's type; the expected values are libpcp's own.
TEST_F(ArchiveCorpusTest, InterpolatedUnsignedCounterIsLibpcps) {
  absl::StatusOr<Context> ctx = Context::OpenArchive(kSuite + "babylon.pmview_v2");
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  struct Case {
    int64_t t_ns;
    PmID pmid;
    uint64_t want;
  } cases[] = {
      {826658351170775000, MakePmID(1, 82, 11), 0x541499bb11984800u},
      {826658360170775000, MakePmID(1, 82, 11), 0x0dae97818fd5be00u},
      {826658411170775000, MakePmID(1, 82, 10), 0xa0b0be13e03d7800u},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(ctx->SetMode(Mode::kInterp, absl::FromUnixNanos(c.t_ns), absl::Seconds(1)).ok());
    PmID ids[] = {c.pmid};
    absl::StatusOr<Result> r = ctx->Fetch(ids);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->sets()[0].numval, 1) << c.t_ns;
    ValueView v = r->value(r->sets()[0], 0);
    EXPECT_EQ(v.vtype, kTypeU64);
    ASSERT_EQ(v.payload.size(), 8u);
    uint64_t got = 0;
    std::memcpy(&got, v.payload.data(), 8);
    EXPECT_EQ(got, c.want) << c.t_ns;
  }
}

// binning's temporal index is 20 bytes off: its entries point inside
// records, and its last past the end of the file. libpcp positions at the
// nearer entry and fails to read a record there; so does a positioning
// that would use one, and one at the start (the first entry, at the end
// of the label) reads on.
TEST_F(ArchiveCorpusTest, IndexEntryInsideARecordIsLogrec) {
  std::unique_ptr<Archive> a = OpenSuiteArchive("binning");
  ASSERT_NE(a, nullptr);
  absl::StatusOr<ArchiveTime> end = a->End();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(PcpCode(a->CheckIndexedPosition(*end, true)), kErrLogrec);
  const ArchiveTime late = ArchiveTime::FromNanos(end->nanos() - 300 * int64_t{1000000000});
  EXPECT_EQ(PcpCode(a->CheckIndexedPosition(late)), kErrLogrec);
  EXPECT_TRUE(a->CheckIndexedPosition(a->label().start).ok());
  absl::StatusOr<Context> ctx = Context::OpenArchive(kSuite + "binning");
  ASSERT_TRUE(ctx.ok());
  ASSERT_TRUE(ctx->SetMode(Mode::kBack, absl::FromUnixNanos(end->nanos()), absl::ZeroDuration()).ok());
  EXPECT_EQ(PcpCode(ctx->FetchArchive().status()), kErrLogrec);
}

// multi-corrupted's third archive ends in a damaged record. Interpolating
// over the folder, libpcp reads into the damage as soon as a metric it
// has seen wants a next observation that is not before it: at 15:51:04
// for filesys.blocksize, logged once at the start of each archive. A
// fetch of event.flags alone reads no record and never meets it.
TEST_F(ArchiveCorpusTest, InterpolationMeetsDamageWhenANextObservationIsWanted) {
  auto samples = [](const char* name) {
    absl::StatusOr<Context> ctx = Context::OpenArchive(kSuite + "multi-corrupted");
    EXPECT_TRUE(ctx.ok()) << ctx.status();
    absl::StatusOr<PmID> id = ctx->LookupName(name);
    EXPECT_TRUE(id.ok()) << name;
    absl::StatusOr<ArchiveLabel> label = ctx->GetArchiveLabel();
    EXPECT_TRUE(label.ok());
    const absl::Time start = absl::FromUnixNanos(label->start.nanos());
    EXPECT_TRUE(ctx->SetMode(Mode::kInterp, start, absl::Seconds(60)).ok());
    PmID ids[] = {*id};
    int good = 0;
    for (; good < 16; ++good) {
      absl::StatusOr<Result> r = ctx->Fetch(ids);
      if (!r.ok()) {
        EXPECT_EQ(PcpCode(r.status()), kErrLogrec) << name;
        break;
      }
    }
    return good;
  };
  EXPECT_EQ(samples("filesys.blocksize"), 7);
  EXPECT_EQ(samples("event.flags"), 16);
}

// A folder holding no archive (empty, or with other files only) names no
// log file: PM_ERR_LOGFILE, as PCP says, not ENOENT. So does an empty name,
// and a list of empty names (where PCP's libpcp crashes).
TEST(ArchiveFolderTest, FolderWithoutArchivesIsLogfileError) {
  char tmpl[] = "/tmp/archive_corpus_test.XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  absl::StatusOr<Context> empty = Context::OpenArchive(dir);
  EXPECT_EQ(PcpCode(empty.status()), kErrLogfile);
  std::ofstream(dir + "/notes.txt") << "not an archive\n";
  absl::StatusOr<Context> other = Context::OpenArchive(dir);
  EXPECT_EQ(PcpCode(other.status()), kErrLogfile);
  for (const char* spec : {"", ","}) {
    absl::StatusOr<Context> none = Context::OpenArchive(spec);
    EXPECT_EQ(PcpCode(none.status()), kErrLogfile) << '"' << spec << '"';
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pmapi
