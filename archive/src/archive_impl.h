// archive_impl.h: the state of an open archive behind pmapi::Archive,
// shared by the reader (archive.cc: opening, volumes, records, the end)
// and the metadata store (archive_meta_store.cc: descriptors, instance
// domains, labels and help text as .meta holds them).
#ifndef PMAPI_ARCHIVE_SRC_ARCHIVE_IMPL_H_
#define PMAPI_ARCHIVE_SRC_ARCHIVE_IMPL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "archive_discovery.h"
#include "archive_file.h"
#include "meta_decoder.h"
#include "pmapi/archive.h"
#include "pmapi/pmns.h"

namespace pmapi {

class Archive::Impl {
 public:
  absl::Status Open(std::string_view name);
  absl::Status LoadMeta();
  absl::Status AddMetaRecord(uint32_t type, std::span<const uint8_t> payload);
  void AddInDom(const InDomRecordView& rec);
  // The membership a record leaves: a full record's instances, or a delta
  // applied to the membership before it.
  std::vector<uint32_t> Membership(const StoredInDomRecord& rec,
                                   const std::vector<InDomSnapshot>& history) const;
  // Gives each descriptor its names, in PCP's order (pmNameAll).
  void NameDescs();

  // Returns the open, label-checked file of data volume `vol`.
  absl::StatusOr<ArchiveFile*> Volume(int vol);
  // Returns the volume after (or before) `vol`, or -1 if none.
  int NextVolume(int vol) const;
  std::vector<const IndexEntry*> UsableIndex() const;
  const IndexEntry* IndexedEntry(ArchiveTime t, bool* after);
  bool RecordBoundary(int vol, int64_t offset, bool backward);
  int PrevVolume(int vol) const;
  // Decodes the data record of `len` bytes at `start` of volume file `f`.
  absl::Status DecodeRecord(ArchiveFile& f, uint64_t start, uint32_t len,
                            const RecordFilter& filter, Result* out) const;
  absl::Status ReadNext(Result* out, const RecordFilter& filter = RecordFilter());
  absl::Status ReadPrev(Result* out, const RecordFilter& filter = RecordFilter());
  absl::StatusOr<ArchiveTime> End();
  // Decodes the record that ends file f (its trailing length word).
  absl::Status LastRecord(ArchiveFile& f, size_t label_bytes, Result* out);
  // The last record readable forward from the last index entry inside
  // `volume` (of `size` bytes), or PM_ERR_LOGREC when there is none.
  absl::StatusOr<ArchiveTime> EndFromIndex(int volume, uint64_t size);

  std::string base;
  ArchiveLabel label;
  ArchiveFiles files;
  ArchiveFile meta_file;
  bool has_index = false;
  std::vector<IndexEntry> index;
  std::vector<MetricDesc> descs;
  absl::flat_hash_map<PmID, size_t> desc_by_pmid;
  // The name space, built name by name from the descriptors in .meta
  // order as PCP builds it.
  std::shared_ptr<Pmns> pmns = std::make_shared<Pmns>();
  std::vector<StoredInDomRecord> indom_records;
  // One instance table per indom (map nodes stay put, so the records and
  // snapshots can point at them).
  std::map<InDom, InstanceTable> instance_tables;
  std::map<InDom, std::vector<InDomSnapshot>> indom_history;
  InDomRecordView indom_scratch;
  std::vector<LabelRecord> label_records;
  std::vector<HelpText> help_texts;

  std::map<int, ArchiveFile> open_volumes;
  int vol = 0;
  size_t offset = 0;
  uint32_t record_bytes = 0;
};

}  // namespace pmapi

#endif  // PMAPI_ARCHIVE_SRC_ARCHIVE_IMPL_H_
