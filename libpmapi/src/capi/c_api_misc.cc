// c_api_misc.cc: the C layer's small services: bounded strings, the
// diagnostic log and syslog switch, pmNotifyErr, the process identity, the
// library's feature list, label-set printing, -K agent specs and service
// discovery.
#include <grp.h>
#include <pwd.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>

#include "c_api_internal.h"
#include "pcp_internal.h"
#include "pmapi/local.h"

namespace {

bool use_syslog = false;

std::mutex logs_mu;
std::vector<FILE*>* open_logs = new std::vector<FILE*>;

// ctime(3)'s text of now (with its newline).
std::string CtimeNow() {
  char buf[32];
  time_t now = time(nullptr);
  ctime_r(&now, buf);
  return buf;
}

void LogFooter(FILE* f, const char* act) { std::fprintf(f, "\nLog %s %s", act, CtimeNow().c_str()); }

void LogFooters() {
  std::lock_guard<std::mutex> lock(logs_mu);
  for (FILE* f : *open_logs) LogFooter(f, "finished");
}

void LogHeader(const char* progname, FILE* f, const char* act) {
  char host[MAXHOSTNAMELEN];
  gethostname(host, sizeof host);
  host[sizeof host - 1] = '\0';
  setlinebuf(f);
  std::fprintf(f, "Log for %s on %s %s %s\n", progname, host, act, CtimeNow().c_str());
}

// Points `stream` at a fresh `logname` (the old file kept as .prev); on
// failure the stream is left as it was and the reason printed.
FILE* Reopen(const char* progname, const char* logname, FILE* stream, int* status) {
  std::fflush(stream);
  *status = 0;
  if (logname == nullptr) return nullptr;
  int keep = dup(fileno(stream));
  if (keep < 0) {
    pmprintf("%s: cannot redirect log output to \"%s\": %s\n", progname, logname,
             std::strerror(errno));
    pmflush();
    return stream;
  }
  std::string prev = std::string(logname) + ".prev";
  unlink(prev.c_str());
  if (rename(logname, prev.c_str()) < 0) unlink(logname);
  int fd = open(logname, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    int err = errno;
    pmprintf("%s: cannot open log \"%s\" for writing : %s\n", progname, logname,
             std::strerror(err));
    pmflush();
  } else {
    dup2(fd, fileno(stream));
    close(fd);
    *status = 1;
  }
  close(keep);
  return stream;
}

const char* Level(int priority) {
  switch (priority) {
    case LOG_EMERG: return "Emergency";
    case LOG_ALERT: return "Alert";
    case LOG_CRIT: return "Critical";
    case LOG_ERR: return "Error";
    case LOG_WARNING: return "Warning";
    case LOG_NOTICE: return "Notice";
    case LOG_INFO: return "Info";
    case LOG_DEBUG: return "Debug";
    default: return "???";
  }
}

const char* Ipv6() {
  if (FILE* f = std::fopen("/proc/sys/net/ipv6/conf/all/disable_ipv6", "r")) {
    int c = std::fgetc(f);
    std::fclose(f);
    return c == '1' ? "false" : "true";
  }
  return access("/proc/net/if_inet6", F_OK) == 0 ? "true" : "false";
}

struct Feature {
  const char* name;
  const char* (*value)();
};

const Feature kFeatures[] = {
    {"pcp_version", [] { return "6.0.3"; }},
    {"pmapi_version", [] { return "3"; }},
    {"multi_threaded", [] { return "true"; }},
    {"fault_injection", [] { return "false"; }},
    {"secure_sockets", [] { return "false"; }},
    {"ipv6", Ipv6},
    {"authentication", [] { return "false"; }},
    {"unix_domain_sockets", [] { return "true"; }},
    {"static_probes", [] { return "false"; }},
    {"service_discovery", [] { return "false"; }},
    {"multi_archive_contexts", [] { return "true"; }},
    {"lock_asserts", [] { return "false"; }},
    {"lock_debug", [] { return "false"; }},
    {"lzma_decompress", [] { return "true"; }},
    {"transparent_decompress", [] { return "true"; }},
    {"compress_suffixes", [] { return ".xz .lzma .bz2 .bz .gz .Z .z"; }},
    {"v3_archives", [] { return "true"; }},
    {"archive_features", [] { return ""; }},
};

// How PCP names a label set's owner in pmPrintLabelSets.
std::string LabelIdent(int ident, int type) {
  char id[32];
  switch (type & ~(PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL)) {
    case PM_LABEL_DOMAIN: return "Domain " + std::to_string(static_cast<unsigned>(ident));
    case PM_LABEL_INDOM:
    case PM_LABEL_INSTANCES: return std::string("InDom ") + pmInDomStr_r(ident, id, sizeof id);
    case PM_LABEL_CLUSTER: {
      std::string s = pmIDStr_r(ident, id, sizeof id);
      return "Cluster " + s.substr(0, s.rfind('.'));
    }
    case PM_LABEL_ITEM: return std::string("PMID ") + pmIDStr_r(ident, id, sizeof id);
    case PM_LABEL_CONTEXT: return "Context";
    default: return "";
  }
}

std::string LabelFlags(int flags) {
  std::string s;
  switch (flags & ~(PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL)) {
    case PM_LABEL_CONTEXT: s = "context"; break;
    case PM_LABEL_DOMAIN: s = "domain"; break;
    case PM_LABEL_INDOM: s = "indom"; break;
    case PM_LABEL_CLUSTER: s = "cluster"; break;
    case PM_LABEL_ITEM: s = "pmid"; break;
    case PM_LABEL_INSTANCES: s = "instances"; break;
    default: s = "?"; break;
  }
  if (flags & PM_LABEL_COMPOUND) s += ",compound";
  if (flags & PM_LABEL_OPTIONAL) s += ",optional";
  return s;
}

}  // namespace

