// archive_context: open an archive (pmapi::Context::OpenArchive), print
// where and when it was recorded, then the first value recorded of every
// metric below the names given, in the form `pminfo -a ARCHIVE -f NAME...`
// prints.
//
//   archive_context ARCHIVE [NAME...]      (no NAME: the whole name space)
//
// The header is three lines: the host the archive was recorded on, and
// the times of its first and last records in UTC, to the nanosecond
// (RFC 3339). An archive context answers the same calls as a live one
// (names, descriptors, instance names, Fetch); it reads the archive's
// files instead of asking a pmcd. In forward mode (pmapi::Mode::kForw)
// Fetch returns the next record holding the metric, so each metric is
// fetched after going back to the start.
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace {

// Prints one metric's first value(s), as pminfo -f does.
void PrintFirstValues(pmapi::Context& ctx, const std::string& name, absl::Time start) {
  absl::PrintF("\n%s\n", name);
  absl::StatusOr<pmapi::PmID> id = ctx.LookupName(name);
  absl::StatusOr<pmapi::Desc> desc = id.ok() ? ctx.LookupDesc(*id) : id.status();
  if (!desc.ok()) {
    absl::PrintF("Error: %s\n", desc.status().message());
    return;
  }
  // Back to the start of the archive, then the first record with the metric.
  absl::Status s = ctx.SetMode(pmapi::Mode::kForw, start, absl::ZeroDuration());
  absl::StatusOr<pmapi::Result> r = s.ok() ? ctx.Fetch({*id}) : s;
  if (!r.ok()) {
    absl::PrintF("Error: %s\n", r.status().message());
    return;
  }
  const pmapi::ValueSet& vs = r->sets()[0];
  if (vs.numval < 0) absl::PrintF("Error: %s\n", pmapi::ErrStr(vs.numval));
  if (vs.numval == 0) absl::PrintF("No value(s) available!\n");
  for (int j = 0; j < vs.numval; ++j) {
    const pmapi::ValueView v = r->value(vs, j);
    std::string line = "    ";
    if (desc->indom != pmapi::kInDomNull) {
      // Instance names as the archive records them at that time.
      absl::StatusOr<std::string> iname = ctx.NameInDom(desc->indom, v.inst);
      line += iname.ok() ? absl::StrFormat("inst [%d or \"%s\"] ", pmapi::ToPcp(v.inst), *iname)
                         : absl::StrFormat("inst [%d or ???] ", pmapi::ToPcp(v.inst));
    }
    // The value as PCP prints it (pmPrintValue).
    line += "value " + pmapi::FormatValue(vs.valfmt, desc->type, v, 1);
    absl::PrintF("%s\n", line);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    absl::FPrintF(stderr, "Usage: archive_context ARCHIVE [NAME...]\n");
    return 2;
  }
  absl::StatusOr<pmapi::Context> ctx = pmapi::Context::OpenArchive(argv[1]);
  if (!ctx.ok()) {
    absl::FPrintF(stderr, "archive_context: cannot open archive %s: %s\n", argv[1],
                  ctx.status().message());
    return 1;
  }
  // The label: the host and the first record's time (a pmapi::TimeSpec,
  // taken as an absl::Time); the end comes from the last record.
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
  absl::StatusOr<absl::Time> end = label.ok() ? ctx->GetArchiveEnd() : label.status();
  if (!end.ok()) {
    absl::FPrintF(stderr, "archive_context: %s: %s\n", argv[1], end.status().message());
    return 1;
  }
  const absl::Time start = label->start;
  absl::PrintF("host:  %s\n", label->hostname);
  absl::PrintF("start: %s\n", absl::FormatTime(absl::RFC3339_full, start, absl::UTCTimeZone()));
  absl::PrintF("end:   %s\n", absl::FormatTime(absl::RFC3339_full, *end, absl::UTCTimeZone()));

  // Every leaf below each name ("" is the root of the name space).
  std::vector<std::string> names;
  auto collect = [&names](const std::string& name) { names.push_back(name); };
  std::vector<std::string> roots(argv + 2, argv + argc);
  if (roots.empty()) roots.push_back("");
  int status = 0;
  for (const std::string& root : roots) {
    if (absl::Status s = ctx->Traverse(root, collect); !s.ok()) {
      absl::FPrintF(stderr, "archive_context: %s: %s\n", root, s.message());
      status = 1;
    }
  }
  for (const std::string& name : names) PrintFirstValues(*ctx, name, start);
  return status;
}
