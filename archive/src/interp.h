// interp.h: values at arbitrary times from the records of an archive
// (PM_MODE_INTERP).
//
// The engine keeps, for each metric it has been asked for, a timeline: the
// records holding each of its instances (as runs), found by one scan of the
// archive when the metric is first requested. A value at time t then needs
// the prior and next observation of each instance, found by binary search,
// and the (at most two) records that hold them, through a small cache of
// records (with only that metric's values decoded, or whole when many
// metrics are asked for together), unless the few metrics asked for keep
// their values. The cost of a sample is proportional to the instances in
// it, not to the archive's history.
//
// The rules are PCP's: counters are interpolated linearly (rounded for
// integers), instantaneous values take the nearer observation, discrete
// values the prior one, strings, aggregates and events the prior one; a
// <mark> record between an observation and t stands for "no value"
// (unless PCP_IGNORE_MARK_RECORDS has it ignored); a counter that had
// values at the previous sample returns none after crossing a <mark>.
// Instances are listed in libpcp's order, and a discrete value is bounded
// by its instance's life in large indoms, as libpcp bounds it
// (docs/design.md, Interpolation).
//
// Example:
//   pmapi::InterpEngine engine(&records, &metadata);
//   absl::StatusOr<pmapi::Result> r = engine.Fetch(t_ns, pmids, profile, /*forward=*/true);
#ifndef PMAPI_ARCHIVE_SRC_INTERP_H_
#define PMAPI_ARCHIVE_SRC_INTERP_H_

#include <cstdint>
#include <optional>
#include <functional>
#include <list>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

// The records of an archive, addressed by their ordinal, oldest first.
class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // Returns the number of data records (<mark> records included).
  virtual absl::StatusOr<size_t> Count() = 0;
  // Returns the time of record i in nanoseconds since the epoch.
  virtual int64_t TimeNs(size_t i) = 0;
  virtual bool IsMark(size_t i) = 0;
  // The time <mark> record i has when it is met reading backwards: PCP
  // stamps the mark it puts between two archives of a set a millisecond
  // before the later one's start when reading backwards, and a
  // millisecond after the earlier one's end when reading forwards.
  virtual int64_t MarkTimeBackNs(size_t i) { return TimeNs(i); }
  // Decodes record i. REQUIRES: i < Count().
  virtual absl::Status Read(size_t i, Result* out) = 0;
  // Decodes only the value sets of `only` in record i (the others may come
  // back empty); by default the whole record.
  virtual absl::Status ReadOnly(size_t i, std::span<const PmID> only, Result* out) {
    (void)only;
    return Read(i, out);
  }
  // Calls `visit` with each record that is not a <mark>, oldest first,
  // with at least the value sets of `only` decoded. A source that lists its
  // records by reading them overrides this to visit them during that pass.
  virtual absl::Status Scan(std::span<const PmID> only,
                            const std::function<void(size_t, const Result&)>& visit);
  // The corruption that cut the list of records short, or OK when the
  // list reaches the end of the archive.
  virtual absl::Status ListError() { return absl::OkStatus(); }
};

// What the engine needs to know of the archive's metadata.
class InterpMetadata {
 public:
  virtual ~InterpMetadata() = default;
  // Returns the descriptor of pmid, or nullptr if the archive has none.
  virtual const Desc* FindDesc(PmID pmid) = 0;
  // Returns every instance the archive ever records for indom, in the
  // order pmGetInDomArchive gives them. The reference stays valid for
  // the life of the metadata.
  virtual const std::vector<Inst>& AllInstances(InDom indom) = 0;
  // When some record of indom holds 16 or more instances, PCP bounds each
  // instance's life by the indom records: born at the oldest record that
  // holds it, dead after the newest (at the record that follows it; never,
  // when the newest record holds it). Returns nullptr for smaller indoms.
  struct Lifetime {
    int64_t birth_ns = 0;
    std::optional<int64_t> death_ns;
  };
  using Lifetimes = absl::flat_hash_map<Inst, Lifetime>;
  virtual const Lifetimes* InstanceLifetimes(InDom indom) {
    (void)indom;
    return nullptr;
  }
};

class InterpEngine {
 public:
  InterpEngine(RecordSource* records, InterpMetadata* metadata)
      : records_(records), metadata_(metadata) {}

  // Returns the values of `pmids` at time t_ns (one set per pmid, in
  // order), admitting the instances `profile` admits. `forward` is the
  // direction of travel since the previous call (for the <mark> rule).
  absl::StatusOr<Result> Fetch(int64_t t_ns, std::span<const PmID> pmids, const Profile& profile,
                               bool forward);

  // Forgets the previous sample (after the collection time was set).
  void ResetHistory();

  // Interpolation start: times are measured from here, as PCP measures
  // them from the archive's start, so the arithmetic rounds the same way.
  void set_origin_ns(int64_t origin_ns) { origin_ns_ = origin_ns; }

