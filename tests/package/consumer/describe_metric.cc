// describe_metric: a program outside the project that uses the installed
// libpmapi, built by tests/package/package_test.sh once through
// find_package(pmapi) and once through pkg-config.
//
// It opens an archive or a local context and prints one line per metric
// named on the command line: name, PMID, type, instance domain, semantics
// and units in brackets, in the text forms PCP gives them. A local context
// named "default" uses the configuration the library finds by itself;
// `describe_metric config` prints that configuration's path.
//
// Example:
//   describe_metric archive tests/data/archives/reference/small-v3/small-v3 sample.colour
//   // sample.colour 29.0.5 32 29.1 instant []
//   describe_metric local /usr/share/pmapi/pmdas/pmcd.conf hinv.ncpu
//   describe_metric local default hinv.ncpu
#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"
#include "pmapi/units.h"

namespace {

// Returns the context the command line names: "archive PATH", "local
// CONFIG" or "local default". REQUIRES: kind and source are the first two operands.
absl::StatusOr<pmapi::Context> OpenSource(std::string_view kind, const char* source) {
  if (kind == "archive") return pmapi::Context::OpenArchive(source);
  pmapi::LocalOptions options;
  if (std::string_view(source) != "default") options.config_path = source;
  return pmapi::OpenLocalContext(options);
}

// Prints the descriptor line of `name`; returns false (after printing PCP's
// error text) when the name or its descriptor cannot be found.
bool Describe(pmapi::Context& ctx, const char* name) {
  absl::StatusOr<pmapi::PmID> id = ctx.LookupName(name);
  absl::StatusOr<pmapi::Desc> desc = id.ok() ? ctx.LookupDesc(*id) : id.status();
  if (!desc.ok()) {
    std::fprintf(stderr, "%s: %s\n", name, pmapi::ErrStr(pmapi::PcpCode(desc.status())).c_str());
    return false;
  }
  std::printf("%s %s %s %s %s [%s]\n", name, pmapi::IDStr(desc->pmid).c_str(),
              pmapi::TypeStr(desc->type).c_str(), pmapi::InDomStr(desc->indom).c_str(),
              pmapi::SemStr(desc->sem).c_str(), pmapi::UnitsStr(desc->units).c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view kind = argc > 1 ? argv[1] : "";
  if (argc == 2 && kind == "config") {
    std::printf("%s\n", pmapi::DefaultLocalConfigPath().c_str());
    return 0;
  }
  if (argc < 4 || (kind != "archive" && kind != "local")) {
    std::fprintf(stderr, "Usage: %s archive PATH|local CONFIG|local default metricname...\n", argv[0]);
    std::fprintf(stderr, "       %s config\n", argv[0]);
    return 2;
  }
  absl::StatusOr<pmapi::Context> ctx = OpenSource(kind, argv[2]);
  if (!ctx.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[2], pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    return 1;
  }
  bool ok = true;
  for (int i = 3; i < argc; ++i) ok = Describe(*ctx, argv[i]) && ok;
  return ok ? 0 : 1;
}
