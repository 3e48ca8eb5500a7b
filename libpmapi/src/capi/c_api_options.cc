// c_api_options.cc: command-line processing for C tools (pmGetOptions,
// pmGetContextOptions, pmUsageMessage, pmFreeOptions, pmgetopt_r), the
// pmprintf buffer, the program name, debug switches and small helpers.
#include <getopt.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "c_api_internal.h"
#include "pmapi/local.h"
#include "pmapi/option_environment.h"

static_assert(PMAPI_VERSION == PMAPI_VERSION_2, "the library reads pmOptions in the version 2 layout");


pmdebugoptions_t pmDebugOptions;

namespace {

std::mutex name_mu;
std::string* progname = new std::string("pcp");

// Names of the debug options, in pmdebugoptions_t's order.
constexpr const char* kDebugNames[] = {
    "pdu",      "fetch",     "profile", "value",   "context",     "indom",    "pdubuf",  "log",
    "logmeta",  "optfetch",  "af",      "appl0",   "appl1",       "appl2",    "pmns",    "libpmda",
    "timecontrol", "pmc",    "derive",  "lock",    "interp",      "config",   "pmapi",   "fault",
    "auth",     "discovery", "attr",    "http",    "desperate",   "deprecated", "exec",  "labels",
    "series",   "libweb",    "alloc",   "services", "appl3",      "appl4",    "appl5",   "access",
    "qa",       "search",    "query",   "compress", "dev0",       "dev1",     "dev2",    "pmlc",
    "appl6",    "appl7",     "appl8",   "appl9",   "tls"};
static_assert(sizeof(kDebugNames) / sizeof(kDebugNames[0]) ==
              sizeof(pmdebugoptions_t) / sizeof(int));

// The old numeric debug mask: bit k of a number given to pmSetDebug stands
// for option k for the first 28 options, bit 30 for "desperate"; the
// others have no bit.
int OldBit(size_t option) {
  constexpr size_t kDesperate = 28;
  if (option < kDesperate) return 1 << option;
  return option == kDesperate ? 1 << 30 : 0;
}

// Sets (value 1) or clears (0) the debug options of `spec`, as PCP does: a
// comma-separated list of option names (any case), "all", or decimal
// numbers in the old bit-mask form (-1: every bit). Either every item is
// good and applied, or nothing changes and PM_ERR_CONV is returned.
int ChangeDebug(const char* spec, int value) {
  if (spec == nullptr) return 0;
  int* flags = reinterpret_cast<int*>(&pmDebugOptions);
  const size_t n = sizeof(kDebugNames) / sizeof(kDebugNames[0]);
  std::vector<int> state(flags, flags + n);
  int bits = 0;
  for (const char* p = spec; *p != '\0';) {
    char* end = nullptr;
    long number = std::strtol(p, &end, 10);
    if (end > p) {
      bits = number == -1 ? INT_MAX : bits | static_cast<int>(number);
      for (size_t i = 0; i < n; ++i) {
        if (bits & OldBit(i)) state[i] = value;
      }
      if (*end == '\0') break;
      if (*end != ',') return PM_ERR_CONV;
      p = end + 1;
      continue;
    }
    const char* stop = std::strchr(p, ',');
    if (stop == nullptr) stop = p + std::strlen(p);
    std::string name(p, stop);
    if (strcasecmp(name.c_str(), "all") == 0) {
      bits |= INT_MAX;
      for (size_t i = 0; i < n; ++i) state[i] = value;
    } else {
      size_t i = 0;
      while (i < n && strcasecmp(name.c_str(), kDebugNames[i]) != 0) ++i;
      if (i == n) return PM_ERR_CONV;
      bits |= OldBit(i);
      state[i] = value;
    }
    p = *stop == ',' ? stop + 1 : stop;
  }
  std::copy(state.begin(), state.end(), flags);
  return 0;
}

// The standard option letters pmGetOptions handles itself.
bool IsStandard(int c) { return c > 0 && std::strchr("AaDgHhKLNnOpSsTtVZz?", c) != nullptr; }

void UsageError(pmOptions* opts) {
  opts->errors++;
  opts->flags |= PM_OPTFLAG_USAGE_ERR;
}

void AddTo(char*** list, int* count, const std::string& value) {
  char** grown = static_cast<char**>(std::realloc(*list, (*count + 1) * sizeof(char*)));
  if (grown == nullptr) return;
  *list = grown;
  (*list)[(*count)++] = pmapi::capi::Dup(value);
}

// True if `name` is one of the names of the comma-separated `list`.
bool InList(const char* list, const std::string& name) {
  std::vector<std::string> names = absl::StrSplit(list, ',');
  for (const std::string& n : names) {
    if (n == name) return true;
  }
  return false;
}

// One archive name (PCP's addArchive): with PM_OPTFLAG_MULTI a new entry;
// otherwise joined, after a comma, to the single entry that one context
// opens. Duplicates are dropped.
void AddArchive(pmOptions* opts, const std::string& name) {
  if (opts->flags & PM_OPTFLAG_MULTI) {
    for (int i = 0; i < opts->narchives; ++i) {
      if (name == opts->archives[i]) return;
    }
    AddTo(&opts->archives, &opts->narchives, name);
  } else if (opts->narchives == 0) {
    AddTo(&opts->archives, &opts->narchives, name);
  } else {
    if (InList(opts->archives[0], name)) return;
    char* joined = pmapi::capi::Dup(absl::StrCat(opts->archives[0], ",", name));
    if (joined == nullptr) return;
    std::free(opts->archives[0]);
    opts->archives[0] = joined;
  }
  opts->context = PM_CONTEXT_ARCHIVE;
}

// -a and $PCP_ARCHIVE: the argument as one name.
void AddArchives(pmOptions* opts, const char* value) {
  if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf("%s: only one host or archive allowed\n", pmGetProgname());
    UsageError(opts);
    return;
  }
  AddArchive(opts, value);
}