extern "C" {

// ---- Strings ----

int pmstrncpy(char* dest, size_t destlen, const char* src) {
  size_t n = 0;
  while (src[n] != '\0' && n + 1 < destlen) {
    dest[n] = src[n];
    ++n;
  }
  dest[n] = '\0';
  return src[n] == '\0' ? 0 : -1;
}

int pmstrncat(char* dest, size_t destlen, const char* src) {
  size_t used = std::strlen(dest);
  return pmstrncpy(dest + used, destlen - used, src);
}

size_t pmstrlen(const char* s) { return s == nullptr ? 0 : std::strlen(s); }

ssize_t pmfstring(FILE* f, char** str) {
  int c;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') return 0;
    if (!std::isspace(c)) break;
  }
  if (c == EOF) return -1;
  std::string word;
  do {
    word.push_back(static_cast<char>(c));
    c = std::fgetc(f);
  } while (c != EOF && !std::isspace(c));
  char* out = static_cast<char*>(std::malloc(word.size() + 1));
  if (out == nullptr) {
    pmNoMem("pmfstring", word.size() + 1, PM_RECOV_ERR);
    return -2;
  }
  std::memcpy(out, word.c_str(), word.size() + 1);
  *str = out;
  return static_cast<ssize_t>(word.size());
}

// ---- Logs and notices ----

FILE* pmOpenLog(const char* progname, const char* logname, FILE* oldstream, int* status) {
  if (logname != nullptr && std::strcmp(logname, "-") == 0) {
    *status = 1;
  } else {
    oldstream = Reopen(progname, logname, oldstream, status);
    if (oldstream == nullptr) return nullptr;
  }
  LogHeader(progname, oldstream, "started");
  std::lock_guard<std::mutex> lock(logs_mu);
  if (open_logs->empty()) std::atexit(LogFooters);
  open_logs->push_back(oldstream);
  return oldstream;
}

// A log pmOpenLog opened, started afresh under `logname` (the old file kept
// as .prev) with footer and header saying so; "-" leaves it as it is.
FILE* __pmRotateLog(const char* progname, const char* logname, FILE* oldstream, int* status) {
  if (logname != nullptr && std::strcmp(logname, "-") == 0) {
    *status = 1;
    return oldstream;
  }
  {
    std::lock_guard<std::mutex> lock(logs_mu);
    if (std::find(open_logs->begin(), open_logs->end(), oldstream) == open_logs->end()) return oldstream;
  }
  LogFooter(oldstream, "rotated");
  FILE* stream = Reopen(progname, logname, oldstream, status);
  if (stream == nullptr) return oldstream;
  LogHeader(progname, stream, "rotated");
  return stream;
}

void pmSyslog(int onoff) {
  use_syslog = onoff != 0;
  if (use_syslog) {
    openlog("pcp", LOG_PID, LOG_DAEMON);
  } else {
    closelog();
  }
}

