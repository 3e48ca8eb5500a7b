// c_pmda_daemon.cc: a C agent that runs as its own process under pmcd
// (<pcp/pmda.h>): pmdaDaemon, the command line (pmdaGetOptions,
// pmdaGetOpt, pmdaUsageMessage), the log (pmdaOpenLog), the connection
// and version exchange with pmcd (pmdaConnect), pmdaInterfaceMoved, and
// the process identity calls of <pcp/pmapi.h> agents make before they
// connect (pmGetUsername, pmSetProcessIdentity).
#include <grp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>

#include "c_pmda_internal.h"
#include "c_pmda_link.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

const char* NameOf(const pmdaExt* ext) { return ext->e_name ? ext->e_name : ""; }

char IoOption(pmdaIoType io) {
  switch (io) {
    case pmdaPipe: return 'p';
    case pmdaInet: return 'i';
    case pmdaIPv6: return '6';
    case pmdaUnix: return 'u';
    default: return '?';
  }
}

// Sets the agent's connection type from -p, -i, -6 or -u; a second,
// different type is an error, as in PCP.
void SetIo(pmdaExt* ext, pmdaIoType io, int opt, const char* arg, pmdaOptions* opts) {
  if (ext->e_io != pmdaUnknown && ext->e_io != io) {
    pmprintf("%s: -%c option clashes with -%c option\n", pmapi::NameOf(ext), opt, IoOption(ext->e_io));
    opts->errors++;
    return;
  }
  ext->e_io = io;
  if (io == pmdaUnix) {
    ext->e_sockname = const_cast<char*>(arg);
  } else if (io == pmdaInet || io == pmdaIPv6) {
    char* end = nullptr;
    ext->e_port = static_cast<int>(std::strtol(arg, &end, 10));
    if (*end != '\0') ext->e_sockname = const_cast<char*>(arg);  // a service name
  }
}

// Handles one of the standard agent options; returns false for any other.
bool StandardOption(int c, pmdaInterface* dp, pmdaOptions* opts) {
  pmdaExt* ext = dp->version.any.ext;
  char* end = nullptr;
  switch (c) {
    case 'd':
      dp->domain = static_cast<int>(std::strtol(opts->optarg, &end, 10));
      if (*end != '\0') {
        pmprintf("%s: -d requires numeric domain number\n", pmapi::NameOf(ext));
        opts->errors++;
      }
      ext->e_domain = dp->domain;
      return true;
    case 'D':
      if (pmSetDebug(opts->optarg) < 0) {
        pmprintf("%s: unrecognized debug options specification (%s)\n", pmapi::NameOf(ext), opts->optarg);
        opts->errors++;
      }
      return true;
    case 'h': ext->e_helptext = strdup(opts->optarg); return true;
    case 'l': ext->e_logfile = strdup(opts->optarg); return true;
    case 'p': SetIo(ext, pmdaPipe, c, nullptr, opts); return true;
    case 'i': SetIo(ext, pmdaInet, c, opts->optarg, opts); return true;
    case '6': SetIo(ext, pmdaIPv6, c, opts->optarg, opts); return true;
    case 'u': SetIo(ext, pmdaUnix, c, opts->optarg, opts); return true;
    case 'U': opts->username = opts->optarg; return true;
    case '?': opts->errors++; return true;
    default: return false;
  }
}

// pmdaGetOpt's callers know nothing of -U: it is handed back to them.
int UsernameOverride(int opt, pmdaOptions*) { return opt == 'U'; }

void Fatal(const std::string& what) {
  pmNotifyErr(LOG_CRIT, "%s", what.c_str());
  std::exit(1);
}

