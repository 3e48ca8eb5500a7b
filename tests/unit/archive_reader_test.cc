// Tests for Archive: opening by base or file name, v2/v3/xz/multi-volume
// archives, records forwards and backwards, names and instances, PCP's
// error codes for the corrupt QA archives, and a truncation sweep over
// every length of a small archive's .meta and .0 that must never crash.
#include "pmapi/archive.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

const std::string kRef = PMAPI_TEST_DATA_DIR "/archives/reference/";
const std::string kQa = PMAPI_TEST_DATA_DIR "/archives/qa/";

// Reads every record forwards; returns the count, or -code on error.
int CountForward(Archive& a) {
  Result r;
  a.SeekStart();
  int n = 0;
  for (;;) {
    absl::Status s = a.ReadNext(&r);
    if (!s.ok()) return PcpCode(s) == kErrEol ? n : PcpCode(s);
    ++n;
  }
}

int CountBackward(Archive& a, int64_t* first_ns) {
  Result r;
  a.SeekEnd();
  int n = 0;
  for (;;) {
    absl::Status s = a.ReadPrev(&r);
    if (!s.ok()) return PcpCode(s) == kErrEol ? n : PcpCode(s);
    *first_ns = r.timestamp_ns();
    ++n;
  }
}

TEST(ArchiveReaderTest, SmallV2) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kRef + "small-v2/small-v2");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)->label().version, 2);
  EXPECT_EQ((*a)->label().hostname, "vm");
  EXPECT_EQ(CountForward(**a), 32);
  int64_t first = 0;
  EXPECT_EQ(CountBackward(**a, &first), 32);
  EXPECT_EQ(ArchiveTime::FromNanos(first), (*a)->label().start);
  absl::StatusOr<PmID> id = (*a)->pmns().LookupName("sample.seconds");
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, MakePmID(29, 0, 2));
  const MetricDesc* d = (*a)->FindDesc(*id);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->names.size(), 2u);  // sample.dupnames.two.seconds, sample.seconds
  EXPECT_EQ(PcpCode((*a)->pmns().LookupName("sample").status()), kErrNonleaf);
  EXPECT_EQ(PcpCode((*a)->pmns().LookupName("no.such").status()), kErrName);
  absl::StatusOr<ArchiveTime> end = (*a)->End();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->sec, ArchiveTime::FromNanos(first).sec + 28);
}

// A filter passed to a read decodes only the value sets it keeps; the
// others come back empty, and the next read without one decodes them all.
TEST(ArchiveReaderTest, RecordFilterIsPerRead) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kRef + "small-v2/small-v2");
  ASSERT_TRUE(a.ok()) << a.status();
  Result whole, some, framing, again;
  (*a)->SeekStart();
  ASSERT_TRUE((*a)->ReadNext(&whole).ok());
  ASSERT_GE(whole.sets().size(), 2u);
  const PmID kept = whole.sets()[1].pmid;
  ASSERT_GT(whole.sets()[0].numval, 0);
  ASSERT_GT(whole.sets()[1].numval, 0);
  const PmID list[] = {kept};
  (*a)->SeekStart();
  ASSERT_TRUE((*a)->ReadNext(&some, RecordFilter(list)).ok());
  (*a)->SeekStart();
  ASSERT_TRUE((*a)->ReadNext(&framing, RecordFilter::FramingOnly()).ok());
  (*a)->SeekStart();
  ASSERT_TRUE((*a)->ReadNext(&again).ok());
  ASSERT_EQ(some.sets().size(), whole.sets().size());
  ASSERT_EQ(framing.sets().size(), whole.sets().size());
  EXPECT_EQ(some.timestamp_ns(), whole.timestamp_ns());
  EXPECT_EQ(framing.timestamp_ns(), whole.timestamp_ns());
  for (size_t k = 0; k < whole.sets().size(); ++k) {
    EXPECT_EQ(some.sets()[k].pmid, whole.sets()[k].pmid);
    EXPECT_EQ(some.sets()[k].numval, whole.sets()[k].pmid == kept ? whole.sets()[k].numval : 0);
    EXPECT_EQ(framing.sets()[k].numval, 0);
    EXPECT_EQ(again.sets()[k].numval, whole.sets()[k].numval);
  }
}

TEST(ArchiveReaderTest, SmallV3ByFileNameAndInstances) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kRef + "small-v3/small-v3.meta");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)->label().version, 3);
  EXPECT_EQ((*a)->label().zoneinfo, ":Etc/UTC");
  EXPECT_EQ(CountForward(**a), 32);
  // sample.mirage (29.3) changes membership through v3 delta records.
  const std::vector<InDomSnapshot>* h = (*a)->InDomHistory(MakeInDom(29, 3));
  ASSERT_NE(h, nullptr);
  ASSERT_GE(h->size(), 2u);
  std::optional<std::string_view> name =
      (*a)->InstanceName(MakeInDom(29, 3), Inst{0}, (*h)[1].stamp);
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(*name, "m-00");
  ArchiveTime before = (*h)[0].stamp;
  before.sec -= 1;
  EXPECT_FALSE((*a)->InstanceName(MakeInDom(29, 3), Inst{0}, before).has_value());
}