// $PCP_ARCHIVE_LIST: each comma-separated name.
void AddArchiveList(pmOptions* opts, const char* value) {
  if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    UsageError(opts);
    return;
  }
  if (!(opts->flags & PM_OPTFLAG_MULTI)) {
    AddArchive(opts, value);
    return;
  }
  std::vector<std::string> parts = absl::StrSplit(value, ',', absl::SkipEmpty());
  for (const std::string& p : parts) AddArchive(opts, p);
}

// -h (and each host of -H's file): one host unless PM_OPTFLAG_MULTI.
void AddHost(pmOptions* opts, const std::string& host, bool from_file) {
  if (opts->narchives > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf(from_file ? "%s: only one of hosts or archives allowed\n"
                       : "%s: only one host or archive allowed\n",
             pmGetProgname());
    UsageError(opts);
    return;
  }
  if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MULTI)) {
    pmprintf("%s: too many hosts requested: %s\n", pmGetProgname(), host.c_str());
    UsageError(opts);
    return;
  }
  AddTo(&opts->hosts, &opts->nhosts, host);
  opts->context = PM_CONTEXT_HOST;
}

// -H FILE: the hosts named in a file, one or more per line, '#' comments.
void AddHostsFile(pmOptions* opts, const char* path) {
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) {
    pmprintf("%s: cannot open hosts file %s: %s\n", pmGetProgname(), path, std::strerror(errno));
    opts->errors++;
    opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
    return;
  }
  char line[1024];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    std::string text(line);
    text = text.substr(0, text.find('#'));
    std::vector<std::string> words = absl::StrSplit(text, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
    for (const std::string& w : words) AddHost(opts, w, true);
  }
  std::fclose(f);
}

