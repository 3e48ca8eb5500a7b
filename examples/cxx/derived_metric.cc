// derived_metric: define new metrics as expressions over existing ones and
// fetch them like any other. pmapi::RegisterDerived defines a metric for
// every context opened afterwards; Context::AddDerived defines one in a
// single context. The library evaluates the expressions at each fetch
// (rate() from this fetch and the one before).
//
//   derived_metric [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] [-t INTERVAL] [NAME=EXPR...]
//
// Two metrics are always registered globally, before the context opens:
//   example.mem.used_pct = 100 * mem.util.used / mem.physmem
//   example.cpu.busy = rate(kernel.all.cpu.user) + rate(kernel.all.cpu.sys)
// and each NAME=EXPR is added to the context alone (by default one:
// example.pswitch_per_cpu = rate(kernel.all.pswitch) / hinv.ncpu). A
// definition the library refuses is reported with PCP's message (the
// expression, a caret under the fault, the reason), and exit status 1.
//
// Prints each definition ("NAME = EXPR"), then, per sample, one line per
// metric: "TIME NAME VALUE", VALUE "?" when the metric has no value then
// (the first sample of a rate). An archive is replayed from its start at
// INTERVAL steps (pmapi::Mode::kInterp); live sources are sampled every
// INTERVAL. Defaults: 5 samples, 1 second.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/derived.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/interval.h"

namespace {

using Definition = std::pair<std::string, std::string>;  // name, expression

int Fail(std::string_view what, const absl::Status& status) {
  absl::FPrintF(stderr, "derived_metric: %s: %s\n", what, status.message());
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
        absl::FPrintF(stderr, "derived_metric: -t: not an interval:\n%s", d.status().message());
        return 1;
      }
      interval = *d;
    } else {
      absl::FPrintF(stderr, "Usage: derived_metric [-a ARCHIVE | -h HOST | -L] [-s SAMPLES] "
                            "[-t INTERVAL] [NAME=EXPR...]\n");
      return 1;
    }
  }
  const std::vector<Definition> global = {
      {"example.mem.used_pct", "100 * mem.util.used / mem.physmem"},
      {"example.cpu.busy", "rate(kernel.all.cpu.user) + rate(kernel.all.cpu.sys)"}};
  std::vector<Definition> local;
  for (int i = optind; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) return Fail(arg, pmapi::PcpError(pmapi::kErrBadderive));
    local.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
  }
  if (local.empty()) local.emplace_back("example.pswitch_per_cpu", "rate(kernel.all.pswitch) / hinv.ncpu");

  // Global definitions first: every context opened later has them.
  for (const auto& [name, expr] : global) {
    if (absl::Status s = pmapi::RegisterDerived(name, expr); !s.ok()) return Fail(name, s);
  }
  absl::StatusOr<pmapi::Context> ctx = pmapi::Context::Open(kind, source);
  if (!ctx.ok()) return Fail(source, ctx.status());
  for (const auto& [name, expr] : local) {
    if (absl::Status s = ctx->AddDerived(name, expr); !s.ok()) return Fail(name, s);
  }

  // Derived names are looked up, described and fetched as any other.
  std::vector<Definition> all = global;
  all.insert(all.end(), local.begin(), local.end());
  std::vector<pmapi::PmID> ids;
  for (const auto& [name, expr] : all) {
    absl::PrintF("%s = %s\n", name, expr);
    absl::StatusOr<pmapi::PmID> id = ctx->LookupName(name);
    if (!id.ok()) return Fail(name, id.status());
    ids.push_back(*id);
  }
  absl::StatusOr<std::vector<pmapi::Desc>> descs = ctx->LookupDescs(ids);
  if (!descs.ok()) return Fail("descriptors", descs.status());

  if (kind == pmapi::ContextKind::kArchive) {
    absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
    absl::Status s = label.ok() ? ctx->SetMode(pmapi::Mode::kInterp, label->start, interval) : label.status();
    if (!s.ok()) return Fail("SetMode", s);
  }
  const absl::TimeZone zone = absl::LocalTimeZone();
  for (int s = 0; s < samples; ++s) {
    if (s > 0 && kind != pmapi::ContextKind::kArchive) absl::SleepFor(interval);
    absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
    if (!r.ok()) {
      if (pmapi::PcpCode(r.status()) == pmapi::kErrEol) break;  // past the archive's end
      return Fail("fetch", r.status());
    }
    const std::string when = absl::FormatTime("%H:%M:%E3S", r->timestamp(), zone);
    for (size_t i = 0; i < ids.size(); ++i) {
      const pmapi::ValueSet& vs = r->sets()[i];
      absl::StatusOr<pmapi::AtomValue> v = pmapi::PcpError(pmapi::kErrValue);
      if (vs.numval > 0) v = pmapi::ExtractValue(vs.valfmt, r->value(vs, 0), (*descs)[i].type, pmapi::kTypeDouble);
      if (v.ok()) {
        absl::PrintF("%s %s %.3f\n", when, all[i].first, v->d);
      } else {
        absl::PrintF("%s %s ?\n", when, all[i].first);
      }
    }
  }
  return 0;
}
