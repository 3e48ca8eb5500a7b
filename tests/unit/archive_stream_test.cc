// Tests for PM_MODE_FORW reads of an archive context, which read records as
// they come instead of listing the archive first: from any origin, over every reference and QA
// archive (the corrupt ones included), they must give what a listing of
// the records gives: the records at or after the origin in order, a
// record's own error for one whose framing holds, and the listing's error
// at the first record whose framing does not.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/archive.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr size_t kMaxReads = 64;

// One read: a record's time (and whether it is a mark) or an error code.
struct Step {
  int code = 0;
  int64_t time_ns = 0;
  bool mark = false;
  friend bool operator==(const Step&, const Step&) = default;
};

std::string Show(const std::vector<Step>& steps) {
  std::string out;
  for (const Step& s : steps) {
    out += s.code != 0 ? "err" + std::to_string(s.code) : std::to_string(s.time_ns);
    out += s.mark ? "m " : " ";
  }
  return out;
}

// The records of `a` as a listing sees them: positions and times from a
// framing-only pass, up to the first record it cannot read.
struct Listing {
  std::vector<Archive::Position> pos;
  std::vector<int64_t> time_ns;
  int end_code = kErrEol;
};

Listing List(Archive& a) {
  Listing l;
  Result r;
  a.SeekStart();
  for (;;) {
    Archive::Position p = a.Tell();
    absl::Status s = a.ReadNext(&r, RecordFilter::FramingOnly());
    if (!s.ok()) {
      l.end_code = PcpCode(s);
      break;
    }
    l.pos.push_back(p);
    l.time_ns.push_back(r.timestamp_ns());
  }
  return l;
}

// What forward reads from `origin_ns` must give: the records from the first
// one (in file order) at or after the origin, as PCP reads forward; or,
// where PCP's positioning through the temporal index would seek into the
// label, that error on every read.
std::vector<Step> Expected(Archive& a, const Listing& l, int64_t origin_ns) {
  std::vector<Step> out;
  if (absl::Status s = a.CheckIndexedPosition(ArchiveTime::FromNanos(origin_ns)); !s.ok()) {
    return {Step{PcpCode(s), 0, false}};
  }
  size_t i = std::find_if(l.time_ns.begin(), l.time_ns.end(),
                          [origin_ns](int64_t t) { return t >= origin_ns; }) -
             l.time_ns.begin();
  Result r;
  for (; i < l.pos.size() && out.size() < kMaxReads; ++i) {
    a.Seek(l.pos[i]);
    absl::Status s = a.ReadNext(&r);
    out.push_back(s.ok() ? Step{0, r.timestamp_ns(), r.is_mark()} : Step{PcpCode(s), 0, false});
  }
  if (out.size() < kMaxReads) out.push_back(Step{l.end_code, 0, false});
  return out;
}

std::vector<Step> Streamed(Context& ctx, int64_t origin_ns) {
  std::vector<Step> out;
  if (!ctx.SetMode(Mode::kForw, absl::FromUnixNanos(origin_ns), absl::ZeroDuration()).ok()) {
    return {Step{-1, 0, false}};
  }
  while (out.size() < kMaxReads) {
    absl::StatusOr<Result> r = ctx.FetchArchive();
    if (!r.ok()) {
      const Step err{PcpCode(r.status()), 0, false};
      // A record's own error is passed over; the listing's end repeats.
      if (!out.empty() && out.back() == err) break;
      out.push_back(err);
      if (err.code == kErrEol) break;
      continue;
    }
    out.push_back(Step{0, r->timestamp_ns(), r->is_mark()});
  }
  return out;
}

// Origins worth trying: around the start and end, each temporal index
// entry, and around a spread of record times.
std::vector<int64_t> Origins(const Archive& a, const Listing& l) {
  std::set<int64_t> t;
  const int64_t start = a.label().start.nanos();
  t.insert({start - 1000000000, start, start + 1});
  for (const IndexEntry& e : a.index()) t.insert({e.stamp.nanos(), e.stamp.nanos() + 1});
  const size_t step = std::max<size_t>(1, l.time_ns.size() / 8);
  for (size_t i = 0; i < l.time_ns.size(); i += step) {
    t.insert({l.time_ns[i] - 1, l.time_ns[i], l.time_ns[i] + 1});
  }
  if (!l.time_ns.empty()) t.insert({l.time_ns.back(), l.time_ns.back() + 1000000000});
  return {t.begin(), t.end()};
}

std::vector<std::string> AllArchives() {
  std::vector<std::string> out;
  for (const char* dir : {"reference", "qa"}) {
    const std::filesystem::path root = std::filesystem::path(PMAPI_TEST_DATA_DIR) / "archives" / dir;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
      const std::string p = e.path().string();
      if (p.size() > 5 && p.substr(p.size() - 5) == ".meta") out.push_back(p.substr(0, p.size() - 5));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ArchiveStreamTest, ForwardReadsMatchTheListingFromEveryOrigin) {
  int archives = 0;
  int origins = 0;
  for (const std::string& base : AllArchives()) {
    absl::StatusOr<std::unique_ptr<Archive>> a = Archive::Open(base);
    if (!a.ok()) continue;
    absl::StatusOr<Context> ctx = Context::OpenArchive(base);
    if (!ctx.ok()) continue;
    ++archives;
    const Listing l = List(**a);
    for (int64_t origin : Origins(**a, l)) {
      ++origins;
      EXPECT_EQ(Show(Streamed(*ctx, origin)), Show(Expected(**a, l, origin)))
          << base << " from " << origin;
    }
  }
  EXPECT_GT(archives, 20);
  EXPECT_GT(origins, 200);
}

}  // namespace
}  // namespace pmapi
