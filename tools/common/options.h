// tools/common/options.h: the command-line layer every tool shares.
//
// Tools describe their options as groups (as PCP's pmGetOptions tables do),
// parse argv with Boost.Program_options into an ordered list of options and
// operands, and print PCP's usage text and getopt-style diagnostics, so a
// mistake on our command line reads exactly as it does with PCP's tools.
//
// Example:
//   pmtools::OptionTable table{"pminfo", "[options] [metricname]...",
//       {{"General options", {{'a', "archive", "FILE", "metrics source is a PCP log archive"}}}}};
//   absl::StatusOr<pmtools::CommandLine> cl = pmtools::ParseCommandLine(table, argc, argv);
//   if (!cl.ok()) { std::fputs(std::string(cl.status().message()).c_str(), stderr); return 1; }
//   for (const pmtools::ParsedOption& o : cl->options) { /* o.key == 'a', o.value */ }
#ifndef PMAPI_TOOLS_COMMON_OPTIONS_H_
#define PMAPI_TOOLS_COMMON_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace pmtools {

// One option. `short_name` is 0 for a long-only option; `arg` names the
// argument ("FILE") and is empty for a flag.
struct OptionSpec {
  char short_name = 0;
  std::string long_name;
  std::string arg;
  std::string help;
  // Accepted, but left out of the usage text (PCP's -D debug flags).
  bool hidden = false;
  // Shown with its short letter in the usage text, yet only the long form
  // is accepted: PCP's pmdumplog lists "-V, --version" but takes no -V.
  bool long_form_only = false;
};

struct OptionGroup {
  std::string title;
  std::vector<OptionSpec> options;
};

struct OptionTable {
  std::string program;
  std::string usage;  // after "Usage: PROGRAM "
  std::vector<OptionGroup> groups;
  // Options end at the first operand (PCP's PM_OPTFLAG_POSIX), so an
  // operand such as a negative value to store may begin with "-".
  bool posix = false;
};

// One option as it appeared on the command line, in order. `key` is the
// short letter, or the long name for a long-only option.
struct ParsedOption {
  std::string key;
  std::string value;
};

struct CommandLine {
  std::vector<ParsedOption> options;
  std::vector<std::string> operands;
};

// The name the tool was run by (the last part of argv[0]; PCP's
// pmGetProgname), for tools with more than one name (pmval and pmevent).
void SetProgram(const char* argv0, const std::string& fallback);
const std::string& Program();
// fprintf to stderr with "PROGRAM:" (Program()) before `fmt`.
void Complain(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// The project's version, which the tools print for --version.
const char* ToolsVersion();

// Returns PCP's usage message for `table` ("Usage: ..." and the option
// groups, aligned as pmUsageMessage aligns them).
std::string UsageText(const OptionTable& table);

// The options PCP's pmGetOptions takes from the environment before the
// command line, in the environment's order (PCP_DEBUG first): PCP_HOST as
// -h, PCP_ARCHIVE as -a, PCP_INTERVAL as -t, ... for each standard option
// `table` has; with the "config" debug flag each one used is traced to
// stderr as "pmGetOptions: NAME=VALUE set from the environment".
std::vector<ParsedOption> EnvironmentOptions(const OptionTable& table);

// Parses argv, after EnvironmentOptions. On a bad command line returns an error whose message is the
// getopt-style diagnostic followed by UsageText(table), ready for stderr.
absl::StatusOr<CommandLine> ParseCommandLine(const OptionTable& table, int argc,
                                             const char* const* argv);

// The standard options of PCP's PMAPI_OPTIONS, for tools to pick from.
OptionSpec StdArchive();
OptionSpec StdHost();
OptionSpec StdNamespace();
OptionSpec StdOrigin();
OptionSpec StdStart();
OptionSpec StdFinish();
OptionSpec StdAlign();
OptionSpec StdSamples();
OptionSpec StdInterval();
OptionSpec StdTimezone();
OptionSpec StdHostzone();
OptionSpec StdVersion();
OptionSpec StdHelp();
OptionSpec StdLocalPmda();
OptionSpec StdSpecLocal();
// Applies -K SPEC to the agents of later local contexts (PCP's
// pmSpecLocalPMDA); on a bad spec prints "TOOL: pmSpecLocalPMDA failed:
// WHY" on stderr and returns false.
bool ApplySpecLocal(const char* tool, const std::string& spec);
OptionSpec StdContainer();
// -D, --debug=DBG: accepted by every tool and left out of the usage text,
// as in PCP.
OptionSpec StdDebug();

// Applies -D's value as PCP's tools do (pmSetDebug: debug option names in
// any case, "all", or numbers, comma-separated). On a bad value prints
// "PROGRAM: unrecognized debug options specification (VALUE)" to stderr
// and returns false; the caller then fails with its usage text.
bool ApplyDebugOption(const std::string& program, const std::string& value);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_OPTIONS_H_
