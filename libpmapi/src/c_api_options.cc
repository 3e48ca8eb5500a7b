// c_api_options.cc: command-line processing for C tools (pmGetOptions,
// pmGetContextOptions, pmUsageMessage, pmFreeOptions, pmgetopt_r), the
// pmprintf buffer, the program name, debug switches and small helpers.
#include <getopt.h>

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

static_assert(PMAPI_VERSION == PMAPI_VERSION_2, "the library reads pmOptions in the version 2 layout");

#ifndef PMAPI_VERSION_STRING
#define PMAPI_VERSION_STRING "0.0.0"
#endif

pmdebugoptions_t pmDebugOptions;

namespace {

std::mutex print_mu;
std::string* print_buffer = new std::string;
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

// Marks in `chosen` the options one item of a debug spec names: a name
// (any case) or "all". Returns false for an unknown name.
bool ChooseByName(absl::string_view item, std::vector<bool>* chosen) {
  const size_t n = sizeof(kDebugNames) / sizeof(kDebugNames[0]);
  if (absl::EqualsIgnoreCase(item, "all")) {
    chosen->assign(n, true);
    return true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (absl::EqualsIgnoreCase(item, kDebugNames[i])) {
      (*chosen)[i] = true;
      return true;
    }
  }
  return false;
}

// Sets (value 1) or clears (0) the debug options a spec names, as PCP
// reads it: comma-separated names (any case) or "all", or decimal numbers,
// which are PCP's old bit masks (-1 meaning all) and are accepted without
// changing any option here. Returns PM_ERR_CONV, changing nothing, for an
// unknown name, an empty item or anything after a number but a comma.
int ChangeDebug(const char* spec, int value) {
  if (spec == nullptr) return 0;
  const size_t n = sizeof(kDebugNames) / sizeof(kDebugNames[0]);
  std::vector<bool> chosen(n, false);
  const char* p = spec;
  while (*p != '\0') {
    char* end = nullptr;
    long number = std::strtol(p, &end, 10);
    if (end > p) {
      if (number == -1) chosen.assign(n, true);
      if (*end == ',') {
        p = end + 1;
        continue;
      }
      if (*end == '\0') break;
      return PM_ERR_CONV;
    }
    const char* comma = std::strchr(p, ',');
    size_t len = comma ? static_cast<size_t>(comma - p) : std::strlen(p);
    if (!ChooseByName(absl::string_view(p, len), &chosen)) return PM_ERR_CONV;
    p += len;
    if (*p == ',') ++p;
  }
  int* flags = reinterpret_cast<int*>(&pmDebugOptions);
  for (size_t i = 0; i < n; ++i) {
    if (chosen[i]) flags[i] = value;
  }
  return 0;
}

// The standard option letters pmGetOptions handles itself.
bool IsStandard(int c) { return c > 0 && std::strchr("AaDgHhLNnOpSsTtVZz?", c) != nullptr; }

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

// -a: each comma-separated name joins the archive set.
void AddArchives(pmOptions* opts, const char* value) {
  if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MIXED)) {
    pmprintf("%s: only one host or archive allowed\n", pmGetProgname());
    UsageError(opts);
    return;
  }
  std::vector<std::string> parts = absl::StrSplit(value, ',', absl::SkipEmpty());
  for (const std::string& p : parts) AddTo(&opts->archives, &opts->narchives, p);
  opts->context = PM_CONTEXT_ARCHIVE;
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
    case 'g': opts->guiflag = 1; break;
    case 'H': AddHostsFile(opts, arg); break;
    case 'h': AddHost(opts, arg, false); break;
    case 'L':
      opts->Lflag = 1;
      opts->context = PM_CONTEXT_LOCAL;
      break;
    case 'N':
    case 'n':
      // Contexts always use their source's name space here.
      opts->nsflag = 1;
      pmprintf("%s: -%c: alternative name spaces are not supported\n", pmGetProgname(), c);
      opts->errors++;
      opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
      break;
    case 'O': opts->origin_optarg = opts->optarg; break;
    case 'p':
      opts->guiport_optarg = opts->optarg;
      opts->guiport = std::atoi(arg);
      break;
    case 'S': opts->start_optarg = opts->optarg; break;
    case 's': {
      char* end = nullptr;
      long n = std::strtol(arg, &end, 10);
      if (end == arg || *end != '\0' || n < 0) {
        pmprintf("%s: -s requires a positive numeric argument\n", pmGetProgname());
        UsageError(opts);
      } else {
        opts->samples = static_cast<int>(n);
      }
      break;
    }
    case 'T': opts->finish_optarg = opts->optarg; break;
    case 't': SetInterval(opts, arg); break;
    case 'V':
      pmprintf("%s version %s\n", pmGetProgname(), PMAPI_VERSION_STRING);
      opts->flags |= PM_OPTFLAG_EXIT;
      break;
    case 'Z': opts->timezone = opts->optarg; break;
    case 'z': opts->tzflag = 1; break;
    case '?':  // -?, --help, or a bad option: the caller shows the usage
      UsageError(opts);
      break;
  }
}

// Cross-checks once every option is in.
void Finish(pmOptions* opts) {
  opts->flags |= PM_OPTFLAG_DONE;
  if (opts->context != PM_CONTEXT_ARCHIVE &&
      (opts->start_optarg != nullptr || opts->align_optarg != nullptr ||
       opts->origin_optarg != nullptr)) {
    pmprintf("%s: time window options are supported for archives only\n", pmGetProgname());
    UsageError(opts);
  }
  if (opts->tzflag && opts->timezone != nullptr) {
    pmprintf("%s: at most one of -Z and -z allowed\n", pmGetProgname());
    UsageError(opts);
  }
  if (opts->Lflag && (opts->nhosts > 0 || opts->narchives > 0)) {
    pmprintf("%s: -L may not be used with -a or -h\n", pmGetProgname());
    UsageError(opts);
  }
}

