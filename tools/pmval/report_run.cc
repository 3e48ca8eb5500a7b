// tools/pmval/report_run.cc: the report's run: fetching samples (live, interpolated
// or as recorded) and the sampling loop.
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "absl/time/clock.h"
#include "options.h"
#include "pmapi/errors.h"
#include "pmapi/metricspec.h"
#include "pmapi/strings.h"
#include "pmapi/timefmt.h"
#include "value_text.h"

namespace pmval {

void Report::Pause() const {
  if (!live_ && !s_.delay) return;
  absl::SleepFor(absl::Nanoseconds(interval_.nanos()));
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
                  Stamp(TimeSpec::FromNanos(got->timestamp_ns())).c_str());
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
    stamp = TimeSpec::FromNanos(out->result.timestamp_ns());
  } else {
    const pmapi::PmID ids[1] = {pmid_};
    absl::StatusOr<pmapi::Result> got = ctx_.Fetch(ids);
    stamp = position_;
    Advance(&position_, interval_);
    if (live_ && got.ok()) stamp = TimeSpec::FromNanos(got->timestamp_ns());
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

int Report::Execute() {
  int spec_kind = pmapi::kSpecArchive;
  std::string source = live_ ? "" : s_.archives.front();
  if (ctx_.kind() == pmapi::ContextKind::kHost) {
    spec_kind = pmapi::kSpecHost;
    source = s_.hosts.front();
  } else if (ctx_.kind() == pmapi::ContextKind::kLocal) {
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

}  // namespace pmval
