// pmapi/archive.h: reading a PCP archive (versions 2 and 3).
//
// An archive is a .meta file (descriptors, metric names, instance domains,
// label sets, help text), an optional .index (the temporal index) and data
// volumes .0, .1, ...; any of them may be xz-compressed (".xz" suffix).
// Archive::Open loads the label and all metadata once; data records are
// read on demand, forwards or backwards, across volumes. Corrupt input gives
// the PCP error code libpcp gives for it (PM_ERR_LABEL, PM_ERR_LOGREC,
// PM_ERR_NODATA, ...), never a crash.
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::Archive>> a =
//       pmapi::Archive::Open("/var/log/pcp/pmlogger/host/20261121");
//   if (!a.ok()) return a.status();
//   pmapi::Result r;
//   (*a)->SeekStart();
//   while ((*a)->ReadNext(&r).ok()) { /* r.timestamp(), r.sets() */ }
#ifndef PMAPI_ARCHIVE_H_
#define PMAPI_ARCHIVE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pmapi/label_set.h"
#include "pmapi/pmns.h"
#include "pmapi/result.h"
#include "pmapi/timespec.h"
#include "pmapi/types.h"

namespace pmapi {

// The label record that opens every file of an archive.
struct ArchiveLabel {
  int version = 0;  // 2 or 3
  uint32_t magic = 0;
  int32_t pid = 0;
  ArchiveTime start;
  int32_t vol = 0;  // -1 .meta, -2 .index, >= 0 data volume
  uint32_t features = 0;
  std::string hostname;
  std::string timezone;  // squashed POSIX TZ, e.g. "AEDT-11"
  std::string zoneinfo;  // v3 only, e.g. ":Australia/Melbourne"
};

// A metric descriptor and the names the archive gives it: as decoded, the
// names of one .meta record; in Archive::descs(), every name the archive's
// name space has for the PMID, in PCP's order (pmNameAll).
struct MetricDesc {
  Desc desc;
  std::vector<std::string> names;
};

// One instance domain record from .meta, as decoded (DecodeInDom).
struct InDomRecord {
  enum class Kind { kV2, kFull, kDelta };
  Kind kind = Kind::kFull;
  ArchiveTime stamp;
  InDom indom = kInDomNull;
  std::vector<Inst> insts;
  // One name per instance; for a delta record a deleted instance has
  // deleted[i] set and an empty name.
  std::vector<std::string> names;
  std::vector<bool> deleted;
};

// Every distinct (instance number, name) pair an instance domain has in an
// archive, once each, the names packed in one buffer. The memberships and
// records of the indom refer to its entries by number, so a name that
// appears in a thousand records is held once.
class InstanceTable {
 public:
  InstanceTable() = default;
  InstanceTable(const InstanceTable&) = delete;
  InstanceTable& operator=(const InstanceTable&) = delete;

  // Returns the entry of (inst, name), adding it if it is new.
  uint32_t Intern(Inst inst, std::string_view name);
  // Gives back the lookup structures Intern needs (no more entries will be
  // added) and trims the buffers to their contents.
  void Freeze();

  [[nodiscard]] size_t size() const { return insts_.size(); }
  [[nodiscard]] Inst inst(uint32_t entry) const { return insts_[entry]; }
  [[nodiscard]] std::string_view name(uint32_t entry) const {
    const size_t begin = entry == 0 ? 0 : ends_[entry - 1];
    return std::string_view(chars_).substr(begin, ends_[entry] - begin);
  }

 private:
  std::vector<Inst> insts_;
  std::vector<size_t> ends_;  // name i is chars_[ends_[i - 1], ends_[i])
  std::string chars_;
  // For Intern: the latest entry of each instance number, and for each
  // entry the one of the same number before it (kNoEntry if none).
  static constexpr uint32_t kNoEntry = UINT32_MAX;
  std::unordered_map<Inst, uint32_t> latest_;
  std::vector<uint32_t> earlier_;
};

// One instance domain record from .meta as the archive keeps it: each
// instance is an entry of the indom's InstanceTable, except the deleted
// instances of a delta record, kept as their number alone.
struct StoredInDomRecord {
  static constexpr uint32_t kDeleted = 0x80000000u;

  InDomRecord::Kind kind = InDomRecord::Kind::kFull;
  ArchiveTime stamp;
  InDom indom = kInDomNull;
  const InstanceTable* table = nullptr;
  // An entry of `table`, or kDeleted | instance number.
  std::vector<uint32_t> refs;

  [[nodiscard]] size_t size() const { return refs.size(); }
  [[nodiscard]] bool deleted(size_t i) const { return (refs[i] & kDeleted) != 0; }
  [[nodiscard]] Inst inst(size_t i) const {
    return deleted(i) ? Inst{static_cast<int32_t>(refs[i] & ~kDeleted)} : table->inst(refs[i]);
  }
  // The name of instance i ("" for a deleted one).
  [[nodiscard]] std::string_view name(size_t i) const {
    return deleted(i) ? std::string_view() : table->name(refs[i]);
  }
};

// The complete membership of an instance domain from `stamp` on, in
// ascending instance order (as libpcp keeps it), as entries of the indom's
// InstanceTable.
struct InDomSnapshot {
  ArchiveTime stamp;
  const InstanceTable* table = nullptr;
  std::vector<uint32_t> entries;

