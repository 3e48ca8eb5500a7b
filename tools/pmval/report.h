// tools/pmval/report.h: the report pmval prints for one metric: set-up
// (metric, instances, time window, interval), fetching (live or archive,
// interpolated or as recorded) and printing (header, values, rates, events).
// pmval.cc chooses and opens the source, then runs a Report.
//
// Example:
//   pmval::Report report(settings, std::move(ctx), zone);
//   return report.Execute();   // prints to stdout, returns the exit status
#ifndef PMAPI_TOOLS_PMVAL_REPORT_H_
#define PMAPI_TOOLS_PMVAL_REPORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "event_text.h"
#include "pmapi/context.h"
#include "pmapi/metricspec.h"
#include "pmapi/timezone.h"
#include "pmval.h"

namespace pmval {

using pmapi::TimeSpec;

inline constexpr int64_t kBillion = 1000000000;

inline double Real(const TimeSpec& t) {
  return static_cast<double>(t.sec) + static_cast<double>(t.nsec) / 1e9;
}

// PCP advances interpolation time without normalising a nanosecond field
// that reaches exactly one second, and pmval prints that field as it is.
inline void Advance(TimeSpec* t, const TimeSpec& delta) {
  t->sec += delta.sec;
  t->nsec += delta.nsec;
  if (t->nsec > kBillion) {
    t->nsec -= kBillion;
    ++t->sec;
  }
}

// One fetched value set, its values ordered by instance as pmval sorts them.
struct Sample {
  pmapi::Result result;
  int set = 0;
  TimeSpec stamp;
  std::vector<pmapi::ValueView> values;
  // Index in `values` of each instance's first value.
  absl::flat_hash_map<pmapi::Inst, size_t> by_inst;
  int valfmt = 0;
};

// An instance column.
struct Column {
  pmapi::Inst id{};
  std::string name;
};

// Everything the report needs while it runs.
class Report {
 public:
  // `hostname`: the context's host name, asked for before the report is
  // made (PCP asks before it prints the time zone note).
  Report(const Settings& s, pmapi::Context ctx, pmapi::TimeZone zone, std::string hostname)
      : s_(s),
        live_(ctx.kind() != pmapi::ContextKind::kArchive),
        raw_archive_(s.raw_archive),
        ctx_(std::move(ctx)),
        zone_(std::move(zone)),
        hostname_(std::move(hostname)) {}

  // Returns the exit status.
  int Execute();

 private:
  bool Setup();
  bool SetupLive();
  bool LookupMetric();
  bool ResolveWindow();
  bool ResolveLiveWindow();
  bool ParseInterval();
  bool StoreFilter();
  // Archives: prints the sample time (and `gap`); live sources print none.
  void PrintStamp(const TimeSpec& t, const char* gap);
  // Waits one interval between live samples (or archive samples with -d).
  void Pause() const;
  // Fills the instance columns (first: before any fetch); false on error.
  bool LoadColumns(bool first);
  absl::Status AddInstancesNow();
  absl::Status AddArchiveInstances();
  void PrintHeader();
  void PrintSemantics();
  void PrintFooter();
  void PrintEvents(const Sample& smp);
  std::string UnitsLine() const;
  std::string Stamp(const TimeSpec& t) const;
  // Returns 1 with a sample, 0 for no values (reported), -1 beyond the
  // window's end; sets done_ (and status_) when the run must stop.
  int Fetch(Sample* out);
  int FetchRaw(pmapi::Result* r);
  void PrintLabels();
  void PrintValues(const Sample& cur);
  void PrintRates(const Sample& cur, const Sample& prev);
  std::string ValueText(const Sample& smp, const pmapi::ValueView& v, int width) const;
  std::string RateText(const Sample& a, const pmapi::ValueView& va, const pmapi::ValueView& vb,
                       double delta, int width) const;
  // The value as a double; on failure PCP's message naming `where` and exit 1.
  double AsDouble(const Sample& smp, const pmapi::ValueView& v, const char* where) const;
  bool KnowsAll(const Sample& smp) const;
  const pmapi::ValueView* Find(const Sample& smp, pmapi::Inst inst) const;
  absl::flat_hash_set<pmapi::Inst> ColumnIds() const;
  // Fetches the reference sample; returns -1 to stop, 0 with no values,
  // 1 with a rate reference, 2 when the sample was reported at once.
  int FirstSample(Sample* prev, bool* no_values);
  // Prints one reported line: events, rates against `prev`, or values.
  void PrintSample(const Sample& cur, const Sample* prev);
  void Loop();
  bool Rates() const { return !s_.raw_counter && desc_.sem == pmapi::kSemCounter; }

  const Settings& s_;
  bool live_ = false;         // a host or local context
  bool raw_archive_ = false;  // -U, or an event metric: records as logged
  bool events_ = false;
  std::unique_ptr<EventPrinter> event_printer_;
  pmapi::Context ctx_;
  pmapi::TimeZone zone_;
  pmapi::MetricSpec spec_;
  pmapi::PmID pmid_{};
  pmapi::Desc desc_;
  double scale_ = 1.0;
  bool all_instances_ = true;
  std::vector<std::string> wanted_;
  std::vector<Column> columns_;
  int label_style_ = -1;
  TimeSpec label_start_, origin_, finish_, interval_{1, 0}, position_;
  int samples_ = -1;
  int width_ = 0;
  bool reporting_ = false;
  bool done_ = false;
  int status_ = 0;
  std::string hostname_;
};

}  // namespace pmval

#endif  // PMAPI_TOOLS_PMVAL_REPORT_H_