// --host-list: every comma-separated host (more than one is an error
// without PM_OPTFLAG_MULTI).
void AddHostList(pmOptions* opts, const char* value) {
  if (opts->narchives > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    UsageError(opts);
    return;
  }
  std::vector<std::string> hosts = absl::StrSplit(value, ',', absl::SkipEmpty());
  for (const std::string& h : hosts) AddTo(&opts->hosts, &opts->nhosts, h);
  if (!hosts.empty()) opts->context = PM_CONTEXT_HOST;
  if (opts->nhosts > 1 && !(opts->flags & PM_OPTFLAG_MULTI)) {
    pmprintf("%s: too many hosts requested: %s\n", pmGetProgname(), value);
    UsageError(opts);
  }
}

void Standard(int c, pmOptions* opts);

// A standard option given by its long name only (getopt's 0): handled as
// PCP's pmGetOptions handles it. False: the caller's own option.
bool LongOnly(pmOptions* opts) {
  static constexpr std::pair<const char*, int> kLetters[] = {
      {"align", 'A'},     {"archive", 'a'},  {"debug", 'D'},      {"guimode", 'g'},
      {"host", 'h'},      {"hostsfile", 'H'}, {"spec-local", 'K'}, {"local-PMDA", 'L'},
      {"namespace", 'n'}, {"uniqnames", 'N'}, {"guiport", 'p'},    {"interval", 't'},
      {"origin", 'O'},    {"samples", 's'},  {"start", 'S'},      {"finish", 'T'},
      {"timezone", 'Z'},  {"hostzone", 'z'}, {"version", 'V'}};
  if (opts->long_options == nullptr || opts->index < 0) return false;
  const char* name = opts->long_options[opts->index].long_opt;
  if (name == nullptr) return false;
  if (std::strcmp(name, PMLONGOPT_ARCHIVE_LIST) == 0) {
    AddArchiveList(opts, opts->optarg);
    return true;
  }
  if (std::strcmp(name, PMLONGOPT_HOST_LIST) == 0) {
    AddHostList(opts, opts->optarg);
    return true;
  }
  for (const auto& [long_name, letter] : kLetters) {
    if (std::strcmp(name, long_name) != 0) continue;
    Standard(letter, opts);
    return true;
  }
  return false;
}

// The times of a pmOptions: this library is built with the version 2
// layout, whose four timevals a version 3 caller leaves unused; version 3
// appends four timespecs after the version 2 structure.
struct HighResTimes {
  struct timespec start, finish, origin, interval;
};

HighResTimes* V3Times(pmOptions* opts) {
  if (opts->version != PMAPI_VERSION_3) return nullptr;
  return reinterpret_cast<HighResTimes*>(reinterpret_cast<char*>(opts) + sizeof(pmOptions));
}

struct timeval ToTimeval(const struct timespec& t) {
  struct timeval tv;
  tv.tv_sec = t.tv_sec;
  tv.tv_usec = t.tv_nsec / 1000;
  return tv;
}

void SetInterval(pmOptions* opts, const char* arg) {
  char* err = nullptr;
  struct timespec interval;
  int sts = pmParseHighResInterval(arg, &interval, &err);
  if (sts < 0) {
    pmprintf("%s: -t argument not in %s(3) format:\n%s\n", pmGetProgname(),
             V3Times(opts) != nullptr ? "pmParseHighResInterval" : "pmParseInterval",
             err == nullptr ? "" : err);
    UsageError(opts);
  } else if (HighResTimes* t = V3Times(opts)) {
    t->interval = interval;
  } else {
    opts->interval = ToTimeval(interval);
  }
  std::free(err);
}

// -n FILE (dupok) and -N FILE: the alternative name space, loaded now.
void SetNameSpace(pmOptions* opts, const char* path, bool dupok) {
  int sts = pmLoadASCIINameSpace(path, dupok ? 1 : 0);
  if (sts < 0) {
    pmprintf("%s: Cannot load namespace from \"%s\": %s\n", pmGetProgname(), path, pmErrStr(sts));
    opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
    opts->errors++;
  } else {
    opts->nsflag = 1;
  }
}

void SetLocalTable(pmOptions* opts, const char* spec) {
  if (const char* why = pmSpecLocalPMDA(spec)) {
    pmprintf("%s: pmSpecLocalPMDA failed: %s\n", pmGetProgname(), why);
    UsageError(opts);
  }
}

