// pminfo: display information about performance metrics, as PCP's pminfo
// does: names, PMIDs, descriptors, help text, labels and values.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "describe.h"
#include "names.h"
#include "options.h"
#include "pminfo.h"
#include "pmapi/derived.h"
#include "pmapi/errors.h"

namespace {

pmtools::OptionTable Table() {
  using namespace pmtools;
  return {"pminfo",
          "[options] [metricname | pmid | indom]...",
          {{"General options",
            {StdArchive(), StdDebug(), StdHost(), StdContainer(), StdLocalPmda(), StdSpecLocal(), StdNamespace(),
             {'N', "uniqnames", "FILE", "like -n but only one name allowed for each PMID"},
             StdOrigin(), StdTimezone(), StdHostzone(), StdVersion(), StdHelp()}},
           {"Protocol options",
            {{'b', "batch", "N", "fetch N metrics at a time for -f and -v [128]"},
             {'d', "desc", "", "get and print metric description"},
             {'f', "fetch", "", "fetch and print values for all instances"},
             {'F', "fetchall", "", "fetch and print values for non-enumerable indoms"},
             {'I', "fullindom", "", "print InDom in verbose format"},
             {'l', "labels", "", "print InDom, metric and instance labels"},
             {'m', "pmid", "", "print PMID"},
             {'M', "fullpmid", "", "print PMID in verbose format"},
             {'s', "series", "", "print source, metric, instance series identifiers"},
             {'t', "oneline", "", "get and display (terse) oneline text"},
             {'T', "helptext", "", "get and display (verbose) help text"}}},
           {"Metrics options",
            {{'c', "derived", "FILE", "load derived metric definitions from FILE(s)"},
             {'x', "events", "", "unpack and report on any fetched event records"},
             {'v', "verify", "", "verify mode, be quiet and only report errors"}}}}};
}

// -c FILE: loaded when met, as PCP's pminfo does; an error is reported and
// is not fatal.
void LoadDerived(const std::string& files, pminfo::Settings* s) {
  s->derived_files.push_back(files);
  absl::StatusOr<int> n = pmapi::LoadDerivedConfig(files);
  if (!n.ok()) {
    std::fprintf(stderr, "pminfo: derived configuration(s) error: %s\n",
                 std::string(n.status().message()).c_str());
  }
}

// Applies one parsed option; returns false on a bad argument.
bool Apply(const pmtools::ParsedOption& o, pminfo::Settings* s) {
  const std::string& k = o.key;
  if (k == "a") s->archives.push_back(o.value);
  else if (k == "h") s->hosts.push_back(o.value);
  else if (k == "L") s->local = true;
  else if (k == "K") return pmtools::ApplySpecLocal("pminfo", o.value);
  else if (k == "D") pmtools::ApplyDebugOption(o.value);
  else if (k == "container") pmtools::ApplyContainerOption(o.value);
  else if (k == "z" || k == "Z") {
    if (k == "z" ? s->timezone.has_value() : s->hostzone) {
      std::fprintf(stderr, "pminfo: at most one of -Z and -z allowed\n");
      return false;
    }
    if (k == "z") s->hostzone = true;
    else s->timezone = o.value;
  } else if (k == "n" || k == "N") {
    s->name_space = pmtools::LoadNameSpaceOption("pminfo", o.value, k == "n");
    s->namespace_failed = s->name_space == nullptr;
  }
  else if (k == "O") s->origin = o.value;
  else if (k == "b") {
    if (!absl::SimpleAtoi(o.value, &s->batch)) {
      std::fprintf(stderr, "pminfo: -b requires numeric argument\n");
      return false;
    }
  } else if (k == "d") s->desc = true;
  else if (k == "f") s->value = true;
  else if (k == "F") s->value = s->force = true;
  else if (k == "I") s->desc = s->full_indom = true;
  else if (k == "l") s->labels = true;
  else if (k == "m") s->pmid = true;
  else if (k == "M") s->pmid = s->full_pmid = true;
  else if (k == "s") s->series = true;
  else if (k == "t") s->oneline = true;
  else if (k == "T") s->help = true;
  else if (k == "c") LoadDerived(o.value, s);
  else if (k == "x") s->events = s->value = true;
  else if (k == "v") s->verify = true;
  else if (k == "?") s->usage = true;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  pmtools::SetProgram(argc > 0 ? argv[0] : nullptr, "pminfo");
  pmtools::OptionTable table = Table();
  const pmtools::CommandLine cl = pmtools::ParseCommandLine(table, argc, argv);
  if (cl.exit) return 0;
  pminfo::Settings settings;
  bool ok = true;
  for (const pmtools::ParsedOption& o : cl.options) ok = Apply(o, &settings) && ok;
  if (ok && settings.hostzone && settings.archives.empty() && settings.hosts.empty()) {
    std::fprintf(stderr, "pminfo: use of timezone from metric source requires a source\n");
    ok = false;
  }
  // A name space that did not load is a runtime error: no usage text.
  if (settings.namespace_failed) return 1;
  if (!ok || settings.usage) {
    pmtools::PrintUsage(table);
    return 1;
  }
  settings.names = cl.operands;
  return pminfo::Run(settings);
}
