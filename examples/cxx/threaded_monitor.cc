// threaded_monitor: a monitor on several threads, one metric per thread,
// each thread with a pmapi::Context of its own on the same source. A
// Context is used by one thread at a time, and distinct contexts may be
// used from different threads at once, so the threads fetch independently:
// from a pmcd they wait for their answers side by side, and over an
// archive each replays at its own position.
//
//   threaded_monitor (-a ARCHIVE | -h HOST) [-s SAMPLES] [-t INTERVAL] METRIC...
//
// Each thread takes SAMPLES samples (default 5) INTERVAL apart (default 1
// second; an archive: replayed from its start, interpolated at INTERVAL
// steps) and writes its lines to a string of its own; once all threads are
// done their lines are printed in the order of the metrics:
//   METRIC TIME VALUE[,VALUE...]
// raw values (counters are not turned into rates) as "%.3f", strings as
// PCP prints them, "?" when there is no value. A thread whose context,
// metric or fetch fails has its error printed on stderr after its lines,
// and the exit status is 1.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/interval.h"
#include "pmapi/strings.h"

namespace {

struct Watch {
  pmapi::ContextKind kind;
  std::string source;
  int samples;
  absl::Duration interval;
};

// One thread's work: its own context, its metric, its samples, its lines
// appended to *out.
absl::Status WatchMetric(const Watch& w, const std::string& metric, std::string* out) {
  absl::StatusOr<pmapi::Context> ctx = pmapi::Context::Open(w.kind, w.source);
  absl::StatusOr<pmapi::PmID> id = ctx.ok() ? ctx->LookupName(metric) : ctx.status();
  absl::StatusOr<pmapi::Desc> desc = id.ok() ? ctx->LookupDesc(*id) : id.status();
  absl::Status s = desc.status();
  if (s.ok() && w.kind == pmapi::ContextKind::kArchive) {
    absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
    s = label.ok() ? ctx->SetMode(pmapi::Mode::kInterp, label->start, w.interval) : label.status();
  }
  const absl::TimeZone zone = absl::LocalTimeZone();
  for (int n = 0; s.ok() && n < w.samples; ++n) {
    if (n > 0 && w.kind != pmapi::ContextKind::kArchive) absl::SleepFor(w.interval);
    absl::StatusOr<pmapi::Result> r = ctx->Fetch({*id});
    if (!r.ok()) {
      if (pmapi::PcpCode(r.status()) != pmapi::kErrEol) s = r.status();
      break;  // PM_ERR_EOL: the archive's end
    }
    const pmapi::ValueSet& vs = r->sets()[0];
    *out += absl::StrFormat("%s %s ", metric, absl::FormatTime("%H:%M:%E3S", r->timestamp(), zone));
    if (vs.numval <= 0) *out += "?";
    for (int j = 0; j < vs.numval; ++j) {
      const pmapi::ValueView v = r->value(vs, j);
      if (j > 0) *out += ",";
      absl::StatusOr<pmapi::AtomValue> a = pmapi::ExtractValue(vs.valfmt, v, desc->type, pmapi::kTypeDouble);
      *out += a.ok() ? absl::StrFormat("%.3f", a->d) : pmapi::FormatValue(vs.valfmt, desc->type, v, 1);
    }
    *out += "\n";
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Watch w{pmapi::ContextKind::kHost, "", 5, absl::Seconds(1)};
  for (int c; (c = getopt(argc, argv, "a:h:s:t:")) != -1;) {
    if (c == 'a' || c == 'h') {
      w.kind = c == 'a' ? pmapi::ContextKind::kArchive : pmapi::ContextKind::kHost;
      w.source = optarg;
    } else if (c == 's') {
      w.samples = std::atoi(optarg);
    } else if (c == 't') {
      absl::StatusOr<absl::Duration> d = pmapi::ParseInterval(optarg);
      if (!d.ok()) {
        absl::FPrintF(stderr, "threaded_monitor: -t: not an interval:\n%s", d.status().message());
        return 2;
      }
      w.interval = *d;
    } else {
      w.source.clear();
      break;
    }
  }
  if (w.source.empty() || optind >= argc) {
    absl::FPrintF(stderr, "Usage: threaded_monitor (-a ARCHIVE | -h HOST) [-s SAMPLES] [-t INTERVAL] METRIC...\n");
    return 2;
  }
  const std::vector<std::string> metrics(argv + optind, argv + argc);
  std::vector<std::string> outputs(metrics.size());
  std::vector<absl::Status> results(metrics.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < metrics.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = WatchMetric(w, metrics[i], &outputs[i]); });
  }
  int status = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    threads[i].join();
    absl::PrintF("%s", outputs[i]);
    if (!results[i].ok()) {
      absl::FPrintF(stderr, "threaded_monitor: %s: %s\n", metrics[i], results[i].message());
      status = 1;
    }
  }
  return status;
}
