// tools/common/options.h: the command-line layer every tool shares.
//
// Tools describe their options as groups (as PCP's pmGetOptions tables do)
// and parse argv into an ordered list of options and operands. The library's
// own option parser (pmgetopt_r) and usage message (pmUsageMessage) do the
// work, so a tool's command line is read, and a mistake on it reported, as
// the C layer and PCP's tools do.
//
// Example:
//   pmtools::OptionTable table{"pminfo", "[options] [metricname]...",
//       {{"General options", {{'a', "archive", "FILE", "metrics source is a PCP log archive"}}}}};
//   pmtools::CommandLine cl = pmtools::ParseCommandLine(table, argc, argv);
//   for (const pmtools::ParsedOption& o : cl.options) { /* o.key == "a", o.value */ }
#ifndef PMAPI_TOOLS_COMMON_OPTIONS_H_
#define PMAPI_TOOLS_COMMON_OPTIONS_H_

#include <string>
#include <vector>


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
  // -V was given: the version line is printed and the tool exits with
  // status 0, whatever else the command line holds (PCP's
  // PM_OPTFLAG_EXIT).
  bool exit = false;
};

// The name the tool was run by (the last part of argv[0]; PCP's
// pmGetProgname), for tools with more than one name (pmval and pmevent).
void SetProgram(const char* argv0, const std::string& fallback);
const std::string& Program();
// fprintf to stderr with "PROGRAM:" (Program()) before `fmt`.
void Complain(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// The project's version, which the tools print for --version.
const char* ToolsVersion();

// Prints PCP's usage message for `table` ("Usage: ..." and the option
// groups) to stderr, through pmUsageMessage.
void PrintUsage(const OptionTable& table);

// The options PCP's pmGetOptions takes from the environment before the
// command line, in the environment's order (PCP_DEBUG first): PCP_HOST as
// -h, PCP_ARCHIVE as -a, PCP_INTERVAL as -t, ... for each standard option
// `table` has; with the "config" debug flag each one used is traced to
// stderr as "pmGetOptions: NAME=VALUE set from the environment".
std::vector<ParsedOption> EnvironmentOptions(const OptionTable& table);

// Parses argv, after EnvironmentOptions. Each mistake (an unknown option, a
// missing argument, a bad -D specification) is reported on stderr in
// getopt's words and comes back as an option "?", as -? does, and parsing
// goes on, as in PCP's tools. -V is taken here, as pmGetOptions takes it
// (see CommandLine::exit).
CommandLine ParseCommandLine(const OptionTable& table, int argc, const char* const* argv);

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
// --container=NAME: host contexts opened later ask pmcd for that container
// (libpcp passes it on as $PCP_CONTAINER, and so do we).
void ApplyContainerOption(const std::string& value);
// -D, --debug=DBG: accepted by every tool and left out of the usage text,
// as in PCP. ParseCommandLine checks its value (pmSetDebug: debug option
// names in any case, "all", or numbers, comma-separated); the tool applies
// it in its place among its options with ApplyDebugOption.
OptionSpec StdDebug();
void ApplyDebugOption(const std::string& value);


}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_OPTIONS_H_
