// pmval: report one performance metric's values over time, as PCP's pmval
// does, from a pmcd host, a local context or a PCP archive.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "names.h"
#include "options.h"
#include "pmapi/derived.h"
#include "pmapi/timewindow.h"
#include "pmval.h"

namespace {

pmtools::OptionTable Table() {
  using namespace pmtools;
  return {pmtools::Program(),
          "[options] metricname",
          {{"General options",
            {StdAlign(), StdArchive(), StdDebug(),
             {'g', "guimode", "", "start in GUI mode with new time control"}, StdHost(),
             StdNamespace(), StdOrigin(),
             {'p', "guiport", "N", "port for connection to existing time control"}, StdStart(),
             StdSamples(), StdFinish(), StdInterval(), StdTimezone(), StdHostzone(),
             StdVersion(), StdHelp(), StdSpecLocal(), StdLocalPmda(), StdContainer(),
             {0, "derived", "FILE", "load derived metric definitions from FILE(s)"}}},
           {"Reporting options",
            {{'d', "delay", "", "delay, pause between updates for archive replay"},
             {'f', "precision", "N", "fixed output format with N digits precision"},
             {'i', "instances", "INST", "comma-separated metrics instance list"},
             {'r', "raw", "", "output raw counter values (no rate conversion)"},
             {'U', "nointerp", "FILE", "non-interpolated fetching; ignores interval"},
             {'v', "verbose", "", "increase diagnostic output"},
             {'w', "width", "N", "set the width of each column of output"},
             {'x', "filter", "VALUE", "store to the metric before fetching (filter)"},
             {'X', "timestamp", "", "include date and microseconds in reported timestamps"}}}}};
}

// Returns the value of a positive numeric option, or -1 if it is not one.
int PositiveNumber(const std::string& text, int least) {
  int n = 0;
  if (!absl::SimpleAtoi(text, &n) || n < least) return -1;
  return n;
}

// What main does with the options besides filling Settings.
struct Flags {
  bool usage = false;
  bool errors = false;
  bool gui = false;       // -g
  bool gui_port = false;  // -p
  std::vector<std::string> unsupported;
  bool namespace_failed = false;  // -n/-N: a runtime error, no usage text
};

// -s, -t, -g and -p are checked as they are met, as PCP's option layer
// checks them: their errors come before those about the operands.
void ApplyChecked(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f) {
  const std::string& k = o.key;
  if (k == "s") {
    s->samples = o.value;
    char* end = nullptr;
    long n = std::strtol(o.value.c_str(), &end, 10);
    if (*end != '\0' || n < 0) {
      pmtools::Complain(" -s requires a positive numeric argument\n");
      f->errors = true;
    }
  } else if (k == "t") {
    s->interval = o.value;
    absl::StatusOr<pmapi::TimeSpec> t = pmapi::ParseHighResInterval(o.value);
    if (!t.ok()) {
      pmtools::Complain(" -t argument not in pmParseHighResInterval(3) format:\n%s\n",
                        std::string(t.status().message()).c_str());
      f->errors = true;
    }
  } else if ((k == "g" && f->gui_port) || (k == "p" && f->gui)) {
    pmtools::Complain(" at most one of -g and -p allowed\n");
    f->errors = true;
  } else {
    (k == "g" ? f->gui : f->gui_port) = true;
    f->unsupported.push_back(k);
  }
}

void ApplySource(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f);

void ApplyReporting(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f) {
  const std::string& k = o.key;
  if (k == "f") {
    s->fixed = PositiveNumber(o.value, 0);
    if (s->fixed < 0) {
      pmtools::Complain(" -f requires +ve numeric argument\n");
      f->errors = true;
    }
  } else if (k == "w") {
    s->width = PositiveNumber(o.value, 1);
    if (s->width < 0) {
      pmtools::Complain(" -w requires +ve numeric argument\n");
      f->errors = true;
    }
  } else if (k == "i") {
    s->instances_given = true;
    for (const std::string& n : pmval::SplitInstances(o.value)) s->instances.push_back(n);
  } else if (k == "r") {
    s->raw_counter = true;
  } else if (k == "U") {
    ApplySource(o, s, f);
    s->raw_archive = true;
  } else if (k == "X") {
    ++s->timestamp_detail;
  } else if (k == "d") {
    s->delay = true;
  } else if (k == "v") {
    s->verbose = true;
  } else if (k == "x") {
    s->filter = o.value;
  } else if (k == "derived") {
    // --derived FILE: an error makes the command line bad (PCP's option layer)
    absl::StatusOr<int> n = pmapi::LoadDerivedConfig(o.value);
    if (!n.ok()) {
      std::fprintf(stderr, "pmval: pmLoadDerivedConfig failed: %s\n",
                   std::string(n.status().message()).c_str());
      f->errors = true;
    }
  } else if (k == "n" || k == "N") {
    s->name_space = pmtools::LoadNameSpaceOption("pmval", o.value, k == "n");
    f->namespace_failed = s->name_space == nullptr;
  } else {
    f->unsupported.push_back(k);
  }
}

// -a, -U and -h, with the option layer's checks: archives or one host.
void ApplySource(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f) {
  if (o.key == "a" || o.key == "U") {
    if (!s->hosts.empty()) {
      pmtools::Complain(" only one host or archive allowed\n");
      f->errors = true;
      return;
    }
    s->archives.push_back(o.value);
    return;
  }
  if (!s->archives.empty()) {
    pmtools::Complain(" only one host or archive allowed\n");
    f->errors = true;
  } else if (!s->hosts.empty()) {
    pmtools::Complain(" too many hosts requested: %s\n", o.value.c_str());
    f->errors = true;
  } else {
    s->hosts.push_back(o.value);
  }
}

// -z and -Z, which exclude each other (the option layer's check).
void ApplyZone(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f) {
  if ((o.key == "z" && s->timezone) || (o.key == "Z" && s->hostzone)) {
    pmtools::Complain(" at most one of -Z and -z allowed\n");
    f->errors = true;
    return;
  }
  if (o.key == "z") s->hostzone = true;
  else s->timezone = o.value;
}

void Apply(const pmtools::ParsedOption& o, pmval::Settings* s, Flags* f) {
  const std::string& k = o.key;
  if (k == "a" || k == "h") ApplySource(o, s, f);
  else if (k == "L") s->local = true;
  else if (k == "K") f->errors = !pmtools::ApplySpecLocal(pmtools::Program().c_str(), o.value) || f->errors;
  else if (k == "D") pmtools::ApplyDebugOption(o.value);
  else if (k == "container") pmtools::ApplyContainerOption(o.value);
  else if (k == "S") s->window.start = o.value;
  else if (k == "T") s->window.end = o.value;
  else if (k == "A") s->window.align = o.value;
  else if (k == "O") s->window.origin = o.value;
  else if (k == "t" || k == "s" || k == "g" || k == "p") ApplyChecked(o, s, f);
  else if (k == "z" || k == "Z") ApplyZone(o, s, f);
  else if (k == "?") f->usage = true;
  else ApplyReporting(o, s, f);
}

}  // namespace

