#include "options.h"

#include <unistd.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"

namespace po = boost::program_options;

namespace pmtools {
namespace {

constexpr size_t kHelpColumn = 24;

std::string OptionText(const OptionSpec& o) {
  std::string text;
  if (o.short_name) {
    text = absl::StrCat("-", std::string(1, o.short_name));
    if (!o.arg.empty()) absl::StrAppend(&text, " ", o.arg);
    if (!o.long_name.empty()) absl::StrAppend(&text, ", ");
  }
  if (!o.long_name.empty()) {
    absl::StrAppend(&text, "--", o.long_name);
    if (!o.arg.empty()) absl::StrAppend(&text, "=", o.arg);
  }
  return text;
}

std::string BoostName(const OptionSpec& o) {
  std::string name = o.long_name.empty() ? absl::StrCat("short-", std::string(1, o.short_name))
                                         : o.long_name;
  if (o.short_name && !o.long_form_only) absl::StrAppend(&name, ",", std::string(1, o.short_name));
  return name;
}

po::options_description BoostOptions(const OptionTable& table) {
  po::options_description desc;
  for (const OptionGroup& g : table.groups) {
    for (const OptionSpec& o : g.options) {
      if (o.arg.empty()) {
        desc.add_options()(BoostName(o).c_str(), "");
      } else {
        desc.add_options()(BoostName(o).c_str(), po::value<std::string>(), "");
      }
    }
  }
  desc.add_options()("pmtools-operands", po::value<std::vector<std::string>>(), "");
  return desc;
}

// Maps Boost's canonical name back to the key a tool switches on.
std::string KeyFor(const OptionTable& table, const std::string& boost_key) {
  for (const OptionGroup& g : table.groups) {
    for (const OptionSpec& o : g.options) {
      std::string name = o.long_name.empty()
                             ? absl::StrCat("short-", std::string(1, o.short_name))
                             : o.long_name;
      if (name != boost_key) continue;
      return o.short_name ? std::string(1, o.short_name) : o.long_name;
    }
  }
  return boost_key;
}

std::string Diagnostic(const OptionTable& table, const std::string& token, bool missing_arg) {
  bool is_long = token.size() > 2 && token[0] == '-' && token[1] == '-';
  std::string what;
  if (missing_arg) {
    what = is_long ? absl::StrCat("option '", token, "' requires an argument")
                   : absl::StrCat("option requires an argument -- '", token.substr(1, 1), "'");
  } else {
    what = is_long ? absl::StrCat("unrecognized option '", token, "'")
                   : absl::StrCat("invalid option -- '", token.substr(1, 1), "'");
  }
  return absl::StrCat(table.program, ": ", what, "\n", UsageText(table));
}

// Boost reports the option it failed on in its own spelling; recover the
// token the user typed, as getopt quotes it.
std::string FailedToken(const po::error_with_option_name& e, int argc, const char* const* argv) {
  std::string name = e.get_option_name();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == name) return arg;
  }
  return name;
}

const OptionSpec* FindShort(const OptionTable& table, char c) {
  for (const OptionGroup& g : table.groups) {
    for (const OptionSpec& o : g.options) {
      if (o.short_name == c && !o.long_form_only) return &o;
    }
  }
  return nullptr;
}

const OptionSpec* FindLong(const OptionTable& table, const std::string& name) {
  const OptionSpec* found = nullptr;
  for (const OptionGroup& g : table.groups) {
    for (const OptionSpec& o : g.options) {
      if (o.long_name == name) return &o;
      if (!o.long_name.empty() && o.long_name.rfind(name, 0) == 0) found = &o;
    }
  }
  return found;
}

// How many argv elements starting at `i` one option token takes (1, or 2
// when its argument is the next element).
int OptionWidth(const OptionTable& table, int i, const char* const* argv) {
  std::string a = argv[i];
  if (a.rfind("--", 0) == 0) {
    if (a.find('=') != std::string::npos) return 1;
    const OptionSpec* o = FindLong(table, a.substr(2));
    return o != nullptr && !o->arg.empty() ? 2 : 1;
  }
  for (size_t k = 1; k < a.size(); ++k) {
    const OptionSpec* o = FindShort(table, a[k]);
    if (o == nullptr) return 1;
    if (!o->arg.empty()) return k + 1 == a.size() ? 2 : 1;
  }
  return 1;
}

// With PM_OPTFLAG_POSIX, the index of the first element that is no option
// (after a "--", which ends the options too).
int FirstOperand(const OptionTable& table, int argc, const char* const* argv) {
  int i = 1;
  while (i < argc) {
    std::string a = argv[i];
    if (a == "--") return i;
    if (a.size() < 2 || a[0] != '-') return i;
    i += OptionWidth(table, i, argv);
  }
  return argc;
}

// "-fa" lacks the argument of 'a'; "--archive" lacks its own.
std::string MissingArgToken(const std::string& last) {
  if (last.rfind("--", 0) == 0) return last;
  return absl::StrCat("-", last.substr(last.size() - 1));
}

}  // namespace

