// c_api_options.cc: the standard options of C tools and what they mean
// (pmGetOptions, pmGetContextOptions, pmFreeOptions), with libpcp's
// __pmStartOptions (the PCP_* variables that stand for options) and
// __pmGetLongOptions. Reading the command line in getopt's way and the
// usage message are in c_api_getopt.cc; the calls that add sources are in
// libpcp/options.cc.
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
#include "pcp_internal.h"

static_assert(PMAPI_VERSION == PMAPI_VERSION_2, "the library reads pmOptions in the version 2 layout");


namespace {

// The standard option letters pmGetOptions handles itself.
bool IsStandard(int c) { return c > 0 && std::strchr("AaDgHhKLNnOpSsTtVZz?", c) != nullptr; }

// -H FILE: the hosts named in a file, one a line before any blank or '#';
// blank and comment lines are skipped.
void AddHostsFile(pmOptions* opts, const char* path) {
  if (opts->narchives > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    opts->errors++;
    return;
  }
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) {
    pmprintf("%s: cannot open hosts file %s: %s\n", pmGetProgname(), path, std::strerror(errno));
    opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
    opts->errors++;
    return;
  }
  char line[HOST_NAME_MAX + 1];
  while (std::fgets(line, sizeof line - 1, f) != nullptr) {
    char* p = line;
    while (std::isspace(static_cast<unsigned char>(*p)) && *p != '\n') p++;
    if (*p == '\n' || *p == '#') continue;
    if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MULTI)) {
      pmprintf("%s: too many hosts requested: %s\n", pmGetProgname(), path);
      opts->errors++;
      break;
    }
    size_t n = 0;
    while (p[n] != '\0' && p[n] != '\n' && p[n] != '#' && !std::isspace(static_cast<unsigned char>(p[n]))) n++;
    char** grown = static_cast<char**>(std::realloc(opts->hosts, sizeof(char*) * (opts->nhosts + 1)));
    if (grown == nullptr) pmNoMem("pmGetOptions(hosts)", n, PM_FATAL_ERR);
    grown[opts->nhosts++] = pmapi::pcpint::OptionString(p, n);
    opts->hosts = grown;
  }
  std::fclose(f);
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
    opts->errors++;
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

void SetGui(pmOptions* opts, char* port) {
  if (port == nullptr ? opts->guiport_optarg != nullptr : opts->guiflag != 0) {
    pmprintf("%s: at most one of -g and -p allowed\n", pmGetProgname());
    opts->errors++;
  } else if (port == nullptr) {
    opts->guiflag = 1;
  } else {
    opts->guiport_optarg = port;
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
    opts->errors++;
  }
}

// -Z ZONE (zone != null) or -z: at most one of them.
void SetZone(pmOptions* opts, char* zone) {
  if (zone != nullptr ? opts->tzflag != 0 : opts->timezone != nullptr) {
    pmprintf("%s: at most one of -Z and -z allowed\n", pmGetProgname());
    opts->errors++;
  } else if (zone != nullptr) {
    opts->timezone = zone;
  } else {
    opts->tzflag = 1;
  }
}

void SetDebug(pmOptions* opts, const char* arg) {
  if (pmSetDebug(arg) < 0) {
    pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(), arg);
    opts->errors++;
  }
}

void SetDerived(pmOptions* opts, const char* arg) {
  int sts = pmLoadDerivedConfig(arg);
  if (sts < 0) {
    char msg[PM_MAXERRMSGLEN];
    pmprintf("%s: pmLoadDerivedConfig failed: %s\n", pmGetProgname(), pmErrStr_r(sts, msg, sizeof msg));
    opts->errors++;
  }
}

void SetVersion(pmOptions* opts) {
  // PCP's -V names the PCP release (the interface this library gives).
  pmprintf("%s version %d.%d.%d\n", pmGetProgname(), PM_VERSION_CURRENT >> 16,
           (PM_VERSION_CURRENT >> 8) & 0xff, PM_VERSION_CURRENT & 0xff);
  opts->flags |= PM_OPTFLAG_EXIT;
}