int main(int argc, char** argv) {
  // Installed as pmval and as pmevent (a link to it), as in PCP: messages
  // and the usage text carry the name it was run by.
  pmtools::SetProgram(argc > 0 ? argv[0] : nullptr, "pmval");
  pmtools::OptionTable table = Table();
  const pmtools::CommandLine cl = pmtools::ParseCommandLine(table, argc, argv);
  if (cl.exit) return 0;
  pmval::Settings settings;
  Flags flags;
  for (const pmtools::ParsedOption& o : cl.options) Apply(o, &settings, &flags);
  if (flags.namespace_failed) return 1;
  if (flags.usage) {
    // PCP's pmval treats -? as an option error: usage and status 1.
    pmtools::PrintUsage(table);
    return 1;
  }
  if (!flags.errors && cl.operands.empty()) {
    pmtools::Complain(" error - no metricname specified\n");
    flags.errors = true;
  } else if (!flags.errors && cl.operands.size() > 1) {
    pmtools::Complain(" error - too many arguments\n");
    flags.errors = true;
  }
  if (flags.errors) {
    pmtools::PrintUsage(table);
    return 1;
  }
  if (!flags.unsupported.empty()) {
    const std::string& u = flags.unsupported.front();
    pmtools::Complain(" option %s%s is not supported\n", u.size() > 1 ? "--" : "-", u.c_str());
    return 1;
  }
  settings.metric = cl.operands.front();
  settings.print_usage = [&table] { pmtools::PrintUsage(table); };
  return pmval::Run(settings);
}
