// fetchgroup_rates: rates of counters the easy way. A pmapi::FetchGroup
// owns its context; each metric registered with AddIndom gets an output
// the group fills at every Fetch: the instances' numbers, names, values
// and statuses. A counter registered with no scale comes back as a rate
// per second, computed by the group from this fetch and the one before (the
// first fetch has no rate yet: its status is PM_ERR_AGAIN).
//
//   fetchgroup_rates [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] [-t INTERVAL] METRIC...
//
// Live sources are sampled every INTERVAL (default 1 second, 5 samples);
// an archive is replayed from its start with values interpolated every
// INTERVAL (pmapi::Mode::kInterp), as pmval does. Prints one line per
// instance per sample:
//   TIME METRIC[INSTANCE] RATE      (METRIC alone when it has no instances)
// with "?" for a rate not available at that time, and a single line
// "TIME METRIC ?" when no instance has one (the first sample). TIME is
// HH:MM:SS.mmm in the local time zone.
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pmapi/errors.h"
#include "pmapi/fetchgroup.h"
#include "pmapi/interval.h"

namespace {

int Fail(std::string_view what, const absl::Status& status) {
  absl::FPrintF(stderr, "fetchgroup_rates: %s: %s\n", what, status.message());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  pmapi::ContextKind kind = pmapi::ContextKind::kHost;
  std::string source = "local:";
  int samples = 5;
  absl::Duration interval = absl::Seconds(1);
  for (int c; (c = getopt(argc, argv, "a:h:Ls:t:")) != -1;) {
    if (c == 'a' || c == 'h') {
      kind = c == 'a' ? pmapi::ContextKind::kArchive : pmapi::ContextKind::kHost;
      source = optarg;
    } else if (c == 'L') {
      kind = pmapi::ContextKind::kLocal;
    } else if (c == 's') {
      samples = std::atoi(optarg);
    } else if (c == 't') {
      absl::StatusOr<absl::Duration> d = pmapi::ParseInterval(optarg);
      if (!d.ok()) {  // PCP's diagnostic: the text, a caret under the fault, the reason
        absl::FPrintF(stderr, "fetchgroup_rates: -t: not an interval:\n%s", d.status().message());
        return 1;
      }
      interval = *d;
    } else {
      optind = argc;  // an unknown option: the usage message
      break;
    }
  }
  if (optind >= argc) {
    absl::FPrintF(stderr, "Usage: fetchgroup_rates [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] "
                          "[-t INTERVAL] METRIC...\n");
    return 1;
  }

  // The group opens its own context of the kind asked for.
  absl::StatusOr<std::unique_ptr<pmapi::FetchGroup>> fg = pmapi::FetchGroup::Create(kind, source);
  if (!fg.ok()) return Fail(source, fg.status());
  pmapi::FetchGroup& group = **fg;

  // An archive: replay from its first record, interpolating every INTERVAL.
  if (kind == pmapi::ContextKind::kArchive) {
    absl::StatusOr<pmapi::ArchiveLabel> label = group.context().GetArchiveLabel();
    if (!label.ok()) return Fail(source, label.status());
    if (absl::Status s = group.SetMode(pmapi::Mode::kInterp, label->start, interval); !s.ok())
      return Fail("SetMode", s);
  }

  // Every metric with all its instances (at most 64); no scale: counters
  // as rates. The outputs belong to the group.
  const std::vector<std::string> names(argv + optind, argv + argc);
  std::vector<const pmapi::FetchGroupIndom*> outputs;
  for (const std::string& name : names) {
    absl::StatusOr<const pmapi::FetchGroupIndom*> out =
        group.AddIndom(name, std::nullopt, pmapi::kTypeDouble, 64);
    if (!out.ok()) return Fail(name, out.status());
    outputs.push_back(*out);
  }
  const pmapi::FetchGroupTimestamp* stamp = group.AddTimestamp();

  const absl::TimeZone zone = absl::LocalTimeZone();
  for (int s = 0; s < samples; ++s) {
    if (s > 0 && kind != pmapi::ContextKind::kArchive) absl::SleepFor(interval);
    if (absl::StatusOr<int> n = group.Fetch(); !n.ok()) {
      if (pmapi::PcpCode(n.status()) == pmapi::kErrEol) break;  // past the archive's end
      return Fail("fetch", n.status());
    }
    const absl::Time t = absl::FromUnixSeconds(stamp->sec) + absl::Nanoseconds(stamp->nsec);
    const std::string when = absl::FormatTime("%H:%M:%E3S", t, zone);
    for (size_t i = 0; i < names.size(); ++i) {
      const pmapi::FetchGroupIndom& out = *outputs[i];
      bool any = false;
      for (const pmapi::FetchGroupInstance& inst : out.instances) any = any || inst.status >= 0;
      if (out.status < 0 || !any) {  // no instance has a rate (yet): one line
        absl::PrintF("%s %s ?\n", when, names[i]);
        continue;
      }
      for (const pmapi::FetchGroupInstance& inst : out.instances) {
        const std::string label = inst.name ? absl::StrFormat("%s[%s]", names[i], *inst.name) : names[i];
        if (inst.status < 0) {
          absl::PrintF("%s %s ?\n", when, label);
        } else {
          absl::PrintF("%s %s %.3f\n", when, label, inst.value.atom.d);
        }
      }
    }
  }
  return 0;
}