void SetLocal(pmOptions* opts) {
  if (opts->context != 0 && opts->context != PM_CONTEXT_LOCAL && !(opts->flags & PM_OPTFLAG_MULTI) &&
      opts->narchives == 0 && opts->nhosts == 0) {
    pmprintf("%s: at most one of -a, -h and -L allowed\n", pmGetProgname());
    UsageError(opts);
    return;
  }
  opts->Lflag = 1;
}

void SetGui(pmOptions* opts, const char* port) {
  if (port == nullptr ? opts->guiport_optarg != nullptr : opts->guiflag != 0) {
    pmprintf("%s: at most one of -g and -p allowed\n", pmGetProgname());
    UsageError(opts);
  } else if (port == nullptr) {
    opts->guiflag = 1;
  } else {
    opts->guiport_optarg = const_cast<char*>(port);
    char* end = nullptr;
    opts->guiport = static_cast<int>(std::strtol(port, &end, 10));
    if (*end != '\0' || opts->guiport < 0) opts->guiport = 0;
  }
}

void SetSamples(pmOptions* opts, const char* arg) {
  char* end = nullptr;
  opts->samples = static_cast<int>(std::strtol(arg, &end, 10));
  if (*end != '\0' || opts->samples < 0) {
    pmprintf("%s: -s requires a positive numeric argument\n", pmGetProgname());
    UsageError(opts);
  }
}

// -Z ZONE (zone != null) or -z: at most one of them.
void SetZone(pmOptions* opts, const char* zone) {
  if (zone != nullptr ? opts->tzflag != 0 : opts->timezone != nullptr) {
    pmprintf("%s: at most one of -Z and -z allowed\n", pmGetProgname());
    UsageError(opts);
  } else if (zone != nullptr) {
    opts->timezone = const_cast<char*>(zone);
  } else {
    opts->tzflag = 1;
  }
}

// Handles one standard option.
void Standard(int c, pmOptions* opts) {
  const char* arg = opts->optarg;
  switch (c) {
    case 'A': opts->align_optarg = opts->optarg; break;
    case 'a': AddArchives(opts, arg); break;
    case 'D':
      if (pmSetDebug(arg) < 0) {
        pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(), arg);
        UsageError(opts);
      }
      break;
    case 'g': SetGui(opts, nullptr); break;
    case 'H': AddHostsFile(opts, arg); break;
    case 'h': AddHost(opts, arg, false); break;
    case 'K': SetLocalTable(opts, arg); break;
    case 'L': SetLocal(opts); break;
    case 'N': SetNameSpace(opts, arg, false); break;
    case 'n': SetNameSpace(opts, arg, true); break;
    case 'O': opts->origin_optarg = opts->optarg; break;
    case 'p': SetGui(opts, arg); break;
    case 'S': opts->start_optarg = opts->optarg; break;
    case 's': SetSamples(opts, arg); break;
    case 'T': opts->finish_optarg = opts->optarg; break;
    case 't': SetInterval(opts, arg); break;
    case 'V':
      // PCP's -V names the PCP release (the interface this library gives).
      pmprintf("%s version %d.%d.%d\n", pmGetProgname(), PM_VERSION_CURRENT >> 16,
               (PM_VERSION_CURRENT >> 8) & 0xff, PM_VERSION_CURRENT & 0xff);
      opts->flags |= PM_OPTFLAG_EXIT;
      break;
    case 'Z': SetZone(opts, arg); break;
    case 'z': SetZone(opts, nullptr); break;
    case '?':  // -?, --help, or a bad option: the caller shows the usage
      UsageError(opts);
      break;
  }
}