// Listens on the loopback address at `port` (or the named service) and
// returns the first connection, as pmcd connects to a socket agent.
int AcceptInet(const char* service, int port, int family) {
  if (service != nullptr) {
    struct servent* s = getservbyname(service, nullptr);
    if (s == nullptr) Fatal(std::string("pmdaConnect: getservbyname(") + service + "): unknown service");
    port = ntohs(static_cast<uint16_t>(s->s_port));
  }
  int sfd = socket(family, SOCK_STREAM, 0);
  if (sfd < 0) Fatal(std::string("pmdaConnect: socket: ") + std::strerror(errno));
  int one = 1;
  setsockopt(sfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  int sts;
  if (family == AF_INET6) {
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    a.sin6_port = htons(static_cast<uint16_t>(port));
    sts = bind(sfd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    sts = bind(sfd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  if (sts < 0) Fatal("pmdaConnect: bind port " + std::to_string(port) + ": " + std::strerror(errno));
  if (listen(sfd, 1) < 0) Fatal(std::string("pmdaConnect: listen: ") + std::strerror(errno));
  int fd;
  while ((fd = accept(sfd, nullptr, nullptr)) < 0 && errno == EINTR) {
  }
  if (fd < 0) Fatal(std::string("pmdaConnect: accept: ") + std::strerror(errno));
  close(sfd);
  return fd;
}

// Binds a unix socket at `path` (replacing a stale one), lets PCP's user
// reach it, and returns pmcd's connection.
int AcceptUnix(const char* path) {
  sockaddr_un a{};
  if (path == nullptr || std::strlen(path) >= sizeof a.sun_path) Fatal("pmdaConnect: bad unix socket path");
  int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (sfd < 0) Fatal(std::string("pmdaConnect: socket: ") + std::strerror(errno));
  if (unlink(path) == 0) {
    pmNotifyErr(LOG_WARNING, "pmdaConnect(%s): socket exists, unlinked it", path);
  } else if (errno != ENOENT) {
    Fatal(std::string("pmdaConnect(") + path + "): unlink: " + std::strerror(errno));
  }
  a.sun_family = AF_UNIX;
  std::strcpy(a.sun_path, path);
  if (bind(sfd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0)
    Fatal(std::string("pmdaConnect(") + path + "): bind: " + std::strerror(errno));
  (void)chmod(path, S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP);
  char* user = nullptr;
  pmGetUsername(&user);
  if (struct passwd* pw = getpwnam(user); pw != nullptr) (void)chown(path, pw->pw_uid, pw->pw_gid);
  if (listen(sfd, 5) < 0) Fatal(std::string("pmdaConnect: listen: ") + std::strerror(errno));
  int fd;
  while ((fd = accept(sfd, nullptr, nullptr)) < 0 && errno == EINTR) {
  }
  if (fd < 0) Fatal(std::string("pmdaConnect: accept: ") + std::strerror(errno));
  close(sfd);
  return fd;
}

// The version exchange: the agent's CVERSION credential first, then
// pmcd's. Returns pmcd's PDU version, or < 0.
int ExchangeVersions(AgentLink& link, unsigned flags, const char* name) {
  absl::Status s = link.Write(EncodeCreds(static_cast<int32_t>(getpid()), static_cast<uint16_t>(flags)));
  if (!s.ok()) {
    pmNotifyErr(LOG_CRIT, "pmdaConnect: PMDA %s send creds: %s", name, ErrStr(PcpCode(s)).c_str());
    return PcpCode(s);
  }
  absl::StatusOr<std::span<const uint8_t>> pdu = link.Read();
  if (!pdu.ok() || pdu->empty()) {
    int code = pdu.ok() ? kErrIpc : PcpCode(pdu.status());
    pmNotifyErr(LOG_CRIT, "pmdaConnect: PMDA %s getting creds: %s", name, ErrStr(code).c_str());
    return code;
  }
  absl::StatusOr<CredsInfo> creds = DecodeCredsInfo(*pdu);
  if (!creds.ok()) {
    pmNotifyErr(LOG_CRIT, "pmdaConnect: PMDA %s: version exchange failure: %s", name,
                ErrStr(PcpCode(creds.status())).c_str());
    return PcpCode(creds.status());
  }
  return creds->version;
}

}  // namespace

HelpFile::NameResolver DefaultPmnsResolver() {
  return [](std::string_view name) -> absl::StatusOr<PmID> {
    static const absl::StatusOr<Pmns>* pmns = [] {
      std::string path;
      if (const char* env = std::getenv("PMNS_DEFAULT"); env != nullptr && *env != '\0') {
        path = env;
      } else {
        path = std::string(pmGetConfig("PCP_VAR_DIR")) + "/pmns/root";
      }
      return new absl::StatusOr<Pmns>(Pmns::LoadFile(path));
    }();
    if (!pmns->ok()) return pmns->status();
    return (*pmns)->LookupName(name);
  };
}

}  // namespace pmapi

using pmapi::CPmdaState;
using pmapi::CPmdaStateOf;

extern "C" {

void pmdaDaemon(pmdaInterface* dp, int interface, const char* name, int domain, const char* logfile,
                const char* helptext) {
  if (dp == nullptr) return;
  dp->domain = domain;
  if (interface < PMDA_INTERFACE_2 || interface > PMDA_INTERFACE_LATEST) {
    pmNotifyErr(LOG_CRIT, "pmdaDaemon: %s PMDA: interface version %d not supported (domain=%d)",
                name ? name : "", interface, domain);
    dp->status = PM_ERR_GENERIC;
    return;
  }
  pmdaDSO(dp, interface, const_cast<char*>(name), const_cast<char*>(helptext));
  if (dp->status != 0) return;
  pmdaExt* ext = dp->version.any.ext;
  ext->e_logfile = logfile ? strdup(logfile) : nullptr;
  if (CPmdaState* st = CPmdaStateOf(ext)) {
    st->daemon = true;
    st->resolve = pmapi::DefaultPmnsResolver();
  }
}

int pmdaGetOptions(int argc, char* const* argv, pmdaOptions* opts, pmdaInterface* dp) {
  if (dp->status != 0 || dp->version.any.ext == nullptr) {
    opts->errors++;
    return EOF;
  }
  opts->version = 0;
  int c;
  // pmdaOptions begins as pmOptions does, so the one parser serves both
  while ((c = pmgetopt_r(argc, argv, reinterpret_cast<pmOptions*>(opts))) != EOF) {
    if (opts->override != nullptr && opts->override(c, opts)) break;
    if (!pmapi::StandardOption(c, dp, opts)) break;
  }
  return c;
}

int pmdaGetOpt(int argc, char* const* argv, const char* optstring, pmdaInterface* dp, int* err) {
  static pmdaOptions opts;
  opts.flags |= PM_OPTFLAG_POSIX;
  opts.short_options = optstring;
  opts.override = pmapi::UsernameOverride;
  opts.errors = 0;
  int c = pmdaGetOptions(argc, argv, &opts, dp);
  optind = opts.optind;
  optarg = opts.optarg;
  optopt = opts.optopt;
  *err += opts.errors;
  return c;
}

void pmdaUsageMessage(pmdaOptions* opts) { pmUsageMessage(reinterpret_cast<pmOptions*>(opts)); }

void pmdaOpenLog(pmdaInterface* dp) {
  if (dp == nullptr || dp->status < 0 || dp->version.any.ext == nullptr) return;
  pmdaExt* ext = dp->version.any.ext;
  const char* path = ext->e_logfile;
  if (path != nullptr && std::strcmp(path, "-") != 0) {
    std::fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      pmNotifyErr(LOG_WARNING, "pmdaOpenLog: cannot open log \"%s\" for writing: %s", path, std::strerror(errno));
    } else {
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
  }
  setvbuf(stderr, nullptr, _IOLBF, 0);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  time_t now = time(nullptr);
  char when[32] = "";
  ctime_r(&now, when);
  std::fprintf(stderr, "Log for %s on %s started %s\n", pmapi::NameOf(ext), host, when);
}

void pmdaConnect(pmdaInterface* dp) {
  pmdaExt* ext = dp ? dp->version.any.ext : nullptr;
  CPmdaState* st = CPmdaStateOf(ext);
  if (st == nullptr || !(ext->e_flags & PMDA_EXT_SETUPDONE)) {
    pmNotifyErr(LOG_CRIT, "pmdaConnect: need to call pmdaDaemon() or pmdaDSO() first");
    if (dp) dp->status = PM_ERR_GENERIC;
    return;
  }
  if (ext->e_flags & PMDA_EXT_CONNECTED) {
    pmNotifyErr(LOG_CRIT, "pmdaConnect: called more than once");
    dp->status = PM_ERR_GENERIC;
    return;
  }
  switch (ext->e_io) {
    case pmdaPipe:
    case pmdaUnknown:
      ext->e_infd = STDIN_FILENO;
      ext->e_outfd = STDOUT_FILENO;
      break;
    case pmdaInet: ext->e_infd = ext->e_outfd = pmapi::AcceptInet(ext->e_sockname, ext->e_port, AF_INET); break;
    case pmdaIPv6: ext->e_infd = ext->e_outfd = pmapi::AcceptInet(ext->e_sockname, ext->e_port, AF_INET6); break;
    case pmdaUnix: ext->e_infd = ext->e_outfd = pmapi::AcceptUnix(ext->e_sockname); break;
  }
  st->link = std::make_shared<pmapi::AgentLink>(ext->e_infd, ext->e_outfd);
  int version = pmapi::ExchangeVersions(*st->link, dp->comm.flags, pmapi::NameOf(ext));
  if (version < 0) {
    dp->status = version;
    return;
  }
  dp->comm.pmapi_version = static_cast<unsigned>(version);
  ext->e_flags |= PMDA_EXT_CONNECTED;
}

void pmdaInterfaceMoved(pmdaInterface* dp) {
  if (dp == nullptr) return;
  if (CPmdaState* st = CPmdaStateOf(dp->version.any.ext)) st->dispatch = dp;
}

// The CPU time, user and system, this process has used, in seconds (the
// simple agent's simple.time metrics). Not in any header, as in PCP.
int __pmProcessRunTimes(double* usr, double* sys) {
  struct tms t;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  if (times(&t) == static_cast<clock_t>(-1) || ticks <= 0) {
    *usr = *sys = 0.0;
    return -1;
  }
  *usr = static_cast<double>(t.tms_utime) / ticks;
  *sys = static_cast<double>(t.tms_stime) / ticks;
  return 0;
}

}  // extern "C"
