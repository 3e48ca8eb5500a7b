// tools/pmval/pmval.h: PCP's pmval: reports one metric's values (counters
// as rates, time counters as utilisation) from a pmcd host or a local
// context as they are sampled, or from an archive at a sampling interval
// or, with -U, as recorded, in PCP 6.0.3's layout.
//
// Example:
//   pmval::Settings s;
//   s.archives = {"small-v3/small-v3"};
//   s.metric = "kernel.all.load";
//   return pmval::Run(s);   // prints to stdout, returns the exit status
#ifndef PMAPI_TOOLS_PMVAL_PMVAL_H_
#define PMAPI_TOOLS_PMVAL_PMVAL_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pmapi/pmns.h"
#include "pmapi/timewindow.h"

namespace pmval {

struct Settings {
  std::vector<std::string> archives;  // -a, and -U (which also sets raw_archive)
  std::vector<std::string> hosts;     // -h
  bool local = false;                 // -L
  bool delay = false;                 // -d: pause between archive samples
  bool verbose = false;               // -v
  std::optional<std::string> filter;  // -x: stored to the metric first
  bool raw_archive = false;           // -U: replay records, no interpolation
  pmapi::TimeWindowArgs window;       // -S -T -A -O
  std::optional<std::string> interval;  // -t
  std::optional<std::string> samples;   // -s
  bool hostzone = false;                // -z
  std::optional<std::string> timezone;  // -Z
  int fixed = -1;                       // -f
  int width = 0;                        // -w (0: the type's width)
  bool raw_counter = false;             // -r
  bool instances_given = false;         // -i
  std::vector<std::string> instances;   // -i names
  int timestamp_detail = 0;             // -X count
  std::string metric;                   // the operand
  std::function<void()> print_usage;    // the usage text, for late option errors
  std::shared_ptr<const pmapi::Pmns> name_space;  // -n/-N, if given
};

// Reports the metric as PCP's pmval does; returns the exit status.
// REQUIRES: settings.metric is set.
int Run(const Settings& settings);

// Splits a -i argument into instance names as pmval does: separators are
// commas and white space; a name may be quoted with ' or ".
std::vector<std::string> SplitInstances(const std::string& text);

}  // namespace pmval

#endif  // PMAPI_TOOLS_PMVAL_PMVAL_H_
