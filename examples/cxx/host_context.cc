// host_context: connect to a pmcd (pmapi::OpenHostContext) and print, for
// each metric named, its one-line help, its descriptor and its current
// values, in the form `pminfo -h HOST -tdf METRIC...` prints.
//
//   host_context HOST METRIC...
//
// HOST is a pmcd: a host name ("localhost", "server:44321" for another
// port), "unix:" for the local pmcd's unix socket ($PMCD_SOCKET names
// another) or "unix:/path/to/socket". The first line is the host name
// pmcd reports. The names are looked up in one request, the descriptors
// in one more (when pmcd offers that), and all the metrics are fetched
// together, in one round trip to pmcd.
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"
#include "pmapi/strings.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    absl::FPrintF(stderr, "Usage: host_context HOST METRIC...\n");
    return 2;
  }
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext(argv[1]);
  if (!ctx.ok()) {
    absl::FPrintF(stderr, "host_context: cannot connect to pmcd on host \"%s\": %s\n", argv[1],
                  ctx.status().message());
    return 1;
  }
  // The host pmcd runs on, as pmcd itself names it (pmcd.hostname).
  absl::PrintF("host: %s\n", ctx->HostName());

  // One lookup for all the names: a PMID or an error for each, in order.
  const std::vector<std::string> names(argv + 2, argv + argc);
  std::vector<pmapi::PmID> ids;
  std::vector<absl::StatusOr<pmapi::PmID>> found = ctx->LookupNames(names);
  for (size_t i = 0; i < names.size(); ++i) {
    if (!found[i].ok()) {
      absl::FPrintF(stderr, "host_context: %s: %s\n", names[i], found[i].status().message());
      return 1;
    }
    ids.push_back(*found[i]);
  }
  absl::StatusOr<std::vector<pmapi::Desc>> descs = ctx->LookupDescs(ids);
  if (!descs.ok()) {
    absl::FPrintF(stderr, "host_context: descriptors: %s\n", descs.status().message());
    return 1;
  }
  // One fetch for all the metrics: a value set per metric, in order.
  absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
  if (!r.ok()) {
    absl::FPrintF(stderr, "host_context: fetch: %s\n", r.status().message());
    return 1;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const pmapi::Desc& desc = (*descs)[i];
    // The agent's one-line help text, when it has some.
    absl::StatusOr<std::string> help = ctx->LookupText(ids[i], pmapi::TextKind::kOneline);
    if (help.ok()) {
      absl::PrintF("\n%s [%s]\n", names[i], *help);
    } else {
      absl::PrintF("\n%s\n", names[i]);
    }
    absl::PrintF("%s", pmapi::DescStr(desc));  // as pmPrintDesc prints it
    const pmapi::ValueSet& vs = r->sets()[i];
    if (vs.numval < 0) {
      absl::PrintF("Error: %s\n", pmapi::ErrStr(vs.numval));
      continue;
    }
    if (vs.numval == 0) absl::PrintF("No value(s) available!\n");
    for (int j = 0; j < vs.numval; ++j) {
      const pmapi::ValueView v = r->value(vs, j);
      std::string line = "    ";
      if (desc.indom != pmapi::kInDomNull) {
        absl::StatusOr<std::string> iname = ctx->NameInDom(desc.indom, v.inst);
        line += iname.ok() ? absl::StrFormat("inst [%d or \"%s\"] ", pmapi::ToPcp(v.inst), *iname)
                           : absl::StrFormat("inst [%d or ???] ", pmapi::ToPcp(v.inst));
      }
      absl::PrintF("%svalue %s\n", line, pmapi::FormatValue(vs.valfmt, desc.type, v, 1));
    }
  }
  return 0;
}