// The PCP_* environment variables pmGetOptions reads before the command
// line, as the options they stand for (PCP_DEBUG first).
void StartOptions(pmOptions* opts) {
  const std::vector<pmapi::EnvironmentOption> env = pmapi::EnvironmentOptions();
  for (const pmapi::EnvironmentOption& e : env) {
    if (e.letter != 'D') continue;
    opts->optarg = const_cast<char*>(e.value);
    Standard('D', opts);
    break;
  }
  // In the environment's order, as pmGetOptions walks it.
  for (const pmapi::EnvironmentOption& e : env) {
    opts->optarg = const_cast<char*>(e.value);
    if (e.list && e.letter == 'a') {
      AddArchiveList(opts, e.value);
    } else if (e.list) {
      std::vector<std::string> hosts = absl::StrSplit(e.value, ',', absl::SkipEmpty());
      for (const std::string& h : hosts) AddHost(opts, h, false);
    } else if (e.letter != 0 && e.letter != 'D') {  // PCP_FOLIO is read, not applied
      Standard(e.letter, opts);
    }
    if (pmDebugOptions.config) std::fprintf(stderr, "pmGetOptions: %s set from the environment\n", e.entry);
  }
  opts->optarg = nullptr;
}

// Cross-checks once every option is in.
void Finish(pmOptions* opts) {
  if (opts->flags & PM_OPTFLAG_DONE) return;
  opts->flags |= PM_OPTFLAG_DONE;
  // The caller learns which layout the library read.
  if (opts->version != PMAPI_VERSION_2 && opts->version != PMAPI_VERSION_3) {
    opts->version = PMAPI_VERSION_2;
  }
  if (opts->Lflag) {
    opts->context = PM_CONTEXT_LOCAL;
  } else if (opts->context == 0 && opts->origin_optarg != nullptr) {
    // As PCP: -O alone means this host's archives in $PCP_ARCHIVE_DIR.
    const char* dir = pmGetOptionalConfig("PCP_ARCHIVE_DIR");
    char host[HOST_NAME_MAX + 1] = "localhost";
    if (gethostname(host, sizeof host) < 0) std::strcpy(host, "localhost");
    AddArchive(opts, absl::StrCat(dir != nullptr ? dir : "/var/log/pcp/pmlogger", "/", host));
  }
  if (opts->context != PM_CONTEXT_ARCHIVE &&
      (opts->start_optarg != nullptr || opts->align_optarg != nullptr ||
       opts->origin_optarg != nullptr)) {
    pmprintf("%s: time window options are supported for archives only\n", pmGetProgname());
    UsageError(opts);
  }
  if (opts->tzflag && opts->context != PM_CONTEXT_ARCHIVE && opts->context != PM_CONTEXT_HOST) {
    pmprintf("%s: use of timezone from metric source requires a source\n", pmGetProgname());
    UsageError(opts);
  }
  if (opts->flags & PM_OPTFLAG_RUNTIME_ERR) opts->flags &= ~PM_OPTFLAG_USAGE_ERR;
}

// getopt_long's table for the caller's long options; origin[i] is the
// index in the caller's array of the table's entry i.
std::vector<struct option> LongTable(const pmLongOptions* longopts, std::vector<int>* origin) {
  std::vector<struct option> out;
  int i = 0;
  for (const pmLongOptions* o = longopts; o != nullptr && o->long_opt != nullptr; ++o, ++i) {
    if (o->long_opt[0] == '\0') continue;
    struct option g;
    g.name = o->long_opt;
    g.has_arg = o->has_arg ? required_argument : no_argument;
    g.flag = nullptr;
    g.val = o->short_opt;
    out.push_back(g);
    origin->push_back(i);
  }
  out.push_back({nullptr, 0, nullptr, 0});
  return out;
}

// The usage text of one option: "-a FILE, --archive=FILE".
std::string OptionText(const pmLongOptions& o) {
  std::string text;
  bool has_long = o.long_opt != nullptr && o.long_opt[0] != '\0';
  const char* arg = o.argname != nullptr ? o.argname : "";
  if (o.short_opt > 0 && o.short_opt < 128 && std::isgraph(o.short_opt)) {
    text = absl::StrCat("-", std::string(1, static_cast<char>(o.short_opt)));
    if (o.has_arg) absl::StrAppend(&text, " ", arg);
    if (has_long) absl::StrAppend(&text, ", ");
  }
  if (has_long) {
    absl::StrAppend(&text, "--", o.long_opt);
    if (o.has_arg) absl::StrAppend(&text, "=", arg);
  }
  return text;
}

