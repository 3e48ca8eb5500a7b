#include "pmval.h"

#include "options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "display_width.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/metricspec.h"
#include "pmapi/strings.h"
#include "pmapi/timefmt.h"
#include "pmapi/timezone.h"
#include "pmapi/units.h"
#include "absl/time/clock.h"
#include "event_text.h"
#include "pmapi/host.h"
#include "pmapi/local.h"
#include "string_value.h"
#include "value_text.h"
#include "zone.h"

namespace pmval {

namespace {

using pmapi::TimeSpec;

constexpr int64_t kBillion = 1000000000;

double Real(const TimeSpec& t) {
  return static_cast<double>(t.sec) + static_cast<double>(t.nsec) / 1e9;
}

TimeSpec FromNanos(int64_t ns) {
  int64_t sec = ns / kBillion;
  int64_t nsec = ns % kBillion;
  if (nsec < 0) {
    nsec += kBillion;
    --sec;
  }
  return {sec, nsec};
}

int64_t Nanos(const TimeSpec& t) { return t.sec * kBillion + t.nsec; }

// PCP advances interpolation time without normalising a nanosecond field
// that reaches exactly one second, and pmval prints that field as it is.
void Advance(TimeSpec* t, const TimeSpec& delta) {
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
  absl::flat_hash_map<int32_t, size_t> by_inst;
  int valfmt = 0;
};

// An instance column.
struct Column {
  int32_t id = 0;
  std::string name;
};

// Everything the report needs while it runs.
class Report {
 public:
  // `hostname`: the context's host name, asked for before the report is
  // made (PCP asks before it prints the time zone note).
  Report(const Settings& s, pmapi::Context ctx, pmapi::TimeZone zone, std::string hostname)
      : s_(s),
        live_(ctx.kind() != pmapi::kContextArchive),
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
  const pmapi::ValueView* Find(const Sample& smp, int32_t inst) const;
  absl::flat_hash_set<int32_t> ColumnIds() const;
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
  pmapi::PmID pmid_ = 0;
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

std::string Report::Stamp(const TimeSpec& t) const {
  absl::StatusOr<std::string> text;
  if (s_.timestamp_detail == 0) {
    text = pmapi::PmvalStamp(zone_, t.sec, t.nsec);
  } else if (s_.timestamp_detail == 1) {
    text = pmapi::DateStamp(zone_, t.sec, static_cast<int>(t.nsec / 1000), 6);
  } else {
    text = pmapi::DateStamp(zone_, t.sec, static_cast<int>(t.nsec), 9);
  }
  return text.ok() ? *text : std::string("??:??:??.???");
}

void Report::PrintStamp(const TimeSpec& t, const char* gap) {
  if (!live_) std::printf("%s%s", Stamp(t).c_str(), gap);
}

void Report::Pause() const {
  if (!live_ && !s_.delay) return;
  absl::SleepFor(absl::Nanoseconds(Nanos(interval_)));
}

bool Report::LookupMetric() {
  absl::StatusOr<pmapi::PmID> id = ctx_.LookupName(spec_.metric);
  if (!id.ok()) {
    pmtools::Complain(" pmLookupName(%s): %s\n", spec_.metric.c_str(),
                 pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
    return false;
  }
  pmid_ = *id;
  absl::StatusOr<pmapi::Desc> desc = ctx_.LookupDesc(pmid_);
  if (!desc.ok()) {
    pmtools::Complain(" pmLookupDesc: %s\n",
                 pmapi::ErrStr(pmapi::PcpCode(desc.status())).c_str());
    return false;
  }
  desc_ = *desc;
  if (desc_.type == pmapi::kTypeEvent || desc_.type == pmapi::kTypeHighResEvent) {
    // Event records are replayed as logged, never interpolated.
    events_ = true;
    raw_archive_ = !live_;
    event_printer_ = std::make_unique<EventPrinter>(&ctx_, spec_.metric, desc_, zone_);
  }
  if (desc_.indom == pmapi::kInDomNull && !spec_.instances.empty()) {
    pmtools::Complain(" %s: singular metrics do not have instances\n",
                 spec_.metric.c_str());
    return false;
  }
  if (desc_.sem == pmapi::kSemCounter && desc_.units.dim_time != 0) {
    // Rates of time counters are utilisations: per-second deltas are
    // divided by the counter's time unit expressed in seconds.
    const int st = desc_.units.scale_time;
    scale_ = st > 3 ? std::pow(60, 3 - st) : std::pow(1000, 3 - st);
  }
  return true;
}

absl::Status Report::AddInstancesNow() {
  absl::StatusOr<std::vector<pmapi::Instance>> now = ctx_.GetInDom(desc_.indom);
  if (!now.ok()) return now.status();
  absl::flat_hash_set<int32_t> known;
  for (const Column& c : columns_) known.insert(c.id);
  for (const pmapi::Instance& i : *now) {
    if (known.insert(i.id).second) columns_.push_back({i.id, i.name});
  }
  return absl::OkStatus();
}

// Every instance the archive ever held, each with its latest name, as
// PCP's pmval takes them from pmGetInDomArchive.
absl::Status Report::AddArchiveInstances() {
  absl::StatusOr<std::vector<pmapi::Instance>> all = ctx_.GetInDomArchive(desc_.indom);
  if (!all.ok()) return all.status();
  absl::flat_hash_set<int32_t> known;
  for (const Column& c : columns_) known.insert(c.id);
  for (pmapi::Instance& i : *all) {
    if (known.insert(i.id).second) columns_.push_back({i.id, std::move(i.name)});
  }
  return absl::OkStatus();
}

// Returns the column named `name` among the archive's instances: an exact
// match, else one whose name up to its first space is `name`.
const Column* MatchInstance(const std::vector<Column>& all, const std::string& name) {
  for (const Column& c : all) {
    if (c.name == name) return &c;
  }
  for (const Column& c : all) {
    if (c.name.substr(0, c.name.find(' ')) == name) return &c;
  }
  return nullptr;
}

bool Report::LoadColumns(bool first) {
  if (first) columns_.clear();
  if (desc_.indom == pmapi::kInDomNull) return true;
  if (!all_instances_ && live_) {
    for (const std::string& name : wanted_) {
      absl::StatusOr<int32_t> id = ctx_.LookupInDom(desc_.indom, name);
      if (!id.ok()) {
        pmtools::Complain(" instance %s not available\n", name.c_str());
        return false;
      }
      columns_.push_back({*id, name});
    }
    std::vector<int32_t> ids;
    for (const Column& c : columns_) ids.push_back(c.id);
    (void)ctx_.DelProfile(desc_.indom, {});
    absl::Status st = ctx_.AddProfile(desc_.indom, ids);
    if (!st.ok()) {
      pmtools::Complain(" pmAddProfile: %s\n", pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
      return false;
    }
  } else if (!all_instances_) {
    (void)AddArchiveInstances();
    const std::vector<Column> all = std::move(columns_);
    columns_.clear();
    for (const std::string& name : wanted_) {
      const Column* c = MatchInstance(all, name);
      if (c == nullptr) {
        pmtools::Complain(" instance %s not available\n", name.c_str());
        return false;
      }
      columns_.push_back({c->id, name});
    }
    std::vector<int32_t> ids;
    for (const Column& c : columns_) ids.push_back(c.id);
    (void)ctx_.DelProfile(desc_.indom, {});
    (void)ctx_.AddProfile(desc_.indom, ids);
  } else {
    absl::Status st = first && !live_ ? AddArchiveInstances() : AddInstancesNow();
    if (!st.ok()) {
      pmtools::Complain(" pmGetInDom(%s): %s\n", pmapi::InDomStr(desc_.indom).c_str(),
                   pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
      return false;
    }
  }
  std::stable_sort(columns_.begin(), columns_.end(),
                   [](const Column& a, const Column& b) { return a.id < b.id; });
  return true;
}

std::string Report::UnitsLine() const {
  pmapi::Units u = desc_.units;
  std::string text = pmapi::UnitsStr(u);
  std::string line = "units:     " + (text.empty() ? std::string("none") : text);
  if (Rates()) {
    if (u.dim_time == 0) u.scale_time = 3;  // seconds
    u.dim_time = static_cast<int8_t>(u.dim_time - 1);
    if (u.dim_space == 0 && u.dim_time == 0 && u.dim_count == 0) {
      line += " (converting to time utilization)";
    } else {
      text = pmapi::UnitsStr(u);
      line += " (converting to " + (text.empty() ? std::string("none") : text) + ")";
    }
  }
  return line + "\n";
}

void Report::PrintSemantics() {
  std::printf("semantics: ");
  if (desc_.sem == pmapi::kSemCounter) {
    std::printf("cumulative counter%s", Rates() ? " (converting to rate)" : "");
  } else if (desc_.sem == pmapi::kSemInstant) {
    std::printf("instantaneous value");
  } else if (desc_.sem == pmapi::kSemDiscrete) {
    std::printf("discrete instantaneous value");
  } else {
    std::printf("unknown");
  }
  std::printf("\n%s", UnitsLine().c_str());
}

void Report::PrintHeader() {
  if (!events_) std::printf("metric:    %s\n", spec_.metric.c_str());
  if (live_) {
    std::printf("host:      %s\n", hostname_.c_str());
    if (!events_) PrintSemantics();
    PrintFooter();
    return;
  }
  std::printf("archive:   %s\n", s_.archives.front().c_str());
  std::printf("host:      %s\n", hostname_.c_str());
  auto date = [&](const TimeSpec& t) {
    absl::StatusOr<std::string> c = pmapi::Ctime(zone_, t.sec);
    return c.ok() ? *c : std::string("\n");
  };
  std::printf("start:     %s", date(origin_).c_str());
  if (finish_.sec != pmapi::kUnboundedEnd) std::printf("end:       %s", date(finish_).c_str());
  if (!events_) PrintSemantics();
  PrintFooter();
}

void Report::PrintFooter() {
  if (samples_ < 0) {
    std::printf("samples:   all\n");
  } else {
    std::printf("samples:   %d\n", samples_);
  }
  if (samples_ > 1 && (live_ || !raw_archive_)) std::printf("interval:  %1.2f sec\n", Real(interval_));
}

int Report::FetchRaw(pmapi::Result* r) {
  for (;;) {
    absl::StatusOr<pmapi::Result> got = ctx_.FetchArchive();
    if (!got.ok()) {
      const int code = pmapi::PcpCode(got.status());
      done_ = true;
      if (code != pmapi::kErrEol) {
        std::fprintf(stderr, "\npmval: pmFetchArchive: %s\n", pmapi::ErrStr(code).c_str());
        status_ = 1;
      }
      return -1;
    }
    if (got->is_mark()) {
      std::printf("%s  Archive logging suspended\n",
                  Stamp(FromNanos(got->timestamp_ns())).c_str());
      reporting_ = false;
      return -1;
    }
    const auto sets = got->sets();
    for (size_t i = 0; i < sets.size(); ++i) {
      if (sets[i].pmid == pmid_) {
        *r = std::move(*got);
        return static_cast<int>(i);
      }
    }
  }
}

int Report::Fetch(Sample* out) {
  int set = 0;
  TimeSpec stamp;
  if (raw_archive_) {
    set = FetchRaw(&out->result);
    if (set < 0) return 0;
    stamp = FromNanos(out->result.timestamp_ns());
  } else {
    const pmapi::PmID ids[1] = {pmid_};
    absl::StatusOr<pmapi::Result> got = ctx_.Fetch(ids);
    stamp = position_;
    Advance(&position_, interval_);
    if (live_ && got.ok()) stamp = FromNanos(got->timestamp_ns());
    if (!got.ok()) {
      const int code = pmapi::PcpCode(got.status());
      done_ = true;
      if (code != pmapi::kErrEol) {
        std::fprintf(stderr, "\npmval: pmFetch: %s\n", pmapi::ErrStr(code).c_str());
        status_ = 1;
      }
      return 0;
    }
    out->result = std::move(*got);
  }
  if (Real(stamp) > Real(finish_)) return -1;
  const pmapi::ValueSet& vs = out->result.sets()[set];
  if (vs.numval == 0) {
    PrintStamp(stamp, "  ");
    if (!events_) {
      std::printf("No values available\n");
    } else if (s_.verbose) {
      std::printf("%s: No values available\n", spec_.metric.c_str());
    }
    return 0;
  }
  if (vs.numval < 0 && events_ && vs.numval == pmapi::kErrNotconn) {
    done_ = true;
    return 0;
  }
  if (vs.numval < 0) {
    std::fprintf(stderr, "\npmval: %s: %s\n", raw_archive_ ? "pmFetchArchive" : "pmFetch",
                 pmapi::ErrStr(vs.numval).c_str());
    return 0;
  }
  out->set = set;
  out->stamp = stamp;
  out->valfmt = vs.valfmt;
  out->values.clear();
  out->by_inst.clear();
  for (int j = 0; j < vs.numval; ++j) out->values.push_back(out->result.value(vs, j));
  std::stable_sort(out->values.begin(), out->values.end(),
                   [](const pmapi::ValueView& a, const pmapi::ValueView& b) {
                     return a.inst < b.inst;
                   });
  for (size_t j = 0; j < out->values.size(); ++j) out->by_inst.emplace(out->values[j].inst, j);
  return 1;
}

void Report::PrintLabels() {
  if (label_style_ == -1) {
    label_style_ = 0;
    for (const Column& c : columns_) {
      const int len = pmtools::DisplayWidth(c.name);
      if (len > width_) {
        label_style_ = 2;
        break;
      }
      if (len > width_ - 3) label_style_ = 1;
    }
    if (label_style_ == 2) {
      for (size_t i = 0; i < columns_.size(); ++i) {
        std::printf("full label for instance[%zu]: %s\n", i, columns_[i].name.c_str());
      }
    }
  }
  std::string line = "\n";
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i == 0 && !live_) line += std::string(s_.timestamp_detail > 1 ? 34 : s_.timestamp_detail == 1 ? 31 : 12, ' ');
    const std::string& name = columns_[i].name;
    if (!Rates() || label_style_ != 0 || s_.fixed != -1) {
      line += pmtools::PadDisplay(name, width_) + " ";
    } else {
      // Rates print with decimals, so the name sits three places left.
      line += pmtools::PadDisplay(name, width_ - 3) + "    ";
    }
  }
  if (!columns_.empty()) line += "\n";
  std::fputs(line.c_str(), stdout);
}

double Report::AsDouble(const Sample& smp, const pmapi::ValueView& v, const char* where) const {
  absl::StatusOr<pmapi::AtomValue> a =
      pmapi::ExtractValue(smp.valfmt, v, desc_.type, pmapi::kTypeDouble);
  if (!a.ok()) {
    pmtools::Complain("%s pmExtractValue: %s\n", where,
                 pmapi::ErrStr(pmapi::PcpCode(a.status())).c_str());
    std::exit(1);
  }
  return a->d;
}

std::string Report::ValueText(const Sample& smp, const pmapi::ValueView& v, int width) const {
  if (desc_.type == pmapi::kTypeFloat || desc_.type == pmapi::kTypeDouble) {
    return RealText(AsDouble(smp, v, "printvals"), desc_.sem, width, s_.fixed);
  }
  return pmapi::FormatValue(smp.valfmt, desc_.type, v, width, zone_);
}

std::string Report::RateText(const Sample& a, const pmapi::ValueView& va,
                             const pmapi::ValueView& vb, double delta, int width) const {
  // As PCP's pmval: the previous value is taken first.
  const double prev = AsDouble(a, vb, "printrate prev");
  double v = AsDouble(a, va, "printrate cur") - prev;
  if (v < 0.0 && std::getenv("PCP_COUNTER_WRAP") != nullptr) {
    if (desc_.type == pmapi::kType32 || desc_.type == pmapi::kTypeU32) v += 4294967296.0;
    if (desc_.type == pmapi::kType64 || desc_.type == pmapi::kTypeU64) v += 18446744073709551616.0;
  }
  return RealText(v / delta, pmapi::kSemCounter, width, s_.fixed);
}

const pmapi::ValueView* Report::Find(const Sample& smp, int32_t inst) const {
  auto it = smp.by_inst.find(inst);
  return it == smp.by_inst.end() ? nullptr : &smp.values[it->second];
}

absl::flat_hash_set<int32_t> Report::ColumnIds() const {
  absl::flat_hash_set<int32_t> ids;
  ids.reserve(columns_.size());
  for (const Column& c : columns_) ids.insert(c.id);
  return ids;
}

void Report::PrintValues(const Sample& cur) {
  std::string line;
  if (desc_.indom == pmapi::kInDomNull) {
    line = cur.values.size() == 1 ? ValueText(cur, cur.values[0], width_)
                                  : absl::StrFormat("%*s", width_, "?");
    std::printf("%s\n", line.c_str());
    return;
  }
  for (const Column& c : columns_) {
    const pmapi::ValueView* v = Find(cur, c.id);
    line += (v != nullptr ? ValueText(cur, *v, width_) : absl::StrFormat("%*s", width_, "?")) + " ";
  }
  std::printf("%s\n", line.c_str());
  if (!all_instances_) return;
  const absl::flat_hash_set<int32_t> ids = ColumnIds();
  for (const pmapi::ValueView& v : cur.values) {
    if (!ids.contains(v.inst)) {
      std::printf("Warning: value=%s, but instance=%d is unknown\n", ValueText(cur, v, 1).c_str(),
                  v.inst);
    }
  }
}

void Report::PrintRates(const Sample& cur, const Sample& prev) {
  const double delta = scale_ * (Real(cur.stamp) - Real(prev.stamp));
  if (desc_.indom == pmapi::kInDomNull) {
    const bool both = cur.values.size() == 1 && prev.values.size() == 1;
    std::printf("%s\n", (both ? RateText(cur, cur.values[0], prev.values[0], delta, width_)
                              : absl::StrFormat("%*s", width_, "?"))
                            .c_str());
    return;
  }
  std::string line;
  for (const Column& c : columns_) {
    const pmapi::ValueView* a = Find(cur, c.id);
    const pmapi::ValueView* b = Find(prev, c.id);
    line += (a != nullptr && b != nullptr ? RateText(cur, *a, *b, delta, width_)
                                          : absl::StrFormat("%*s", width_, "?")) +
            " ";
  }
  std::printf("%s\n", line.c_str());
  if (!all_instances_) return;
  const absl::flat_hash_set<int32_t> ids = ColumnIds();
  for (size_t j = 0; j < cur.values.size(); ++j) {
    const bool known = ids.contains(cur.values[j].inst);
    if (!known && j < prev.values.size() && prev.values[j].inst == cur.values[j].inst) {
      std::printf("Warning: value=%s, but instance=%d is unknown\n",
                  RateText(cur, cur.values[j], prev.values[j], delta, 1).c_str(),
                  cur.values[j].inst);
    }
  }
}

void Report::PrintEvents(const Sample& smp) {
  std::string out = live_ ? "" : Stamp(smp.stamp) + "  ";
  for (const pmapi::ValueView& v : smp.values) {
    std::optional<std::string> name;
    if (v.inst != pmapi::kInNull) {
      for (const Column& c : columns_) {
        if (c.id == v.inst) name = c.name;
      }
      if (!name) continue;
    }
    out += event_printer_->Value(name, smp.valfmt, v);
  }
  std::fputs(out.c_str(), stdout);
}

bool Report::KnowsAll(const Sample& smp) const {
  if (desc_.indom == pmapi::kInDomNull) return true;
  const absl::flat_hash_set<int32_t> ids = ColumnIds();
  for (const pmapi::ValueView& v : smp.values) {
    if (!ids.contains(v.inst)) return false;
  }
  return true;
}

// pmval's loop: a first sample is kept as the reference for rates (and
// reported at once when no rate is needed); each later sample is reported
// against it and becomes the next reference. A failed fetch starts over.
void Report::PrintSample(const Sample& cur, const Sample* prev) {
  if (events_) {
    PrintEvents(cur);
  } else {
    PrintStamp(cur.stamp, "");
    if (prev != nullptr) {
      PrintRates(cur, *prev);
    } else {
      PrintValues(cur);
    }
  }
  reporting_ = true;
}

int Report::FirstSample(Sample* prev, bool* no_values) {
  const int got = Fetch(prev);
  if (done_ || got < 0) return -1;
  if (got == 0) {
    *no_values = true;
    return 0;
  }
  if (desc_.indom != pmapi::kInDomNull && !events_) PrintLabels();
  if (events_ || !Rates()) {
    PrintSample(*prev, nullptr);
    return 2;
  }
  if (*no_values || reporting_) {
    PrintStamp(prev->stamp, "  ");
    std::printf("No values available\n");
  }
  *no_values = false;
  return 1;
}

void Report::Loop() {
  const bool forever = samples_ < 0;
  bool have_prev = false;
  bool no_values = false;
  Sample prev, cur;
  while (!done_ && (forever || samples_-- > 0)) {
    if (!have_prev) {
      const int first = FirstSample(&prev, &no_values);
      if (first < 0) break;
      have_prev = first > 0;
      if (first == 2) continue;  // already reported; wait before the next
    }
    Pause();
    if (!have_prev) continue;  // keep trying for a first sample
    const int got = Fetch(&cur);
    if (done_ || got < 0) break;
    if (got == 0) {
      have_prev = false;
      continue;
    }
    if (all_instances_ && !events_ && !KnowsAll(cur)) {
      if (!LoadColumns(false)) {
        status_ = 1;
        return;
      }
      PrintLabels();
    }
    PrintSample(cur, Rates() && !events_ ? &prev : nullptr);
    std::swap(prev, cur);
  }
}


bool Report::ResolveWindow() {
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx_.GetArchiveLabel();
  if (!label.ok()) {
    pmtools::Complain(" pmGetArchiveLabel: %s\n",
                 pmapi::ErrStr(pmapi::PcpCode(label.status())).c_str());
    return false;
  }
  absl::StatusOr<absl::Time> end = ctx_.GetArchiveEnd();
  TimeSpec log_end{pmapi::kUnboundedEnd, 0};
  if (end.ok()) {
    log_end = FromNanos(absl::ToUnixNanos(*end));
  } else {
    // As PCP: a damaged archive is read on with an open-ended window.
    pmtools::Complain(
                 " Cannot locate end of archive %s: %s\n\n"
                 "WARNING: This archive is sufficiently damaged that it may not be possible to\n"
                 "         produce complete information.  Continuing and hoping for the best.\n\n",
                 s_.archives.front().c_str(), pmapi::ErrStr(pmapi::PcpCode(end.status())).c_str());
  }
  pmapi::TimeParser parser(zone_);
  // PCP 6.0.3's option layer reads the label through the microsecond
  // interface, so a v3 archive's window starts up to 1us before its first
  // record.
  const TimeSpec start{label->start.sec, label->start.nsec / 1000 * 1000};
  label_start_ = start;
  absl::StatusOr<pmapi::TimeWindow> w =
      parser.ParseWindow(s_.window, start, log_end);
  if (!w.ok()) {
    pmtools::Complain(" invalid time window.\n%s\n",
                 std::string(w.status().message()).c_str());
    return false;
  }
  if (!w->warning.empty()) std::fputs(w->warning.c_str(), stderr);
  origin_ = w->origin;
  finish_ = w->end;
  return ParseInterval();
}

bool Report::ParseInterval() {
  if (s_.interval) {
    absl::StatusOr<TimeSpec> t = pmapi::ParseHighResInterval(*s_.interval);
    if (!t.ok()) {
      pmtools::Complain(" -t argument not in pmParseHighResInterval(3) format:\n%s\n%s",
                   std::string(t.status().message()).c_str(), s_.usage.c_str());
      return false;
    }
    interval_ = *t;
  }
  if (interval_.sec == 0 && interval_.nsec == 0) interval_ = {1, 0};
  return true;
}

// A live window starts now and is open-ended. Only -T may be given (the
// others are refused before the context opens): "+2sec", "2" or a date
// end the sampling there; an offset back from the open end ("-1sec")
// lies before now, so nothing is sampled, as with PCP.
bool Report::ResolveLiveWindow() {
  const TimeSpec now = FromNanos(absl::ToUnixNanos(absl::Now()));
  label_start_ = now;
  origin_ = now;
  finish_ = {pmapi::kUnboundedEnd, 0};
  if (s_.window.end) {
    pmapi::TimeWindowArgs only_end;
    only_end.end = s_.window.end;
    pmapi::TimeParser parser(zone_);
    absl::StatusOr<pmapi::TimeWindow> w = parser.ParseWindow(only_end, now, finish_);
    if (!w.ok() && s_.window.end->starts_with('-')) {
      pmapi::TimeParser from_now(zone_);
      w = from_now.ParseWindow(only_end, now, now);
    }
    if (!w.ok()) {
      pmtools::Complain(" invalid time window.\n%s\n",
                   std::string(w.status().message()).c_str());
      return false;
    }
    finish_ = w->end;
  }
  return ParseInterval();
}

// -x: the filter value is stored to the metric's instances before the
// first fetch (pmcd hosts only, as in PCP); event metrics take it as a
// string.
bool Report::StoreFilter() {
  if (!s_.filter || ctx_.kind() != pmapi::kContextHost) return true;
  const int type = events_ ? pmapi::kTypeString : desc_.type;
  pmapi::AtomValue atom;
  if (events_) {
    atom.bytes = *s_.filter;
  } else {
    pmstore::ParsedValue v = pmstore::ParseValue(*s_.filter, type);
    if (v.error == pmstore::ValueError::kIncompatible) {
      pmtools::Complain(" filter \"%s\" incompatible with metric type (PM_TYPE_%s)\n",
                   s_.filter->c_str(), pmapi::TypeStr(type).c_str());
      return false;
    }
    if (v.error == pmstore::ValueError::kOutOfRange) {
      pmtools::Complain(
                   " filter value \"%s\" is out of range for metric data type "
                   "(PM_TYPE_%s)\n",
                   s_.filter->c_str(), pmapi::TypeStr(type).c_str());
      return false;
    }
    atom = v.atom;
  }
  pmapi::Result store;
  const size_t n = columns_.empty() ? 1 : columns_.size();
  store.AddSet(pmid_, static_cast<int>(n), pmstore::StoredFormat(type));
  for (size_t i = 0; i < n; ++i) {
    pmstore::AppendValue(atom, type, columns_.empty() ? pmapi::kInNull : columns_[i].id, &store);
  }
  absl::Status st = ctx_.Store(store);
  if (!st.ok()) {
    pmtools::Complain(" store value \"%s\" failed: %s\n", s_.filter->c_str(),
                 pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
    return false;
  }
  return true;
}

// The sample count: as given, or (interpolating, with no -s) enough
// fetches to cover the window from the origin to its end.
void CountSamples(const std::optional<std::string>& given, bool raw_archive, bool bounded,
                  double span,
                  double delta, int* samples) {
  if (given) {
    *samples = std::atoi(given->c_str());
    if (*samples == 0) return;
  }
  if (*samples > 0 || raw_archive || !bounded) return;
  *samples = static_cast<int>(span / delta);
  *samples = *samples < 0 ? 0 : *samples + 1;
}

bool Report::Setup() {
  if (hostname_.empty()) {
    pmtools::Complain(" Cannot evaluate context host name: %s\n", pmapi::ErrStr(0).c_str());
    return false;
  }
  if (!LookupMetric()) return false;
  if (live_) return SetupLive();
  if (!ResolveWindow()) return false;
  samples_ = -1;
  CountSamples(s_.samples, raw_archive_, finish_.sec != pmapi::kUnboundedEnd, Real(finish_) - Real(origin_), Real(interval_),
               &samples_);
  position_ = origin_;
  const absl::Time when = absl::FromUnixNanos(Nanos(origin_));
  const absl::Duration step = absl::Nanoseconds(Nanos(interval_));
  absl::Status st = ctx_.SetMode(raw_archive_ ? pmapi::kModeForw : pmapi::kModeInterp, when, step);
  if (!st.ok()) {
    pmtools::Complain(" pmSetMode: %s\n", pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
    return false;
  }
  all_instances_ = spec_.instances.empty() && !s_.instances_given;
  wanted_ = spec_.instances.empty() ? s_.instances : spec_.instances;
  return LoadColumns(true);
}

bool Report::SetupLive() {
  if (!ResolveLiveWindow()) return false;
  samples_ = -1;
  CountSamples(s_.samples, events_, finish_.sec != pmapi::kUnboundedEnd,
               Real(finish_) - Real(origin_), Real(interval_), &samples_);
  all_instances_ = spec_.instances.empty() && !s_.instances_given;
  wanted_ = spec_.instances.empty() ? s_.instances : spec_.instances;
  return LoadColumns(true) && StoreFilter();
}

int Report::Execute() {
  int spec_kind = pmapi::kSpecArchive;
  std::string source = live_ ? "" : s_.archives.front();
  if (ctx_.kind() == pmapi::kContextHost) {
    spec_kind = pmapi::kSpecHost;
    source = s_.hosts.front();
  } else if (ctx_.kind() == pmapi::kContextLocal) {
    spec_kind = pmapi::kSpecLocal;
  }
  absl::StatusOr<pmapi::MetricSpec> spec = pmapi::ParseMetricSpec(s_.metric, spec_kind, source);
  if (!spec.ok()) {
    std::fputs(std::string(spec.status().message()).c_str(), stderr);
    return 1;
  }
  spec_ = *spec;
  if (!Setup()) return 1;
  // PCP prints the blank line before it checks the column width.
  if (!s_.hostzone && !s_.timezone && !events_) std::printf("\n");
  width_ = s_.width > 0 ? s_.width : ColumnWidth(desc_.type);
  if (width_ < 0) {
    pmtools::Complain(" unknown performance metric value type %s\n",
                 pmapi::TypeStr(desc_.type).c_str());
    return 1;
  }
  if ((s_.fixed == 0 && s_.fixed > width_) || (s_.fixed > 0 && s_.fixed > width_ - 2)) {
    pmtools::Complain(" -f %d too large for column width %d\n", s_.fixed, width_);
    return 1;
  }
  PrintHeader();
  Loop();
  std::fflush(stdout);
  return status_;
}

}  // namespace

std::vector<std::string> SplitInstances(const std::string& text) {
  std::vector<std::string> names;
  auto sep = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && sep(text[i])) ++i;
    if (i >= text.size()) break;
    std::string name;
    if (text[i] == '"' || text[i] == '\'') {
      const char quote = text[i++];
      while (i < text.size() && text[i] != quote) name += text[i++];
      if (i < text.size()) ++i;
    } else {
      while (i < text.size() && !sep(text[i])) name += text[i++];
    }
    // The byte after a name (a separator) is consumed with it.
    if (i < text.size()) ++i;
    names.push_back(name);
  }
  return names;
}

namespace {

// Where the metrics come from, chosen as PCP's pmval does: -a or -U, else
// -L, else -h, else the source the metric specification names, else
// "local:" (pmcd on this machine).
struct Source {
  int kind = pmapi::kContextHost;
  std::string name;
};

Source ChooseSource(const Settings& s) {
  if (!s.archives.empty()) return {pmapi::kContextArchive, s.archives.front()};
  const std::string host = s.hosts.empty() ? "local:" : s.hosts.front();
  absl::StatusOr<pmapi::MetricSpec> spec = pmapi::ParseMetricSpec(
      s.metric, s.local ? pmapi::kSpecLocal : pmapi::kSpecHost, s.local ? "" : host);
  if (spec.ok() && spec->isarch == pmapi::kSpecArchive) {
    return {pmapi::kContextArchive, spec->source};
  }
  if (s.local || (spec.ok() && spec->isarch == pmapi::kSpecLocal)) {
    return {pmapi::kContextLocal, ""};
  }
  if (s.hosts.empty() && spec.ok()) return {pmapi::kContextHost, spec->source};
  return {pmapi::kContextHost, host};
}

absl::StatusOr<pmapi::Context> OpenSource(const Source& src) {
  absl::StatusOr<pmapi::Context> ctx;
  if (src.kind == pmapi::kContextArchive) {
    ctx = pmapi::Context::OpenArchive(src.name);
    if (!ctx.ok()) {
      pmtools::Complain(" Cannot open archive \"%s\": %s\n", src.name.c_str(),
                   pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    }
  } else if (src.kind == pmapi::kContextLocal) {
    ctx = pmapi::OpenLocalContext();
    if (!ctx.ok()) {
      pmtools::Complain(" Cannot establish local context: %s\n",
                   pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    }
  } else {
    ctx = pmapi::OpenHostContext(src.name);
    if (!ctx.ok()) {
      pmtools::Complain(" Cannot connect to PMCD on host \"%s\": %s\n",
                   src.name.c_str(), pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    }
  }
  return ctx;
}

// -S -A -O, -U and -d need an archive, and -z a host or an archive; PCP
// reports each, then the usage.
bool LiveOptionsValid(const Settings& s, int kind) {
  bool ok = true;
  if (s.window.start || s.window.align || s.window.origin) {
    pmtools::Complain(" time window options are supported for archives only\n");
    ok = false;
  }
  if (s.hostzone && kind == pmapi::kContextLocal) {
    pmtools::Complain(" use of timezone from metric source requires a source\n");
    ok = false;
  }
  if (s.raw_archive) {
    pmtools::Complain(" uninterpolated mode can only be used with archives");
    ok = false;
  }
  if (s.delay) {
    pmtools::Complain(" delay can only be used with archives\n");
    ok = false;
  }
  if (!ok) std::fputs(s.usage.c_str(), stderr);
  return ok;
}

}  // namespace

int Run(const Settings& given) {
  Settings settings = given;
  const Source src = ChooseSource(settings);
  if (src.kind == pmapi::kContextArchive) {
    if (settings.archives.empty()) settings.archives.push_back(src.name);
  } else {
    // Line by line, as PCP's pmval writes: live samples show as they are
    // taken, even through a pipe. (Archive reports keep full buffering.)
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (!LiveOptionsValid(settings, src.kind)) return 1;
    settings.hosts = {src.name};
  }
  absl::StatusOr<pmapi::Context> ctx = OpenSource(src);
  if (!ctx.ok()) return 1;
  if (settings.name_space != nullptr) ctx->UseNameSpace(settings.name_space);
  pmapi::ZoneChoice choice = pmapi::ZoneChoice::kLocal;
  if (settings.timezone) choice = pmapi::ZoneChoice::kUser;
  else if (settings.hostzone) choice = pmapi::ZoneChoice::kSource;
  // The source's zone is asked for only with -z, as PCP's pmval does.
  pmapi::ZoneSource zs;
  if (choice == pmapi::ZoneChoice::kSource) zs = pmtools::SourceZone(&*ctx);
  std::string note;
  if (choice == pmapi::ZoneChoice::kSource && zs.timezone.empty() && !zs.is_archive) {
    // A host without pmcd.timezone: take this machine's zone.
    choice = pmapi::ZoneChoice::kLocal;
    note = "Note: timezone set to local timezone of host \"" + zs.hostname + "\"\n\n";
  }
  std::optional<std::string_view> user_tz;
  if (settings.timezone) user_tz = *settings.timezone;
  absl::StatusOr<pmapi::ReportingZone> zone = pmapi::ChooseReportingZone(choice, zs, user_tz);
  if (!zone.ok()) {
    pmtools::Complain(" %s\n", std::string(zone.status().message()).c_str());
    return 1;
  }
  std::string hostname = ctx->HostName();
  std::fputs((note.empty() ? zone->note : note).c_str(), stdout);
  Report report(settings, std::move(*ctx), zone->zone, std::move(hostname));
  return report.Execute();
}

}  // namespace pmval