void pmNotifyErr(int priority, const char* fmt, ...) {
  char text[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (use_syslog) syslog(priority, "%s", text);
  std::string when = CtimeNow();
  size_t len = std::strlen(text);
  pmprintf("[%.19s] %s(%d) %s: %s%s", when.c_str(), pmGetProgname(), static_cast<int>(getpid()),
           Level(priority), text, len > 0 && text[len - 1] == '\n' ? "" : "\n");
  pmflush();
}

// ---- Identity ----

int pmGetUsername(char** username) {
  char* user = pmGetOptionalConfig("PCP_USER");
  if (user != nullptr && user[0] != '\0') {
    *username = user;
    return 1;
  }
  *username = const_cast<char*>("pcp");
  return 0;
}

int pmSetProcessIdentity(const char* username) {
  char buf[4096];
  struct passwd pwd;
  struct passwd* pw = nullptr;
  if (getpwnam_r(username, &pwd, buf, sizeof buf, &pw) != 0 || pw == nullptr) {
    pmNotifyErr(LOG_CRIT, "cannot find the %s user to switch to\n", username);
    std::exit(1);
  }
  if (setgid(pw->pw_gid) < 0) {
    pmNotifyErr(LOG_CRIT, "setgid to gid of %s user (gid=%d): %s", username,
                static_cast<int>(pw->pw_gid), std::strerror(errno));
    std::exit(1);
  }
  if (getgroups(0, nullptr) > 0 && initgroups(username, pw->pw_gid) < 0 && errno != EPERM) {
    pmNotifyErr(LOG_CRIT, "initgroups with gid of %s user (gid=%d): %s", username,
                static_cast<int>(pw->pw_gid), std::strerror(errno));
    std::exit(1);
  }
  if (setuid(pw->pw_uid) < 0) {
    pmNotifyErr(LOG_CRIT, "setuid to uid of %s user (uid=%d): %s", username,
                static_cast<int>(pw->pw_uid), std::strerror(errno));
    std::exit(1);
  }
  return 0;
}

// ---- Context host, features, labels ----

int pmGetHostName(int handle, char* buf, int buflen) {
  if (buflen > 0) buf[0] = '\0';
  if (pmapi::capi::FindHandle(handle) != nullptr) pmGetContextHostName_r(handle, buf, buflen);
  return 0;
}

const char* pmGetAPIConfig(const char* name) {
  for (const Feature& f : kFeatures) {
    if (strcasecmp(name, f.name) == 0) return f.value();
  }
  return nullptr;
}

void __pmAPIConfig(__pmAPIConfigCallback formatter) {
  for (const Feature& f : kFeatures) formatter(f.name, f.value());
}

void pmPrintLabelSets(FILE* fp, int ident, int type, pmLabelSet* sets, int nsets) {
  std::string id = LabelIdent(ident, type);
  for (int n = 0; n < nsets; ++n) {
    const pmLabelSet& p = sets[n];
    if (type & PM_LABEL_INSTANCES) {
      std::fprintf(fp, "    %s[%u] labels (%u bytes): %s\n", id.c_str(), p.inst, p.jsonlen, p.json);
    } else {
      std::fprintf(fp, "    %s labels (%u bytes): %s\n", id.c_str(), p.jsonlen, p.json);
    }
    for (int i = 0; i < p.nlabels; ++i) {
      const pmLabel& l = p.labels[i];
      std::fprintf(fp, "        [%d] name(%d,%d) : value(%d,%d) [%s]\n", i, l.name, l.namelen,
                   l.value, l.valuelen, LabelFlags(l.flags).c_str());
    }
  }
}

// ---- Agents and services ----

char* pmSpecLocalPMDA(const char* spec) {
  static thread_local std::string why;
  why = pmapi::SpecLocalPmda(spec == nullptr ? "" : spec);
  return why.empty() ? nullptr : why.data();
}

int pmDiscoverServices(const char* service, const char* mechanism, char*** urls) {
  (void)service;
  *urls = nullptr;
  if (mechanism == nullptr) return 0;
  for (const char* known : {"probe", "shell", "avahi"}) {
    if (std::strncmp(mechanism, known, std::strlen(known)) == 0) return 0;
  }
  return -EOPNOTSUPP;
}

}  // extern "C"
