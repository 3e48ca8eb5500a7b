// archive_interp: replay an archive at a fixed step. In interpolation mode
// (pmapi::Mode::kInterp) every Fetch returns the values at the next STEP
// after the one before, starting at the archive's first record, whatever
// times the archive was actually recorded at: the library interpolates
// between the records around each step.
//
//   archive_interp ARCHIVE STEP METRIC [INSTANCE]
//
// STEP is an interval as PCP's tools take it ("2", "1.5sec", "1min").
// With INSTANCE (a name of the metric's instance domain) only that
// instance is fetched, through the context's instance profile. Values are
// printed raw (a counter's running total, as `pmval -r` shows it), one line
// per value, until the end of the archive:
//
//   TIME METRIC VALUE              a metric without instances
//   TIME METRIC[INSTANCE] VALUE    one line per instance
//   TIME METRIC ?                  no value at that time
//
// TIME is HH:MM:SS.mmm in the local time zone ($TZ).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/interval.h"

namespace {

// Prints a failed call's status (PCP's message, with its context) and
// returns the exit status.
int Fail(std::string_view what, const absl::Status& status) {
  absl::FPrintF(stderr, "archive_interp: %s: %s\n", what, status.message());
  return 1;
}

// One value as text: numbers as "%.3f", strings quoted.
std::string ValueText(const pmapi::ValueSet& vs, const pmapi::ValueView& v, int type) {
  const bool text = type == pmapi::kTypeString;
  absl::StatusOr<pmapi::AtomValue> atom =
      pmapi::ExtractValue(vs.valfmt, v, type, text ? pmapi::kTypeString : pmapi::kTypeDouble);
  if (!atom.ok()) return "?";
  return text ? absl::StrFormat("\"%s\"", atom->bytes) : absl::StrFormat("%.3f", atom->d);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    absl::FPrintF(stderr, "Usage: archive_interp ARCHIVE STEP METRIC [INSTANCE]\n");
    return 2;
  }
  const std::string metric = argv[3];
  absl::StatusOr<absl::Duration> step = pmapi::ParseInterval(argv[2]);
  if (!step.ok()) {  // PCP's diagnostic: the text, a caret under the fault, the reason
    absl::FPrintF(stderr, "archive_interp: STEP is not an interval:\n%s", step.status().message());
    return 2;
  }

  absl::StatusOr<pmapi::Context> ctx = pmapi::Context::OpenArchive(argv[1]);
  if (!ctx.ok()) return Fail(argv[1], ctx.status());
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName(metric);
  if (!id.ok()) return Fail(metric, id.status());
  absl::StatusOr<pmapi::Desc> desc = ctx->LookupDesc(*id);
  if (!desc.ok()) return Fail(metric, desc.status());

  if (argc == 5) {
    // The instance by name among every instance the archive ever records
    // (GetInDom would answer for the current time only).
    if (desc->indom == pmapi::kInDomNull) return Fail(argv[4], pmapi::PcpError(pmapi::kErrIndom));
    absl::StatusOr<std::vector<pmapi::Instance>> all = ctx->GetInDomArchive(desc->indom);
    if (!all.ok()) return Fail(argv[4], all.status());
    std::optional<pmapi::Inst> inst;
    for (const pmapi::Instance& i : *all) {
      if (i.name == argv[4]) inst = i.id;
    }
    if (!inst) return Fail(argv[4], pmapi::PcpError(pmapi::kErrInstLog));
    // The profile: no instance of the domain, then that one.
    absl::Status s = ctx->DelProfile(desc->indom, {});
    if (s.ok()) s = ctx->AddProfile(desc->indom, {*inst});
    if (!s.ok()) return Fail("profile", s);
  }

  // From the archive's first record, one step per fetch. The label's start
  // is a pmapi::TimeSpec, which converts to the absl::Time SetMode takes.
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
  if (!label.ok()) return Fail("label", label.status());
  absl::Status s = ctx->SetMode(pmapi::Mode::kInterp, label->start, *step);
  if (!s.ok()) return Fail("SetMode", s);

  const absl::TimeZone zone = absl::LocalTimeZone();
  for (;;) {
    absl::StatusOr<pmapi::Result> r = ctx->Fetch({*id});
    if (!r.ok()) {
      if (pmapi::PcpCode(r.status()) == pmapi::kErrEol) break;  // past the archive's end
      return Fail("Fetch", r.status());
    }
    const std::string when = absl::FormatTime("%H:%M:%E3S", r->timestamp(), zone);
    const pmapi::ValueSet& vs = r->sets()[0];
    if (vs.numval <= 0) absl::PrintF("%s %s ?\n", when, metric);
    for (int j = 0; j < vs.numval; ++j) {
      pmapi::ValueView v = r->value(vs, j);
      std::string name = metric;
      if (desc->indom != pmapi::kInDomNull) {
        absl::StatusOr<std::string> iname = ctx->NameInDom(desc->indom, v.inst);
        name += "[" + (iname.ok() ? *iname : std::to_string(pmapi::ToPcp(v.inst))) + "]";
      }
      absl::PrintF("%s %s %s\n", when, name, ValueText(vs, v, desc->type));
    }
    ctx->Recycle(*std::move(r));  // its buffers serve the next fetch
  }
  return 0;
}
