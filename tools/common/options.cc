#include "options.h"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pcp/pmapi.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/option_environment.h"

namespace pmtools {
namespace {

// The table in the form of the library's option parser and usage message:
// a header entry for each group, then its options, and the short option
// letters getopt takes. The strings are the table's own.
struct CTable {
  std::vector<pmLongOptions> longs;
  std::string shorts;
};

CTable ToC(const OptionTable& table) {
  CTable c;
  for (const OptionGroup& g : table.groups) {
    c.longs.push_back({"", 0, '-', nullptr, g.title.c_str()});
    for (const OptionSpec& o : g.options) {
      const bool has_arg = !o.arg.empty();
      c.longs.push_back({o.long_name.c_str(), has_arg ? 1 : 0, o.short_name,
                         has_arg ? o.arg.c_str() : nullptr, o.hidden ? nullptr : o.help.c_str()});
      if (o.short_name == 0 || o.long_form_only) continue;
      c.shorts += o.short_name;
      if (has_arg) c.shorts += ':';
    }
  }
  c.longs.push_back({nullptr, 0, 0, nullptr, nullptr});
  return c;
}

pmOptions COptions(const OptionTable& table, CTable& c) {
  pmOptions opts;
  std::memset(&opts, 0, sizeof(opts));
  opts.short_options = c.shorts.c_str();
  opts.long_options = c.longs.data();
  opts.short_usage = table.usage.c_str();
  // Options end at the first operand (PCP's PM_OPTFLAG_POSIX).
  if (table.posix) opts.flags |= PM_OPTFLAG_POSIX;
  return opts;
}

// Returns the standard option `o` (a PMOPT_* entry) as an OptionSpec.
OptionSpec FromC(const pmLongOptions& o) {
  OptionSpec s;
  s.short_name = o.short_opt > 0 && o.short_opt < 128 ? static_cast<char>(o.short_opt) : 0;
  s.long_name = o.long_opt;
  s.arg = o.argname != nullptr ? o.argname : "";
  s.help = o.message != nullptr ? o.message : "";
  // PCP leaves an option out of the usage text by giving it no message.
  s.hidden = o.message == nullptr;
  return s;
}

// PCP's standard options (<pcp/pmapi.h>), as the Std* functions give them.
const pmLongOptions kStandard[] = {
    PMOPT_ALIGN,    PMOPT_ARCHIVE,  PMOPT_DEBUG,    PMOPT_HOST,      PMOPT_NAMESPACE, PMOPT_ORIGIN,
    PMOPT_START,    PMOPT_SAMPLES,  PMOPT_FINISH,   PMOPT_INTERVAL,  PMOPT_TIMEZONE,  PMOPT_HOSTZONE,
    PMOPT_VERSION,  PMOPT_HELP,     PMOPT_LOCALPMDA, PMOPT_SPECLOCAL, PMOPT_CONTAINER,
};

OptionSpec Standard(const char* long_name) {
  for (const pmLongOptions& o : kStandard) {
    if (std::strcmp(o.long_opt, long_name) == 0) return FromC(o);
  }
  std::abort();  // only the names above are asked for
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

void PrintUsage(const OptionTable& table) {
  CTable c = ToC(table);
  pmOptions opts = COptions(table, c);
  pmUsageMessage(&opts);
}

namespace {

// The long name of the standard option `letter` (PCP's PMOPT_* entry), or
// null when the tools have no such option.
const char* StandardLongName(char letter) {
  for (const pmLongOptions& o : kStandard) {
    if (o.short_opt == letter) return o.long_opt;
  }
  return nullptr;
}

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
  const std::vector<pmapi::EnvironmentOption> env = pmapi::EnvironmentOptions();
  // PCP_DEBUG first, so that its flags govern the traces of the others.
  for (const pmapi::EnvironmentOption& e : env) {
    if (e.letter != 'D' || !HasStandard(table, 'D', "debug")) continue;
    (void)pmSetDebug(e.value);
    out.push_back({"D", e.value});
    break;
  }
  for (const pmapi::EnvironmentOption& e : env) {
    // Read (and traced) whether or not this tool has the option.
    TraceEnvironment(e.entry);
    if (e.letter == 0 || e.letter == 'D') continue;
    const char* long_name = StandardLongName(e.letter);
    if (long_name == nullptr || !HasStandard(table, e.letter, long_name)) continue;
    const std::string key(1, e.letter);
    if (!e.list) {
      out.push_back({key, e.value});
      continue;
    }
    for (absl::string_view v : absl::StrSplit(e.value, ',', absl::SkipEmpty())) {
      out.push_back({key, std::string(v)});
    }
  }
  return out;
}

namespace {

// True when pmSetDebug takes `spec`. The flags are left as they were: the
// tool applies -D in its place among its options (a -c before it loads
// its derived metrics untraced, as in PCP).
bool ValidDebugSpec(const char* spec) {
  const pmdebugoptions_t saved = pmDebugOptions;
  const bool valid = pmSetDebug(spec) >= 0;
  pmDebugOptions = saved;
  return valid;
}

// Takes what pmGetOptions does itself while it parses: a bad -D
// specification is a mistake, reported in its place among getopt's; -V
// prints the version and has the tool exit. Returns false for any other
// option, and for a good -D, which the tool applies (ApplyDebugOption).
bool TakeStandard(const OptionTable& table, int key, const char* value, CommandLine* cl) {
  if (key == 'D' && HasStandard(table, 'D', "debug") && !ValidDebugSpec(value)) {
    pmprintf("%s: unrecognized debug options specification (%s)\n", Program().c_str(), value);
    cl->options.push_back({"?", ""});
    return true;
  }
  if (key == 'V' && HasStandard(table, 'V', "version")) {
    pmprintf("%s version %s\n", Program().c_str(), ToolsVersion());
    cl->exit = true;
    return true;
  }
  return false;
}

}  // namespace

CommandLine ParseCommandLine(const OptionTable& table, int argc, const char* const* argv) {
  CTable c = ToC(table);
  pmOptions opts = COptions(table, c);
  // getopt reorders argv (operands after the options), as in PCP's tools.
  char* const* args = const_cast<char* const*>(argv);
  CommandLine cl = {EnvironmentOptions(table), {}};
  for (;;) {
    const int key = pmgetopt_r(argc, args, &opts);
    if (key == -1) break;
    if (TakeStandard(table, key, opts.optarg, &cl)) continue;
    // A long-only option comes back as 0, with its place in the table.
    const std::string name = key == 0 ? std::string(c.longs[opts.index].long_opt)
                                      : std::string(1, static_cast<char>(key));
    cl.options.push_back({name, opts.optarg != nullptr ? opts.optarg : ""});
  }
  for (int i = opts.optind; i < argc; ++i) cl.operands.push_back(argv[i]);
  // What the parser printed (getopt's complaints, the version) comes out
  // now, before anything the tool says of the options.
  pmflush();
  return cl;
}

OptionSpec StdArchive() { return Standard(PMLONGOPT_ARCHIVE); }
OptionSpec StdHost() { return Standard(PMLONGOPT_HOST); }
OptionSpec StdNamespace() { return Standard(PMLONGOPT_NAMESPACE); }
OptionSpec StdOrigin() { return Standard(PMLONGOPT_ORIGIN); }
OptionSpec StdStart() { return Standard(PMLONGOPT_START); }
OptionSpec StdFinish() { return Standard(PMLONGOPT_FINISH); }
OptionSpec StdAlign() { return Standard(PMLONGOPT_ALIGN); }
OptionSpec StdSamples() { return Standard(PMLONGOPT_SAMPLES); }
OptionSpec StdInterval() { return Standard(PMLONGOPT_INTERVAL); }
OptionSpec StdTimezone() { return Standard(PMLONGOPT_TIMEZONE); }
OptionSpec StdHostzone() { return Standard(PMLONGOPT_HOSTZONE); }
OptionSpec StdVersion() { return Standard(PMLONGOPT_VERSION); }
OptionSpec StdHelp() { return Standard(PMLONGOPT_HELP); }
OptionSpec StdLocalPmda() { return Standard(PMLONGOPT_LOCALPMDA); }
OptionSpec StdSpecLocal() { return Standard(PMLONGOPT_SPECLOCAL); }
bool ApplySpecLocal(const char* tool, const std::string& spec) {
  std::string why = pmapi::SpecLocalPmda(spec);
  if (why.empty()) return true;
  std::fprintf(stderr, "%s: pmSpecLocalPMDA failed: %s\n", tool, why.c_str());
  return false;
}

OptionSpec StdDebug() { return Standard(PMLONGOPT_DEBUG); }

void ApplyDebugOption(const std::string& value) { (void)pmSetDebug(value.c_str()); }

OptionSpec StdContainer() { return Standard(PMLONGOPT_CONTAINER); }

void ApplyContainerOption(const std::string& value) { setenv("PCP_CONTAINER", value.c_str(), 1); }

}  // namespace pmtools