constexpr size_t kHelpColumn = 24;

// The argument getopt just looked at.
const char* LastToken(char* const* argv) { return ::optind > 0 ? argv[::optind - 1] : ""; }

bool IsLongToken(const char* token) { return token != nullptr && std::strncmp(token, "--", 2) == 0; }

// True when getopt's '?' is the -? option itself rather than a mistake: a
// short option with no error recorded.
bool IsHelpRequest(char* const* argv) { return ::optopt == 0 && !IsLongToken(LastToken(argv)); }

// The name part of a long option token ("--arch=x" -> "arch").
std::string LongName(const char* token) {
  std::string name(token + 2);
  return name.substr(0, name.find('='));
}

// The long options whose names start with `prefix`.
std::vector<const pmLongOptions*> Matches(const pmLongOptions* longopts, const std::string& prefix) {
  std::vector<const pmLongOptions*> out;
  for (const pmLongOptions* o = longopts; o != nullptr && o->long_opt != nullptr; ++o) {
    if (o->long_opt[0] == '\0') continue;
    if (std::strncmp(o->long_opt, prefix.c_str(), prefix.size()) == 0) {
      if (o->long_opt == prefix) return {o};
      out.push_back(o);
    }
  }
  return out;
}

// Reports a command-line mistake in getopt's words.
void Diagnose(int c, char* const* argv, const pmLongOptions* longopts) {
  const char* prog = pmGetProgname();
  const char* token = LastToken(argv);
  if (!IsLongToken(token)) {
    if (c == ':') {
      pmprintf("%s: option requires an argument -- '%c'\n", prog, ::optopt);
    } else {
      pmprintf("%s: invalid option -- '%c'\n", prog, ::optopt);
    }
    return;
  }
  std::string name = LongName(token);
  std::vector<const pmLongOptions*> found = Matches(longopts, name);
  if (found.size() > 1) {
    pmprintf("%s: option '--%s' is ambiguous; possibilities:", prog, name.c_str());
    for (const pmLongOptions* o : found) pmprintf(" '--%s'", o->long_opt);
    pmprintf("\n");
  } else if (found.empty()) {
    pmprintf("%s: unrecognized option '%s'\n", prog, token);
  } else if (c == ':') {
    pmprintf("%s: option '--%s' requires an argument\n", prog, found[0]->long_opt);
  } else {
    pmprintf("%s: option '--%s' doesn't allow an argument\n", prog, found[0]->long_opt);
  }
}

}  // namespace