// Handles one standard option with its argument `arg`.
void Standard(int c, char* arg, pmOptions* opts) {
  switch (c) {
    case 'A': opts->align_optarg = arg; break;
    case 'a': __pmAddOptArchive(opts, arg); break;
    case 'D': SetDebug(opts, arg); break;
    case 'g': SetGui(opts, nullptr); break;
    case 'H': AddHostsFile(opts, arg); break;
    case 'h': __pmAddOptHost(opts, arg); break;
    case 'K': __pmSetLocalContextTable(opts, arg); break;
    case 'L': __pmSetLocalContextFlag(opts); break;
    case 'N': SetNameSpace(opts, arg, false); break;
    case 'n': SetNameSpace(opts, arg, true); break;
    case 'O': opts->origin_optarg = arg; break;
    case 'p': SetGui(opts, arg); break;
    case 'S': opts->start_optarg = arg; break;
    case 's': SetSamples(opts, arg); break;
    case 'T': opts->finish_optarg = arg; break;
    case 't': SetInterval(opts, arg); break;
    case 'V': SetVersion(opts); break;
    case 'Z': SetZone(opts, arg); break;
    case 'z': SetZone(opts, nullptr); break;
    case '?': opts->errors++; break;  // -?, --help, or a bad option
  }
}

// The long-only standard options and those with a letter, by long name.
struct LongStandard {
  const char* name;
  int letter;  // 0 for the long-only ones, handled by name
};
constexpr LongStandard kLongStandard[] = {
    {PMLONGOPT_ALIGN, 'A'},      {PMLONGOPT_ARCHIVE, 'a'},    {PMLONGOPT_ARCHIVE_LIST, 0},
    {PMLONGOPT_ARCHIVE_FOLIO, 0}, {PMLONGOPT_CONTAINER, 0},   {PMLONGOPT_DEBUG, 'D'},
    {PMLONGOPT_DERIVED, 0},      {PMLONGOPT_GUIMODE, 'g'},    {PMLONGOPT_HOST, 'h'},
    {PMLONGOPT_HOSTSFILE, 'H'},  {PMLONGOPT_SPECLOCAL, 'K'},  {PMLONGOPT_LOCALPMDA, 'L'},
    {PMLONGOPT_NAMESPACE, 'n'},  {PMLONGOPT_UNIQNAMES, 'N'},  {PMLONGOPT_GUIPORT, 'p'},
    {PMLONGOPT_HOST_LIST, 0},    {PMLONGOPT_INTERVAL, 't'},   {PMLONGOPT_ORIGIN, 'O'},
    {PMLONGOPT_SAMPLES, 's'},    {PMLONGOPT_START, 'S'},      {PMLONGOPT_FINISH, 'T'},
    {PMLONGOPT_TIMEZONE, 'Z'},   {PMLONGOPT_HOSTZONE, 'z'},   {PMLONGOPT_VERSION, 'V'}};

// The standard option of a long name, with its argument; false if `name`
// is none of them.
bool LongByName(const char* name, char* arg, pmOptions* opts) {
  for (const LongStandard& s : kLongStandard) {
    if (std::strcmp(name, s.name) != 0) continue;
    if (s.letter != 0) {
      Standard(s.letter, arg, opts);
    } else if (std::strcmp(name, PMLONGOPT_ARCHIVE_LIST) == 0) {
      __pmAddOptArchiveList(opts, arg);
    } else if (std::strcmp(name, PMLONGOPT_ARCHIVE_FOLIO) == 0) {
      __pmAddOptArchiveFolio(opts, arg);
    } else if (std::strcmp(name, PMLONGOPT_CONTAINER) == 0) {
      __pmAddOptContainer(opts, arg);
    } else if (std::strcmp(name, PMLONGOPT_DERIVED) == 0) {
      SetDerived(opts, arg);
    } else {
      __pmAddOptHostList(opts, arg);
    }
    return true;
  }
  return false;
}

// The PCP_* variables __pmStartOptions applies, by name after "PCP_", as
// the option each stands for.
struct EnvStandard {
  const char* name;
  int letter;               // a standard option letter, or 0: `name` says
};
constexpr EnvStandard kEnvStandard[] = {
    {"ALIGN_TIME", 'A'}, {"ARCHIVE", 'a'},  {"ARCHIVE_LIST", 0}, {"FOLIO", 0},       {"GUIMODE", 'g'},
    {"HOST", 'h'},       {"HOST_LIST", 0},  {"SPECLOCAL", 'K'},  {"LOCALMODE", 'L'}, {"LOCALPMDA", 'L'},
    {"NAMESPACE", 'n'},  {"UNIQNAMES", 'N'}, {"ORIGIN", 'O'},    {"ORIGIN_TIME", 'O'}, {"GUIPORT", 'p'},
    {"START_TIME", 'S'}, {"SAMPLES", 's'},  {"FINISH_TIME", 'T'}, {"INTERVAL", 't'}, {"TIMEZONE", 'Z'},
    {"HOSTZONE", 'z'}};

