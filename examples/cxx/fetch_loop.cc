// fetch_loop: the heart of every live monitor: look the metrics up once,
// then fetch them all together every INTERVAL, SAMPLES times, printing one
// line per sample.
//
//   fetch_loop [-h HOST | -L] [-s SAMPLES] [-t INTERVAL] METRIC...
//
// -h names a pmcd (pmapi::OpenHostContext), -L asks for a local context
// (the agents in this process, pmapi::OpenLocalContext); with neither the
// local pmcd ("local:") is asked. SAMPLES defaults to 5, INTERVAL (PCP's
// interval syntax: "1", "0.5", "250msec") to one second; fetches are
// paced from the start, so a slow fetch does not push the next one back.
// Each line is the sample's time (the source's clock, HH:MM:SS.mmm in the
// local time zone) followed by "NAME=VALUE" per metric, the values of its
// instances joined by commas in the result's order, as PCP prints values.
// Counters are printed as fetched; see fetchgroup_rates.cc for rates.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"
#include "pmapi/interval.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"

namespace {

int Usage() {
  absl::FPrintF(stderr, "Usage: fetch_loop [-h HOST | -L] [-s SAMPLES] [-t INTERVAL] METRIC...\n");
  return 1;
}

int Fail(std::string_view what, const absl::Status& status) {
  absl::FPrintF(stderr, "fetch_loop: %s: %s\n", what, status.message());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "local:";
  bool local = false;
  int samples = 5;
  absl::Duration interval = absl::Seconds(1);
  for (int c; (c = getopt(argc, argv, "h:Ls:t:")) != -1;) {
    if (c == 'h') {
      host = optarg;
    } else if (c == 'L') {
      local = true;
    } else if (c == 's') {
      samples = std::atoi(optarg);
    } else if (c == 't') {
      absl::StatusOr<absl::Duration> d = pmapi::ParseInterval(optarg);
      if (!d.ok()) {  // PCP's diagnostic: the text, a caret under the fault, the reason
        absl::FPrintF(stderr, "fetch_loop: -t: not an interval:\n%s", d.status().message());
        return 1;
      }
      interval = *d;
    } else {
      return Usage();
    }
  }
  if (optind >= argc || samples <= 0) return Usage();

  absl::StatusOr<pmapi::Context> ctx = local ? pmapi::OpenLocalContext() : pmapi::OpenHostContext(host);
  if (!ctx.ok()) return Fail("cannot open the metrics source", ctx.status());

  // Names to identifiers and descriptors, once, before the loop.
  const std::vector<std::string> names(argv + optind, argv + argc);
  std::vector<pmapi::PmID> ids;
  for (const absl::StatusOr<pmapi::PmID>& id : ctx->LookupNames(names)) {
    if (!id.ok()) return Fail(names[ids.size()], id.status());
    ids.push_back(*id);
  }
  absl::StatusOr<std::vector<pmapi::Desc>> descs = ctx->LookupDescs(ids);
  if (!descs.ok()) return Fail("descriptors", descs.status());

  const absl::TimeZone zone = absl::LocalTimeZone();
  absl::Time next = absl::Now();
  for (int s = 0; s < samples; ++s) {
    if (s > 0) absl::SleepFor(next - absl::Now());  // no-op if already late
    next += interval;
    absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
    if (!r.ok()) return Fail("fetch", r.status());
    std::string line = absl::FormatTime("%H:%M:%E3S", r->timestamp(), zone);
    for (size_t i = 0; i < ids.size(); ++i) {
      const pmapi::ValueSet& vs = r->sets()[i];
      line += " " + names[i] + "=";
      if (vs.numval < 0) line += "[" + pmapi::ErrStr(vs.numval) + "]";
      for (int j = 0; j < vs.numval; ++j) {
        if (j > 0) line += ",";
        pmapi::AppendValue(&line, vs.valfmt, (*descs)[i].type, r->value(vs, j), 1);
      }
    }
    absl::PrintF("%s\n", line);
    std::fflush(stdout);
  }
  return 0;
}