extern "C" {

// ---- Program name, version, debug ----

void pmSetProgname(const char* name) {
  std::lock_guard<std::mutex> lock(name_mu);
  if (name == nullptr) {
    *progname = "pcp";
    return;
  }
  const char* slash = std::strrchr(name, '/');
  *progname = slash == nullptr ? name : slash + 1;
}

char* pmGetProgname(void) {
  std::lock_guard<std::mutex> lock(name_mu);
  return progname->data();
}

// The PCP release whose interface this library provides, as PCP's own
// programs compare it with PM_VERSION_CURRENT.
int pmGetVersion(void) { return PM_VERSION_CURRENT; }

int pmPathSeparator(void) { return '/'; }

int pmSetDebug(const char* flags) { return ChangeDebug(flags, 1); }
int pmClearDebug(const char* flags) { return ChangeDebug(flags, 0); }

void pmNoMem(const char* where, size_t size, int fatal) {
  std::fprintf(stderr, "%s: malloc(%zu) failed: %s\n", where, size, std::strerror(ENOMEM));
  if (fatal == PM_FATAL_ERR) std::exit(1);
}

// ---- Options ----

int pmgetopt_r(int argc, char* const* argv, pmOptions* opts) {
  if (!(opts->flags & PM_OPTFLAG_INIT)) {
    opts->flags |= PM_OPTFLAG_INIT;
    ::optind = 0;  // makes glibc's getopt start afresh
    // As PCP's: the first call names the program after argv[0].
    if (argc > 0 && argv[0] != nullptr) pmSetProgname(argv[0]);
  }
  // ':' first has getopt tell a missing argument from an unknown option;
  // '+' before it (PM_OPTFLAG_POSIX) ends the options at the first operand.
  std::string shortopts = (opts->flags & PM_OPTFLAG_POSIX) ? "+:" : ":";
  if (opts->short_options != nullptr) shortopts += opts->short_options;
  std::vector<int> origin;
  std::vector<struct option> table = LongTable(opts->long_options, &origin);
  // Diagnostics go through pmprintf, as PCP's do, so they come out with
  // the usage message.
  ::opterr = 0;
  int index = -1;
  ::optopt = 0;
  int c = getopt_long(argc, const_cast<char**>(argv), shortopts.c_str(), table.data(), &index);
  if (c == ':' || (c == '?' && !(::optopt == 0 && index >= 0) && !IsHelpRequest(argv))) {
    if (!(opts->flags & PM_OPTFLAG_QUIET)) Diagnose(c, argv, opts->long_options);
    c = '?';
    if (index >= 0) opts->index = origin[index];
    opts->optind = ::optind;
    opts->optarg = ::optarg;
    opts->optopt = ::optopt;
    return c;
  }
  // The caller's long option (its index in opts->long_options); a short
  // option leaves the last one there, as in PCP.
  if (index >= 0) opts->index = origin[index];
  opts->optind = ::optind;
  opts->optarg = ::optarg;
  opts->optopt = c == '?' ? ::optopt : 0;
  return c;
}

int pmGetOptions(int argc, char* const* argv, pmOptions* opts) {
  if (!(opts->flags & PM_OPTFLAG_INIT)) {
    pmSetProgname(argv[0]);
    StartOptions(opts);
  }
  if (opts->flags & PM_OPTFLAG_ENV_ONLY) {
    opts->flags |= PM_OPTFLAG_INIT;
    Finish(opts);
    return EOF;
  }
  for (;;) {
    int c = pmgetopt_r(argc, argv, opts);
    if (c == -1) break;
    if (opts->override != nullptr && opts->override(c, opts) != 0) return c;
    if (c == 0 && LongOnly(opts)) continue;
    if (!IsStandard(c)) return c;
    Standard(c, opts);
  }
  Finish(opts);
  return EOF;
}

// pmGetContextOptions' reporting zone: -z (the source's) or -Z.
static void ContextZone(int ctx, bool archive, pmOptions* opts) {
  bool stdout_tz = (opts->flags & PM_OPTFLAG_STDOUT_TZ) != 0;
  if (opts->tzflag) {
    int sts = pmNewContextZone();
    if (sts < 0) {
      pmprintf("%s: Cannot set context timezone: %s\n", pmGetProgname(), pmErrStr(sts));
      opts->errors++;
    } else if (stdout_tz) {
      std::printf("Note: timezone set to local timezone of host \"%s\"%s\n\n",
                  pmGetContextHostName(ctx), archive ? " from archive" : "");
    }
  } else if (opts->timezone != nullptr) {
    int sts = pmNewZone(opts->timezone);
    if (sts < 0) {
      pmprintf("%s: Cannot set timezone to \"%s\": %s\n", pmGetProgname(), opts->timezone,
               pmErrStr(sts));
      opts->errors++;
    } else if (stdout_tz) {
      std::printf("Note: timezone set to \"TZ=%s\"\n\n", opts->timezone);
    }
  }
}

// pmGetContextOptions' time window (PM_OPTFLAG_BOUNDARIES): an archive's
// bounds, or from now on for live sources.
static int ContextWindow(bool archive, pmOptions* opts) {
  struct timespec first = {0, 0}, last = {0, 0};
  int sts = 0;
  if (archive) {
    pmHighResLogLabel label;
    sts = pmGetHighResArchiveLabel(&label);
    if (sts >= 0) first = label.start;
    if (sts >= 0) sts = pmGetHighResArchiveEnd(&last);
    if (sts < 0) return sts;
  } else {
    pmtimespecNow(&first);
  }
  char* err = nullptr;
  struct timespec start, finish, origin;
  sts = pmParseHighResTimeWindow(opts->start_optarg, opts->finish_optarg, opts->align_optarg,
                                 opts->origin_optarg, &first, archive ? &last : nullptr, &start,
                                 &finish, &origin, &err);
  if (sts < 0) {
    pmprintf("%s: invalid time window.\n%s\n", pmGetProgname(), err == nullptr ? "" : err);
  } else if (HighResTimes* t = V3Times(opts)) {
    t->start = start;
    t->finish = finish;
    t->origin = origin;
  } else {
    opts->start = ToTimeval(start);
    opts->finish = ToTimeval(finish);
    opts->origin = ToTimeval(origin);
  }
  std::free(err);
  return sts < 0 ? sts : 0;
}

// The zone, then the time window: with PM_OPTFLAG_BOUNDARIES, or whenever
// -S, -T, -A or -O was given.
int pmGetContextOptions(int ctx, pmOptions* opts) {
  std::shared_ptr<pmapi::capi::CContext> entry = pmapi::capi::FindHandle(ctx);
  if (entry == nullptr) return PM_ERR_NOCONTEXT;
  int old = pmWhichContext();
  pmUseContext(ctx);
  bool archive = entry->type == PM_CONTEXT_ARCHIVE;
  bool window = opts->start_optarg != nullptr || opts->finish_optarg != nullptr ||
                opts->align_optarg != nullptr || opts->origin_optarg != nullptr ||
                (opts->flags & PM_OPTFLAG_BOUNDARIES);
  ContextZone(ctx, archive, opts);
  if (opts->errors == 0 && window && ContextWindow(archive, opts) < 0) opts->errors++;
  if (old >= 0) pmUseContext(old);
  if (opts->errors == 0) return 0;
  if (!(opts->flags & PM_OPTFLAG_USAGE_ERR)) opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
  return PM_ERR_GENERIC;
}

void pmUsageMessage(pmOptions* opts) {
  // after a run-time error or an exit request only what is pending is flushed
  if (opts->flags & (PM_OPTFLAG_RUNTIME_ERR | PM_OPTFLAG_EXIT)) {
    if (!(opts->flags & PM_OPTFLAG_NOFLUSH)) pmflush();
    return;
  }
  pmprintf("Usage: %s %s\n", pmGetProgname(), opts->short_usage != nullptr ? opts->short_usage : "[options]");
  for (const pmLongOptions* o = opts->long_options; o != nullptr && o->long_opt != nullptr; ++o) {
    if (o->message == nullptr) continue;  // an option left out of the message
    if (o->short_opt == '-') {              // a section header
      pmprintf("\n%s:\n", o->message);
      continue;
    }
    if (o->short_opt == '|') {  // descriptive text
      pmprintf("%s\n", o->message);
      continue;
    }
    std::string line = absl::StrCat("  ", OptionText(*o));
    if (line.size() < kHelpColumn) {
      line.append(kHelpColumn - line.size(), ' ');
    } else {
      line.append("\n");
      line.append(kHelpColumn, ' ');
    }
    pmprintf("%s%s\n", line.c_str(), o->message);
  }
  if (!(opts->flags & PM_OPTFLAG_NOFLUSH)) pmflush();
}

void pmFreeOptions(pmOptions* opts) {
  for (int i = 0; i < opts->narchives; ++i) std::free(opts->archives[i]);
  for (int i = 0; i < opts->nhosts; ++i) std::free(opts->hosts[i]);
  std::free(opts->archives);
  std::free(opts->hosts);
  opts->archives = nullptr;
  opts->hosts = nullptr;
  opts->narchives = opts->nhosts = 0;
}

}  // extern "C"
