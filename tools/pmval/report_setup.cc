// tools/pmval/report_setup.cc: the report's set-up: the metric, its instance columns, the time
// window, the interval and the -x filter.
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/time/clock.h"
#include "event_text.h"
#include "options.h"
#include "origin.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"
#include "pmapi/timefmt.h"
#include "pmapi/value_text.h"
#include "string_value.h"

namespace pmval {

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
  absl::flat_hash_set<pmapi::Inst> known;
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
  absl::flat_hash_set<pmapi::Inst> known;
  for (const Column& c : columns_) known.insert(c.id);
  for (pmapi::Instance& i : *all) {
    if (known.insert(i.id).second) columns_.push_back({i.id, std::move(i.name)});
  }
  return absl::OkStatus();
}

namespace {

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

}  // namespace

bool Report::LoadColumns(bool first) {
  if (first) columns_.clear();
  if (desc_.indom == pmapi::kInDomNull) return true;
  if (!all_instances_ && live_) {
    for (const std::string& name : wanted_) {
      absl::StatusOr<pmapi::Inst> id = ctx_.LookupInDom(desc_.indom, name);
      if (!id.ok()) {
        pmtools::Complain(" instance %s not available\n", name.c_str());
        return false;
      }
      columns_.push_back({*id, name});
    }
    std::vector<pmapi::Inst> ids;
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
    std::vector<pmapi::Inst> ids;
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

bool Report::ResolveWindow() {
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx_.GetArchiveLabel();
  if (!label.ok()) {
    pmtools::Complain(" pmGetArchiveLabel: %s\n",
                 pmapi::ErrStr(pmapi::PcpCode(label.status())).c_str());
    return false;
  }
  const TimeSpec log_end = pmtools::ArchiveEndForWindow(ctx_, s_.archives.front());
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
      pmtools::Complain(" -t argument not in pmParseHighResInterval(3) format:\n%s\n",
                        std::string(t.status().message()).c_str());
      s_.print_usage();
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
  const TimeSpec now = TimeSpec::FromNanos(absl::ToUnixNanos(absl::Now()));
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
  if (!s_.filter || ctx_.kind() != pmapi::ContextKind::kHost) return true;
  const int type = events_ ? pmapi::kTypeString : desc_.type;
  pmapi::AtomValue atom;
  if (events_) {
    atom.bytes = *s_.filter;
  } else {
    pmapi::ValueText v = pmapi::ParseValueText(*s_.filter, type);
    if (v.error == pmapi::ValueTextError::kIncompatible) {
      pmtools::Complain(" filter \"%s\" incompatible with metric type (PM_TYPE_%s)\n",
                   s_.filter->c_str(), pmapi::TypeStr(type).c_str());
      return false;
    }
    if (v.error == pmapi::ValueTextError::kOutOfRange) {
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

namespace {

// The sample count: as given, or (interpolating, with no -s) enough
// fetches to cover the window from the origin to its end.
void CountSamples(const std::optional<std::string>& given, bool raw_archive, bool bounded, double span,
                  double delta, int* samples) {
  if (given) {
    *samples = std::atoi(given->c_str());
    if (*samples == 0) return;
  }
  if (*samples > 0 || raw_archive || !bounded) return;
  *samples = static_cast<int>(span / delta);
  *samples = *samples < 0 ? 0 : *samples + 1;
}

}  // namespace

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
  const absl::Time when = absl::FromUnixNanos(origin_.nanos());
  const absl::Duration step = absl::Nanoseconds(interval_.nanos());
  absl::Status st = ctx_.SetMode(raw_archive_ ? pmapi::Mode::kForw : pmapi::Mode::kInterp, when, step);
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

}  // namespace pmval