TEST(ArchiveReaderTest, CompressedAndMultiVolume) {
  absl::StatusOr<std::unique_ptr<Archive>> c = Archive::Open(kRef + "compressed/compressed");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(CountForward(**c), 32);
  absl::StatusOr<std::unique_ptr<Archive>> m = Archive::Open(kRef + "multivol-v3/multivol-v3.2");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(CountForward(**m), 37);
  int64_t first = 0;
  EXPECT_EQ(CountBackward(**m, &first), 37);
}

TEST(ArchiveReaderTest, MarkRecords) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kRef + "marks/marks");
  ASSERT_TRUE(a.ok());
  Result r;
  int marks = 0;
  while ((*a)->ReadNext(&r).ok()) marks += r.is_mark();
  EXPECT_EQ(marks, 1);
}

struct BadCase {
  const char* path;
  int code;
};

class BadArchiveTest : public testing::TestWithParam<BadCase> {};

TEST_P(BadArchiveTest, OpenGivesPcpError) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kQa + GetParam().path);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(PcpCode(a.status()), GetParam().code) << a.status();
}

INSTANTIATE_TEST_SUITE_P(
    Qa, BadArchiveTest,
    testing::Values(BadCase{"bad/ace/ace", kErrLabel}, BadCase{"bad/badlabel-1/badlabel-1", kErrLabel},
                    BadCase{"bad/badlabel-2/badlabel-2", kErrLabel},
                    BadCase{"bad/badlen-4/badlen-4", kErrNodata},
                    BadCase{"bad/badlen-5/badlen-5", kErrLabel},
                    BadCase{"bad/badlen-8/badlen-8", kErrLabel},
                    BadCase{"bad/badlen-9/badlen-9", kErrLogrec},
                    BadCase{"bad/badlen-10/badlen-10", kErrLabel},
                    BadCase{"bad/badmeta-3/badmeta-3", kErrLogrec},
                    BadCase{"bad/badmeta-4/badmeta-4", kErrLogrec},
                    BadCase{"bad/badmeta-5/badmeta-5", kErrLogrec},
                    BadCase{"bad/corrupted_labelset/corrupted_labelset", kErrLogrec},
                    BadCase{"bad/empty/empty", kErrNodata},
                    BadCase{"no/such/archive", -ENOENT}));

TEST(ArchiveReaderTest, CorruptDataRecordIsLogrec) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kQa + "bad/badlen-1/badlen-1");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(CountForward(**a), kErrLogrec);
  absl::StatusOr<std::unique_ptr<Archive>> t = Archive::Open(kQa + "bad/badlen-2/badlen-2");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(PcpCode((*t)->End().status()), kErrLogrec);
}

// A volume whose last record is damaged: the end is the last record read
// forward from the last index entry inside the file (offset 284 of 700,
// 18:34:33.248687), as PCP finds it; the reader's position is kept.
TEST(ArchiveReaderTest, DamagedTailEndsAtLastRecordAfterTheIndex) {
  absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(kQa + "bad/badlog-1/badlog-1");
  ASSERT_TRUE(a.ok());
  const Archive::Position before = (*a)->Tell();
  absl::StatusOr<ArchiveTime> end = (*a)->End();
  ASSERT_TRUE(end.ok()) << end.status();
  EXPECT_EQ(*end, (ArchiveTime{902428473, 248687000}));
  EXPECT_EQ((*a)->Tell().offset, before.offset);
  // A volume with no whole record after its index entries has no end.
  absl::StatusOr<std::unique_ptr<Archive>> t = Archive::Open(kQa + "bad/badlen-11/badlen-11");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(PcpCode((*t)->End().status()), kErrLogrec);
}

// Copies ok-foo to a scratch directory, then opens and reads it with its
// .meta (and then its .0) cut to every possible length.
class TruncationSweep : public testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pmapi-trunc-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    for (const char* ext : {".0", ".meta", ".index"}) {
      std::filesystem::copy_file(kQa + "ok-foo/ok-foo" + ext, dir_ + "/ok-foo" + ext);
      std::filesystem::permissions(dir_ + "/ok-foo" + ext, std::filesystem::perms::owner_all);
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Sweep(const std::string& ext) {
    const std::string path = dir_ + "/ok-foo" + ext;
    std::ifstream in(path, std::ios::binary);
    const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int opened = 0;
    for (size_t n = 0; n <= whole.size(); ++n) {
      {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(whole.data(), static_cast<std::streamsize>(n));
      }
      absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(dir_ + "/ok-foo");
      if (!a.ok()) {
        const int code = PcpCode(a.status());
        EXPECT_TRUE(code == kErrLabel || code == kErrLogrec || code == kErrNodata) << n;
        continue;
      }
      ++opened;
      const int forward = CountForward(**a);
      int64_t first = 0;
      const int backward = CountBackward(**a, &first);
      EXPECT_TRUE(forward >= 0 || forward == kErrLogrec) << n;
      EXPECT_TRUE(backward >= 0 || backward == kErrLogrec) << n;
      (void)(*a)->End();
    }
    std::ofstream restore(path, std::ios::binary | std::ios::trunc);
    restore.write(whole.data(), static_cast<std::streamsize>(whole.size()));
    EXPECT_GT(opened, 0);
  }

  std::string dir_;
};

TEST_F(TruncationSweep, Meta) { Sweep(".meta"); }
TEST_F(TruncationSweep, Data) { Sweep(".0"); }

}  // namespace
}  // namespace pmapi