// Applies one PCP_NAME=value entry of the environment; false if it is not
// one of the options' variables.
bool ApplyEnvironment(const std::string& name, char* value, pmOptions* opts) {
  if (name == "DEBUG") return true;  // applied first, apart
  for (const EnvStandard& e : kEnvStandard) {
    if (name != e.name) continue;
    if (e.letter != 0) {
      Standard(e.letter, value, opts);
    } else if (name == "ARCHIVE_LIST") {
      __pmAddOptArchiveList(opts, value);
    } else if (name == "FOLIO") {
      __pmAddOptArchiveFolio(opts, value);
    } else {
      __pmAddOptHostList(opts, value);
    }
    return true;
  }
  return false;
}

}  // namespace

extern "C" {

// Applies the PCP_* environment variables that stand for standard options,
// PCP_DEBUG first, then the rest in the environment's order. Values point
// into the environment, as libpcp's do.
void __pmStartOptions(pmOptions* opts) {
  if (opts->flags & PM_OPTFLAG_INIT) return;
  for (char** p = environ; *p != nullptr; ++p) {
    if (std::strncmp(*p, "PCP_DEBUG=", 10) != 0) continue;
    SetDebug(opts, *p + 10);
    break;
  }
  for (char** p = environ; *p != nullptr; ++p) {
    if (std::strncmp(*p, "PCP_", 4) != 0) continue;
    char* equals = std::strchr(*p, '=');
    std::string name = equals == nullptr ? std::string(*p + 4) : std::string(*p + 4, equals);
    if (ApplyEnvironment(name, equals == nullptr ? nullptr : equals + 1, opts) && pmDebugOptions.config) {
      std::fprintf(stderr, "pmGetOptions: %s set from the environment\n", *p);
    }
  }
  opts->flags |= PM_OPTFLAG_INIT;
}

// A standard option given by its long name only (getopt's 0), named by
// opts->index: 0 when handled, 1 when it is the caller's own.
int __pmGetLongOptions(pmOptions* opts) {
  const char* name = opts->long_options[opts->index].long_opt;
  return LongByName(name, opts->optarg, opts) ? 0 : 1;
}

}  // extern "C"

extern "C" {

int pmGetOptions(int argc, char* const* argv, pmOptions* opts) {
  if (!(opts->flags & PM_OPTFLAG_INIT)) {
    pmSetProgname(argv[0]);
    __pmStartOptions(opts);
  }
  if (opts->flags & PM_OPTFLAG_ENV_ONLY) {
    __pmEndOptions(opts);
    return EOF;
  }
  for (;;) {
    int c = pmgetopt_r(argc, argv, opts);
    if (c == -1) break;
    if (opts->override != nullptr && opts->override(c, opts) != 0) return c;
    if (c == 0) {
      if (__pmGetLongOptions(opts) != 0) return c;
      continue;
    }
    if (!IsStandard(c)) return c;
    Standard(c, opts->optarg, opts);
  }
  __pmEndOptions(opts);
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
      std::fputs(pmapi::HostZoneNote(pmGetContextHostName(ctx), archive).c_str(), stdout);
    }
  } else if (opts->timezone != nullptr) {
    int sts = pmNewZone(opts->timezone);
    if (sts < 0) {
      pmprintf("%s: Cannot set timezone to \"%s\": %s\n", pmGetProgname(), opts->timezone,
               pmErrStr(sts));
      opts->errors++;
    } else if (stdout_tz) {
      std::fputs(pmapi::UserZoneNote(opts->timezone).c_str(), stdout);
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

// Frees the arrays, and the strings the option calls copied (PCP frees
// the arrays only); strings that are the caller's own stay.
void pmFreeOptions(pmOptions* opts) {
  if (opts->narchives) {
    pmapi::pcpint::FreeOptionStrings(opts->archives, opts->narchives);
    std::free(opts->archives);
  }
  if (opts->nhosts) {
    pmapi::pcpint::FreeOptionStrings(opts->hosts, opts->nhosts);
    std::free(opts->hosts);
  }
  opts->archives = opts->hosts = nullptr;
  opts->narchives = opts->nhosts = 0;
}

}  // extern "C"
