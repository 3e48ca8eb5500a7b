// options.cc: the pmOptions calls of libpcp's internal interface that add
// metric sources (archives, folios, hosts, the local context) and finish
// option processing. pmGetOptions (c_api_options.cc) uses them for -a, -h,
// -L and friends, and PCP's Python module calls them directly. They follow
// libpcp: errors are counted and reported through pmprintf; the context
// kind is settled only by __pmEndOptions.
#include <libgen.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "pcp_internal.h"

namespace {

[[noreturn]] void OutOfMemory(const char* where, size_t size) {
  pmNoMem(where, size, PM_FATAL_ERR);
  std::exit(1);
}

// Appends `value` (kept as given: the caller owns it) to a host or
// archive array.
void Append(char*** list, int* count, char* value, const char* where) {
  size_t size = sizeof(char*) * (*count + 1);
  auto** grown = static_cast<char**>(std::realloc(*list, size));
  if (grown == nullptr) OutOfMemory(where, size);
  grown[(*count)++] = value;
  *list = grown;
}

// The strings these calls made, as against the caller's own, so that
// pmFreeOptions can free just these.
struct MadeStrings {
  std::mutex mu;
  std::unordered_set<const char*> made;
};

MadeStrings& Made() {
  static MadeStrings* m = new MadeStrings;
  return *m;
}

void Remember(const char* s, bool made) {
  MadeStrings& m = Made();
  std::lock_guard<std::mutex> lock(m.mu);
  if (made) {
    m.made.insert(s);
  } else {
    m.made.erase(s);
  }
}

char* Copy(const char* s, size_t length, const char* where) {
  char* copy = strndup(s, length);
  if (copy == nullptr) OutOfMemory(where, length);
  Remember(copy, true);
  return copy;
}

// True if `name` is one of the comma-separated names of `list`.
bool Listed(const char* list, const char* name) {
  size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p != nullptr; p = std::strstr(p + 1, name)) {
    bool starts = p == list || p[-1] == ',';
    bool ends = p[n] == ',' || p[n] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

// One archive name: with PM_OPTFLAG_MULTI an entry of its own (one context
// each); otherwise joined with a comma to the single entry one context
// opens. A name already there is dropped.
void AddArchiveName(pmOptions* opts, const char* name) {
  if (opts->flags & PM_OPTFLAG_MULTI) {
    for (int i = 0; i < opts->narchives; ++i) {
      if (std::strcmp(name, opts->archives[i]) == 0) return;
    }
    Append(&opts->archives, &opts->narchives, Copy(name, std::strlen(name), "pmGetOptions(archive)"),
           "pmGetOptions(archive)");
    return;
  }
  if (opts->archives == nullptr) {
    Append(&opts->archives, &opts->narchives, Copy(name, std::strlen(name), "pmGetOptions(archive)"),
           "pmGetOptions(archive)");
    return;
  }
  if (Listed(opts->archives[0], name)) return;
  size_t size = std::strlen(opts->archives[0]) + 1 + std::strlen(name) + 1;
  Remember(opts->archives[0], false);
  auto* joined = static_cast<char*>(std::realloc(opts->archives[0], size));
  if (joined == nullptr) OutOfMemory("pmGetOptions(archive)", size);
  Remember(joined, true);
  std::strcat(joined, ",");
  std::strcat(joined, name);
  opts->archives[0] = joined;
}

bool MixedRefused(const pmOptions* opts, int others) {
  return others > 0 && !(opts->flags & PM_OPTFLAG_MIXED);
}

void TooMany(pmOptions* opts, const char* what, const char* arg) {
  pmprintf("%s: too many %s requested: %s\n", pmGetProgname(), what, arg);
  opts->errors++;
}

void RuntimeError(pmOptions* opts) {
  opts->flags |= PM_OPTFLAG_RUNTIME_ERR;
  opts->errors++;
}

// Calls fn on each non-empty comma-separated part of `arg`.
template <typename Fn>
void ForEachPart(const char* arg, Fn fn) {
  const char* start = arg;
  while (*start != '\0') {
    const char* end = std::strchr(start, ',');
    if (end == nullptr) end = start + std::strlen(start);
    if (end > start) fn(std::string(start, end));
    start = *end == '\0' ? end : end + 1;
  }
}

char* SkipSpace(char* p) {
  while (*p != '\0' && std::isspace(static_cast<unsigned char>(*p)) && *p != '\n') p++;
  return p;
}

char* SkipWord(char* p) {
  while (*p != '\0' && !std::isspace(static_cast<unsigned char>(*p))) p++;
  return p;
}

// Reads a folio after its two header lines: each "Archive: HOST PATH"
// line adds PATH (relative to the folio's directory unless absolute).
// False, after reporting, for a malformed line.
bool ReadFolioArchives(pmOptions* opts, FILE* f, const std::string& dir) {
  char line[PATH_MAX];
  int lineno = 2;
  while (std::fgets(line, sizeof line - 1, f) != nullptr) {
    lineno++;
    if (std::strncmp(line, "Archive:", 8) != 0) continue;
    char* p = SkipSpace(SkipWord(line));
    if (*p == '\n') {
      pmprintf("%s: missing host on archive folio line %d\n", pmGetProgname(), lineno);
      return false;
    }
    p = SkipSpace(SkipWord(p));
    if (*p == '\n') {
      pmprintf("%s: missing path on archive folio line %d\n", pmGetProgname(), lineno);
      return false;
    }
    char* path = p;
    *SkipWord(p) = '\0';
    std::string archive = __pmAbsolutePath(path) ? path : dir + "/" + path;
    __pmAddOptArchive(opts, archive.data());
  }
  return true;
}

// Checks a folio's two header lines; false after reporting.
bool FolioHeader(FILE* f, const char* name) {
  char line[PATH_MAX];
  const char* why = nullptr;
  if (std::fgets(line, sizeof line - 1, f) == nullptr) {
    why = "%s: archive folio %s has no header\n";
  } else if (std::strncmp(line, "PCPFolio", 8) != 0) {
    why = "%s: archive folio %s has bad magic\n";
  } else if (std::fgets(line, sizeof line - 1, f) == nullptr) {
    why = "%s: archive folio %s has no version\n";
  } else if (std::strncmp(line, "Version: 1", 10) != 0) {
    why = "%s: unknown version archive folio %s\n";
  }
  if (why != nullptr) pmprintf(why, pmGetProgname(), name);
  return why == nullptr;
}

}  // namespace

namespace pmapi::pcpint {

char* OptionString(const char* s, size_t length) { return Copy(s, length, "pmGetOptions(host)"); }

void FreeOptionStrings(char** list, int count) {
  MadeStrings& m = Made();
  std::lock_guard<std::mutex> lock(m.mu);
  for (int i = 0; i < count; i++) {
    if (m.made.erase(list[i]) > 0) std::free(list[i]);
  }
}

}  // namespace pmapi::pcpint

extern "C" {

void __pmAddOptArchive(pmOptions* opts, char* arg) {
  if (MixedRefused(opts, opts->nhosts)) {
    pmprintf("%s: only one host or archive allowed\n", pmGetProgname());
    opts->errors++;
    return;
  }
  AddArchiveName(opts, arg);
}

void __pmAddOptArchiveList(pmOptions* opts, char* arg) {
  if (MixedRefused(opts, opts->nhosts)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    opts->errors++;
    return;
  }
  if (!(opts->flags & PM_OPTFLAG_MULTI)) {
    __pmAddOptArchive(opts, arg);
    return;
  }
  ForEachPart(arg, [opts](std::string name) { __pmAddOptArchive(opts, name.data()); });
}

// A folio (pmafm's list of archives): "PCPFolio", "Version: 1", then
// "Archive: HOST PATH" lines.
void __pmAddOptArchiveFolio(pmOptions* opts, char* arg) {
  if (MixedRefused(opts, opts->nhosts)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    opts->errors++;
    return;
  }
  if (arg == nullptr) {
    pmprintf("%s: cannot open empty archive folio name\n", pmGetProgname());
    RuntimeError(opts);
    return;
  }
  FILE* f = std::fopen(arg, "r");
  if (f == nullptr) {
    char msg[PM_MAXERRMSGLEN];
    pmprintf("%s: cannot open archive folio %s: %s\n", pmGetProgname(), arg,
             pmErrStr_r(-errno, msg, sizeof msg));
    RuntimeError(opts);
    return;
  }
  std::string copy = arg;
  std::string dir = dirname(copy.data());
  bool good = FolioHeader(f, arg) && ReadFolioArchives(opts, f, dir);
  std::fclose(f);
  if (!good) {
    RuntimeError(opts);
    return;
  }
  if (opts->narchives > 1 && !(opts->flags & PM_OPTFLAG_MULTI)) TooMany(opts, "archives", arg);
}

// -O without -a: this host's directory below $PCP_ARCHIVE_DIR.
void __pmAddOptArchivePath(pmOptions* opts) {
  const char* logdir = pmGetOptionalConfig("PCP_ARCHIVE_DIR");
  char host[HOST_NAME_MAX + 1];
  if (gethostname(host, sizeof host) < 0) std::snprintf(host, sizeof host, "localhost");
  std::string dir = std::string(logdir != nullptr ? logdir : "/var/log/pcp/pmlogger") + "/" + host;
  AddArchiveName(opts, dir.c_str());
}

// The container for host contexts, passed on as $PCP_CONTAINER.
void __pmAddOptContainer(pmOptions*, char* arg) { setenv("PCP_CONTAINER", arg != nullptr ? arg : "", 1); }

// Keeps `arg` itself, as libpcp does: the caller's string must live on.
void __pmAddOptHost(pmOptions* opts, char* arg) {
  if (opts->nhosts > 0 && !(opts->flags & PM_OPTFLAG_MULTI)) {
    TooMany(opts, "hosts", arg);
  } else if (MixedRefused(opts, opts->narchives)) {
    pmprintf("%s: only one host or archive allowed\n", pmGetProgname());
    opts->errors++;
  } else {
    Append(&opts->hosts, &opts->nhosts, arg, "pmGetOptions(hosts)");
  }
}

void __pmAddOptHostList(pmOptions* opts, char* arg) {
  if (MixedRefused(opts, opts->narchives)) {
    pmprintf("%s: only one of hosts or archives allowed\n", pmGetProgname());
    opts->errors++;
  } else {
    ForEachPart(arg, [opts](const std::string& host) {
      Append(&opts->hosts, &opts->nhosts, Copy(host.data(), host.size(), "pmGetOptions(host)"),
             "pmGetOptions(hosts)");
    });
  }
  if (opts->nhosts > 1 && !(opts->flags & PM_OPTFLAG_MULTI)) TooMany(opts, "hosts", arg);
}

void __pmSetLocalContextTable(pmOptions* opts, char* arg) {
  if (const char* why = pmSpecLocalPMDA(arg)) {
    pmprintf("%s: pmSpecLocalPMDA failed: %s\n", pmGetProgname(), why);
    opts->errors++;
  }
}

void __pmSetLocalContextFlag(pmOptions* opts) {
  if (opts->context != 0 && !(opts->flags & PM_OPTFLAG_MULTI)) {
    pmprintf("%s: at most one of -a, -h and -L allowed\n", pmGetProgname());
    opts->errors++;
  } else {
    opts->Lflag = 1;
  }
}

// Settles what waited for every option: the context kind (unless the
// caller chose one), the checks that need it, and the usage-error flag.
void __pmEndOptions(pmOptions* opts) {
  if (opts->flags & PM_OPTFLAG_DONE) return;
  if (opts->version != PMAPI_VERSION_2 && opts->version != PMAPI_VERSION_3) opts->version = PMAPI_VERSION_2;
  if (opts->context == 0) {
    if (opts->Lflag) {
      opts->context = PM_CONTEXT_LOCAL;
    } else if (opts->nhosts > 0 && opts->narchives == 0) {
      opts->context = PM_CONTEXT_HOST;
    } else if (opts->narchives > 0 && opts->nhosts == 0) {
      opts->context = PM_CONTEXT_ARCHIVE;
    } else if (opts->origin_optarg != nullptr) {
      opts->context = PM_CONTEXT_ARCHIVE;
      __pmAddOptArchivePath(opts);
    }
  }
  if ((opts->start_optarg != nullptr || opts->align_optarg != nullptr || opts->origin_optarg != nullptr) &&
      opts->context != PM_CONTEXT_ARCHIVE) {
    pmprintf("%s: time window options are supported for archives only\n", pmGetProgname());
    opts->errors++;
  }
  if (opts->tzflag && opts->context != PM_CONTEXT_ARCHIVE && opts->context != PM_CONTEXT_HOST) {
    pmprintf("%s: use of timezone from metric source requires a source\n", pmGetProgname());
    opts->errors++;
  }
  if (opts->errors && !(opts->flags & PM_OPTFLAG_RUNTIME_ERR)) opts->flags |= PM_OPTFLAG_USAGE_ERR;
  opts->flags |= PM_OPTFLAG_DONE;
}

}  // extern "C"
