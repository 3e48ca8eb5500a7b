// tools/pmval/report_print.cc: what the report prints: time stamps, the header,
// values, rates and events.
#include "report.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "display_width.h"
#include "event_text.h"
#include "options.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/strings.h"
#include "pmapi/timefmt.h"
#include "stamps.h"
#include "pmapi/units.h"
#include "value_text.h"

namespace pmval {

std::string Report::Stamp(const TimeSpec& t) const {
  absl::StatusOr<std::string> text;
  if (s_.timestamp_detail == 0) {
    text = pmtools::PmvalStamp(zone_, t.sec, t.nsec);
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

const pmapi::ValueView* Report::Find(const Sample& smp, pmapi::Inst inst) const {
  auto it = smp.by_inst.find(inst);
  return it == smp.by_inst.end() ? nullptr : &smp.values[it->second];
}

absl::flat_hash_set<pmapi::Inst> Report::ColumnIds() const {
  absl::flat_hash_set<pmapi::Inst> ids;
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
  const absl::flat_hash_set<pmapi::Inst> ids = ColumnIds();
  for (const pmapi::ValueView& v : cur.values) {
    if (!ids.contains(v.inst)) {
      std::printf("Warning: value=%s, but instance=%d is unknown\n", ValueText(cur, v, 1).c_str(),
                  pmapi::ToPcp(v.inst));
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
  const absl::flat_hash_set<pmapi::Inst> ids = ColumnIds();
  for (size_t j = 0; j < cur.values.size(); ++j) {
    const bool known = ids.contains(cur.values[j].inst);
    if (!known && j < prev.values.size() && prev.values[j].inst == cur.values[j].inst) {
      std::printf("Warning: value=%s, but instance=%d is unknown\n",
                  RateText(cur, cur.values[j], prev.values[j], delta, 1).c_str(),
                  pmapi::ToPcp(cur.values[j].inst));
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
  const absl::flat_hash_set<pmapi::Inst> ids = ColumnIds();
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

}  // namespace pmval