const char* ToolsVersion() { return PMAPI_PROJECT_VERSION; }

namespace {
std::string& ProgramSlot() {
  static std::string* name = new std::string;
  return *name;
}
}  // namespace

void SetProgram(const char* argv0, const std::string& fallback) {
  std::string name = argv0 != nullptr ? argv0 : "";
  const size_t slash = name.rfind('/');
  if (slash != std::string::npos) name = name.substr(slash + 1);
  ProgramSlot() = name.empty() ? fallback : name;
  // The library's own messages (pmGetProgname) name the program too.
  pmSetProgname(ProgramSlot().c_str());
}

const std::string& Program() { return ProgramSlot(); }

void Complain(const char* fmt, ...) {
  std::fprintf(stderr, "%s:", Program().c_str());
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
}

std::string UsageText(const OptionTable& table) {
  std::string out = absl::StrCat("Usage: ", table.program, " ", table.usage, "\n");
  for (const OptionGroup& g : table.groups) {
    absl::StrAppend(&out, "\n", g.title, ":\n");
    for (const OptionSpec& o : g.options) {
      if (o.hidden) continue;
      std::string line = absl::StrCat("  ", OptionText(o));
      if (line.size() < kHelpColumn) {
        line.append(kHelpColumn - line.size(), ' ');
      } else {
        line.append("\n");
        line.append(kHelpColumn, ' ');
      }
      absl::StrAppend(&out, line, o.help, "\n");
    }
  }
  return out;
}

namespace {

// A PCP_* variable pmGetOptions reads, and the standard option it stands
// for (0: none of ours); `list`: a comma-separated list of that option's
// arguments.
struct EnvOption {
  const char* name;
  char letter;
  const char* long_name;
  bool list = false;
};

constexpr EnvOption kEnvOptions[] = {
    {"PCP_ALIGN_TIME", 'A', "align"},       {"PCP_ARCHIVE", 'a', "archive"},
    {"PCP_ARCHIVE_LIST", 'a', "archive", true}, {"PCP_HOST", 'h', "host"},
    {"PCP_HOST_LIST", 'h', "host", true},   {"PCP_SPECLOCAL", 'K', "spec-local"},
    {"PCP_LOCALMODE", 'L', "local-PMDA"},   {"PCP_LOCALPMDA", 'L', "local-PMDA"},
    {"PCP_NAMESPACE", 'n', "namespace"},    {"PCP_ORIGIN", 'O', "origin"},
    {"PCP_ORIGIN_TIME", 'O', "origin"},     {"PCP_START_TIME", 'S', "start"},
    {"PCP_SAMPLES", 's', "samples"},        {"PCP_FINISH_TIME", 'T', "finish"},
    {"PCP_INTERVAL", 't', "interval"},      {"PCP_TIMEZONE", 'Z', "timezone"},
    {"PCP_HOSTZONE", 'z', "hostzone"},      {"PCP_GUIMODE", 'g', "guimode"},
    {"PCP_GUIPORT", 'p', "guiport"},        {"PCP_UNIQNAMES", 'N', "uniqnames"},
    {"PCP_FOLIO", 0, ""},
};

// True when `table` has the standard option `letter` (the same long name:
// pmdumplog's -a, -s and -t are its own options, not these).
bool HasStandard(const OptionTable& table, char letter, const char* long_name) {
  for (const OptionGroup& g : table.groups) {
    for (const OptionSpec& o : g.options) {
      if (o.short_name == letter && o.long_name == long_name) return true;
    }
  }
  return false;
}

void TraceEnvironment(const char* entry) {
  if (pmDebugOptions.config) std::fprintf(stderr, "pmGetOptions: %s set from the environment\n", entry);
}

}  // namespace

std::vector<ParsedOption> EnvironmentOptions(const OptionTable& table) {
  std::vector<ParsedOption> out;
  // PCP_DEBUG first, so that its flags govern the traces of the others.
  if (const char* debug = std::getenv("PCP_DEBUG"); debug != nullptr && HasStandard(table, 'D', "debug")) {
    (void)pmSetDebug(debug);
    out.push_back({"D", debug});
  }
  for (char** p = environ; *p != nullptr; ++p) {
    const std::string_view entry(*p);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos || entry.rfind("PCP_", 0) != 0) continue;
    const std::string_view name = entry.substr(0, eq);
    const std::string value(entry.substr(eq + 1));
    if (name == "PCP_DEBUG") {
      TraceEnvironment(*p);
      continue;
    }
    for (const EnvOption& e : kEnvOptions) {
      if (name != e.name) continue;
      // Read (and traced) whether or not this tool has the option.
      TraceEnvironment(*p);
      if (!HasStandard(table, e.letter, e.long_name)) break;
      const std::string key(1, e.letter);
      if (e.list) {
        for (absl::string_view v : absl::StrSplit(value, ',', absl::SkipEmpty())) out.push_back({key, std::string(v)});
      } else {
        out.push_back({key, value});
      }
      break;
    }
  }
  return out;
}