 private:
  // The observations of one instance, as runs of consecutive entries of
  // its metric's Timeline::records (an instance is usually present in
  // every record for a stretch), and, while the metric's values are all
  // in-situ or 8-byte blocks and few metrics are asked for, the values
  // themselves (in-situ values in the low 32 bits), so a sample needs no
  // record read.
  struct Run {
    uint32_t first = 0;   // positions in Timeline::records, inclusive
    uint32_t last = 0;
    uint32_t before = 0;  // observations in the runs before this one
  };
  struct Observations {
    std::vector<Run> runs;
    std::vector<uint64_t> bits;
  };
  struct Timeline;
  // Where the instances of a metric's last record went, by their place in
  // the record (for the scan that builds timelines).
  struct InstanceOrder {
    std::vector<Inst> insts;
    std::vector<Observations*> where;
    size_t known = 0;  // tl->by_inst.size() when `where` was filled
    // The observations of `inst`, the j-th value of its record.
    Observations& Find(Timeline* tl, int j, Inst inst);
  };
  struct Timeline {
    int valfmt = -1;
    int vtype = kTypeUnknown;  // of the kept 8-byte blocks
    bool kept = true;          // Observations::bits hold every value
    // Values are read from whole records (cached once for every metric)
    // rather than from records decoded for this metric alone.
    bool whole = false;
    // The records in which the metric has values, oldest first.
    std::vector<uint32_t> records;
    // The first record whose value set is not in the form the descriptor's
    // type needs (a 32-bit value out of place, a 64-bit one in place);
    // PCP's interpolation reports such a record as corrupt once it reads it.
    std::optional<uint32_t> first_misfit;
    absl::flat_hash_map<Inst, Observations> by_inst;
    // The instances PCP's result lists, in its order; set on first use.
    std::optional<std::vector<Inst>> order;
  };
  // One value of the result being built.
  struct PendingValue {
    Inst inst = kInNull;
    int32_t lval = 0;
    int vtype = kTypeUnknown;
    std::vector<uint8_t> payload;
  };
  struct Bound {
    bool value = false;  // an observation (else none or a <mark>)
    uint32_t record = 0;
    size_t pos = 0;  // its index in the instance's Observations
    int64_t time_ns = 0;
  };

  // A record with the value set of one metric decoded (the others left
  // empty), or the whole record (pmid kPmIDNull, its sets indexed by
  // PMID), and an index of one metric's values by instance.
  struct CachedResult {
    uint32_t record = 0;
    PmID pmid = kPmIDNull;
    Result result;
    absl::flat_hash_map<PmID, int> set_of;
    PmID indexed = kPmIDNull;
    const ValueSet* set = nullptr;
    absl::flat_hash_map<Inst, int> by_inst;
  };
  // Finds the value of `inst` (any, for a singular metric) of `pmid`.
  static bool FindValue(CachedResult& c, PmID pmid, Inst inst, bool singular, ValueView* out);

  absl::Status EnsureTimelines(std::span<const PmID> pmids);
  // The instances of desc's metric in the order PCP's interpolated result
  // lists them (see ResultOrder in interp.cc).
  const std::vector<Inst>& Order(const Desc& desc, Timeline* tl);
  // True when the instance's life (InstanceLifetimes) excludes t_ns.
  bool OutsideLife(const Desc& desc, Inst inst, int64_t t_ns);
  absl::Status EnsureRecordTimes();
  Bound Prior(const Timeline& tl, const Observations& obs, int64_t t_ns);
  Bound Next(const Timeline& tl, const Observations& obs, int64_t t_ns);
  // Adds position `pos` of tl's records to obs (once per record).
  static void Observe(Observations* obs, uint32_t pos);
  // True when a sample at t would read tl's first misfit record.
  // Whether the metric's last values are in a record before t_ns.
  bool LastSeenBefore(const Timeline& tl, int64_t t_ns) const;
  bool ReadsMisfit(const Timeline& tl, int64_t t_ns) const;
  // True when PCP_IGNORE_MARK_RECORDS has <mark> record i ignored.
  bool IgnoredMark(size_t i) const;
  bool MarkBetween(int64_t from_ns, int64_t to_ns, bool inclusive_from);
  // Returns record i with the value set of `pmid` decoded (all of them
  // when pmid is kPmIDNull), from the cache or read now.
  absl::StatusOr<CachedResult*> CachedRecord(uint32_t i, PmID pmid);
  absl::Status AddMetric(const Desc& desc, Timeline& tl, int64_t t_ns,
                         const Profile& profile, bool crossed_mark, Result* out);
  absl::Status AddValue(const Desc& desc, const Timeline& tl, const Observations& obs,
                        Inst inst, const Bound& prior, const Bound& next, int64_t t_ns);
  // The value of `inst` at observation `b`: kept, or read from its record.
  absl::StatusOr<bool> ValueAt(const Desc& desc, const Timeline& tl, const Observations& obs,
                               const Bound& b, Inst inst, ValueView* out);
  static void Keep(const ValueView& v, Timeline* tl, Observations* obs);
  static PendingValue FromView(Inst inst, const ValueView& v);
  static void AsDescribed(int type, PendingValue* v);
  static PendingValue InterpolateCounter(int type, int valfmt, Inst inst, const ValueView& a,
                                         const ValueView& b, double dt, double span);

  RecordSource* records_;
  InterpMetadata* metadata_;
  int64_t origin_ns_ = 0;
  bool have_times_ = false;
  std::vector<int64_t> times_;
  std::vector<uint32_t> marks_;
  std::vector<int64_t> mark_back_ns_;  // MarkTimeBackNs of each of marks_
  bool backward_ = false;              // the direction of this sample
  absl::flat_hash_map<PmID, Timeline> timelines_;
  absl::flat_hash_map<PmID, int> last_numval_;
  bool have_last_ = false;
  int64_t last_t_ns_ = 0;
  std::list<CachedResult> cache_;  // most recent first
  // The metrics whose values are read from "whole" records (Timeline::
  // whole), sorted: such a record is decoded for these metrics only.
  std::vector<PmID> whole_ids_;
  std::vector<PendingValue> pending_;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_INTERP_H_