// getopt_long's table for the caller's long options.
std::vector<struct option> LongTable(const pmLongOptions* longopts) {
  std::vector<struct option> out;
  for (const pmLongOptions* o = longopts; o != nullptr && o->long_opt != nullptr; ++o) {
    if (o->long_opt[0] == '\0') continue;
    struct option g;
    g.name = o->long_opt;
    g.has_arg = o->has_arg ? required_argument : no_argument;
    g.flag = nullptr;
    g.val = o->short_opt;
    out.push_back(g);
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

// ---- pmprintf ----

int pmprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  std::string text;
  if (n >= 0 && static_cast<size_t>(n) < sizeof small) {
    text = small;
  } else if (n >= 0) {
    text.resize(static_cast<size_t>(n) + 1);
    std::vsnprintf(text.data(), text.size(), fmt, ap);
    text.resize(static_cast<size_t>(n));
  }
  va_end(ap);
  std::lock_guard<std::mutex> lock(print_mu);
  print_buffer->append(text);
  return n;
}

int pmflush(void) {
  std::string text;
  {
    std::lock_guard<std::mutex> lock(print_mu);
    text.swap(*print_buffer);
  }
  if (text.empty()) return 0;
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  return static_cast<int>(text.size());
}

int pmsprintf(char* buf, size_t size, const char* fmt, ...) {
  if (buf == nullptr || size == 0) return 0;
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  if (n < 0) {
    buf[0] = '\0';
    return 0;
  }
  return static_cast<size_t>(n) >= size ? static_cast<int>(size - 1) : n;
}

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

int pmGetVersion(void) {
  int major = 0, minor = 0, patch = 0;
  std::sscanf(PMAPI_VERSION_STRING, "%d.%d.%d", &major, &minor, &patch);
  return (major << 16) | (minor << 8) | patch;
}

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
  }
  std::string shortopts = opts->short_options != nullptr ? opts->short_options : "";
  if (opts->flags & PM_OPTFLAG_POSIX) shortopts = "+" + shortopts;
  std::vector<struct option> table = LongTable(opts->long_options);
  // Diagnostics go through pmprintf, as PCP's do, so they come out with
  // the usage message.
  ::opterr = 0;
  int index = -1;
  ::optopt = 0;
  int c = getopt_long(argc, const_cast<char**>(argv), (":" + shortopts).c_str(), table.data(), &index);
  if (c == ':' || (c == '?' && !(::optopt == 0 && index >= 0) && !IsHelpRequest(argv))) {
    if (!(opts->flags & PM_OPTFLAG_QUIET)) Diagnose(c, argv, opts->long_options);
    c = '?';
    opts->index = index;
    opts->optind = ::optind;
    opts->optarg = ::optarg;
    opts->optopt = ::optopt;
    return c;
  }
  opts->index = index;
  opts->optind = ::optind;
  opts->optarg = ::optarg;
  opts->optopt = c == '?' ? ::optopt : 0;
  return c;
}

int pmGetOptions(int argc, char* const* argv, pmOptions* opts) {
  if (!(opts->flags & PM_OPTFLAG_INIT)) pmSetProgname(argv[0]);
  if (opts->flags & PM_OPTFLAG_ENV_ONLY) {
    opts->flags |= PM_OPTFLAG_INIT;
    Finish(opts);
    return EOF;
  }
  for (;;) {
    int c = pmgetopt_r(argc, argv, opts);
    if (c == -1) break;
    if (opts->override != nullptr && opts->override(c, opts) != 0) return c;
    if (!IsStandard(c)) return c;
    Standard(c, opts);
  }
  Finish(opts);
  return EOF;
}

// pmGetContextOptions' reporting zone: -z (the source's) or -Z.
static int ContextZone(int ctx, bool archive, pmOptions* opts) {
  bool stdout_tz = (opts->flags & PM_OPTFLAG_STDOUT_TZ) != 0;
  int sts = 0;
  if (opts->tzflag) {
    sts = pmNewContextZone();
    if (sts >= 0 && stdout_tz) {
      std::printf("Note: timezone set to local timezone of host \"%s\"%s\n\n",
                  pmGetContextHostName(ctx), archive ? " from archive" : "");
    }
  } else if (opts->timezone != nullptr) {
    sts = pmNewZone(opts->timezone);
    if (sts >= 0 && stdout_tz) std::printf("Note: timezone set to \"TZ=%s\"\n\n", opts->timezone);
  }
  if (sts < 0) {
    pmprintf("%s: cannot set timezone: %s\n", pmGetProgname(), pmErrStr(sts));
    opts->errors++;
    opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
  }
  return sts;
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
    opts->errors++;
    opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
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

int pmGetContextOptions(int ctx, pmOptions* opts) {
  std::shared_ptr<pmapi::capi::CContext> entry = pmapi::capi::FindHandle(ctx);
  if (entry == nullptr) return PM_ERR_NOCONTEXT;
  int old = pmWhichContext();
  pmUseContext(ctx);
  bool archive = entry->type == PM_CONTEXT_ARCHIVE;
  int sts = ContextZone(ctx, archive, opts);
  if (sts >= 0 && (opts->flags & PM_OPTFLAG_BOUNDARIES)) sts = ContextWindow(archive, opts);
  if (old >= 0) pmUseContext(old);
  return sts < 0 ? sts : 0;
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