  [[nodiscard]] size_t size() const { return entries.size(); }
  [[nodiscard]] Inst inst(size_t i) const { return table->inst(entries[i]); }
  [[nodiscard]] std::string_view name(size_t i) const { return table->name(entries[i]); }
  // Returns the position of the first instance numbered `inst`, or size()
  // if there is none.
  [[nodiscard]] size_t Find(Inst inst) const;
};

// One label record from .meta: the label sets of one identifier.
struct LabelRecord {
  ArchiveTime stamp;
  uint32_t type = 0;  // PM_LABEL_CONTEXT, DOMAIN, INDOM, CLUSTER, ITEM, INSTANCES
  uint32_t ident = 0;
  std::vector<LabelSet> sets;
};

// One help text record from .meta.
struct HelpText {
  uint32_t type = 0;  // PM_TEXT_ONELINE or PM_TEXT_HELP, | PM_TEXT_PMID or PM_TEXT_INDOM
  uint32_t ident = 0;
  std::string text;
};

// One temporal index entry.
struct IndexEntry {
  ArchiveTime stamp;
  int32_t vol = 0;
  int64_t meta_offset = 0;
  int64_t data_offset = 0;
};

// Which value sets a record read decodes. By default every one; a filter
// of some PMIDs decodes only theirs, and every other set is checked for
// framing and comes back as an empty set of its PMID (so numpmid() and
// is_mark() are unchanged). FramingOnly() decodes no value set: the
// record's time and framing alone. A reader that wants a few metrics of a
// wide archive skips most of each record's decoding this way.
class RecordFilter {
 public:
  RecordFilter() = default;
  // Only the value sets of `pmids` (all of them when it is empty).
  explicit RecordFilter(std::span<const PmID> pmids);
  [[nodiscard]] static const RecordFilter& FramingOnly();
  // The PMIDs kept, sorted; empty for all.
  [[nodiscard]] std::span<const PmID> pmids() const { return pmids_; }

 private:
  std::vector<PmID> pmids_;
};

class Archive {
 public:
  // Opens the archive named like pmNewContext(PM_CONTEXT_ARCHIVE) names it:
  // a base name ("dir/20261121"), or any of its files ("dir/20261121.meta",
  // ".index", ".0", possibly with ".xz"). Loads label, metadata and index.
  // Returns the PCP error for missing or corrupt files.
  static absl::StatusOr<std::unique_ptr<Archive>> Open(std::string_view name);

  ~Archive();
  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

  // Returns the path prefix of the archive's files ("dir/20261121").
  [[nodiscard]] const std::string& base_name() const;
  [[nodiscard]] const ArchiveLabel& label() const;

  // Metadata, in .meta file order.
  [[nodiscard]] const std::vector<MetricDesc>& descs() const;
  [[nodiscard]] const std::vector<StoredInDomRecord>& indom_records() const;
  [[nodiscard]] const std::vector<LabelRecord>& label_records() const;
  [[nodiscard]] const std::vector<HelpText>& help_texts() const;
  [[nodiscard]] const std::vector<IndexEntry>& index() const;
  // Returns true if the archive has a .index file.
  [[nodiscard]] bool has_index() const;

  // Returns the descriptor of pmid, or nullptr if the archive has none.
  [[nodiscard]] const MetricDesc* FindDesc(PmID pmid) const;
  // The name space of the archive's metric names, as PCP builds it from
  // the descriptors in .meta order; shared_pmns() lets a reader keep it.
  [[nodiscard]] const Pmns& pmns() const;
  [[nodiscard]] std::shared_ptr<const Pmns> shared_pmns() const;

  // Returns the indoms that have instance records, ascending.
  [[nodiscard]] std::vector<InDom> indoms() const;
  // Returns the history of an indom, oldest first (deltas applied), or
  // nullptr if the archive has no records for it.
  [[nodiscard]] const std::vector<InDomSnapshot>* InDomHistory(InDom indom) const;
  // Returns the name of instance `inst` in the membership of `indom` in
  // force at time `t` (the latest record at or before t), or nullptr if
  // there is none or the instance is not in it.
  [[nodiscard]] std::optional<std::string_view> InstanceName(InDom indom, Inst inst,
                                                             ArchiveTime t) const;

  // Data records. SeekStart/SeekEnd position before the first / after the
  // last record; ReadNext/ReadPrev then return records one by one, with
  // the value sets `filter` keeps decoded, and PcpError(PM_ERR_EOL) past
  // either end, or PM_ERR_LOGREC for a corrupt record. record_bytes() is
  // the on-disk length of the record last read.
  void SeekStart();
  void SeekEnd();
  absl::Status ReadNext(Result* out, const RecordFilter& filter = RecordFilter());
  absl::Status ReadPrev(Result* out, const RecordFilter& filter = RecordFilter());
  [[nodiscard]] uint32_t record_bytes() const;

  // Where the reader is: the volume and byte offset of the record ReadNext
  // reads next. Seek(Tell()) returns to the same place.
  struct Position {
    int vol = 0;
    uint64_t offset = 0;
  };
  [[nodiscard]] Position Tell() const;
  void Seek(Position p);
  // Gives back the memory held for reading volume `vol` (after a pass
  // over it); reading it again still works.
  void DropVolumePages(int vol);

  // Returns the time of the last data record in the archive, or the PCP
  // error that stops it being found (as pmGetArchiveEnd does).
  absl::StatusOr<ArchiveTime> End() const;
  // Returns PM_ERR_LOGREC when libpcp, positioning at `t` through the
  // temporal index for reads forward (or backward), would seek where no
  // record can be read: the entry it picks (among those whose times and
  // data offsets do not go backwards: one at t, else the nearer of those
  // either side) holds a data offset inside the label, or one where no
  // record starts (ends, going backward). OK otherwise.
  absl::Status CheckIndexedPosition(ArchiveTime t, bool backward = false) const;

  class Impl;

 private:
  explicit Archive(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The size of one physical archive file as libpcp's stat reports it: the
// file's own size, or for a missing file that exists xz-compressed
// (`path`.xz) its uncompressed size; -1 when neither can be read.
[[nodiscard]] int64_t ArchiveFileSize(const std::string& path);

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_H_