absl::StatusOr<CommandLine> ParseCommandLine(const OptionTable& table, int argc,
                                             const char* const* argv) {
  po::options_description desc = BoostOptions(table);
  po::positional_options_description positional;
  positional.add("pmtools-operands", -1);
  po::parsed_options parsed(&desc);
  std::vector<std::string> trailing;
  if (table.posix) {
    int first = std::min(FirstOperand(table, argc, argv), argc);
    for (int i = first; i < argc; ++i) {
      if (i == first && std::string(argv[i]) == "--") continue;
      trailing.push_back(argv[i]);
    }
    argc = first;
  }
  try {
    parsed = po::command_line_parser(argc, argv)
                 .options(desc)
                 .positional(positional)
                 .style(po::command_line_style::unix_style)
                 .run();
  } catch (const po::unknown_option& e) {
    return pmapi::PcpErrorWithMessage(pmapi::kErrGeneric,
                                      Diagnostic(table, FailedToken(e, argc, argv), false));
  } catch (const po::invalid_command_line_syntax& e) {
    if (e.kind() == po::invalid_syntax::missing_parameter && argc > 1) {
      // An option lacks its argument only at the end of argv.
      return pmapi::PcpErrorWithMessage(pmapi::kErrGeneric,
                                        Diagnostic(table, MissingArgToken(argv[argc - 1]), true));
    }
    return pmapi::PcpErrorWithMessage(pmapi::kErrGeneric,
                                      Diagnostic(table, FailedToken(e, argc, argv), false));
  } catch (const po::error& e) {
    return pmapi::PcpErrorWithMessage(
        pmapi::kErrGeneric, absl::StrCat(table.program, ": ", e.what(), "\n", UsageText(table)));
  }
  CommandLine cl;
  for (const po::option& o : parsed.options) {
    if (o.string_key == "pmtools-operands") {
      cl.operands.insert(cl.operands.end(), o.value.begin(), o.value.end());
      continue;
    }
    cl.options.push_back({KeyFor(table, o.string_key), o.value.empty() ? "" : o.value.front()});
  }
  cl.operands.insert(cl.operands.end(), trailing.begin(), trailing.end());
  std::vector<ParsedOption> env = EnvironmentOptions(table);
  cl.options.insert(cl.options.begin(), env.begin(), env.end());
  return cl;
}

OptionSpec StdArchive() { return {'a', "archive", "FILE", "metrics source is a PCP log archive"}; }
OptionSpec StdHost() { return {'h', "host", "HOST", "metrics source is PMCD on host"}; }
OptionSpec StdNamespace() { return {'n', "namespace", "FILE", "use an alternative PMNS"}; }
OptionSpec StdOrigin() {
  return {'O', "origin", "TIME", "initial sample time within the time window"};
}
OptionSpec StdStart() { return {'S', "start", "TIME", "start of the time window"}; }
OptionSpec StdFinish() { return {'T', "finish", "TIME", "end of the time window"}; }
OptionSpec StdAlign() {
  return {'A', "align", "TIME", "align sample times on natural boundaries"};
}
OptionSpec StdSamples() { return {'s', "samples", "N", "terminate after this many samples"}; }
OptionSpec StdInterval() { return {'t', "interval", "DELTA", "sampling interval"}; }
OptionSpec StdTimezone() { return {'Z', "timezone", "TZ", "set reporting timezone"}; }
OptionSpec StdHostzone() {
  return {'z', "hostzone", "", "set reporting timezone to local time of metrics source"};
}
OptionSpec StdVersion() { return {'V', "version", "", "display version number and exit"}; }
OptionSpec StdHelp() { return {'?', "help", "", "show this usage message and exit"}; }
OptionSpec StdLocalPmda() {
  return {'L', "local-PMDA", "", "metrics source is local connection to a PMDA"};
}
OptionSpec StdSpecLocal() {
  return {'K', "spec-local", "SPEC", "optional additional PMDA spec for local connection"};
}
bool ApplySpecLocal(const char* tool, const std::string& spec) {
  std::string why = pmapi::SpecLocalPmda(spec);
  if (why.empty()) return true;
  std::fprintf(stderr, "%s: pmSpecLocalPMDA failed: %s\n", tool, why.c_str());
  return false;
}

OptionSpec StdDebug() {
  OptionSpec o{'D', "debug", "DBG", ""};
  o.hidden = true;
  return o;
}

bool ApplyDebugOption(const std::string& program, const std::string& value) {
  if (pmSetDebug(value.c_str()) >= 0) return true;
  std::fflush(stdout);
  std::fprintf(stderr, "%s: unrecognized debug options specification (%s)\n", program.c_str(),
               value.c_str());
  return false;
}

OptionSpec StdContainer() {
  return {0, "container", "NAME", "specify an individual container to be queried"};
}

}  // namespace pmtools
