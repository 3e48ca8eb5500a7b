// dumper.h: the sections pmdumplog prints for an open archive (label,
// descriptors, instance domains, label sets, help text, temporal index and
// data records), byte for byte as PCP 6.0.3's pmdumplog prints them.
//
// Example:
//   Dumper d(archive, options, &out);
//   d.Label(true);
//   d.Descs();
//   int exit_status = d.Records();
#ifndef PMAPI_TOOLS_PMDUMPLOG_DUMPER_H_
#define PMAPI_TOOLS_PMDUMPLOG_DUMPER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "output.h"
#include "pmapi/archive.h"
#include "pmapi/pmns.h"
#include "time_format.h"

namespace pmdumplog {

struct DumpOptions {
  int xflag = 0;          // -x count
  bool sizes = false;     // -s
  bool marks = false;     // -M
  bool reverse = false;   // -r
  std::vector<pmapi::PmID> pmids;  // metrics named on the command line
  // -n FILE: the name space metrics are named from (else the archive's)
  std::shared_ptr<const pmapi::Pmns> names;
  // Time window: records outside [start, finish] are not dumped.
  std::optional<pmapi::ArchiveTime> start;
  std::optional<pmapi::ArchiveTime> finish;
};

class Dumper {
 public:
  Dumper(pmapi::Archive& archive, const DumpOptions& options, const TimeFormat& tf, Output* out)
      : archive_(archive), opt_(options), tf_(tf), out_(*out) {}

  void Label(bool verbose, const absl::StatusOr<pmapi::ArchiveTime>& end);
  void Descs();
  void LabelSets();
  void HelpText();
  void DiskInDoms();
  void InDoms();
  void TemporalIndex();
  // Dumps the data records; returns the PCP error that stopped it early,
  // or 0 at the end of the archive (or of the time window).
  int Records();
  // PM_ERR_LOGREC where libpcp's positioning through the temporal index
  // meets damage (Archive::CheckIndexedPosition).
  absl::Status CheckPosition();

 private:
  void Stamp(const pmapi::ArchiveTime& t);
  void Names(pmapi::PmID pmid);
  // The metric's names (none if it has none), from -n's file if given.
  std::vector<std::string> NamesOf(pmapi::PmID pmid) const;
  void Value(int valfmt, int type, const pmapi::ValueView& v);
  void InstanceLabel(pmapi::InDom indom, pmapi::Inst inst);
  void Record(const pmapi::Result& r, const std::vector<const pmapi::ValueSet*>& sets);
  void Metric(const pmapi::Result& r, const pmapi::ValueSet& vs);
  void EventValue(const pmapi::ValueSet& vs, const pmapi::ValueView& v, const pmapi::Desc& desc,
                  int index);
  void EventParameter(int index, pmapi::PmID pmid, int type, std::span<const uint8_t> value,
                      uint32_t* flags);
  // The size PCP reports for a record (-s): that of the record as
  // dumped, holding only `sets` when metrics are named.
  int RecordSize(const pmapi::Result& r, const std::vector<const pmapi::ValueSet*>& sets) const;

  pmapi::Archive& archive_;
  const DumpOptions& opt_;
  const TimeFormat& tf_;
  Output& out_;
  pmapi::ArchiveTime now_;  // time of the record being dumped

  // Caches for the record loop: the "    PMID (names):" heading of each
  // metric, and each instance domain's membership at now_ (with the
  // position of the last instance found, since values mostly come in
  // membership order).
  const std::string& MetricHeading(pmapi::PmID pmid);
  const pmapi::InDomSnapshot* MembershipNow(pmapi::InDom indom);
  absl::flat_hash_map<pmapi::PmID, std::string> headings_;
  struct Membership {
    pmapi::ArchiveTime at;
    const pmapi::InDomSnapshot* snap = nullptr;
    size_t next = 0;
  };
  absl::flat_hash_map<pmapi::InDom, Membership> memberships_;
};

// PCP's identifier texts: "29.0.6", "29.2", and the NULL forms.
std::string PmIDText(pmapi::PmID pmid);
std::string InDomText(pmapi::InDom indom);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_DUMPER_H_
